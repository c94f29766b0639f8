//! `/config`, `/me`, health, OpenAPI and the error conventions.

use reqwest::StatusCode;

use crate::helpers::TestApp;
use crate::shape::{CONFIG, READY, assert_error_answer, assert_error_body, assert_shape};

#[actix_web::test]
async fn config_has_the_interface_fields() {
    let app = TestApp::spawn_empty().await;
    let (status, body) = app.get("/config").await;
    assert_eq!(status, StatusCode::OK);
    assert_shape("config", &body, CONFIG);
    assert_eq!(body["chainId"], 4663);
    assert_eq!(body["usdgDecimals"], 6);
    assert_eq!(
        body["paymentsOpen"], false,
        "no chain is checked yet, so payments are closed"
    );
    assert_eq!(body["wcProjectId"], serde_json::Value::Null);
    assert_eq!(body["origin"], "http://127.0.0.1:8080");
    let typed = app.client.config().await.unwrap();
    assert_eq!(typed.chain_id, 4663);
}

#[actix_web::test]
async fn config_reflects_settings() {
    let app = TestApp::spawn_with(|s| {
        s.server.origin = "https://journals.example".into();
        s.wallet.wc_project_id = "abc123".into();
        s.demo.load_on_first_start = false;
    })
    .await;
    let (_, body) = app.get("/config").await;
    assert_eq!(body["origin"], "https://journals.example");
    assert_eq!(body["wcProjectId"], "abc123");
}

#[actix_web::test]
async fn me_is_null_when_signed_out() {
    let app = TestApp::spawn_empty().await;
    let (status, body) = app.get("/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::json!({ "address": null }));
    assert_eq!(app.client.me().await.unwrap().address, None);
}

#[actix_web::test]
async fn health_and_readiness() {
    let app = TestApp::spawn_empty().await;
    let (status, body) = app.get("/health").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");
    let (status, body) = app.get("/health/ready").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_shape("ready", &body, READY);
    assert_eq!(body["database"], "ok");
    assert_eq!(body["migrations"], "ok");
    assert_eq!(body["actors"], "ok");
    let (status, body) = app.get("/health/actors").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["actors"].is_array());
}

#[actix_web::test]
async fn unknown_paths_and_methods_answer_json_errors() {
    let app = TestApp::spawn_empty().await;
    app.expect_error("/nope", StatusCode::NOT_FOUND).await;
    let resp = app.fetch(app.base.replace("/api", "/elsewhere")).await;
    assert_error_answer(resp, StatusCode::NOT_FOUND).await;
    // A known path with another method: see a_known_path_with_another_method_is_405_with_allow.
}

#[actix_web::test]
async fn openapi_covers_every_endpoint() {
    let app = TestApp::spawn_empty().await;
    let (status, doc) = app.get("/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/config",
        "/me",
        "/health",
        "/health/ready",
        "/health/actors",
        "/journals",
        "/journals/{key}",
        "/entries.json",
        "/entries/search",
        "/entries/{accession}",
        "/swarm.json",
        "/openapi.json",
        "/rpc",
        "/quote/{ticker}",
        "/auth/nonce",
        "/auth/verify",
        "/auth/logout",
        "/me/desk",
        "/me/history",
        "/pay/burn",
        "/pay/author",
        "/journal/{id}/body",
    ] {
        assert!(paths.contains_key(p), "the OpenAPI document lacks {p}");
    }
    assert!(doc["components"]["schemas"]["JournalDetail"].is_object());
}

#[actix_web::test]
async fn a_known_path_with_another_method_is_405_with_allow() {
    let app = TestApp::spawn().await;
    for (method, path, allow) in [
        (reqwest::Method::DELETE, "/journals", "GET"),
        (reqwest::Method::GET, "/pay/burn", "POST"),
        (reqwest::Method::PUT, "/auth/nonce", "POST"),
        (reqwest::Method::POST, "/entries/search", "GET"),
    ] {
        let resp = app
            .http
            .request(method.clone(), format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert_eq!(resp.headers()["allow"], allow, "{method} {path}");
        assert_error_body(&resp.json().await.unwrap());
    }
    // An unknown path stays 404.
    app.expect_error("/nothing-here", StatusCode::NOT_FOUND)
        .await;
}

#[actix_web::test]
async fn every_answer_carries_a_request_id() {
    let app = TestApp::spawn_empty().await;
    let id_of = |r: &reqwest::Response| r.headers()["x-request-id"].to_str().unwrap().to_string();
    let a = app.fetch(format!("{}/journals", app.base)).await;
    let b = app.fetch(format!("{}/nope", app.base)).await;
    assert_ne!(id_of(&a), id_of(&b), "one id per request, errors included");
    // A front's own id is kept; one that could forge a log line is replaced.
    let kept = app
        .get_with_header("/journals", "x-request-id", "lb-7f3a.1")
        .await;
    assert_eq!(id_of(&kept), "lb-7f3a.1");
    let replaced = app
        .get_with_header("/journals", "x-request-id", "a b\tc")
        .await;
    assert_ne!(id_of(&replaced), "a b\tc");
}

/// Answers are compressed for a client that asks (Accept-Encoding), and sent as they are to
/// one that does not; refusals too.
#[actix_web::test]
async fn answers_are_compressed_only_when_asked() {
    let app = TestApp::spawn().await;
    let url = format!("{}/entries.json", app.base);
    let asked = app
        .http
        .get(&url)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(asked.status(), StatusCode::OK);
    assert_eq!(asked.headers()["content-encoding"], "gzip");
    let gzipped = asked.bytes().await.unwrap();
    assert_eq!(&gzipped[..2], [0x1f, 0x8b], "a gzip stream");

    let plain = app.fetch(&url).await;
    assert_eq!(plain.status(), StatusCode::OK);
    assert!(plain.headers().get("content-encoding").is_none());
    let body: serde_json::Value = plain.json().await.unwrap();
    assert!(body.is_object() || body.is_array());
    assert!(
        body.to_string().len() > gzipped.len(),
        "gzip made it smaller"
    );

    // An error answer goes through the same layer.
    let missing = app
        .get_with_header("/journals/no-such-journal", "accept-encoding", "gzip")
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.headers()["content-encoding"], "gzip");
}

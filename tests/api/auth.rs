//! Wallet sign-in, sessions and cookies.

use alloy::primitives::{B256, Bytes, eip191_hash_message};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolCall;
use journal_market_chain::bindings::ISmartWalletFactory;
use journal_market_x402::signature::wrap_6492;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::devchain::TestChain;
use crate::helpers::TestApp;
use crate::shape::{HISTORY, T, assert_error_answer, assert_error_body, assert_shape};

async fn post(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.http
        .post(format!("{}{path}", app.base))
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn nonce(app: &TestApp, address: &str) -> (String, String) {
    let resp = post(app, "/auth/nonce", json!({ "address": address })).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Value = resp.json().await.unwrap();
    assert_shape("nonce", &body, &[("nonce", T::Str), ("message", T::Str)]);
    (
        body["nonce"].as_str().unwrap().into(),
        body["message"].as_str().unwrap().into(),
    )
}

/// A new key, its checksummed address, and the nonce and message issued to that address.
async fn new_key_with_nonce(app: &TestApp) -> (PrivateKeySigner, String, String, String) {
    let signer = PrivateKeySigner::random();
    let addr = signer.address().to_checksum(None);
    let (n, msg) = nonce(app, &addr).await;
    (signer, addr, n, msg)
}

fn personal_sign(signer: &PrivateKeySigner, message: &str) -> String {
    format!(
        "0x{}",
        alloy::hex::encode(
            signer
                .sign_message_sync(message.as_bytes())
                .unwrap()
                .as_bytes()
        )
    )
}

/// Verifies and returns the status, the body and the raw Set-Cookie header.
async fn verify(
    app: &TestApp,
    address: &str,
    nonce: &str,
    signature: &str,
) -> (StatusCode, Value, Option<String>) {
    let resp = post(
        app,
        "/auth/verify",
        json!({ "address": address, "nonce": nonce, "signature": signature }),
    )
    .await;
    let status = resp.status();
    let cookie = resp
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string());
    (status, resp.json().await.unwrap(), cookie)
}

async fn expect_401(app: &TestApp, address: &str, nonce: &str, sig: &str, says: &str) {
    let (status, body, cookie) = verify(app, address, nonce, sig).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_error_body(&body);
    assert!(
        body["error"].as_str().unwrap().contains(says),
        "expected {says:?} in {body}"
    );
    assert!(cookie.is_none(), "no cookie on a failed sign-in");
}

#[actix_web::test]
async fn eoa_signs_in_through_the_client_and_logs_out() {
    let app = TestApp::spawn_empty().await;
    let signer = PrivateKeySigner::random();
    let me = app.client.login(&signer).await.unwrap();
    assert_eq!(
        me.address.as_deref(),
        Some(signer.address().to_checksum(None).as_str())
    );
    assert_eq!(app.client.me().await.unwrap().address, me.address);

    let cookie = app.client.session().unwrap();
    let (status, desk) = app.get_as("/me/desk", &cookie).await;
    assert_eq!(status, StatusCode::OK);
    assert_shape(
        "desk",
        &desk,
        &[("address", T::Str), ("totals", T::Obj), ("written", T::Arr)],
    );
    assert_shape(
        "desk.totals",
        &desk["totals"],
        &[("earnedUnits", T::Num), ("live", T::Num), ("reads", T::Num)],
    );
    let history = app.client.history().await.unwrap();
    assert!(history.unlocks.is_empty() && history.votes.is_empty());
    let (_, h) = app.get_as("/me/history", &cookie).await;
    assert_shape("history", &h, HISTORY);

    let old = app.client.session().unwrap();
    app.client.logout().await.unwrap();
    assert_eq!(app.client.me().await.unwrap().address, None);
    // The old cookie is dead: its row is gone.
    assert_eq!(app.get_as("/me", &old).await.1, json!({ "address": null }));
    assert_eq!(
        app.get_as("/me/desk", &old).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[actix_web::test]
async fn cookie_attributes() {
    let app = TestApp::spawn_empty().await;
    let (signer, addr, n, msg) = new_key_with_nonce(&app).await;
    let (status, body, cookie) = verify(&app, &addr, &n, &personal_sign(&signer, &msg)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "address": addr }));
    let cookie = cookie.expect("Set-Cookie");
    let parts: Vec<&str> = cookie.split(';').map(str::trim).collect();
    let (name, value) = parts[0].split_once('=').unwrap();
    assert_eq!(name, "svc_session");
    assert_eq!(value.len(), 64, "256 random bits, hex");
    for attr in ["HttpOnly", "Path=/", "SameSite=Lax", "Max-Age=2592000"] {
        assert!(parts.contains(&attr), "{attr} missing in {cookie}");
    }
    assert!(
        !parts.iter().any(|p| p.eq_ignore_ascii_case("secure")),
        "plain http: no Secure"
    );

    let resp = app
        .http
        .post(format!("{}/auth/logout", app.base))
        .header("cookie", parts[0])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let cleared = resp
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cleared.starts_with("svc_session=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
}

/// A cookie a browser keeps under the `__Host-` prefix: Secure, `Path=/`, no `Domain`.
fn assert_host_cookie(cookie: &str) {
    let parts: Vec<&str> = cookie.split(';').map(str::trim).collect();
    assert!(parts[0].starts_with("__Host-svc_session="), "{cookie}");
    for attr in ["Secure", "Path=/", "HttpOnly", "SameSite=Lax"] {
        assert!(parts.contains(&attr), "{attr} missing in {cookie}");
    }
    assert!(
        !parts
            .iter()
            .any(|p| p.to_ascii_lowercase().starts_with("domain")),
        "{cookie}"
    );
}

#[actix_web::test]
async fn an_https_origin_gets_a_host_cookie_by_default() {
    // The server speaks http on loopback; the origin the browsers see is https.
    let app = TestApp::spawn_with(|s| {
        s.demo.load_on_first_start = false;
        s.server.origin = "https://journals.example".into();
    })
    .await;
    assert_eq!(app.settings.auth.cookie_prefix, "", "nothing configured");
    let (signer, addr, n, msg) = new_key_with_nonce(&app).await;
    assert!(msg.starts_with("journals.example wants you to sign in"));
    let (status, _, cookie) = verify(&app, &addr, &n, &personal_sign(&signer, &msg)).await;
    assert_eq!(status, StatusCode::OK);
    let cookie = cookie.expect("Set-Cookie");
    assert_host_cookie(&cookie);
    // The service reads the session back under that name, and clears it with the same
    // attributes (a browser ignores a __Host- deletion without them).
    let pair = cookie.split(';').next().unwrap();
    assert_eq!(app.get_as("/me", pair).await.1, json!({ "address": addr }));
    let resp = app
        .http
        .post(format!("{}/auth/logout", app.base))
        .header("cookie", pair)
        .send()
        .await
        .unwrap();
    let cleared = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cleared.starts_with("__Host-svc_session=;"), "{cleared}");
    assert_host_cookie(&cleared);
}

#[actix_web::test]
async fn a_cookie_prefix_that_cannot_work_is_refused_at_start() {
    let db = crate::helpers::TestDb::new().await;
    let mut s = crate::helpers::test_settings(&db.url);
    s.auth.cookie_prefix = "__Host-".into();
    let err = journal_market::app::Application::build(s.clone())
        .await
        .err()
        .expect("an http origin cannot keep a __Host- cookie");
    let err = err.to_string();
    assert!(
        err.contains("auth.cookie_prefix") && err.contains("cannot work"),
        "{err}"
    );
    s.server.origin = "https://journals.example".into();
    s.auth.cookie_prefix = "__Secure-".into();
    let err = journal_market::app::Application::build(s)
        .await
        .err()
        .expect("https takes only __Host-");
    assert!(err.to_string().contains("sibling subdomain"), "{err}");
}

#[actix_web::test]
async fn the_message_is_eip_4361() {
    let app = TestApp::spawn_empty().await;
    let signer = PrivateKeySigner::random();
    let lower = format!("{:#x}", signer.address());
    let (n, msg) = nonce(&app, &lower).await;
    assert!(n.len() >= 16 && n.bytes().all(|b| b.is_ascii_alphanumeric()));
    let lines: Vec<&str> = msg.lines().collect();
    assert_eq!(
        lines[0],
        "127.0.0.1:8080 wants you to sign in with your Ethereum account:"
    );
    assert_eq!(
        lines[1],
        signer.address().to_checksum(None),
        "EIP-55 even when asked in lower case"
    );
    assert!(lines[3].contains("proves") && lines[3].contains("no gas"));
    assert_eq!(lines[5], "URI: http://127.0.0.1:8080");
    assert_eq!(lines[6], "Version: 1");
    assert_eq!(lines[7], "Chain ID: 4663");
    assert_eq!(lines[8], format!("Nonce: {n}"));
    assert!(lines[9].starts_with("Issued At: "));
    assert!(lines[10].starts_with("Expiration Time: "));
}

#[actix_web::test]
async fn rejections_name_the_failed_check() {
    // A signature that does not recover to the address could still be a contract wallet's:
    // telling the two apart needs the chain.
    let chain = TestChain::start().await;
    let app = chain.app().await;
    let signer = PrivateKeySigner::random();
    let other = PrivateKeySigner::random();
    let addr = signer.address().to_checksum(None);
    let other_addr = other.address().to_checksum(None);

    // Signed by another key, or over a tampered message: refused, and the nonce still works
    // (it is used up by the third failed signature: see edge.rs).
    let (n, msg) = nonce(&app, &addr).await;
    let by_other = personal_sign(&other, &msg);
    let tampered = personal_sign(&signer, &msg.replace("Version: 1", "Version: 2"));
    expect_401(&app, &addr, &n, &by_other, "does not recover").await;
    expect_401(&app, &addr, &n, &tampered, "does not recover").await;
    // Malformed signatures, on a nonce of their own.
    let (m, _) = nonce(&app, &addr).await;
    expect_401(&app, &addr, &m, "0xzz", "not valid hex").await;
    expect_401(&app, &addr, &m, "0x1234", "65 bytes").await;
    // The nonce of another address (not a signature failure: nothing is counted).
    expect_401(&app, &other_addr, &n, &by_other, "another address").await;
    // Then it succeeds, once; the same nonce again is refused.
    let sig = personal_sign(&signer, &msg);
    let (status, _, _) = verify(&app, &addr.to_lowercase(), &n, &sig).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "addresses compare case-insensitively"
    );
    expect_401(&app, &addr, &n, &sig, "already used").await;
    // An unknown nonce.
    expect_401(&app, &addr, "AAAAAAAAAAAAAAAAAAAA", &sig, "unknown").await;
    expect_401(&app, &addr, "not a nonce!", &sig, "unknown").await;

    // An expired nonce: the clock moves 11 minutes.
    let (n, msg) = nonce(&app, &addr).await;
    app.clock.advance(chrono::Duration::minutes(11));
    expect_401(&app, &addr, &n, &personal_sign(&signer, &msg), "expired").await;

    // Malformed input: 400 with an error body.
    for (path, body) in [
        ("/auth/nonce", json!({ "address": "0x1234" })),
        ("/auth/nonce", json!({ "address": "not an address" })),
        ("/auth/nonce", json!({})),
        ("/auth/verify", json!({ "address": addr, "nonce": "x" })),
        (
            "/auth/verify",
            json!({ "address": "0xnope", "nonce": "x", "signature": "0x00" }),
        ),
    ] {
        let resp = post(&app, path, body.clone()).await;
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "{path} {body}");
        assert_error_body(&resp.json().await.unwrap());
    }
    let resp = app
        .http
        .post(format!("{}/auth/nonce", app.base))
        .body("{")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_error_answer(resp, StatusCode::BAD_REQUEST).await;
}

#[actix_web::test]
async fn contract_wallets_sign_in() {
    let chain = TestChain::start().await;
    let app = chain.app().await;
    let owner = chain.account("buyer", 0);
    let signer = owner.signer().unwrap();
    let factory_addr = chain.devnet.contracts.wallet_factory;
    let factory = ISmartWalletFactory::new(factory_addr, chain.provider(owner));

    // Not deployed yet: an EIP-6492 wrapped signature.
    let salt = B256::with_last_byte(1);
    let wallet = factory
        .getAddress(owner.address, salt)
        .call()
        .await
        .unwrap();
    let addr = wallet.to_checksum(None);
    let (n, msg) = nonce(&app, &addr).await;
    let inner = chain.wallet_sign(&signer, wallet, eip191_hash_message(&msg));
    let calldata = ISmartWalletFactory::deployCall {
        owner: owner.address,
        salt,
    }
    .abi_encode();
    let wrapped = wrap_6492(factory_addr, Bytes::from(calldata), Bytes::from(inner));
    let (status, body, _) = verify(&app, &addr, &n, &format!("{wrapped}")).await;
    assert_eq!(status, StatusCode::OK, "6492: {body}");
    assert_eq!(body["address"], addr.as_str());

    // Deployed: ERC-1271.
    let wallet = chain
        .smart_wallet(owner, B256::with_last_byte(2), true)
        .await;
    let addr = wallet.to_checksum(None);
    let (n, msg) = nonce(&app, &addr).await;
    let stranger = chain.account("buyer", 1).signer().unwrap();
    expect_401(&app, &addr, &n, &personal_sign(&stranger, &msg), "rejected").await;
    // The owner's own signature of the message is the owner's, not the wallet's (ERC-7739).
    expect_401(&app, &addr, &n, &personal_sign(&signer, &msg), "rejected").await;
    let bound = chain.wallet_sign(&signer, wallet, eip191_hash_message(&msg));
    let (status, body, _) = verify(&app, &addr, &n, &format!("{}", Bytes::from(bound))).await;
    assert_eq!(status, StatusCode::OK, "1271: {body}");
}

#[actix_web::test]
async fn fifty_concurrent_verifies_of_one_nonce_make_one_session() {
    let app = TestApp::spawn_empty().await;
    let (signer, addr, n, msg) = new_key_with_nonce(&app).await;
    let sig = personal_sign(&signer, &msg);
    let tries = (0..50).map(|_| verify(&app, &addr, &n, &sig));
    let results = futures::future::join_all(tries).await;
    let ok = results
        .iter()
        .filter(|(s, _, _)| *s == StatusCode::OK)
        .count();
    assert_eq!(
        ok,
        1,
        "{:?}",
        results.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    assert!(
        results
            .iter()
            .all(|(s, _, _)| *s == StatusCode::OK || *s == StatusCode::UNAUTHORIZED)
    );
}

#[actix_web::test]
async fn sessions_outlive_a_restart_and_work_on_every_instance() {
    let app = TestApp::spawn_empty().await;
    let signer = PrivateKeySigner::random();
    app.client.login(&signer).await.unwrap();
    let cookie = app.client.session().unwrap();

    let second = app.sibling().await;
    second.client.set_session(Some(cookie.clone()));
    assert_eq!(
        second.client.me().await.unwrap().address,
        Some(signer.address().to_checksum(None))
    );

    app.stop().await;
    let restarted = second.sibling().await;
    restarted.client.set_session(Some(cookie));
    assert!(restarted.client.me().await.unwrap().address.is_some());

    // 30 days later the session is over everywhere.
    restarted.clock.advance(chrono::Duration::days(31));
    assert_eq!(restarted.client.me().await.unwrap().address, None);
}

#[actix_web::test]
async fn foreign_origins_cannot_use_the_cookie() {
    let app = TestApp::spawn_empty().await;
    app.client.login(&PrivateKeySigner::random()).await.unwrap();
    let cookie = app.client.session().unwrap();
    let logout = |origin: Option<&'static str>| {
        let mut rb = app
            .http
            .post(format!("{}/auth/logout", app.base))
            .header("cookie", cookie.clone());
        if let Some(o) = origin {
            rb = rb.header("origin", o);
        }
        rb.send()
    };
    let resp = logout(Some("https://evil.example")).await.unwrap();
    assert_error_answer(resp, StatusCode::FORBIDDEN).await;
    assert!(
        app.client.me().await.unwrap().address.is_some(),
        "the session survived"
    );
    let resp = logout(Some("http://127.0.0.1:8080")).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // Without Origin (a non-browser client) the request is accepted.
    app.client.login(&PrivateKeySigner::random()).await.unwrap();
    let resp = app
        .http
        .post(format!("{}/auth/logout", app.base))
        .header("cookie", app.client.session().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

#[actix_web::test]
async fn personal_endpoints_need_a_session() {
    let app = TestApp::spawn_empty().await;
    for path in ["/me/desk", "/me/history"] {
        app.expect_error(path, StatusCode::UNAUTHORIZED).await;
    }
    let (status, body) = app.get_as("/me/desk", "svc_session=forged").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_error_body(&body);
}

//! `GET /entries.json`, `/entries/{accession}`, `/entries/search`, `/swarm.json`.

use reqwest::StatusCode;

use crate::helpers::TestApp;
use crate::shape::*;

#[actix_web::test]
async fn newest_fifty_entries() {
    let app = TestApp::spawn().await;
    let (status, body) = app.get("/entries.json").await;
    assert_eq!(status, StatusCode::OK);
    let rows = body.as_array().expect("a JSON array");
    assert_eq!(rows.len(), 50);
    for r in rows {
        assert_shape("entry row", r, ENTRY_ROW);
        assert!(is_date(r["date_of_record"].as_str().unwrap()));
        assert!(is_timestamp(r["filed_at"].as_str().unwrap()));
        let desk = match r["kind"].as_str().unwrap() {
            "post" => "SOC",
            "news" => "NWS",
            "filing" => "FIL",
            other => panic!("unknown kind {other}"),
        };
        assert_eq!(r["desk"], desk);
        assert!(r["stamp"] == "verified" || r["stamp"] == "filed");
        assert!(r["merged"] == 0 || r["merged"] == 1);
        assert!(
            r["id"]
                .as_str()
                .unwrap()
                .contains(r["ticker"].as_str().unwrap())
        );
    }
    let dates: Vec<&str> = rows
        .iter()
        .map(|r| r["date_of_record"].as_str().unwrap())
        .collect();
    assert!(
        dates.windows(2).all(|w| w[0] >= w[1]),
        "newest first by date of record"
    );
    // The 50 rows are the newest: no entry outside them is newer than the oldest shown.
    let typed = app.client.entries().await.unwrap();
    assert_eq!(typed.len(), 50);
}

#[actix_web::test]
async fn empty_archive_has_no_entries_and_no_sitting() {
    let app = TestApp::spawn_empty().await;
    let (status, body) = app.get("/entries.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::json!([]));
    let (status, body) = app.get("/swarm.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::json!({ "sitting": null, "log": [] }));
}

#[actix_web::test]
async fn entry_detail() {
    let app = TestApp::spawn().await;
    let rows = app.client.entries().await.unwrap();
    let row = &rows[0];
    let (status, e) = app.get(&format!("/entries/{}", row.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_shape("entry", &e, ENTRY_DETAIL);
    assert_shape("entry.company", &e["company"], COMPANY);
    assert_shape("entry.source", &e["source"], ENTRY_SOURCE);
    assert_eq!(e["id"], row.id.as_str());
    assert_eq!(e["company"]["ticker"], row.ticker.as_str());
    assert_eq!(e["dateOfRecord"], row.date_of_record.as_str());
    assert_eq!(e["source"]["url"], row.canonical_url.as_str());
    assert_eq!(e["verified"], row.stamp == "verified");
    assert_eq!(e["story"].as_str(), row.story_title.as_deref());
    assert!(!e["source"]["says"].as_str().unwrap().is_empty());
    assert!(e["url"].as_str().unwrap().ends_with(&row.id));
    let typed = app.client.entry(&row.id).await.unwrap();
    assert_eq!(typed.title, row.title);

    let unknown = ["/entries/JM-NVDA-990101-01", "/entries/not-an-accession"];
    app.expect_errors(StatusCode::NOT_FOUND, &unknown).await;
}

#[actix_web::test]
async fn search_by_ticker() {
    let app = TestApp::spawn().await;
    let (status, body) = app.get("/entries/search?ticker=NVDA").await;
    assert_eq!(status, StatusCode::OK);
    let rows = body.as_array().unwrap();
    assert!(!rows.is_empty() && rows.len() <= 80, "{} rows", rows.len());
    for r in rows {
        assert_shape("search row", r, SEARCH_ROW);
        assert!(r["id"].as_str().unwrap().contains("-NVDA-"));
    }
    let dates: Vec<&str> = rows
        .iter()
        .map(|r| r["date_of_record"].as_str().unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "newest first");
    assert_eq!(
        app.client.search_entries("NVDA").await.unwrap().len(),
        rows.len()
    );

    let malformed = [
        "/entries/search",
        "/entries/search?ticker=",
        "/entries/search?ticker=n%20v",
    ];
    app.expect_errors(StatusCode::BAD_REQUEST, &malformed).await;
    // A filter: an unknown ticker is an empty list, and tickers compare in any case.
    let (status, none) = app.get("/entries/search?ticker=ZZZZ").await;
    assert_eq!((status, none), (StatusCode::OK, serde_json::json!([])));
    let (status, lower) = app.get("/entries/search?ticker=nvda").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lower.as_array().unwrap().len(), rows.len());
}

#[actix_web::test]
async fn search_caps_at_80() {
    let app = TestApp::spawn().await;
    // The demo holds more than 80 entries for at least one ticker; each answer stops at 80.
    let mut capped = false;
    for t in ["NVDA", "TSLA", "AAPL", "MSFT", "PLTR", "AMD"] {
        let n = app.client.search_entries(t).await.unwrap().len();
        assert!(n <= 80);
        capped |= n == 80;
    }
    assert!(capped, "no ticker reached the limit of 80");
}

#[actix_web::test]
async fn swarm_run_is_the_latest_finished_sitting() {
    let app = TestApp::spawn().await;
    let (status, body) = app.get("/swarm.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_shape("swarm", &body, &[("sitting", T::Obj), ("log", T::Arr)]);
    assert_shape("sitting", &body["sitting"], SITTING);
    let log = body["log"].as_array().unwrap();
    assert!(!log.is_empty());
    for l in log {
        assert_shape("log line", l, LOG_LINE);
        assert!(["info", "warn", "error"].contains(&l["level"].as_str().unwrap()));
    }
    let ts: Vec<&str> = log.iter().map(|l| l["ts"].as_str().unwrap()).collect();
    assert!(ts.windows(2).all(|w| w[0] <= w[1]), "log in time order");
    let desks: std::collections::HashSet<&str> =
        log.iter().map(|l| l["desk"].as_str().unwrap()).collect();
    for d in ["SOC", "NWS", "FIL", "SRC", "STY", "ARC", "JRN", "TOKEN"] {
        assert!(desks.contains(d), "no line from desk {d}");
    }
    assert!(
        body["sitting"]["finished_at"]
            .as_str()
            .is_some_and(is_timestamp)
    );
    let typed = app.client.swarm().await.unwrap();
    assert_eq!(typed.sitting.map(|s| s.id), body["sitting"]["id"].as_i64());
}

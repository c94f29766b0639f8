//! `journal-market import PATH`: idempotent, all-or-nothing, through the real binary.

use std::process::Command;

use journal_market::import::import_str;
use journal_market_entity::{entries, journals, sittings};
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::json;

use crate::fixture;
use crate::helpers::{TestApp, TestDb};

fn import_cli(db_url: &str, path: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_journal-market"))
        .arg("import")
        .arg(path)
        .env("JM__DATABASE__URL", db_url)
        .env("JM__LOG__FILTER", "warn")
        .output()
        .expect("run journal-market import")
}

async fn counts(db: &TestDb) -> (u64, u64, u64) {
    let conn = db.connect().await;
    (
        entries::Entity::find().count(&conn).await.unwrap(),
        journals::Entity::find().count(&conn).await.unwrap(),
        sittings::Entity::find().count(&conn).await.unwrap(),
    )
}

#[actix_web::test]
async fn importing_twice_changes_nothing() {
    let db = TestDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("archive.json");
    std::fs::write(&path, journal_market::import::DEMO_ARCHIVE).unwrap();

    let out = import_cli(&db.url, &path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = counts(&db).await;
    assert!(first.0 >= 300 && first.1 >= 8 && first.2 >= 3, "{first:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("0 already present"), "{stdout}");

    let out = import_cli(&db.url, &path);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("0 companies, 0 stories, 0 sittings, 0 entries, 0 journals written"),
        "{stdout}"
    );
    assert_eq!(counts(&db).await, first);
}

#[actix_web::test]
async fn a_bad_record_is_named_and_nothing_is_written() {
    let db = TestDb::new().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    let mut bad = fixture::entry("JM-ACME-261102-01", "ACME", "2026-11-02", "tweet");
    bad["source"]["url"] = json!("not a url");
    let archive = fixture::archive(
        vec![fixture::company("ACME", "Acme Corp")],
        vec![
            fixture::entry("JM-ACME-261101-01", "ACME", "2026-11-01", "news"),
            bad,
        ],
        vec![fixture::journal(
            "acme-j",
            "ACME",
            "1",
            "2026-11-03T00:00:00Z",
            &["JM-ACME-261109-01"],
            10,
        )],
    );
    std::fs::write(&path, archive.to_string()).unwrap();
    let out = import_cli(&db.url, &path);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("entries[1] (JM-ACME-261102-01): kind must be post, news or filing"),
        "{stderr}"
    );
    assert!(stderr.contains("source.url"), "{stderr}");
    assert!(
        stderr.contains("journals[0] (acme-j): cites JM-ACME-261109-01"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(counts(&db).await, (0, 0, 0));

    // Not JSON at all: a clear message, no panic.
    std::fs::write(&path, "{ not json").unwrap();
    let out = import_cli(&db.url, &path);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid import JSON"));
    // A missing file.
    let out = import_cli(&db.url, &dir.path().join("missing.json"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[actix_web::test]
async fn a_price_with_too_many_decimals_is_rejected() {
    let app = TestApp::spawn_empty().await;
    let archive = fixture::acme_archive(vec![fixture::journal(
        "acme-j",
        "ACME",
        "0.0000001",
        "2026-11-03T00:00:00Z",
        &["JM-ACME-261101-01"],
        10,
    )]);
    let db = app.db.connect().await;
    let err = import_str(&db, &archive.to_string(), false)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("more than 6 decimals"), "{err}");
    assert_eq!(entries::Entity::find().count(&db).await.unwrap(), 0);
}

#[actix_web::test]
async fn swarm_json_skips_unfinished_sittings() {
    let app = TestApp::spawn_empty_uncached().await;
    let line = |ts: &str, desk: &str| json!({ "ts": ts, "desk": desk, "level": "info", "message": format!("{desk} at {ts}") });
    let archive = json!({ "sittings": [
        { "id": 1, "date": "2026-11-01", "started_at": "2026-11-01T06:00:00Z", "finished_at": "2026-11-01T07:00:00Z",
          "note": "first", "leads": 3, "filed": 1, "spend_usd": 1.5, "log": [line("2026-11-01T06:00:00Z", "SOC")] },
        { "id": 2, "date": "2026-11-02", "started_at": "2026-11-02T06:00:00Z", "finished_at": "2026-11-02T07:00:00Z",
          "note": "second", "leads": 4, "filed": 2, "spend_usd": 2.25,
          "log": [line("2026-11-02T06:30:00Z", "ARC"), line("2026-11-02T06:10:00Z", "NWS")] },
        { "id": 3, "date": "2026-11-03", "started_at": "2026-11-03T06:00:00Z", "finished_at": null,
          "note": "running", "leads": 0, "filed": 0, "spend_usd": 0, "log": [] }
    ]});
    import_str(&app.db.connect().await, &archive.to_string(), false)
        .await
        .unwrap();
    let run = app.client.swarm().await.unwrap();
    let sitting = run.sitting.unwrap();
    assert_eq!(sitting.id, 2);
    assert_eq!(sitting.spend_usd, 2.25);
    let desks: Vec<&str> = run.log.iter().map(|l| l.desk.as_str()).collect();
    assert_eq!(desks, ["NWS", "ARC"], "log lines in time order");
}

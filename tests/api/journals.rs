//! `GET /journals` and `GET /journals/{slug or id}`.

use alloy::primitives::Address;
use chrono::{DateTime, Utc};
use journal_market::import::import_str;
use reqwest::StatusCode;
use sea_orm::{ActiveModelTrait, ActiveValue::Set};
use serde_json::Value;

use crate::fixture;
use crate::helpers::TestApp;
use crate::shape::*;

fn time(v: &Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(v.as_str().unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

#[actix_web::test]
async fn demo_journals_are_listed_newest_first() {
    let app = TestApp::spawn().await;
    let (status, body) = app.get("/journals").await;
    assert_eq!(status, StatusCode::OK);
    assert_shape("list", &body, &[("journals", T::Arr)]);
    let list = body["journals"].as_array().unwrap();
    assert!(
        list.len() >= 8,
        "the demo has at least 8 journals, got {}",
        list.len()
    );
    assert!(list.len() <= 100);
    for j in list {
        assert_list_item(j);
        assert!(is_timestamp(j["publishedAt"].as_str().unwrap()));
        assert_eq!(j["author"]["swarm"], true);
        assert_eq!(j["author"]["wallet"], Value::Null);
        assert_eq!(j["signatures"], 1);
        let units: i64 = j["priceUnits"].as_str().unwrap().parse().unwrap();
        assert_eq!(j["priceUsdg"].as_f64().unwrap(), units as f64 / 1e6);
        assert!(j["entriesCited"].as_i64().unwrap() >= 1);
        assert!(
            j["url"]
                .as_str()
                .unwrap()
                .ends_with(j["slug"].as_str().unwrap())
        );
    }
    for pair in list.windows(2) {
        assert!(
            time(&pair[0]["publishedAt"]) >= time(&pair[1]["publishedAt"]),
            "not newest first"
        );
    }
    // The typed client reads the same list.
    let typed = app.client.journals(None).await.unwrap();
    assert_eq!(typed.journals.len(), list.len());
}

#[actix_web::test]
async fn company_filter() {
    let app = TestApp::spawn().await;
    let all = app.client.journals(None).await.unwrap().journals;
    let ticker = all[0].company.ticker.clone();
    let some = app.client.journals(Some(&ticker)).await.unwrap().journals;
    assert!(!some.is_empty());
    assert!(some.iter().all(|j| j.company.ticker == ticker));
    assert_eq!(
        some.len(),
        all.iter().filter(|j| j.company.ticker == ticker).count()
    );

    // A filter: any case, and a company without journals (or unknown) is an empty list.
    let lower = app
        .client
        .journals(Some(&ticker.to_lowercase()))
        .await
        .unwrap()
        .journals;
    assert_eq!(lower.len(), some.len());
    assert!(
        app.client
            .journals(Some("ZZZZ"))
            .await
            .unwrap()
            .journals
            .is_empty()
    );
    // Only what cannot be a ticker is refused.
    let invalid = ["/journals?company=", "/journals?company=n%20v"];
    app.expect_errors(StatusCode::BAD_REQUEST, &invalid).await;
}

#[actix_web::test]
async fn detail_has_every_field_and_hides_the_text() {
    let app = TestApp::spawn().await;
    let slug = app.client.journals(None).await.unwrap().journals[0]
        .slug
        .clone();
    let (status, d) = app.get(&format!("/journals/{slug}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_shape("detail", &d, &journal_detail_fields());
    assert_shape("detail.company", &d["company"], COMPANY);
    assert_shape("detail.author", &d["author"], AUTHOR);
    assert_shape("detail.votes", &d["votes"], VOTES);
    assert_shape("detail.audit", &d["audit"], AUDIT);
    for issue in d["audit"]["issues"].as_array().unwrap() {
        assert_shape("audit issue", issue, AUDIT_ISSUE);
    }
    assert_shape("detail.covers", &d["covers"], COVERS);
    let evidence = d["evidence"].as_array().unwrap();
    assert_eq!(evidence.len() as i64, d["entriesCited"].as_i64().unwrap());
    for (i, e) in evidence.iter().enumerate() {
        assert_shape("evidence", e, EVIDENCE);
        assert_eq!(e["n"], i as i64 + 1);
        assert!(is_date(e["date"].as_str().unwrap()));
    }
    let dates: Vec<&str> = evidence
        .iter()
        .map(|e| e["date"].as_str().unwrap())
        .collect();
    assert_eq!(d["covers"]["from"], *dates.iter().min().unwrap());
    assert_eq!(d["covers"]["to"], *dates.iter().max().unwrap());
    assert_eq!(d["unlocked"], false);
    assert_eq!(d["body"], Value::Null);
    assert_eq!(d["tokenId"], Value::Null, "swarm journals have no token");
    assert_eq!(d["authorHoldsStockToken"], Value::Null);
    assert!(d["contentHash"].as_str().unwrap().starts_with("0x"));

    // By numeric id, the same journal.
    let id = d["journalId"].as_i64().unwrap();
    let by_id = app.client.journal(&id.to_string()).await.unwrap();
    assert_eq!(by_id.item.slug, slug);
}

#[actix_web::test]
async fn unknown_journals_are_404() {
    let app = TestApp::spawn().await;
    let unknown = [
        "/journals/no-such-journal",
        "/journals/999999",
        "/journals/%00%27",
    ];
    app.expect_errors(StatusCode::NOT_FOUND, &unknown).await;
    let err = app.client.journal("no-such-journal").await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::NOT_FOUND));
}

#[actix_web::test]
async fn empty_archive_lists_nothing() {
    let app = TestApp::spawn_empty().await;
    let (status, body) = app.get("/journals").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, serde_json::json!({ "journals": [] }));
}

#[actix_web::test]
async fn derived_figures_come_from_the_data() {
    let app = TestApp::spawn_empty_uncached().await;
    let archive = fixture::archive(
        vec![fixture::company("ACME", "Acme Corp")],
        vec![
            fixture::entry("JM-ACME-261101-01", "ACME", "2026-11-01", "news"),
            fixture::entry("JM-ACME-261105-01", "ACME", "2026-11-05", "filing"),
            fixture::entry("JM-ACME-260920-01", "ACME", "2026-09-20", "post"),
        ],
        vec![fixture::journal(
            "acme-one",
            "ACME",
            "0.1",
            "2026-11-10T10:00:00Z",
            &[
                "JM-ACME-261105-01",
                "JM-ACME-260920-01",
                "JM-ACME-261101-01",
            ],
            450,
        )],
    );
    let db = app.db.connect().await;
    import_str(&db, &archive.to_string(), false).await.unwrap();

    let d = app.client.journal("acme-one").await.unwrap();
    assert_eq!(d.item.price_units, "100000");
    assert_eq!(d.item.price_usdg, 0.1);
    assert_eq!(d.item.read_minutes, 3, "450 words at 200 a minute");
    assert_eq!(d.item.entries_cited, 3);
    let order: Vec<&str> = d.evidence.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        order,
        [
            "JM-ACME-261105-01",
            "JM-ACME-260920-01",
            "JM-ACME-261101-01"
        ]
    );
    assert_eq!(d.covers.from.as_deref(), Some("2026-09-20"));
    assert_eq!(d.covers.to.as_deref(), Some("2026-11-05"));
    assert_eq!(
        (d.item.readers, d.item.votes.up, d.item.votes.down),
        (0, 0, 0)
    );
    assert_eq!(d.item.audit_score, 88.0);

    // Unlocks and votes written elsewhere show up in the figures at once.
    let id = d.item.journal_id as i32;
    let now = Utc::now();
    for (wallet, value) in [
        (Address::repeat_byte(0xaa), 1),
        (Address::repeat_byte(0xbb), 1),
        (Address::repeat_byte(0xcc), -1),
    ] {
        journal_market_entity::unlocks::ActiveModel {
            wallet: Set(wallet.into()),
            journal_id: Set(id),
            paid_units: Set(100000),
            paid_at: Set(now),
        }
        .insert(&db)
        .await
        .unwrap();
        journal_market_entity::votes::ActiveModel {
            wallet: Set(format!("{wallet:#x}")),
            journal_id: Set(id),
            value: Set(value),
            tag: Set(String::new()),
            tx: Set("0x01".into()),
            block: Set(1),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&db)
        .await
        .unwrap();
    }
    let d = app.client.journal("acme-one").await.unwrap();
    assert_eq!(
        (d.item.readers, d.item.votes.up, d.item.votes.down),
        (3, 2, 1)
    );
    let listed = &app.client.journals(Some("ACME")).await.unwrap().journals[0];
    assert_eq!(
        (listed.readers, listed.votes.up, listed.votes.down),
        (3, 2, 1)
    );
}

#[actix_web::test]
async fn at_most_100_newest() {
    let app = TestApp::spawn_empty().await;
    let mut journals = Vec::new();
    for i in 0..105 {
        journals.push(fixture::journal(
            &format!("acme-{i:03}"),
            "ACME",
            "1",
            &format!("2026-10-01T{:02}:{:02}:00Z", i / 60, i % 60),
            &["JM-ACME-261101-01"],
            50,
        ));
    }
    let archive = fixture::acme_archive(journals);
    import_str(&app.db.connect().await, &archive.to_string(), false)
        .await
        .unwrap();
    let list = app.client.journals(None).await.unwrap().journals;
    assert_eq!(list.len(), 100);
    assert_eq!(list[0].slug, "acme-104");
    assert_eq!(list[99].slug, "acme-005");
}

/// The test process's resident memory in KiB (the server runs in it).
pub(crate) fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[actix_web::test]
async fn a_journal_has_one_address_per_key_and_one_copy_in_the_caches() {
    let app = TestApp::spawn_with(|s| {
        s.metrics.listen = "127.0.0.1:0".into();
        s.cache.public_ttl_ms = 600_000;
    })
    .await;
    let j = app.client.journals(None).await.unwrap().journals.remove(0);
    let (id, slug) = (j.journal_id, j.slug.clone());
    let site = app.base.trim_end_matches("/api").to_string();
    // The canonical keys: the id as written and the slug.
    for key in [id.to_string(), slug.clone()] {
        let (status, body) = app.get(&format!("/journals/{key}")).await;
        assert_eq!(status, StatusCode::OK, "{key}: {body}");
        let page = app.fetch(format!("{site}/journal/{key}")).await;
        assert_eq!(page.status(), StatusCode::OK, "/journal/{key}");
    }
    // Leading zeros make no other address: each asked once by the API and once as a page.
    let before = rss_kib();
    let mut answered = Vec::new();
    for zeros in 1..=750 {
        let key = format!("{}{id}", "0".repeat(zeros));
        let (api, _) = app.get(&format!("/journals/{key}")).await;
        let page = app.fetch(format!("{site}/journal/{key}")).await.status();
        answered.push((key, api, page));
    }
    let grown = rss_kib().saturating_sub(before);
    eprintln!("1,500 non-canonical keys: resident memory grew by {grown} KiB");
    for (key, api, page) in &answered {
        assert_eq!(*api, StatusCode::NOT_FOUND, "/journals/{key}");
        assert_eq!(*page, StatusCode::NOT_FOUND, "/journal/{key}");
    }
    let body = app
        .expect_error(&format!("/journals/0{id}"), StatusCode::NOT_FOUND)
        .await;
    assert!(body.contains("slug or id"), "{body}");
    // One copy of the journal, one slug, one page, whatever was asked.
    let text = crate::metrics::scrape(&app).await;
    crate::metrics::assert_series(
        &text,
        &[
            ("jm_cache_entries{cache=\"journals\"}", 1.0),
            ("jm_cache_entries{cache=\"slugs\"}", 1.0),
            ("jm_cache_entries{cache=\"pages\"}", 1.0),
        ],
    );
}

//! The audit queue under an author who saves, audits and hangs up over and over: a job whose
//! draft was saved again is dropped at its engine slot without running the engine (or the LLM
//! reviewer), a running engine is stopped, a wallet has at most `audit.max_queued_per_wallet`
//! audits open, and other authors' audits are served meanwhile.

use std::sync::atomic::Ordering;
use std::time::Duration;

use journal_market_client::Client;
use journal_market_entity::{audit_jobs, audit_reports, journals};
use reqwest::StatusCode;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::metrics::{assert_series, expect, scrape};
use crate::pay::Shop;
use crate::publish::{llm, reviewer};

/// What `POST /journal/audit` answered: the status, the JSON body and any `Retry-After`.
type Answer = (StatusCode, Value, Option<String>);

/// `POST /journal/audit` in a task of its own.
fn spawn_audit(shop: &Shop, c: &Client, id: i64) -> JoinHandle<Answer> {
    let (http, url, cookie) = (
        shop.app.http.clone(),
        format!("{}/journal/audit", shop.app.base),
        c.session().unwrap(),
    );
    tokio::spawn(async move {
        let resp = http
            .post(url)
            .header("cookie", cookie)
            .json(&serde_json::json!({ "id": id }))
            .send()
            .await
            .unwrap();
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        (
            status,
            resp.json().await.unwrap_or(Value::Null),
            retry_after,
        )
    })
}

async fn audit(shop: &Shop, c: &Client, id: i64) -> Answer {
    spawn_audit(shop, c, id).await.unwrap()
}

/// Saves a draft the built-in audit approves, titled `title`, as `c`; its id.
async fn saved(shop: &Shop, c: &Client, title: &str) -> i64 {
    let draft = shop.faithful_draft(title, 1.0).await;
    c.save_draft(&draft).await.unwrap().id
}

async fn revision(db: &DatabaseConnection, id: i64) -> i32 {
    journals::Entity::find_by_id(i32::try_from(id).unwrap())
        .one(db)
        .await
        .unwrap()
        .unwrap()
        .revision
}

/// Waits until the job auditing `revision` of the journal is written.
async fn job_written(db: &DatabaseConnection, id: i64, revision: i32) {
    for _ in 0..500 {
        let n = audit_jobs::Entity::find()
            .filter(audit_jobs::Column::JournalId.eq(i32::try_from(id).unwrap()))
            .filter(audit_jobs::Column::Revision.eq(revision))
            .count(db)
            .await
            .unwrap();
        if n > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no audit job of revision {revision} of journal {id}");
}

/// Asks for an audit of the draft's current text and hangs up once its job is queued.
async fn audit_and_hang_up(shop: &Shop, c: &Client, db: &DatabaseConnection, id: i64) {
    let rev = revision(db, id).await;
    let request = spawn_audit(shop, c, id);
    job_written(db, id, rev).await;
    // Give the request time to hand its job to the actor, as a client that waited a moment.
    tokio::time::sleep(Duration::from_millis(100)).await;
    request.abort();
    assert!(request.await.unwrap_err().is_cancelled());
}

async fn jobs(db: &DatabaseConnection, id: i64) -> Vec<audit_jobs::Model> {
    audit_jobs::Entity::find()
        .filter(audit_jobs::Column::JournalId.eq(i32::try_from(id).unwrap()))
        .all(db)
        .await
        .unwrap()
}

/// The journal's jobs once none is open any more.
async fn settled(db: &DatabaseConnection, id: i64) -> Vec<audit_jobs::Model> {
    for _ in 0..500 {
        let all = jobs(db, id).await;
        if all
            .iter()
            .all(|j| j.state.as_str() != "queued" && j.state.as_str() != "running")
        {
            return all;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("journal {id} still has an open audit job");
}

async fn hits_reach(hits: &std::sync::atomic::AtomicUsize, n: usize) {
    for _ in 0..500 {
        if hits.load(Ordering::SeqCst) >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the reviewer was not asked {n} times");
}

#[actix_web::test]
async fn a_draft_saved_again_before_its_turn_uses_no_engine_time() {
    // One engine slot. The first review (another author's) holds it 6 s, the others take 1.5 s.
    let slow = reviewer(
        |_, _| Some(r#"{"issues": []}"#.into()),
        |n| {
            Duration::from_millis(match n {
                0 => 6_000,
                _ => 1_500,
            })
        },
    )
    .await;
    let shop = Shop::open_with(|s| {
        llm(s, &slow.url, 30);
        s.audit.concurrency = 1;
        s.audit.deadline_secs = 9;
        s.metrics.listen = "127.0.0.1:0".into();
    })
    .await;
    let db = shop.app.db.connect().await;
    let (a, _) = shop.author(0).await;
    let (b, _) = shop.author(1).await;
    let (c, _) = shop.author(2).await;

    let held = saved(&shop, &c, "Holding the slot").await;
    let holder = spawn_audit(&shop, &c, held);
    hits_reach(&slow.hits, 1).await;

    // Save, audit, hang up, five times; then save once more and leave it.
    let mut draft = shop.faithful_draft("Saved again and again", 1.0).await;
    let id = a.save_draft(&draft).await.unwrap().id;
    draft.id = Some(id);
    for round in 0..5 {
        if round > 0 {
            draft.title = format!("Saved again, take {round}");
            a.save_draft(&draft).await.unwrap();
        }
        audit_and_hang_up(&shop, &a, &db, id).await;
    }
    draft.title = "Saved again, the last take".into();
    a.save_draft(&draft).await.unwrap();
    assert_eq!(
        slow.hits.load(Ordering::SeqCst),
        1,
        "the slot is still held"
    );

    // Another author's audit, asked for now, is served within the deadline, not 503.
    let other = saved(&shop, &b, "Another author").await;
    let (status, body, _) = audit(&shop, &b, other).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "approved", "{body}");
    let (status, body, _) = holder.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");

    // None of the five hung-up audits ran the reviewer.
    assert_eq!(slow.hits.load(Ordering::SeqCst), 2);
    let ended = settled(&db, id).await;
    assert_eq!(ended.len(), 5);
    assert!(
        ended
            .iter()
            .all(|j| j.state.as_str() == "superseded" && j.report_id.is_none()),
        "{ended:#?}"
    );

    // The author's audit now runs on the latest text, and counts once.
    let out = a.audit(id).await.unwrap();
    assert_eq!(out.status, "approved", "{:#?}", out.report);
    assert_eq!(slow.hits.load(Ordering::SeqCst), 3);
    let view = a.draft(id).await.unwrap();
    assert_eq!(
        (view.title.as_str(), view.audits, view.status.as_str()),
        ("Saved again, the last take", 1, "approved")
    );
    let latest = revision(&db, id).await;
    let done: Vec<_> = jobs(&db, id)
        .await
        .into_iter()
        .filter(|j| j.state.as_str() == "done")
        .collect();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].revision, latest);
    let reports = audit_reports::Entity::find()
        .filter(audit_reports::Column::JournalId.eq(i32::try_from(id).unwrap()))
        .count(&db)
        .await
        .unwrap();
    assert_eq!(reports, 1);

    // What operators see: three engine runs for three reports, five jobs dropped.
    let text = scrape(&shop.app).await;
    assert_series(
        &text,
        &[
            ("jm_audit_engine_runs_total", 3.0),
            ("jm_audit_jobs_total{outcome=\"dropped\"}", 5.0),
            ("jm_audit_jobs_total{outcome=\"done\"}", 3.0),
        ],
    );
    for outcome in ["superseded", "stopped", "failed"] {
        let series = format!("jm_audit_jobs_total{{outcome=\"{outcome}\"}}");
        assert_eq!(expect(&text, &series), 0.0, "{series}");
    }
}

#[actix_web::test]
async fn a_wallet_has_at_most_two_audits_open_and_a_newer_save_stops_a_running_one() {
    // One engine slot; the first review would take 10 s (it is stopped long before), the
    // others 1 s.
    let slow = reviewer(
        |_, _| Some(r#"{"issues": []}"#.into()),
        |n| Duration::from_secs(if n == 0 { 10 } else { 1 }),
    )
    .await;
    let shop = Shop::open_with(|s| {
        llm(s, &slow.url, 30);
        s.audit.concurrency = 1;
        s.metrics.listen = "127.0.0.1:0".into();
    })
    .await;
    assert_eq!(shop.app.settings.audit.max_queued_per_wallet, 2);
    let db = shop.app.db.connect().await;
    let (a, _) = shop.author(0).await;
    let (b, _) = shop.author(1).await;
    let mut drafts = Vec::new();
    for title in ["First of three", "Second of three", "Third of three"] {
        let mut d = shop.faithful_draft(title, 1.0).await;
        d.id = Some(a.save_draft(&d).await.unwrap().id);
        drafts.push(d);
    }
    let ids: Vec<i64> = drafts.iter().map(|d| d.id.unwrap()).collect();

    // Two audits open: the first runs, the second waits.
    let first = spawn_audit(&shop, &a, ids[0]);
    hits_reach(&slow.hits, 1).await;
    let rev = revision(&db, ids[1]).await;
    let second = spawn_audit(&shop, &a, ids[1]);
    job_written(&db, ids[1], rev).await;

    // A third draft's audit is refused until one of them ends.
    let (status, body, retry_after) = audit(&shop, &a, ids[2]).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    crate::shape::assert_error_body(&body);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("2 audits waiting or running"),
        "{body}"
    );
    assert_eq!(retry_after.as_deref(), Some("10"));
    assert!(jobs(&db, ids[2]).await.is_empty());

    // The first draft saved again: its new audit replaces the running one, whose reviewer is
    // stopped (its request learns the draft changed), instead of being refused.
    drafts[0].title = "First of three, revised".into();
    a.save_draft(&drafts[0]).await.unwrap();
    let rev = revision(&db, ids[0]).await;
    let replacement = spawn_audit(&shop, &a, ids[0]);
    job_written(&db, ids[0], rev).await;
    let (status, body, _) = first.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    // Another author is served meanwhile.
    let other = saved(&shop, &b, "Not in that queue").await;
    let (status, body, _) = audit(&shop, &b, other).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    for request in [second, replacement] {
        let (status, body, _) = request.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // With the author's audits ended, the third draft is audited.
    let (status, body, _) = audit(&shop, &a, ids[2]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let view = a.draft(ids[0]).await.unwrap();
    assert_eq!(
        (view.title.as_str(), view.audits),
        ("First of three, revised", 1)
    );

    let text = scrape(&shop.app).await;
    // The stopped run, then four that finished.
    assert_series(
        &text,
        &[
            ("jm_audit_wallet_full_total", 1.0),
            ("jm_audit_jobs_total{outcome=\"stopped\"}", 1.0),
            ("jm_audit_jobs_total{outcome=\"done\"}", 4.0),
            ("jm_audit_engine_runs_total", 5.0),
        ],
    );
    assert_eq!(slow.hits.load(Ordering::SeqCst), 5);
}

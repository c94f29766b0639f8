//! Truthful health: an actor made to panic is caught, counted and restarted, and readiness is
//! 503 while it is dead; heartbeats carry their age and staleness limit.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{TestApp, actor};

/// Polls `GET path` until `done` holds, for at most `within`.
async fn wait_for(
    app: &TestApp,
    path: &str,
    within: Duration,
    done: impl Fn(StatusCode, &Value) -> bool,
) -> (StatusCode, Value) {
    let until = Instant::now() + within;
    loop {
        let (status, body) = app.get(path).await;
        if done(status, &body) {
            return (status, body);
        }
        assert!(Instant::now() < until, "GET {path} still {status} {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[actix_web::test]
async fn an_actor_made_to_panic_is_restarted_and_counted_and_unready_while_dead() {
    actor_made_to_panic(b"").await
}

/// The same, with the panic in the actor's synchronous code (its tick), not in a future.
#[actix_web::test]
async fn an_actor_whose_synchronous_code_panics_is_restarted_too() {
    actor_made_to_panic(b"sync").await
}

/// Waits (at most `within`) until the instance is ready with its actors ok, and asserts that
/// ChainWatch is alive; the actors' rows.
async fn ready_with_chain_watch_alive(app: &TestApp, within: Duration) -> Value {
    let (_, body) = wait_for(app, "/health/ready", within, |s, _| s == StatusCode::OK).await;
    assert_eq!(body["actors"], "ok", "{body}");
    let (_, actors) = app.get("/health/actors").await;
    let cw = actor(&actors, "chain_watch");
    assert_eq!(cw["alive"], true, "{cw}");
    actors
}

async fn actor_made_to_panic(mode: &'static [u8]) {
    let dir = tempfile::tempdir().unwrap();
    let fault = dir.path().join("chain_watch.panic");
    let path = fault.display().to_string();
    let app = TestApp::spawn_with(move |s| {
        s.demo.load_on_first_start = false;
        s.chain.check_interval_secs = 1;
        s.chain.fault_panic_file = path;
    })
    .await;

    // Ready, though no chain answers: ChainWatch's checks fail, and it lives.
    let actors = ready_with_chain_watch_alive(&app, Duration::from_secs(10)).await;
    let cw = actor(&actors, "chain_watch");
    assert_eq!(cw["stale"], false, "{cw}");
    assert_eq!(
        (cw["restarts"].as_u64(), cw["panics"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(cw["heartbeat_age_ms"].as_u64().is_some(), "{cw}");
    // Three ticks and one turn: 3 s + 60 s.
    assert_eq!(cw["stale_after_ms"], 63_000, "{cw}");
    for name in ["audit", "indexer", "session"] {
        let a = actor(&actors, name);
        assert_eq!(a["alive"], true, "{a}");
        assert!(a["stale_after_ms"].as_u64().is_some(), "{a}");
    }
    // The indexer reports its progress (lag) once its first tick is over (on PostgreSQL that
    // tick opens the leader's own connection first).
    let (_, actors) = wait_for(&app, "/health/actors", Duration::from_secs(10), |_, b| {
        actor(b, "indexer")["progress"].is_object()
    })
    .await;
    assert!(
        actor(&actors, "indexer")["progress"].is_object(),
        "the indexer reports its progress (lag): {actors}"
    );

    // Held down: every check panics while the file exists.
    std::fs::write(&fault, mode).unwrap();
    let (_, body) = wait_for(&app, "/health/ready", Duration::from_secs(10), |s, _| {
        s == StatusCode::SERVICE_UNAVAILABLE
    })
    .await;
    // The readiness fields and the `error` sentence naming the dead actor.
    let error = body["error"].as_str().unwrap();
    assert_eq!(body["status"], "not ready");
    assert_eq!(body["actors"], error, "{body}");
    assert!(
        error.contains("chain_watch is dead (panicked: fault point"),
        "{body}"
    );
    assert_eq!(body["database"], "ok");
    // Each panic stops it, its supervisor restarts it, and the next check panics again: it
    // stays dead, and both are counted.
    let (_, actors) = wait_for(&app, "/health/actors", Duration::from_secs(10), |_, b| {
        actor(b, "chain_watch")["panics"].as_u64() >= Some(2)
    })
    .await;
    let cw = actor(&actors, "chain_watch");
    assert_eq!(cw["alive"], false, "{cw}");
    assert_eq!(cw["healthy"], false, "{cw}");
    assert!(cw["restarts"].as_u64() >= Some(1), "{cw}");
    assert!(
        cw["last_error"]
            .as_str()
            .is_some_and(|e| e.starts_with("panicked: fault point")),
        "{cw}"
    );
    assert_eq!(
        app.get("/health/ready").await.0,
        StatusCode::SERVICE_UNAVAILABLE
    );
    // The others were not touched.
    assert_eq!(actor(&actors, "session")["restarts"], 0);
    assert_eq!(actor(&actors, "session")["alive"], true);

    // Released: the restarted actor checks again (after its backoff) and the instance is ready.
    std::fs::remove_file(&fault).unwrap();
    let actors = ready_with_chain_watch_alive(&app, Duration::from_secs(20)).await;
    let cw = actor(&actors, "chain_watch");
    let panics = cw["panics"].as_u64().unwrap();
    assert!(panics >= 2, "{cw}");
    assert_eq!(
        cw["restarts"].as_u64(),
        Some(panics),
        "one restart per panic: {cw}"
    );
    assert_eq!(cw["stale"], false, "{cw}");
}

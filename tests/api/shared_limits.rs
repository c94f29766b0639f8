//! Rate limits across instances: with `limits.store` every instance counts a client against one
//! quota in Redis; without it each instance counts alone; with a store that does not answer each
//! instance falls back to its own quota. Each test has its own key prefix, so parallel tests and
//! other users of the same Redis do not meet.

use std::sync::Arc;
use std::time::Duration;

use journal_market::config::{ClassLimit, Secret, Settings};
use reqwest::StatusCode;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::helpers::{self, TestApp};

fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

fn unique_prefix(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("jm-test:{test}:{}:{nanos}", std::process::id())
}

/// A reads quota of 4 that does not refill within a test (one a minute), kept in `store`.
fn limited(s: &mut Settings, store: &str, prefix: &str) {
    s.demo.load_on_first_start = false;
    s.limits.enabled = true;
    s.limits.store = Secret::new(store);
    s.limits.store_prefix = prefix.into();
    s.limits.reads = ClassLimit {
        per_minute: 1,
        burst: 4,
    };
}

/// Sends `n` reads, alternating between the instances; how many each admitted. Every refusal
/// is the usual 429.
async fn alternate(apps: [&TestApp; 2], n: usize) -> [usize; 2] {
    let mut admitted = [0; 2];
    for i in 0..n {
        let app = apps[i % 2];
        let resp = app.fetch(format!("{}/journals", app.base)).await;
        match resp.status() {
            StatusCode::OK => admitted[i % 2] += 1,
            StatusCode::TOO_MANY_REQUESTS => assert_429(resp).await,
            other => panic!("GET /journals answered {other}"),
        }
    }
    admitted
}

async fn assert_429(resp: reqwest::Response) {
    let message = helpers::assert_429(resp).await;
    assert!(
        message.starts_with("too many reads requests from this address; retry in "),
        "{message}"
    );
}

#[actix_web::test]
async fn two_instances_with_one_store_share_one_quota() {
    let prefix = unique_prefix("shared");
    let a = TestApp::spawn_with(|s| {
        limited(s, &redis_url(), &prefix);
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let b = a.sibling().await;
    let admitted = alternate([&a, &b], 12).await;
    // One quota in total, although each instance alone would have admitted 4.
    assert_eq!(admitted.iter().sum::<usize>(), 4, "{admitted:?}");
    assert!(admitted.iter().all(|&n| n > 0 && n < 4), "{admitted:?}");
    // Another client (forwarded by the trusted proxy) has its own shared quota.
    for app in [&a, &b] {
        let resp = app
            .get_with_header("/journals", "x-forwarded-for", "203.0.113.7")
            .await;
        assert_eq!(resp.status(), StatusCode::OK);
    }
    // Health probes are never limited; the other classes have their own quota.
    let (status, _) = b.get("/health/ready").await;
    assert_eq!(status, StatusCode::OK);
    // An instance with another prefix (another deployment on the same Redis) does not share it.
    let other = TestApp::spawn_with(|s| limited(s, &redis_url(), &unique_prefix("other"))).await;
    assert_eq!(other.get("/journals").await.0, StatusCode::OK);
}

#[actix_web::test]
async fn without_a_store_each_instance_keeps_its_own_quota() {
    let a = TestApp::spawn_with(|s| limited(s, "", "unused")).await;
    let b = a.sibling().await;
    assert_eq!(alternate([&a, &b], 12).await, [4, 4]);
}

#[actix_web::test]
async fn a_store_that_does_not_answer_leaves_each_instance_its_own_quota() {
    // Nothing listens on port 1: the instances start, and each applies the quota alone (neither
    // open to everyone nor closed to everyone), counting the store's failures.
    let a = TestApp::spawn_with(|s| {
        limited(s, "redis://127.0.0.1:1", &unique_prefix("down"));
        s.metrics.listen = "127.0.0.1:0".into();
    })
    .await;
    let b = a.sibling().await;
    assert_eq!(alternate([&a, &b], 12).await, [4, 4]);
    let metrics = a.metrics.as_ref().expect("the metrics listener");
    let text = a
        .fetch(format!("{metrics}/metrics"))
        .await
        .text()
        .await
        .unwrap();
    let value = |series: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{series} is missing from\n{text}"))
    };
    assert!(value("jm_rate_limit_store_errors_total") >= 1.0, "{text}");
    assert_eq!(value("jm_rate_limit_fallbacks_total"), 6.0, "{text}");
}

/// A TCP relay to Redis that can be cut (every connection closed, new ones refused) and
/// restored: an outage of the store without touching the Redis others use.
struct Relay {
    url: String,
    up: watch::Sender<bool>,
}

impl Relay {
    async fn start(upstream: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        let (up, watch_up) = watch::channel(true);
        let upstream = Arc::new(upstream);
        actix_web::rt::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !*watch_up.borrow() {
                    continue; // dropped: refused
                }
                let mut cut = watch_up.clone();
                let upstream = upstream.clone();
                actix_web::rt::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(upstream.as_str()).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.wait_for(|up| !up) => {}
                    }
                });
            }
        });
        Relay { url, up }
    }

    fn set_up(&self, up: bool) {
        self.up.send_replace(up);
    }
}

#[actix_web::test]
async fn instances_share_the_quota_again_when_the_store_is_back() {
    let upstream = redis_url()
        .trim_start_matches("redis://")
        .trim_end_matches('/')
        .to_string();
    let relay = Relay::start(upstream).await;
    let prefix = unique_prefix("back");
    let a = TestApp::spawn_with(|s| limited(s, &relay.url, &prefix)).await;
    let b = a.sibling().await;
    // Shared: two of the quota of 4 used.
    assert_eq!(alternate([&a, &b], 2).await, [1, 1]);
    // The store is cut: each instance applies its own (fresh) quota, neither open nor closed.
    relay.set_up(false);
    let during = alternate([&a, &b], 12).await;
    assert_eq!(during, [4, 4], "{during:?}");
    // Back: once the store has been left alone for its second, the next request reconnects and
    // the shared quota (2 left) holds again.
    relay.set_up(true);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let after = alternate([&a, &b], 8).await;
    assert_eq!(after.iter().sum::<usize>(), 2, "{after:?}");
}

//! SIGTERM: the process stops accepting, lets a purchase in flight finish within the grace
//! period or leaves it pending for reconciliation, never half-written, and exits 0. The real
//! binary, because a signal is process-wide.

use std::process::Stdio;
use std::time::Duration;

use alloy::signers::local::PrivateKeySigner;
use journal_market_client::Client;
use journal_market_entity::payments;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::devchain::TestChain;
use crate::faultproxy::{Fault, FaultProxy};
use crate::helpers::{TestApp, TestDb};
use crate::settle::{funded_buyer, transfers_from};

struct Process {
    child: tokio::process::Child,
    base: String,
}

/// The service binary against `chain` through `rpc_url`, on `db`.
async fn start(chain: &TestChain, rpc_url: &str, db: &TestDb, grace_secs: u64) -> Process {
    let dir = tempfile::tempdir().unwrap();
    let mut devnet = chain.devnet.clone();
    devnet.rpc_url = rpc_url.to_string();
    let file = dir.path().join("devnet.json");
    std::fs::write(&file, serde_json::to_string(&devnet).unwrap()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_journal-market"))
        .arg("serve")
        .env("JM__SERVER__LISTEN", format!("127.0.0.1:{port}"))
        .env("JM__SERVER__WORKERS", "2")
        .env("JM__SERVER__SHUTDOWN_GRACE_SECS", grace_secs.to_string())
        .env("JM__DATABASE__URL", &db.url)
        .env("JM__DATABASE__MAX_CONNECTIONS", "5")
        .env("JM__CHAIN__DEVNET_FILE", &file)
        .env("JM__CHAIN__CHECK_INTERVAL_SECS", "1")
        .env("JM__LIMITS__ENABLED", "false")
        .env("JM__INDEXER__ENABLED", "false")
        .env("JM__PAYMENTS__LEASE_SECS", "2")
        .env("JM__LOG__FILTER", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}/api");
    let client = Client::new(base.clone()).unwrap();
    for _ in 0..300 {
        if client.config().await.is_ok_and(|c| c.payments_open) {
            // The devnet file is read at start: it can go now.
            drop(dir);
            return Process { child, base };
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the service did not open payments");
}

fn sigterm(p: &Process) {
    let pid = p.child.id().expect("running").to_string();
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// Starts buying the first swarm journal and waits until its settle transaction is on its way
/// (the proxy holds the node's answer back).
async fn purchase_in_flight(
    p: &Process,
    proxy: &FaultProxy,
    buyer: &PrivateKeySigner,
) -> tokio::task::JoinHandle<bool> {
    let client = Client::new(p.base.clone()).unwrap();
    let slug = client.journals(None).await.unwrap().journals[0]
        .slug
        .clone();
    let signer = buyer.clone();
    let buy = tokio::spawn(async move { client.buy(&slug, &signer).await.is_ok() });
    for _ in 0..200 {
        if proxy.hits("eth_sendRawTransaction") > 0 {
            return buy;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the settle transaction was never sent");
}

/// A purchase in flight when the service got SIGTERM.
struct Interrupted {
    chain: TestChain,
    /// Kept for the life of the test: the service's chain goes through it.
    _proxy: FaultProxy,
    db: TestDb,
    p: Process,
    buyer: PrivateKeySigner,
    buy: tokio::task::JoinHandle<bool>,
}

/// Starts the service with `grace_secs` to stop, begins a purchase whose settle transaction the
/// node answers `delay` late, and sends SIGTERM while it is in flight.
async fn sigterm_mid_purchase(grace_secs: u64, delay: Duration) -> Interrupted {
    let chain = TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let db = TestDb::new().await;
    let p = start(&chain, &proxy.url, &db, grace_secs).await;
    let buyer = funded_buyer(&chain).await;
    proxy.set("eth_sendRawTransaction", Fault::Delay(delay), None);
    let buy = purchase_in_flight(&p, &proxy, &buyer).await;
    sigterm(&p);
    Interrupted {
        chain,
        _proxy: proxy,
        db,
        p,
        buyer,
        buy,
    }
}

async fn exit_code(p: &mut Process) -> Option<i32> {
    tokio::time::timeout(Duration::from_secs(60), p.child.wait())
        .await
        .expect("the process exits")
        .unwrap()
        .code()
}

#[actix_web::test]
async fn sigterm_lets_a_purchase_in_flight_finish() {
    let mut run = sigterm_mid_purchase(30, Duration::from_secs(2)).await;
    // New connections are refused at once; the purchase in flight completes.
    assert!(run.buy.await.unwrap(), "the purchase in flight finished");
    assert_eq!(exit_code(&mut run.p).await, Some(0));
    assert_eq!(
        transfers_from(&run.chain, run.buyer.address()).await.len(),
        1
    );
}

#[actix_web::test]
async fn sigterm_past_the_grace_period_leaves_the_payment_pending_then_reconciled() {
    let mut run = sigterm_mid_purchase(1, Duration::from_secs(10)).await;
    let (chain, buyer) = (&run.chain, &run.buyer);
    assert_eq!(exit_code(&mut run.p).await, Some(0));
    assert!(!run.buy.await.unwrap(), "the request was cut off");
    // The money moved (the node mined the transaction) and the row says pending, with the
    // hash: not failed, not settled without its unlock.
    assert_eq!(transfers_from(chain, buyer.address()).await.len(), 1);
    let payer = format!("{:#x}", buyer.address());
    let rows = payments::Entity::find()
        .filter(payments::Column::Wallet.eq(payer.clone()))
        .all(&run.db.connect().await)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state.as_str(), "pending", "{:?}", rows[0]);
    // The next start reconciles it from the chain: unlocked, one charge.
    let db = std::sync::Arc::new(run.db);
    let mut s = chain.settings(&db);
    s.payments.reconcile_every_ms = 200;
    let app = TestApp::start_on(s, db).await;
    let key = app.client.journals(None).await.unwrap().journals[0]
        .slug
        .clone();
    for _ in 0..100 {
        let row = payments::Entity::find_by_id(rows[0].id)
            .one(&app.db.connect().await)
            .await
            .unwrap()
            .unwrap();
        if row.state.as_str() == "settled" {
            let signed_in = app.client.clone();
            signed_in.login(buyer).await.unwrap();
            assert!(signed_in.journal(&key).await.unwrap().unlocked);
            assert_eq!(transfers_from(chain, buyer.address()).await.len(), 1);
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the pending payment was never reconciled");
}

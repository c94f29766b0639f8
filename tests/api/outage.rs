//! Outages are waited out, not turned into losses: the database going away in the middle of a
//! purchase (PostgreSQL cut off at the network; SQLite unable to write a byte, as on a full
//! disk) answers 503 with `Retry-After`, loses no committed row, and the service recovers
//! without a restart: the payment that was on its way is reconciled and its retry gets the
//! text. Money is judged from the chain.

use std::net::SocketAddr;
use std::time::Duration;

use journal_market_client::payer::{sign_payment, with_payment_id};
use reqwest::StatusCode;
use sea_orm::ConnectionTrait;
use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::devchain::TestChain;
use crate::faultproxy::{Fault, FaultProxy};
use crate::helpers::{Backend, TestApp, TestDb, actor, backend};
use crate::pay::{Shop, now};
use crate::replay::charges;

/// A TCP proxy that can be cut: while cut, its connections are closed and new ones are closed
/// on accept, as when a database server restarts.
pub(crate) struct TcpCut {
    pub addr: SocketAddr,
    down: watch::Sender<bool>,
}

impl TcpCut {
    pub(crate) async fn start(upstream: SocketAddr) -> TcpCut {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (down, watching) = watch::channel(false);
        tokio::spawn(async move {
            while let Ok((mut conn, _)) = listener.accept().await {
                if *watching.borrow() {
                    continue;
                }
                let mut cut = watching.clone();
                tokio::spawn(async move {
                    let Ok(mut up) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = copy_bidirectional(&mut conn, &mut up) => {}
                        _ = cut.wait_for(|d| *d) => {}
                    }
                });
            }
        });
        TcpCut { addr, down }
    }

    pub(crate) fn cut(&self) {
        self.down.send_replace(true);
    }

    pub(crate) fn restore(&self) {
        self.down.send_replace(false);
    }
}

/// How the test takes the database away and gives it back.
enum Outage {
    /// PostgreSQL behind a cut proxy.
    Network(TcpCut),
    /// SQLite in a process that may not grow any file, as on a full disk: its write-ahead log
    /// is first emptied (a TRUNCATE checkpoint), so every commit must grow it and fails, while
    /// reads go on. `RLIMIT_FSIZE` is per process; nextest runs each test in its own.
    FullDisk(String),
}

fn set_file_size_limit(limit: libc::rlim_t) {
    let l = libc::rlimit {
        rlim_cur: limit,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: plain libc calls on this process; SIGXFSZ ignored turns an oversize write into an
    // EFBIG error instead of killing the process.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &l), 0);
    }
}

impl Outage {
    async fn start(&self) {
        match self {
            Outage::Network(p) => p.cut(),
            Outage::FullDisk(url) => {
                let db = sea_orm::Database::connect(url).await.unwrap();
                // Retried until no reader holds the log back (`busy` 0: truncated).
                for _ in 0..100 {
                    let row = db
                        .query_one_raw(sea_orm::Statement::from_string(
                            sea_orm::DbBackend::Sqlite,
                            "PRAGMA wal_checkpoint(TRUNCATE)",
                        ))
                        .await
                        .unwrap()
                        .unwrap();
                    if row.try_get_by_index::<i32>(0).unwrap() == 0 {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                db.close().await.unwrap();
                set_file_size_limit(0);
            }
        }
    }

    fn end(&self) {
        match self {
            Outage::Network(p) => p.restore(),
            Outage::FullDisk(_) => set_file_size_limit(libc::RLIM_INFINITY),
        }
    }
}

/// A shop whose chain calls go through a fault proxy and whose database can be taken away.
async fn shop() -> (Shop, FaultProxy, Outage) {
    shop_with(|_| {}).await
}

async fn shop_with(
    f: impl FnOnce(&mut journal_market::config::Settings),
) -> (Shop, FaultProxy, Outage) {
    let chain = TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let db = TestDb::new().await;
    let (url, outage) = match backend() {
        Backend::Sqlite => (db.url.clone(), Outage::FullDisk(db.url.clone())),
        Backend::Postgres { .. } => {
            let cut = TcpCut::start("127.0.0.1:5432".parse().unwrap()).await;
            let url = db.url.replace("127.0.0.1:5432", &cut.addr.to_string());
            assert_ne!(url, db.url, "the test database is at 127.0.0.1:5432");
            (url, Outage::Network(cut))
        }
    };
    let mut s = chain.settings(&db);
    s.database.url = journal_market::config::Secret::new(url);
    s.demo.load_on_first_start = true;
    s.cache.public_ttl_ms = 0;
    s.chain.rpc_urls = vec![journal_market::config::Secret::new(proxy.url.clone())];
    s.payments.reconcile_every_ms = 200;
    s.database.acquire_timeout_secs = 2;
    f(&mut s);
    let app = TestApp::start(s, db).await;
    app.wait_chain(true).await;
    (Shop { chain, app }, proxy, outage)
}

#[actix_web::test]
async fn the_database_going_away_mid_purchase_answers_503_and_loses_nothing() {
    let (shop, proxy, outage) = shop().await;
    let journals = shop.swarm_journals().await;
    let (first, second, third) = (shop.buyer(0), shop.buyer(1), shop.buyer(2));
    // A purchase before the outage: its rows are committed.
    let before = shop.client();
    before
        .buy(&journals[0].slug, &first.signer().unwrap())
        .await
        .unwrap();

    // A purchase whose settle transaction is on its way when the database goes away.
    let id = journals[1].journal_id;
    let (payment, buying) = pay_held_back(&shop, &proxy, id, second, 1500).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    outage.start().await;
    let (status, retry, body) = buying.await.unwrap();
    assert_try_later(status, retry.is_some(), &body);

    // While it lasts: writes answer 503 with Retry-After at once, and nothing moves.
    let offer = shop
        .offer_or_unavailable("pay/burn", journals[2].journal_id)
        .await;
    if let Some(offer) = offer {
        let late = sign_payment(&offer.accepts[0], None, &third.signer().unwrap(), now()).unwrap();
        let started = std::time::Instant::now();
        let (s, b, h) = shop
            .raw_pay("pay/burn", journals[2].journal_id, Some(&late))
            .await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
        assert!(h.get("retry-after").is_some());
        assert!(started.elapsed() < Duration::from_secs(10), "fails fast");
    }
    if let Outage::Network(_) = outage {
        let says = "the database does not answer";
        assert_ready(&shop.app, StatusCode::SERVICE_UNAVAILABLE, "database", says).await;
        let (s, b) = shop.app.get("/journals").await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
    }
    assert!(charges(&shop, third.address).await.is_empty());

    // Over, without a restart: the payment on its way is reconciled from the chain, and its
    // retry with the same payment-identifier gets the text.
    outage.end();
    retry_until_text(&shop, id, &payment).await;
    let (s, _) = shop.app.get("/health/ready").await;
    assert_eq!(s, StatusCode::OK);
    // The chain: each buyer paid exactly what they bought, once; the one refused paid nothing.
    assert!(charges(&shop, third.address).await.is_empty());
    charged_once_each(&shop, &journals, &[first, second]).await;
    // The committed purchase is still there.
    assert!(before.journal(&journals[0].slug).await.unwrap().unlocked);
    // And the service takes new purchases.
    shop.buy(&journals[2].slug, third).await;
    charged_once_each(&shop, &journals, &[first, second, third]).await;
}

impl Shop {
    /// The challenge of a step, or `None` when the service answers 503 (its database is away).
    async fn offer_or_unavailable(
        &self,
        path: &str,
        journal_id: i64,
    ) -> Option<journal_market_x402::PaymentRequired> {
        let (status, body, headers) = self.raw_pay(path, journal_id, None).await;
        if status == StatusCode::SERVICE_UNAVAILABLE {
            assert!(headers.get("retry-after").is_some(), "{body}");
            return None;
        }
        assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
        Some(
            journal_market_x402::decode_header(
                headers.get("payment-required").unwrap().to_str().unwrap(),
            )
            .unwrap(),
        )
    }
}

/// Asserts that `GET /health/ready` answers `status`, its `part` starting with `says`.
async fn assert_ready(app: &TestApp, status: StatusCode, part: &str, says: &str) {
    let (got, body) = app.get("/health/ready").await;
    assert_eq!(got, status, "{body}");
    assert!(body[part].as_str().unwrap().starts_with(says), "{body}");
}

/// Waits (up to 20 s) until `/config` says payments are open or closed.
async fn wait_payments(app: &TestApp, open: bool) {
    for _ in 0..200 {
        if app.client.config().await.unwrap().payments_open == open {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "payments never became {}",
        if open { "open" } else { "closed" }
    );
}

/// An outside facilitator that stops answering: its watch notices within a check, payments
/// close (a purchase is 503 with Retry-After at once, not after the facilitator's time limit),
/// health names it, and everything reopens when it is back, without a restart.
#[actix_web::test]
async fn a_facilitator_that_goes_away_closes_payments_until_it_is_back() {
    let (shop, proxy) = crate::settle::shop_behind_facilitator_proxy(|_| {}).await;
    wait_payments(&shop.app, true).await;
    let (_, ready) = shop.app.get("/health/ready").await;
    assert_eq!(ready["facilitator"], "ok", "{ready}");
    let journals = shop.swarm_journals().await;
    let (first, second) = (shop.buyer(0), shop.buyer(1));
    shop.buy(&journals[0].slug, first).await;

    proxy.set("", Fault::Refuse, None);
    wait_payments(&shop.app, false).await;
    // The archive still serves.
    let says = "the facilitator does not answer";
    assert_ready(&shop.app, StatusCode::OK, "facilitator", says).await;
    let started = std::time::Instant::now();
    let (s, b, h) = shop.raw_pay("pay/burn", journals[1].journal_id, None).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
    assert!(h.get("retry-after").is_some());
    assert!(b["error"].as_str().unwrap().contains("facilitator"), "{b}");
    assert!(started.elapsed() < Duration::from_secs(2), "fails at once");
    let (_, actors) = shop.app.get("/health/actors").await;
    let watch = actor(&actors, "facilitator_watch");
    assert!(
        watch["last_error"]
            .as_str()
            .is_some_and(|e| e.contains("does not answer")),
        "{watch}"
    );

    proxy.set("", Fault::Pass, None);
    wait_payments(&shop.app, true).await;
    shop.buy(&journals[1].slug, second).await;
    charged_once_each(&shop, &journals, &[first, second]).await;
}

/// Pauses a process (SIGSTOP) until dropped (SIGCONT), as a node that hangs.
struct Paused(i32);

impl Paused {
    fn node(chain: &TestChain) -> Paused {
        let pid = chain.anvil.pid().unwrap() as i32;
        // SAFETY: signals to a child process of this test.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
        Paused(pid)
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        // SAFETY: as above.
        unsafe { libc::kill(self.0, libc::SIGCONT) };
    }
}

/// The node hangs while a settle transaction is on its way: the request gives up within its
/// limits (409 "still settling" or 503, with Retry-After), ChainWatch closes payments so later
/// purchases are refused at once, health says the chain is down; once the node answers again
/// the pending payment is reconciled from the chain, its retry gets the text, and nothing was
/// charged twice.
#[actix_web::test]
async fn a_node_that_hangs_mid_purchase_is_waited_out() {
    let (shop, proxy, _outage) = shop_with(|s| {
        s.chain.rpc_timeout_ms = 500;
        s.payments.deadline_secs = 3;
    })
    .await;
    let journals = shop.swarm_journals().await;
    let (first, second, third) = (shop.buyer(0), shop.buyer(1), shop.buyer(2));
    shop.buy(&journals[0].slug, first).await;

    // The send reaches the node; the node hangs before it mines (instant mining: the pause
    // lands while the proxy holds the answer back).
    let id = journals[1].journal_id;
    let (payment, buying) = pay_held_back(&shop, &proxy, id, second, 1000).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let paused = Paused::node(&shop.chain);
    let (status, retry, body) = buying.await.unwrap();
    assert_try_later(status, retry.is_some(), &body);

    wait_payments(&shop.app, false).await;
    let (_, ready) = shop.app.get("/health/ready").await;
    assert_ne!(ready["chain"], "ok", "{ready}");
    let started = std::time::Instant::now();
    let (s, _, h) = shop.raw_pay("pay/burn", journals[2].journal_id, None).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE);
    assert!(h.get("retry-after").is_some());
    assert!(started.elapsed() < Duration::from_secs(2), "fails at once");

    drop(paused);
    wait_payments(&shop.app, true).await;
    retry_until_text(&shop, id, &payment).await;
    shop.buy(&journals[2].slug, third).await;
    charged_once_each(&shop, &journals, &[first, second, third]).await;
}

/// What a request in flight when a dependency went away answers.
type Answer = (StatusCode, Option<reqwest::header::HeaderValue>, String);

/// A payment by `buyer` for journal `id`'s one step, with a payment-identifier, sent in the
/// background while the proxy holds its settle transaction's send back for `hold_ms`.
async fn pay_held_back(
    shop: &Shop,
    proxy: &FaultProxy,
    id: i64,
    buyer: &journal_market_chain::devnet_file::Account,
    hold_ms: u64,
) -> (
    journal_market_x402::PaymentPayload,
    tokio::task::JoinHandle<Answer>,
) {
    let payment = with_payment_id(
        shop.burn_payment_by(id, buyer).await,
        &format!("pay_outage_{id}_{}", buyer.address),
    );
    proxy.set(
        "eth_sendRawTransaction",
        Fault::Delay(Duration::from_millis(hold_ms)),
        Some(1),
    );
    let client = shop.client();
    let sent = payment.clone();
    let buying = tokio::spawn(async move {
        let r = client
            .pay_request("pay/burn", id, Some(&sent))
            .await
            .unwrap();
        (
            r.status(),
            r.headers().get("retry-after").cloned(),
            r.text().await.unwrap(),
        )
    });
    (payment, buying)
}

/// 503 when the write failed at once, 409 "still settling" when it was retried until the
/// request's deadline: either way "later, with the same request", and no text.
fn assert_try_later(status: StatusCode, retry_after: bool, body: &str) {
    assert!(
        status == StatusCode::SERVICE_UNAVAILABLE || status == StatusCode::CONFLICT,
        "{status} {body}"
    );
    assert!(retry_after, "Retry-After");
    assert!(body.contains("\"error\""), "{body}");
    assert!(!body.contains("\"body\""), "{body}");
}

/// The same payment, sent again until it gets the text (30 s at most).
async fn retry_until_text(shop: &Shop, id: i64, payment: &journal_market_x402::PaymentPayload) {
    for _ in 0..300 {
        let (s, b, _) = shop.raw_pay("pay/burn", id, Some(payment)).await;
        if s == StatusCode::OK {
            assert!(b["body"].as_str().unwrap().starts_with("## "), "{b}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the retry never got the text once the outage was over");
}

/// Each buyer was charged once, the price of the journal of the same index.
async fn charged_once_each(
    shop: &Shop,
    journals: &[journal_market_client::api::JournalListItem],
    buyers: &[&journal_market_chain::devnet_file::Account],
) {
    for (i, b) in buyers.iter().enumerate() {
        let price = alloy::primitives::U256::from(journals[i].price_units.parse::<u64>().unwrap());
        assert_eq!(
            charges(shop, b.address).await,
            vec![(shop.buyback(), price)]
        );
    }
}

//! Payments you can trust: the rules bind the wallet that signed, and under faults, restarts
//! and a second instance every buyer whose USDG moved ends unlocked exactly once and nobody is
//! charged twice. Outcomes are read from the chain's `Transfer` logs, not from our tables.

use std::time::{Duration, Instant};

use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider as _;
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall as _, SolEvent as _};
use journal_market_actors::settlement::FaultPoint;
use journal_market_chain::bindings::IERC20;
use journal_market_chain::devnet_file::Account;
use journal_market_client::payer::{new_payment_id, sign_payment, with_payment_id};
use journal_market_devnet::deploy::Buyers;
use journal_market_entity::{Wallet, payments, unlocks};
use reqwest::StatusCode;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::devchain::TestChain;
use crate::faultproxy::{Fault, FaultProxy};
use crate::helpers::TestApp;
use crate::pay::{Backend, Shop, now};

/// Every USDG `Transfer` from `from` on the chain: (to, amount, transaction).
pub(crate) async fn transfers_from(chain: &TestChain, from: Address) -> Vec<(Address, U256, B256)> {
    let p = chain.provider(chain.account("deployer", 0));
    let filter = Filter::new()
        .address(chain.devnet.contracts.usdg)
        .event_signature(IERC20::Transfer::SIGNATURE_HASH)
        .topic1(from.into_word())
        .from_block(0);
    p.get_logs(&filter)
        .await
        .unwrap()
        .iter()
        .map(|l| {
            let t = IERC20::Transfer::decode_log(&l.inner).unwrap();
            (t.to, t.value, l.transaction_hash.unwrap())
        })
        .collect()
}

/// A new wallet with gas, 100 USDG and Permit2 approved.
pub(crate) async fn funded_buyer(chain: &TestChain) -> PrivateKeySigner {
    chain.devnet.funded_buyer(100_000_000).await.unwrap()
}

async fn unlocked(app: &TestApp, wallet: Address, journal_id: i64) -> bool {
    unlocks::Entity::find_by_id((Wallet(wallet), journal_id as i32))
        .one(&app.db.connect().await)
        .await
        .unwrap()
        .is_some()
}

crate::on_both_backends!(a_session_cannot_lend_its_fee_to_another_payer);

/// Wallet A pays the fee and, with A's session cookie, sends an author payment signed by B:
/// the rules are B's, who paid no fee.
async fn a_session_cannot_lend_its_fee_to_another_payer(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (id, _) = shop.person_journal(0, "1").await;
    let usdg = shop.chain.devnet.contracts.usdg;
    let (a, b) = (
        shop.buyer(0).signer().unwrap(),
        shop.buyer(1).signer().unwrap(),
    );
    let client_a = shop.client();
    client_a.login(&a).await.unwrap();
    client_a
        .pay_step("pay/burn", id, &a, usdg, U256::from(1_000_000u64))
        .await
        .unwrap();
    let b_before = transfers_from(&shop.chain, b.address()).await;

    let offer = shop.offer("pay/author", id).await;
    let forged_for_b = sign_payment(&offer.accepts[0], None, &b, now()).unwrap();
    let resp = client_a
        .pay_request("pay/author", id, Some(&forged_for_b))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("fee first"),
        "{body}"
    );
    assert_eq!(
        transfers_from(&shop.chain, b.address()).await,
        b_before,
        "B paid nothing"
    );
    assert!(!unlocked(&shop.app, b.address(), id).await);
    // A still completes its own purchase.
    client_a
        .pay_step("pay/author", id, &a, usdg, U256::from(1_000_000u64))
        .await
        .unwrap();
    assert!(unlocked(&shop.app, a.address(), id).await);
}

/// A header signed by one key that names another wallet as `from` learns nothing about that
/// wallet: the same 402 whether it bought the journal or not.
#[actix_web::test]
async fn a_forged_payer_learns_nothing() {
    let shop = Shop::open().await;
    let (id, slug, _) = shop.swarm_journal().await;
    let bought = shop.buyer(0);
    shop.buy(&slug, bought).await;
    let offer = shop.offer("pay/burn", id).await;
    let attacker = PrivateKeySigner::random();
    let mut answers = Vec::new();
    for victim in [bought.address, shop.buyer(1).address] {
        let mut p = sign_payment(&offer.accepts[0], None, &attacker, now()).unwrap();
        p.payload.permit2_authorization.from = victim.to_checksum(None);
        let (s, b, _) = shop.raw_pay("pay/burn", id, Some(&p)).await;
        assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{b}");
        answers.push(b["error"].as_str().unwrap().to_string());
    }
    assert!(answers[0].contains("signature"), "{answers:?}");
    assert_eq!(answers[0], answers[1]);
}

/// Buyer 0 pays for a swarm journal on a shop whose fault point stops the settlement (500):
/// the journal, its price and the signed payment.
async fn stopped_purchase(shop: &Shop) -> (i64, i64, journal_market_x402::PaymentPayload) {
    let (id, _, price) = shop.swarm_journal().await;
    let offer = shop.offer("pay/burn", id).await;
    let signer = shop.buyer(0).signer().unwrap();
    let payment = with_payment_id(
        sign_payment(&offer.accepts[0], None, &signer, now()).unwrap(),
        &new_payment_id().unwrap(),
    );
    let (s, _, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(
        s,
        StatusCode::INTERNAL_SERVER_ERROR,
        "the fault point stopped it"
    );
    (id, price, payment)
}

/// Two instances on one database; the one settling is killed after sending. The other leaves
/// the row alone while the lease lasts, then finishes it: one charge, one unlock.
#[actix_web::test]
async fn a_killed_instance_rows_are_finished_by_another_after_the_lease() {
    let lease = Duration::from_secs(3);
    let shop = Shop::open_with(|s| {
        s.payments.fault = FaultPoint::AfterSend;
        s.payments.lease_secs = lease.as_secs();
    })
    .await;
    let other = shop.without_fault().await;
    let (id, price, payment) = stopped_purchase(&shop).await;
    let buyer = shop.buyer(0);
    let sent = Instant::now();
    shop.app.kill();

    let db = shop.app.db.connect().await;
    let row = || async {
        payments::Entity::find()
            .filter(payments::Column::JournalId.eq(id as i32))
            .one(&db)
            .await
            .unwrap()
            .unwrap()
    };
    // While the lease lasts the other instance does not touch the row.
    while sent.elapsed() < lease - Duration::from_millis(700) {
        let r = row().await;
        assert_eq!(
            r.state.as_str(),
            "pending",
            "taken over before the lease ended"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut state = String::new();
    while sent.elapsed() < lease + Duration::from_secs(10) {
        state = row().await.state.to_string();
        if state != "pending" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(state, "settled");
    let paid: Vec<_> = transfers_from(&shop.chain, buyer.address).await;
    let to_us: Vec<_> = paid.iter().filter(|t| t.0 == shop.buyback()).collect();
    assert_eq!(to_us.len(), 1, "one charge: {paid:?}");
    assert_eq!(to_us[0].1, U256::from(price));
    assert!(unlocked(&other, buyer.address, id).await);
    // The buyer's retry through the surviving instance gets the text.
    let c = journal_market_client::Client::new(other.base.clone()).unwrap();
    let r = c.pay_request("pay/burn", id, Some(&payment)).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

/// Two instances share one relayer key: one holds its lease and sends, the other hands its
/// payments over through the database. Twenty concurrent purchases across both all settle,
/// each charged once, with no nonce fights.
#[actix_web::test]
async fn two_instances_share_one_relayer_key_under_load() {
    let shop = Shop::open().await;
    let other = shop.app.sibling().await;
    other.wait_chain(true).await;
    let journals = shop.swarm_journals().await;
    let mut buyers = Vec::new();
    for _ in 0..20 {
        buyers.push(funded_buyer(&shop.chain).await);
    }
    let purchases = buyers.iter().enumerate().map(|(i, b)| {
        let base = if i % 2 == 0 {
            &shop.app.base
        } else {
            &other.base
        };
        let slug = journals[i % journals.len()].slug.clone();
        async move {
            let c = journal_market_client::Client::new(base.clone()).unwrap();
            c.buy(&slug, b).await
        }
    });
    let results = futures::future::join_all(purchases).await;
    for r in &results {
        assert!(r.is_ok(), "{r:?}");
    }
    for (i, b) in buyers.iter().enumerate() {
        let paid = transfers_from(&shop.chain, b.address()).await;
        assert_eq!(paid.len(), 1, "buyer {i} charged once: {paid:?}");
        let j = &journals[i % journals.len()];
        assert!(unlocked(&shop.app, b.address(), j.journal_id).await);
    }
}

/// A shop whose app reaches the chain through a fault proxy.
async fn shop_behind_proxy(
    f: impl FnOnce(&mut journal_market::config::Settings),
) -> (Shop, FaultProxy) {
    let chain = TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let url = proxy.url.clone();
    let app = chain
        .app_with(|s| {
            s.demo.load_on_first_start = true;
            s.cache.public_ttl_ms = 0;
            s.chain.rpc_urls = vec![journal_market::config::Secret::new(url)];
            f(s);
        })
        .await;
    (Shop { chain, app }, proxy)
}

/// A shop that settles through `journal-market-facilitator` reached through a fault proxy.
pub(crate) async fn shop_behind_facilitator_proxy(
    f: impl FnOnce(&mut journal_market::config::Settings),
) -> (Shop, FaultProxy) {
    let chain = TestChain::start().await;
    let facilitator = crate::pay::start_facilitator(&chain).await;
    let proxy = FaultProxy::start(&facilitator).await;
    let url = proxy.url.clone();
    let app = chain
        .app_with(|s| {
            s.demo.load_on_first_start = true;
            s.cache.public_ttl_ms = 0;
            s.payments.facilitator = url;
            s.payments.facilitator_token =
                journal_market::config::Secret::new(crate::pay::FACILITATOR_TOKEN);
            s.payments.relayer_key = journal_market::config::Key::default();
            f(s);
        })
        .await;
    (Shop { chain, app }, proxy)
}

/// Only this payment's transfer left the buyer, once, to `to`.
async fn charged_once(shop: &Shop, buyer: Address, to: Address, amount: i64) {
    let paid = transfers_from(&shop.chain, buyer).await;
    let to_us: Vec<_> = paid.iter().filter(|t| t.0 == to).collect();
    assert_eq!(to_us.len(), 1, "one charge: {paid:?}");
    assert_eq!(to_us[0].1, U256::from(amount));
}

/// `buyer` paid for journal `j` once, at its price, to the buyback wallet.
async fn charged_once_for(
    shop: &Shop,
    buyer: Address,
    j: &journal_market_client::api::JournalListItem,
) {
    let price = j.price_units.parse().unwrap();
    charged_once(shop, buyer, shop.buyback(), price).await;
}

/// The first buyer buys the first swarm journal while the proxy answers the first request that
/// holds `needle` with `fault`; the purchase answers with the text. The journal's id and price,
/// and the buyer.
async fn bought_through_fault<'a>(
    shop: &'a Shop,
    proxy: &FaultProxy,
    needle: &str,
    fault: Fault,
) -> (i64, i64, &'a Account) {
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let payment = shop.burn_payment_by(id, buyer).await;
    proxy.set(needle, fault, Some(1));
    let (s, b, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b["body"].is_string());
    (id, price, buyer)
}

/// The node takes the settle transaction and drops the connection before answering: the hash
/// was recorded before sending, so the request finds the receipt and answers with the text.
#[actix_web::test]
async fn a_node_that_drops_the_connection_after_taking_the_transaction() {
    let (shop, proxy) = shop_behind_proxy(|_| {}).await;
    let (id, price, buyer) = bought_through_fault(
        &shop,
        &proxy,
        "eth_sendRawTransaction",
        Fault::ForwardThenCut,
    )
    .await;
    assert_eq!(proxy.hits("eth_sendRawTransaction"), 1, "sent once");
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
    assert!(unlocked(&shop.app, buyer.address, id).await);
}

/// A relayer send fails (the node never sees it): the next nonce comes from the chain again, so
/// no gap stalls later sends; the failed payment and twenty concurrent ones all settle.
#[actix_web::test]
async fn a_failed_relayer_send_then_twenty_concurrent_purchases_all_settle() {
    let (shop, proxy) = shop_behind_proxy(|_| {}).await;
    let journals = shop.swarm_journals().await;
    let first = funded_buyer(&shop.chain).await;
    proxy.set("eth_sendRawTransaction", Fault::Status(500), Some(1));
    shop.client().buy(&journals[0].slug, &first).await.unwrap();
    let mut buyers = Vec::new();
    for _ in 0..20 {
        buyers.push(funded_buyer(&shop.chain).await);
    }
    let results = futures::future::join_all(buyers.iter().enumerate().map(|(i, b)| {
        let slug = journals[i % journals.len()].slug.clone();
        let c = shop.client();
        async move { c.buy(&slug, b).await }
    }))
    .await;
    for r in &results {
        assert!(r.is_ok(), "{r:?}");
    }
    for (i, b) in std::iter::once(&first).chain(&buyers).enumerate() {
        let j = &journals[if i == 0 { 0 } else { (i - 1) % journals.len() }];
        charged_once_for(&shop, b.address(), j).await;
    }
}

/// A clean stop gives the relayer key up: an instance under another name (another port) sends
/// the next purchase at once, not after the two-minute lease.
#[actix_web::test]
async fn a_clean_stop_hands_the_relayer_key_over_at_once() {
    let shop = Shop::open_with(|s| s.payments.lease_secs = 120).await;
    let journals = shop.swarm_journals().await;
    let first = funded_buyer(&shop.chain).await;
    shop.client().buy(&journals[0].slug, &first).await.unwrap();
    shop.app.stop().await;
    let other = shop.app.sibling().await;
    let buyer = funded_buyer(&shop.chain).await;
    journal_market_client::Client::new(other.base.clone())
        .unwrap()
        .buy(&journals[1].slug, &buyer)
        .await
        .unwrap();
    charged_once_for(&shop, buyer.address(), &journals[1]).await;
}

/// Where the node offers `eth_sendRawTransactionSync`, a purchase is one gas estimate (the
/// simulation) and one send answered with the receipt: no receipt polls, no look-up of the
/// transaction, none of the diagnostic reads, and the fee estimate of the first purchase serves
/// the next.
#[actix_web::test]
async fn a_send_answered_with_its_receipt_settles_without_polling() {
    let (shop, proxy) = shop_behind_proxy(|_| {}).await;
    let journals = shop.swarm_journals().await;
    for j in &journals[..2] {
        let buyer = funded_buyer(&shop.chain).await;
        shop.client().buy(&j.slug, &buyer).await.unwrap();
        charged_once_for(&shop, buyer.address(), j).await;
    }
    assert_eq!(proxy.hits("eth_sendRawTransactionSync"), 2);
    assert_eq!(proxy.hits("\"eth_sendRawTransaction\""), 0);
    assert_eq!(proxy.hits("eth_getTransactionReceipt"), 0);
    assert_eq!(proxy.hits("eth_getTransactionByHash"), 0);
    assert_eq!(proxy.hits("eth_estimateGas"), 2);
    let nonce_reads =
        alloy::hex::encode(journal_market_chain::bindings::IPermit2::nonceBitmapCall::SELECTOR);
    assert_eq!(proxy.hits(&nonce_reads), 0, "no diagnostic reads");
    assert!(
        proxy.hits("eth_feeHistory") <= 1,
        "fees estimated once a second"
    );
}

/// A node without `eth_sendRawTransactionSync` whose receipts cannot be read for a while after
/// the send: the settler falls back to `eth_sendRawTransaction`, the request answers 409 "still
/// settling" with Retry-After, reconciliation settles the row when the node answers again, and
/// the buyer's retry of the same payment gets the text.
#[actix_web::test]
async fn a_receipt_read_after_the_request_gave_up_still_unlocks() {
    let (shop, proxy) = shop_behind_proxy(|s| s.payments.receipt_wait_ms = 300).await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    // The retry below gets the text because it carries the payment's identifier.
    let payment = with_payment_id(
        shop.burn_payment_by(id, buyer).await,
        &new_payment_id().unwrap(),
    );
    proxy.set("eth_sendRawTransactionSync", Fault::NoMethod, None);
    proxy.set("eth_getTransactionReceipt", Fault::Status(502), Some(3));
    let (s, b, h) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(
        proxy.hits("\"eth_sendRawTransaction\""),
        1,
        "sent without Sync"
    );
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    assert!(
        b["error"].as_str().unwrap().contains("still settling"),
        "{b}"
    );
    assert!(h.get("retry-after").is_some());
    let mut answer = (s, b);
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (s, b, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
        answer = (s, b);
        if answer.0 == StatusCode::OK {
            break;
        }
        assert_eq!(answer.0, StatusCode::CONFLICT, "{}", answer.1);
    }
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    assert!(answer.1["body"].is_string());
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
}

crate::on_both_backends!(a_front_run_settle_of_the_same_permit_still_unlocks);

/// Another relayer settles the buyer's permit before we do: the nonce is spent, the search
/// finds that settle paying our recipient, and the buyer is unlocked without a second charge.
async fn a_front_run_settle_of_the_same_permit_still_unlocks(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let offer = shop.offer("pay/burn", id).await;
    let payment = sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap();
    let other_relayer = funded_buyer(&shop.chain).await;
    let c = &shop.chain.devnet.contracts;
    let front = journal_market_chain::facilitator::Facilitator::new(
        &shop.chain.devnet.rpc_url,
        4663,
        c.usdg,
        c.permit2,
        c.permit2_proxy,
        Some(other_relayer),
    )
    .unwrap()
    .settle(&payment, &offer.accepts[0], now())
    .await;
    assert!(front.success, "{front:?}");
    let (s, b, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["tx"].as_str(), Some(front.transaction.as_str()));
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
    assert!(unlocked(&shop.app, buyer.address, id).await);
}

/// The facilitator settles, then never answers: the request gives up on it, finds the settle
/// on the chain by the permit's nonce, and answers with the text; one charge.
#[actix_web::test]
async fn a_facilitator_that_settles_and_never_answers() {
    let (shop, proxy) = shop_behind_facilitator_proxy(|s| s.chain.rpc_timeout_ms = 500).await;
    let (id, price, buyer) =
        bought_through_fault(&shop, &proxy, "/settle", Fault::ForwardThenHang).await;
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
    assert!(unlocked(&shop.app, buyer.address, id).await);
}

/// The first RPC upstream is down: readiness, verification, the send and the receipts all go
/// to the next one, and the purchase completes.
#[actix_web::test]
async fn payments_fail_over_between_upstreams() {
    let chain = TestChain::start().await;
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let anvil = chain.devnet.rpc_url.clone();
    let app = chain
        .app_with(|s| {
            s.demo.load_on_first_start = true;
            s.cache.public_ttl_ms = 0;
            s.chain.rpc_urls = vec![
                journal_market::config::Secret::new(dead),
                journal_market::config::Secret::new(anvil),
            ];
        })
        .await;
    let shop = Shop { chain, app };
    let (id, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    shop.buy(&slug, buyer).await;
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
    assert!(unlocked(&shop.app, buyer.address, id).await);
}

/// A process restarted under its predecessor's name (by default its host and port) takes over
/// the predecessor's leases at once instead of waiting for them to end.
#[actix_web::test]
async fn a_restart_under_the_same_name_takes_over_at_once() {
    let shop = Shop::open_crashing(FaultPoint::AfterSend, "node-a").await;
    let (id, price, _) = stopped_purchase(&shop).await;
    let buyer = shop.buyer(0);
    shop.app.kill();
    let restarted = shop.without_fault().await;
    let started = Instant::now();
    while !unlocked(&restarted, buyer.address, id).await {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "not taken over within 10 s (the lease is 120 s)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    charged_once(&shop, buyer.address, shop.buyback(), price).await;
}

/// A migrated SQLite database of its own (in the returned folder), for query plans.
async fn plan_db() -> (tempfile::TempDir, sea_orm::DatabaseConnection) {
    let dir = tempfile::tempdir().unwrap();
    let settings =
        crate::helpers::test_settings(&format!("sqlite://{}/plan.db", dir.path().display()));
    let db = journal_market::db::connect(&settings.database)
        .await
        .unwrap();
    journal_market::db::migrate(&db).await.unwrap();
    (dir, db)
}

/// SQLite's plan of `sql`, a line per step.
async fn plan(
    db: &sea_orm::DatabaseConnection,
    sql: &str,
    values: Option<sea_orm::Values>,
) -> Vec<String> {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    db.query_all_raw(Statement {
        sql: format!("EXPLAIN QUERY PLAN {sql}"),
        values,
        db_backend: DbBackend::Sqlite,
    })
    .await
    .unwrap()
    .iter()
    .map(|r| r.try_get::<String>("", "detail").unwrap())
    .collect()
}

/// The payment rules read a wallet's payments for a journal in every payment's write
/// transaction: SQLite must look them up by wallet. Before, the read filtered on the state and
/// SQLite walked `ix_payments_state`, every settled payment, so each purchase held the write
/// lock longer than the last. (On SQLite in both suites: PostgreSQL's planner picks by table
/// statistics.)
#[actix_web::test]
async fn the_payment_rules_read_only_the_wallets_rows() {
    use journal_market_actors::settlement::store;
    use sea_orm::{DbBackend, QueryTrait};

    let (_dir, db) = plan_db().await;
    let q = store::of_wallet(Wallet(Address::repeat_byte(0xab)), 1).build(DbBackend::Sqlite);
    // Each time on whichever connection the pool hands out, with the values bound and without.
    for bound in [true, false, true, true] {
        let values = if bound { q.values.clone() } else { None };
        let plan = plan(&db, &q.sql, values).await;
        // Any of the indexes led by the wallet (its permits, its open steps).
        assert!(
            plan.len() == 1
                && plan[0].starts_with("SEARCH payments USING INDEX ")
                && plan[0].contains("(wallet=?"),
            "{plan:?} for {}",
            q.sql
        );
    }
}

/// A claim's check of the settled fee and a settle's statements (the hash, the row, the
/// unlock's sum of what the wallet paid) look up one wallet's rows on SQLite, never
/// `ix_payments_state`: the sum once walked every settled payment at each last step.
#[actix_web::test]
async fn a_claim_and_a_settle_read_only_the_wallets_rows() {
    use journal_market_actors::settlement::store;
    use sea_orm::sea_query::{Expr, Query, SqliteQueryBuilder};

    let (_dir, db) = plan_db().await;
    let fee = Query::select()
        .expr(Expr::exists(store::settled_fee(
            Wallet(Address::repeat_byte(0xab)),
            1,
        )))
        .to_string(SqliteQueryBuilder);
    let statements: Vec<String> = std::iter::once(fee)
        .chain(store::sqlite_statements().map(str::to_string))
        .collect();
    assert_eq!(statements.len(), 4);
    let mut checked = 0;
    for sql in statements {
        let plan = plan(&db, &sql, None).await;
        for step in plan.iter().filter(|p| p.contains(" payments ")) {
            checked += 1;
            assert!(
                step.starts_with("SEARCH payments USING ")
                    && (step.contains("(wallet=?") || step.contains("(rowid=?)")),
                "{plan:?} for {sql}"
            );
        }
    }
    // The fee check, the update and the sum.
    assert!(checked >= 3, "{checked} lookups of payments");
}

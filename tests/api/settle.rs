//! Payments you can trust: the rules bind the wallet that signed, and under faults, restarts
//! and a second instance every buyer whose USDG moved ends unlocked exactly once and nobody is
//! charged twice. Outcomes are read from the chain's `Transfer` logs, not from our tables.

use std::time::{Duration, Instant};

use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider as _;
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolEvent as _;
use jm_chain::bindings::{IERC20, IMintable};
use jm_chain::devnet::wallet_provider;
use jm_client::payer::sign_payment;
use journal_market_actors::settlement::FaultPoint;
use journal_market_entity::{payments, unlocks};
use reqwest::StatusCode;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::devchain::{Mined, TestChain};
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
    let signer = PrivateKeySigner::random();
    let deployer = chain.provider(chain.account("deployer", 0));
    let _: () = deployer
        .raw_request(
            "anvil_setBalance".into(),
            (signer.address(), U256::from(10u128.pow(18))),
        )
        .await
        .unwrap();
    let usdg = chain.devnet.contracts.usdg;
    IMintable::new(usdg, &deployer)
        .mint(signer.address(), U256::from(100_000_000u64))
        .mined()
        .await;
    let own = wallet_provider(&chain.devnet.rpc_url, signer.clone()).unwrap();
    IERC20::new(usdg, &own)
        .approve(chain.devnet.contracts.permit2, U256::MAX)
        .mined()
        .await;
    signer
}

async fn unlocked(app: &TestApp, wallet: Address, journal_id: i64) -> bool {
    unlocks::Entity::find_by_id((format!("{wallet:#x}"), journal_id as i32))
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
    shop.client()
        .buy(&slug, &bought.signer().unwrap())
        .await
        .unwrap();
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
    let mut settings = shop.app.settings.clone();
    settings.payments.fault = FaultPoint::None;
    let other = TestApp::start_on(settings, shop.app.db.clone()).await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let offer = shop.offer("pay/burn", id).await;
    let payment = sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap();
    let (s, _, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(
        s,
        StatusCode::INTERNAL_SERVER_ERROR,
        "the fault point stopped it"
    );
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
        assert_eq!(r.state, "pending", "taken over before the lease ended");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut state = String::new();
    while sent.elapsed() < lease + Duration::from_secs(10) {
        state = row().await.state;
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
    let c = jm_client::Client::new(other.base.clone()).unwrap();
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
    let journals: Vec<_> = shop
        .app
        .client
        .journals(None)
        .await
        .unwrap()
        .journals
        .into_iter()
        .filter(|j| j.author.swarm)
        .collect();
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
            let c = jm_client::Client::new(base.clone()).unwrap();
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

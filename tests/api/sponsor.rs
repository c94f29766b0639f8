//! x402 `erc20ApprovalGasSponsoring` with the built-in facilitator: a wallet holding USDG and
//! no gas buys its first journal by sending its signed `approve(Permit2, max)` with the
//! payment; every refusal leaves the chain as it was. Judged from the chain.

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::providers::{DynProvider, Provider};
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::bindings::IERC20;
use journal_market_client::payer::{
    ApprovalTx, new_payment_id, sign_approval, sign_payment, with_approval, with_payment_id,
};
use journal_market_devnet::deploy::Buyers;
use journal_market_x402::canonical;
use journal_market_x402::extensions::gas_sponsoring::{self, APPROVE_SELECTOR};
use journal_market_x402::{PaymentPayload, PaymentRequired};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::pay::{Backend, Shop, now};
use crate::replay::{assert_one_charge, charges};

/// The approval transaction a client signs, as the reference clients build it.
struct Approve {
    to: Address,
    spender: Address,
    amount: U256,
    nonce: u64,
    gas: u64,
    max_fee: u128,
    tip: u128,
}

impl Approve {
    /// What the reference clients sign: approve(Permit2, max) at the wallet's next nonce, 70000
    /// gas, twice the base fee plus a tip.
    async fn reference(shop: &Shop, from: Address) -> Approve {
        let p = reader(shop);
        let base = p
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .unwrap()
            .unwrap()
            .header
            .base_fee_per_gas
            .unwrap_or(1_000_000_000) as u128;
        Approve {
            to: shop.chain.devnet.contracts.usdg,
            spender: canonical::PERMIT2,
            amount: U256::MAX,
            nonce: p.get_transaction_count(from).pending().await.unwrap(),
            gas: 70_000,
            max_fee: base * 2 + 1_000_000_000,
            tip: 1_000_000_000,
        }
    }

    /// The extension's `info`, signed by `by` and claiming to come from `from`.
    fn info(&self, by: &PrivateKeySigner, from: Address) -> Value {
        let mut input = APPROVE_SELECTOR.to_vec();
        input.extend_from_slice(self.spender.into_word().as_slice());
        input.extend_from_slice(&self.amount.to_be_bytes::<32>());
        let mut tx = TxEip1559 {
            chain_id: 4663,
            nonce: self.nonce,
            gas_limit: self.gas,
            max_fee_per_gas: self.max_fee,
            max_priority_fee_per_gas: self.tip,
            to: TxKind::Call(self.to),
            value: U256::ZERO,
            access_list: Default::default(),
            input: Bytes::from(input),
        };
        let sig = by.sign_transaction_sync(&mut tx).unwrap();
        let raw = TxEnvelope::from(tx.into_signed(sig)).encoded_2718();
        json!({
            "description": gas_sponsoring::declare()["info"]["description"],
            "from": from.to_checksum(None),
            "asset": self.to.to_checksum(None),
            "spender": self.spender.to_checksum(None),
            "amount": self.amount.to_string(),
            "signedTransaction": alloy::hex::encode_prefixed(raw),
            "version": "1",
        })
    }
}

fn reader(shop: &Shop) -> DynProvider {
    shop.chain.provider(shop.chain.account("deployer", 0))
}

pub(crate) async fn eth(shop: &Shop, who: Address) -> U256 {
    reader(shop).get_balance(who).await.unwrap()
}

pub(crate) async fn allowance(shop: &Shop, who: Address) -> U256 {
    IERC20::new(shop.chain.devnet.contracts.usdg, reader(shop))
        .allowance(who, canonical::PERMIT2)
        .call()
        .await
        .unwrap()
}

/// The devnet's sponsor: a key of its own, not the relayer's.
fn sponsor(shop: &Shop) -> Address {
    shop.chain.account("sponsor", 0).address
}

/// The whole price's offer and a permit for it from `w`.
async fn payment(
    shop: &Shop,
    journal_id: i64,
    w: &PrivateKeySigner,
) -> (PaymentRequired, PaymentPayload) {
    let offer = shop.offer("pay/burn", journal_id).await;
    let p = sign_payment(&offer.accepts[0], None, w, now()).unwrap();
    (offer, p)
}

/// A new wallet holding only `price` USDG, and its payment of journal `id` carrying the
/// approval the reference clients sign (`map` may change the permit's payload first).
async fn sponsored_buyer(
    shop: &Shop,
    id: i64,
    price: i64,
    map: impl FnOnce(PaymentPayload) -> PaymentPayload,
) -> (PrivateKeySigner, PaymentPayload) {
    let w = shop.usdg_only_buyer(price).await;
    let (_, p) = payment(shop, id, &w).await;
    let a = Approve::reference(shop, w.address()).await;
    let paid = with_approval(map(p), a.info(&w, w.address()));
    (w, paid)
}

async fn scrape(shop: &Shop) -> String {
    let base = shop
        .app
        .metrics
        .as_ref()
        .expect("the metrics listener is on");
    reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// A purchase of `id` with `payment` is refused: 402, and an error that says `says`.
async fn assert_refused(shop: &Shop, id: i64, payment: &PaymentPayload, says: &str, what: &str) {
    let (status, body, _) = shop.raw_pay("pay/burn", id, Some(payment)).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{what}: {body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains(says), "{what}: {error}");
}

#[actix_web::test]
async fn a_wallet_with_only_usdg_buys_its_first_journal_through_a_sponsored_approval() {
    let shop = Shop::open_with(|s| s.metrics.listen = "127.0.0.1:0".into()).await;
    let (id, _, price) = shop.swarm_journal().await;
    let w = shop.usdg_only_buyer(price * 2).await;
    assert_eq!(eth(&shop, w.address()).await, U256::ZERO);
    assert_eq!(allowance(&shop, w.address()).await, U256::ZERO);

    let (offer, p) = payment(&shop, id, &w).await;
    let declared = &offer.extensions.as_ref().unwrap()[gas_sponsoring::KEY];
    assert_eq!(
        *declared,
        gas_sponsoring::declare(),
        "the challenge declares it"
    );

    let a = Approve::reference(&shop, w.address()).await;
    let most = U256::from(a.gas) * U256::from(a.max_fee);
    let sponsor_before = eth(&shop, sponsor(&shop)).await;
    // Signed by the client crate, as `jm` would.
    let info = sign_approval(
        &w,
        shop.chain.devnet.contracts.usdg,
        ApprovalTx {
            chain_id: 4663,
            nonce: a.nonce,
            gas: a.gas,
            max_fee_per_gas: a.max_fee,
            max_priority_fee_per_gas: a.tip,
        },
    )
    .unwrap();
    let (status, body, headers) = shop
        .raw_pay("pay/burn", id, Some(&with_approval(p, info)))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["body"].as_str().unwrap().starts_with("## "), "{body}");
    assert!(headers.contains_key("payment-response"));

    // From the chain: one charge, the allowance is there, and the wallet was given no more
    // than the approval's gas could cost (what is left of it is dust).
    assert_one_charge(&shop, w.address(), price).await;
    assert_eq!(allowance(&shop, w.address()).await, U256::MAX);
    let left = eth(&shop, w.address()).await;
    assert!(left < most, "{left} wei left of at most {most}");
    assert_eq!(
        reader(&shop)
            .get_transaction_count(w.address())
            .await
            .unwrap(),
        1,
        "the wallet sent its approval, and nothing else"
    );
    let spent = sponsor_before - eth(&shop, sponsor(&shop)).await;
    assert!(spent >= most, "the sponsor funded the gas: {spent}");

    let m = scrape(&shop).await;
    assert!(
        m.contains("jm_gas_sponsorships{outcome=\"settled\"} 1"),
        "{m}"
    );
    assert!(
        m.contains("jm_gas_sponsorships{outcome=\"unsettled\"} 0"),
        "{m}"
    );
    // What the sponsor spent: the wei sent and the funding's gas, as the chain says.
    assert!(m.contains(&format!("jm_gas_sponsored_wei {spent}")), "{m}");

    // The second purchase needs no sponsoring, and offering one anyway is refused.
    let j2 = shop.swarm_journals().await.remove(1);
    let (_, p2) = payment(&shop, j2.journal_id, &w).await;
    let again = Approve {
        nonce: 1,
        ..Approve::reference(&shop, w.address()).await
    };
    assert_refused(
        &shop,
        j2.journal_id,
        &with_approval(p2, again.info(&w, w.address())),
        "approved Permit2 already",
        "a second purchase",
    )
    .await;
    assert_eq!(charges(&shop, w.address()).await.len(), 1, "nothing moved");
}

#[actix_web::test]
async fn bad_sponsored_approvals_are_refused_and_nothing_moves() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let w = shop.usdg_only_buyer(price).await;
    let other = PrivateKeySigner::random();
    let sponsor_before = eth(&shop, sponsor(&shop)).await;

    type Case = (&'static str, fn(&mut Approve), bool, &'static str);
    let cases: [Case; 7] = [
        (
            "another token",
            |a| a.to = Address::repeat_byte(0x77),
            false,
            "not the token paid with",
        ),
        (
            "another spender",
            |a| a.spender = canonical::X402_PERMIT2_PROXY,
            false,
            "must be Permit2",
        ),
        ("absurd gas", |a| a.gas = 30_000_000, false, "gas limit"),
        (
            "absurd fee",
            |a| a.max_fee = 10u128.pow(15),
            false,
            "max fee per gas",
        ),
        (
            "too little",
            |a| a.amount = U256::from(1),
            false,
            "less than",
        ),
        ("a later nonce", |a| a.nonce = 3, false, "nonce"),
        ("another wallet's signature", |_| {}, true, "signed by"),
    ];
    for (what, change, foreign, says) in cases {
        let (_, p) = payment(&shop, id, &w).await;
        let mut a = Approve::reference(&shop, w.address()).await;
        change(&mut a);
        let signer = if foreign { &other } else { &w };
        let p = with_approval(p, a.info(signer, w.address()));
        assert_refused(&shop, id, &p, says, what).await;
    }

    // A wallet that approved Permit2 already is not sponsored.
    let approved = shop.chain.devnet.funded_buyer(price as u64).await.unwrap();
    let (_, p) = payment(&shop, id, &approved).await;
    let a = Approve::reference(&shop, approved.address()).await;
    assert_refused(
        &shop,
        id,
        &with_approval(p, a.info(&approved, approved.address())),
        "approved Permit2 already",
        "a wallet that approved Permit2",
    )
    .await;

    // Nothing moved: no charge, no gas sent, no approval, the sponsor untouched.
    assert!(charges(&shop, w.address()).await.is_empty());
    assert!(charges(&shop, approved.address()).await.is_empty());
    assert_eq!(eth(&shop, w.address()).await, U256::ZERO);
    assert_eq!(allowance(&shop, w.address()).await, U256::ZERO);
    assert_eq!(
        reader(&shop)
            .get_transaction_count(w.address())
            .await
            .unwrap(),
        0
    );
    assert_eq!(eth(&shop, sponsor(&shop)).await, sponsor_before);
}

#[actix_web::test]
async fn the_sponsoring_budget_is_kept_per_wallet() {
    let shop = Shop::open_with(|s| s.payments.sponsor.per_wallet_wei = 1_000).await;
    let (id, _, price) = shop.swarm_journal().await;
    let sponsor_before = eth(&shop, sponsor(&shop)).await;
    let (w, paid) = sponsored_buyer(&shop, id, price, |p| p).await;
    let (status, body, _) = shop.raw_pay("pay/burn", id, Some(&paid)).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("used up"),
        "{body}"
    );
    assert_eq!(eth(&shop, w.address()).await, U256::ZERO);
    assert_eq!(eth(&shop, sponsor(&shop)).await, sponsor_before);
    assert!(charges(&shop, w.address()).await.is_empty());
}

#[actix_web::test]
async fn an_outside_facilitator_that_does_not_list_it_gets_no_declaration() {
    let shop = Shop::open_on(Backend::Http).await;
    let (id, _, _) = shop.swarm_journal().await;
    let offer = shop.offer("pay/burn", id).await;
    let ext = offer.extensions.unwrap();
    assert!(ext.get("payment-identifier").is_some());
    assert!(ext.get(gas_sponsoring::KEY).is_none(), "{ext}");
}

/// A crash after the sponsored approval is mined and before the settle is sent: the restarted
/// instance settles the payment (the allowance is there now), once, and the buyer's retry of
/// the same payment gets the text.
#[actix_web::test]
async fn a_crash_after_the_approval_is_settled_by_the_restarted_instance() {
    use journal_market_actors::settlement::FaultPoint;
    let shop = Shop::open_crashing(FaultPoint::AfterApproval, "node-s").await;
    let (id, _, price) = shop.swarm_journal().await;
    // Sent with a payment-identifier: a retry of it is the buyer's way back to the answer.
    let (w, paid) = sponsored_buyer(&shop, id, price, |p| {
        journal_market_client::payer::with_payment_id(
            p,
            &journal_market_client::payer::new_payment_id().unwrap(),
        )
    })
    .await;
    let (status, body, _) = shop.raw_pay("pay/burn", id, Some(&paid)).await;
    assert!(status.is_server_error(), "{status} {body}");
    assert_eq!(allowance(&shop, w.address()).await, U256::MAX);
    assert!(charges(&shop, w.address()).await.is_empty());
    shop.app.kill();

    let restarted = shop.without_fault().await;
    let started = std::time::Instant::now();
    while charges(&shop, w.address()).await.is_empty() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "not settled after the restart"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // The row settles right after the chain's transfer: until then the retry hears 409.
    // The retry carries the first request's payment-identifier.
    let c = journal_market_client::Client::new(restarted.base.clone()).unwrap();
    let mut status = StatusCode::CONFLICT;
    while status == StatusCode::CONFLICT && started.elapsed() < std::time::Duration::from_secs(20) {
        status = c
            .pay_request("pay/burn", id, Some(&paid))
            .await
            .unwrap()
            .status();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, StatusCode::OK);
    assert_one_charge(&shop, w.address(), price).await;
}

/// An approval the sponsor paid for whose payment never settles (here: the permit's deadline
/// passes on the chain while the instance is down) is counted as unsettled.
#[actix_web::test]
async fn a_sponsored_approval_no_settle_followed_is_counted() {
    use journal_market_actors::settlement::FaultPoint;
    let shop = Shop::open_with(|s| {
        s.payments.fault = FaultPoint::AfterApproval;
        s.payments.instance_id = "node-u".into();
        s.metrics.listen = "127.0.0.1:0".into();
    })
    .await;
    let (id, _, price) = shop.swarm_journal().await;
    let (w, paid) = sponsored_buyer(&shop, id, price, |p| p).await;
    let (status, _, _) = shop.raw_pay("pay/burn", id, Some(&paid)).await;
    assert!(status.is_server_error());
    assert_eq!(allowance(&shop, w.address()).await, U256::MAX);
    shop.app.kill();
    // The permit's deadline passes on the chain.
    let chain = reader(&shop);
    chain
        .raw_request::<_, Value>("evm_increaseTime".into(), (3_600,))
        .await
        .unwrap();
    chain
        .raw_request::<_, Value>("evm_mine".into(), ())
        .await
        .unwrap();

    let restarted = shop.without_fault().await;
    let base = restarted.metrics.clone().unwrap();
    let started = std::time::Instant::now();
    loop {
        let m = reqwest::get(format!("{base}/metrics"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if m.contains("jm_gas_sponsorships{outcome=\"unsettled\"} 1") {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "not counted: {m}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        charges(&shop, w.address()).await.is_empty(),
        "never charged"
    );
}

/// Several first purchases without gas at once: each is sponsored and settled (the budget
/// sums and the new row are written under one write lock), one charge each. Each carries a
/// payment-identifier and is sent again on "still settling", as the client does: on a loaded
/// machine a settlement may outlast the request's deadline, and the reconciler then finishes
/// it (here every 200 ms, with its backoff, as in the other settlement tests).
#[actix_web::test]
async fn first_purchases_at_once_are_each_sponsored() {
    let shop = Shop::open_with(|s| s.payments.reconcile_every_ms = 200).await;
    let (id, _, price) = shop.swarm_journal().await;
    let mut buyers = Vec::new();
    for _ in 0..6 {
        let pid = new_payment_id().unwrap();
        buyers.push(sponsored_buyer(&shop, id, price, |p| with_payment_id(p, &pid)).await);
    }
    let answers = futures::future::join_all(
        buyers
            .iter()
            .map(|(_, paid)| pay_until_settled(&shop, id, paid)),
    )
    .await;
    for (status, body, _) in &answers {
        assert_eq!(*status, StatusCode::OK, "{body}");
    }
    for (w, _) in &buyers {
        assert_one_charge(&shop, w.address(), price).await;
    }
}

/// Sends `payment` for the burn step of `id` until it is no longer "still settling" (409 with
/// `Retry-After`), for at most a minute (the reconciler's longest backoff).
async fn pay_until_settled(
    shop: &Shop,
    id: i64,
    payment: &PaymentPayload,
) -> (StatusCode, Value, reqwest::header::HeaderMap) {
    let started = std::time::Instant::now();
    loop {
        let answer = shop.raw_pay("pay/burn", id, Some(payment)).await;
        let settling = answer.0 == StatusCode::CONFLICT && answer.2.contains_key("retry-after");
        if !settling || started.elapsed() > std::time::Duration::from_secs(60) {
            return answer;
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

/// The base fee of the block the node builds next.
async fn next_base_fee(shop: &Shop) -> u128 {
    let history = reader(shop)
        .get_fee_history(1, alloy::eips::BlockNumberOrTag::Latest, &[])
        .await
        .unwrap();
    *history.base_fee_per_gas.last().unwrap()
}

/// What `approve(Permit2, max)` from `who` costs in gas, by the node's estimate.
async fn approve_gas(shop: &Shop, who: Address) -> u64 {
    let usdg = IERC20::new(shop.chain.devnet.contracts.usdg, reader(shop));
    usdg.approve(canonical::PERMIT2, U256::MAX)
        .from(who)
        .estimate_gas()
        .await
        .unwrap()
}

/// Issue 41.1: a wallet asked to be funded for the ceilings (100,000 gas at 100 gwei, with a
/// tip of 1 wei) and kept nearly all of it. That approval is refused and nothing is funded;
/// the most the sponsor funds is the approval's estimate × 1.25 at twice the base fee plus
/// the approval's own tip, so the same attacker signing at those bounds buys its journal and
/// keeps dust, and the sponsor spends at most three times what the approval really burned.
#[actix_web::test]
async fn a_payer_asking_for_the_gas_ceilings_is_refused_and_at_the_bounds_keeps_dust() {
    let shop = Shop::open_with(|s| s.metrics.listen = "127.0.0.1:0".into()).await;
    let (id, _, price) = shop.swarm_journal().await;
    let w = shop.usdg_only_buyer(price).await;
    let sponsor_before = eth(&shop, sponsor(&shop)).await;

    // The attack as it was: the config's ceilings, the least tip.
    let greedy = Approve {
        gas: 100_000,
        max_fee: 100_000_000_000,
        tip: 1,
        ..Approve::reference(&shop, w.address()).await
    };
    let estimate = approve_gas(&shop, w.address()).await;
    let bound = estimate * 5 / 4;
    let fee_bound = 2 * next_base_fee(&shop).await + 1;
    let cases = [
        (greedy.gas, greedy.max_fee, "sponsored", "the ceilings"),
        (greedy.gas, fee_bound, "gas limit", "the ceiling's gas"),
        (
            bound,
            greedy.max_fee,
            "max fee per gas",
            "the ceiling's fee",
        ),
    ];
    for (gas, max_fee, says, what) in cases {
        let (_, p) = payment(&shop, id, &w).await;
        let a = Approve {
            gas,
            max_fee,
            ..Approve::reference(&shop, w.address()).await
        };
        let a = Approve { tip: 1, ..a };
        assert_refused(
            &shop,
            id,
            &with_approval(p, a.info(&w, w.address())),
            says,
            what,
        )
        .await;
    }
    assert_eq!(eth(&shop, w.address()).await, U256::ZERO, "nothing funded");
    assert_eq!(eth(&shop, sponsor(&shop)).await, sponsor_before);
    assert!(charges(&shop, w.address()).await.is_empty());

    // The same attacker at the bounds: it buys, and keeps dust.
    let base = next_base_fee(&shop).await;
    let at_bounds = Approve {
        gas: bound,
        max_fee: 2 * base + 1,
        ..greedy
    };
    let (_, p) = payment(&shop, id, &w).await;
    let (status, body, _) = shop
        .raw_pay(
            "pay/burn",
            id,
            Some(&with_approval(p, at_bounds.info(&w, w.address()))),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_one_charge(&shop, w.address(), price).await;
    let kept = eth(&shop, w.address()).await;
    assert!(
        kept <= U256::from(10u64.pow(13)),
        "the wallet kept {kept} wei"
    );
    let spent = sponsor_before - eth(&shop, sponsor(&shop)).await;
    let approval = reader(&shop)
        .get_transaction_receipt(alloy::primitives::keccak256(
            alloy::hex::decode(
                at_bounds.info(&w, w.address())["signedTransaction"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap(),
        ))
        .await
        .unwrap()
        .expect("the approval was mined");
    // Its real cost at the fee market the sponsor paid: its gas at the base fee of the block
    // the funding was mined in, the one before its own (the devnet's base fee falls by an
    // eighth with each nearly empty block, so the approval itself burns a little less).
    let funding_block = approval.block_number.unwrap() - 1;
    let funding_base = reader(&shop)
        .get_block_by_number(funding_block.into())
        .await
        .unwrap()
        .unwrap()
        .header
        .base_fee_per_gas
        .unwrap();
    let cost = U256::from(approval.gas_used) * U256::from(u128::from(funding_base) + at_bounds.tip);
    assert!(
        spent <= cost * U256::from(3),
        "the sponsor spent {spent} wei for an approval that costs {cost}"
    );
    let burned = U256::from(approval.gas_used) * U256::from(approval.effective_gas_price);
    eprintln!(
        "estimate {estimate}, used {}, sponsor spent {spent}, cost at the funding's base fee {cost}, burned {burned}, kept {kept}",
        approval.gas_used
    );
    // What the wallet kept, as the metrics have it (it held nothing before).
    let m = scrape(&shop).await;
    assert!(
        m.contains(&format!("jm_gas_sponsor_kept_wei_total {kept}")),
        "{m}"
    );
}

/// Sends `data` to `to` as `who` (impersonated on anvil, with ether lent for the gas), and
/// waits until it is mined when `mined`.
async fn send_as(shop: &Shop, who: Address, to: Address, data: Vec<u8>, mined: bool) {
    let chain = reader(shop);
    chain
        .raw_request::<_, Value>("anvil_setBalance".into(), (who, U256::from(10u64.pow(17))))
        .await
        .unwrap();
    chain
        .raw_request::<_, Value>("anvil_impersonateAccount".into(), (who,))
        .await
        .unwrap();
    let hash: alloy::primitives::B256 = chain
        .raw_request(
            "eth_sendTransaction".into(),
            (json!({
                "from": who,
                "to": to,
                "data": alloy::hex::encode_prefixed(data),
            }),),
        )
        .await
        .unwrap();
    let started = std::time::Instant::now();
    while mined && chain.get_transaction_receipt(hash).await.unwrap().is_none() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "not mined"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Issue 41.1: the settle is simulated with the approval applied before anything is funded,
/// so a payment that could not settle once approved costs the sponsor nothing; and a wallet
/// with a transaction of its own waiting in the pool (which could take the approval's place
/// once funded) is refused.
#[actix_web::test]
async fn a_payment_that_would_not_settle_or_a_waiting_nonce_is_not_funded() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let sponsor_before = eth(&shop, sponsor(&shop)).await;
    let chain = reader(&shop);

    // The wallet spends its permit's Permit2 nonce first: the settle would revert.
    let w = shop.usdg_only_buyer(price).await;
    let (_, p) = payment(&shop, id, &w).await;
    let nonce: U256 = p.payload.permit2_authorization.nonce.parse().unwrap();
    let mut data =
        alloy::primitives::keccak256("invalidateUnorderedNonces(uint256,uint256)")[..4].to_vec();
    let word: U256 = nonce >> 8usize;
    let bit: usize = (nonce & U256::from(0xff)).to::<usize>();
    let mask: U256 = U256::from(1) << bit;
    data.extend_from_slice(&word.to_be_bytes::<32>());
    data.extend_from_slice(&mask.to_be_bytes::<32>());
    send_as(&shop, w.address(), canonical::PERMIT2, data, true).await;
    chain
        .raw_request::<_, Value>("anvil_setBalance".into(), (w.address(), U256::ZERO))
        .await
        .unwrap();
    let a = Approve::reference(&shop, w.address()).await;
    assert_eq!(a.nonce, 1);
    assert_refused(
        &shop,
        id,
        &with_approval(p, a.info(&w, w.address())),
        "settle would revert",
        "a used permit",
    )
    .await;
    assert_eq!(eth(&shop, w.address()).await, U256::ZERO, "nothing funded");
    assert_eq!(allowance(&shop, w.address()).await, U256::ZERO);
    assert_eq!(eth(&shop, sponsor(&shop)).await, sponsor_before);

    // A wallet whose own transaction waits in the pool at the nonce before the approval's.
    let (w2, _) = sponsored_buyer(&shop, id, price, |p| p).await;
    chain
        .raw_request::<_, Value>("evm_setAutomine".into(), (false,))
        .await
        .unwrap();
    send_as(&shop, w2.address(), w2.address(), Vec::new(), false).await;
    let (_, p2) = payment(&shop, id, &w2).await;
    let a2 = Approve::reference(&shop, w2.address()).await;
    assert_eq!(a2.nonce, 1, "the pool's next nonce");
    assert_refused(
        &shop,
        id,
        &with_approval(p2, a2.info(&w2, w2.address())),
        "waiting",
        "a waiting transaction",
    )
    .await;
    chain
        .raw_request::<_, Value>("evm_setAutomine".into(), (true,))
        .await
        .unwrap();
    assert_eq!(eth(&shop, sponsor(&shop)).await, sponsor_before);
    assert!(charges(&shop, w.address()).await.is_empty());
    assert!(charges(&shop, w2.address()).await.is_empty());
}

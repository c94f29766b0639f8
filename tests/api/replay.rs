//! A settled permit is public (the proxy's `settle` calldata holds all of it): rebuilt from the
//! chain by an observer it opens nothing, while the buyer's own retry with its
//! payment-identifier gets the first answer, and charges are judged from the chain's logs.

use alloy::consensus::Transaction as _;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::sol_types::SolCall;
use journal_market_chain::bindings::IX402ExactPermit2Proxy;
use journal_market_client::payer::{new_payment_id, sign_payment, with_payment_id};
use journal_market_x402::{
    PaymentPayload, PaymentRequirements, Permit2Authorization, Permit2Payload, Permitted,
    WitnessJson,
};
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::session_address;
use crate::pay::{Shop, now};
use crate::settle::transfers_from;
use crate::shape::assert_error_body;

/// Every USDG transfer out of `who` on the chain: (to, amount).
pub(crate) async fn charges(shop: &Shop, who: Address) -> Vec<(Address, U256)> {
    transfers_from(&shop.chain, who)
        .await
        .into_iter()
        .map(|(to, amount, _)| (to, amount))
        .collect()
}

/// Asserts that `who` was charged once on the chain: `price` to the buyback address.
pub(crate) async fn assert_one_charge(shop: &Shop, who: Address, price: i64) {
    assert_eq!(
        charges(shop, who).await,
        vec![(shop.buyback(), U256::from(price))],
        "one charge"
    );
}

/// What an observer rebuilds from a settle transaction: the whole x402 payload, for the offer
/// anyone can ask for.
async fn rebuilt_from_chain(shop: &Shop, tx: &str, offer: &PaymentRequirements) -> PaymentPayload {
    let sent = shop
        .chain
        .provider(shop.chain.account("deployer", 0))
        .get_transaction_by_hash(tx.parse::<B256>().unwrap())
        .await
        .unwrap()
        .unwrap();
    let c = IX402ExactPermit2Proxy::settleCall::abi_decode(sent.inner.input()).unwrap();
    PaymentPayload {
        x402_version: 2,
        resource: None,
        accepted: offer.clone(),
        payload: Permit2Payload {
            signature: format!("0x{}", alloy::hex::encode(&c.signature)),
            permit2_authorization: Permit2Authorization {
                from: c.owner.to_checksum(None),
                permitted: Permitted {
                    token: c.permit.permitted.token.to_checksum(None),
                    amount: c.permit.permitted.amount.to_string(),
                },
                spender: sent.inner.to().unwrap().to_checksum(None),
                nonce: c.permit.nonce.to_string(),
                deadline: c.permit.deadline.to_string(),
                witness: WitnessJson {
                    to: c.witness.to.to_checksum(None),
                    valid_after: c.witness.validAfter.to_string(),
                },
            },
        },
        extensions: None,
    }
}

/// Sends `payment` from a client of its own; returns the answer and that client (its cookie
/// jar holds whatever session the answer set).
async fn send(
    shop: &Shop,
    path: &str,
    id: i64,
    payment: &PaymentPayload,
) -> (StatusCode, Value, bool, journal_market_client::Client) {
    let client = shop.client();
    let resp = client.pay_request(path, id, Some(payment)).await.unwrap();
    let status = resp.status();
    let cookie = resp.headers().get("set-cookie").is_some();
    (status, resp.json().await.unwrap(), cookie, client)
}

#[actix_web::test]
async fn a_permit_rebuilt_from_the_chain_opens_nothing_for_an_observer() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let offer = shop.offer("pay/burn", id).await;
    let pid = new_payment_id().unwrap();
    let payment = with_payment_id(
        sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap(),
        &pid,
    );
    let (s, first, cookie, _) = send(&shop, "pay/burn", id, &payment).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    assert!(cookie && first["body"].is_string());
    let tx = first["tx"].as_str().unwrap().to_string();

    // The observer: everything from the settle calldata, within the permit's deadline.
    let stolen = rebuilt_from_chain(&shop, &tx, &offer.accepts[0]).await;
    assert_eq!(
        stolen.payload, payment.payload,
        "the chain holds the whole permit"
    );
    let (s, b, cookie, observer) = send(&shop, "pay/burn", id, &stolen).await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    assert_error_body(&b);
    assert!(
        b["error"].as_str().unwrap().contains("settled already"),
        "{b}"
    );
    assert!(b.get("body").is_none() && b.get("html").is_none(), "{b}");
    assert!(!cookie, "no session for an observer");
    assert_eq!(observer.me().await.unwrap().address, None);
    // With an id of the observer's own, or the buyer's id with another wallet's payment:
    // nothing.
    let (s, b, cookie, _) = send(
        &shop,
        "pay/burn",
        id,
        &with_payment_id(stolen.clone(), &new_payment_id().unwrap()),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    assert!(b.get("body").is_none() && !cookie, "{b}");
    let other = with_payment_id(
        sign_payment(
            &offer.accepts[0],
            None,
            &shop.buyer(1).signer().unwrap(),
            now(),
        )
        .unwrap(),
        &pid,
    );
    let (s, b, cookie, _) = send(&shop, "pay/burn", id, &other).await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    assert!(
        b["error"].as_str().unwrap().contains("payment-identifier"),
        "{b}"
    );
    assert!(b.get("body").is_none() && !cookie, "{b}");

    // The buyer signing anew under its id (as reference clients do on a retry): the first
    // answer, and the new permit is never settled (one charge, checked below).
    let resigned = with_payment_id(
        sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap(),
        &pid,
    );
    let (s, b, _, _) = send(&shop, "pay/burn", id, &resigned).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b, first);

    // The buyer, whose answer was lost, sends the same payload again: the first answer.
    let (s, again, cookie, client) = send(&shop, "pay/burn", id, &payment).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again, first);
    assert!(cookie);
    assert_eq!(session_address(&client).await, Some(buyer.address));

    // One charge, judged from the chain.
    assert_one_charge(&shop, buyer.address, price).await;
}

#[actix_web::test]
async fn a_person_written_journal_replayed_step_by_step_opens_nothing() {
    let shop = Shop::open().await;
    let (id, _) = shop.person_journal(0, "2.5").await;
    let buyer = shop.buyer(1);
    let signer = buyer.signer().unwrap();
    let pid = [new_payment_id().unwrap(), new_payment_id().unwrap()];
    let mut txs = Vec::new();
    let mut offers = Vec::new();
    for (path, pid) in ["pay/burn", "pay/author"].into_iter().zip(&pid) {
        let offer = shop.offer(path, id).await;
        let payment = with_payment_id(
            sign_payment(&offer.accepts[0], None, &signer, now()).unwrap(),
            pid,
        );
        let (s, b, _, _) = send(&shop, path, id, &payment).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        txs.push((b["tx"].as_str().unwrap().to_string(), payment));
        offers.push(offer);
    }
    for (n, path) in ["pay/burn", "pay/author"].into_iter().enumerate() {
        let stolen = rebuilt_from_chain(&shop, &txs[n].0, &offers[n].accepts[0]).await;
        let (s, b, cookie, observer) = send(&shop, path, id, &stolen).await;
        assert_eq!(s, StatusCode::CONFLICT, "{path}: {b}");
        assert!(b.get("body").is_none() && !cookie, "{path}: {b}");
        assert_eq!(observer.me().await.unwrap().address, None);
    }
    // The buyer's retry of the last step with its id: the text again.
    let (s, b, cookie, _) = send(&shop, "pay/author", id, &txs[1].1).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b["body"].is_string() && cookie);
    assert_eq!(charges(&shop, buyer.address).await.len(), 2);
}

/// Fifty copies of one payload with a payment-identifier, at once: one settlement, one charge;
/// each answer is the settlement or "still settling"; afterwards the same payload gets the text.
#[actix_web::test]
async fn fifty_retries_with_one_payment_identifier_settle_once() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(2);
    let payment = with_payment_id(
        shop.burn_payment_by(id, buyer).await,
        &new_payment_id().unwrap(),
    );
    let tries = (0..50).map(|_| shop.raw_pay("pay/burn", id, Some(&payment)));
    let results = futures::future::join_all(tries).await;
    let mut txs = std::collections::BTreeSet::new();
    for (s, b, h) in &results {
        match *s {
            StatusCode::OK => {
                assert!(b["body"].is_string(), "{b}");
                txs.insert(b["tx"].as_str().unwrap().to_string());
            }
            StatusCode::CONFLICT => assert!(h.get("retry-after").is_some(), "{b}"),
            s => panic!("{s}: {b}"),
        }
    }
    assert!(txs.len() <= 1, "{txs:?}");
    let (s, again, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert!(again["body"].is_string());
    assert_one_charge(&shop, buyer.address, price).await;
}

#[actix_web::test]
async fn a_malformed_payment_identifier_is_a_400_and_moves_nothing() {
    let shop = Shop::open().await;
    let (id, _, _) = shop.swarm_journal().await;
    let buyer = shop.buyer(3);
    let payment = with_payment_id(shop.burn_payment_by(id, buyer).await, "short");
    let (s, b, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    assert!(
        b["error"].as_str().unwrap().contains("payment-identifier"),
        "{b}"
    );
    assert!(charges(&shop, buyer.address).await.is_empty());
}

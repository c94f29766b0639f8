//! Sign-in-with-x: a wallet that bought a journal reads it again with a signed proof only (no
//! payment, no session), on the payment routes and the journal's detail; every other proof is
//! refused with a clear 402 (or 401 on the detail) and moves nothing.

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use journal_market_client::siwx::proof_header;
use journal_market_x402::extensions::siwx::{self, Proof};
use journal_market_x402::{self as x402, PaymentRequired};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{send_json, session_address};
use crate::pay::Shop;
use crate::replay::charges;

/// POSTs `/pay/burn` for `id` with a `SIGN-IN-WITH-X` header from a client of its own.
async fn read_with(
    shop: &Shop,
    id: i64,
    header: &str,
) -> (StatusCode, Value, bool, journal_market_client::Client) {
    let client = shop.client();
    let resp = shop
        .app
        .http
        .post(format!("{}/pay/burn", shop.app.base))
        .header(siwx::HEADER, header)
        .json(&json!({ "journalId": id }))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let cookie = resp.headers().get("set-cookie").is_some();
    (status, resp.json().await.unwrap(), cookie, client)
}

/// A proof with one field changed, signed by `signer` for the address it names.
fn tampered(c: &PaymentRequired, signer: &PrivateKeySigner, f: impl FnOnce(&mut Proof)) -> String {
    let h = proof_header(c, signer).unwrap();
    let mut p: Proof = x402::decode_header(&h).unwrap();
    f(&mut p);
    let address: Address = p.address.parse().unwrap();
    let m = siwx::message(&p, address);
    use alloy::signers::SignerSync;
    p.signature = format!(
        "0x{}",
        alloy::hex::encode(signer.sign_message_sync(m.as_bytes()).unwrap().as_bytes())
    );
    x402::encode_header(&p).unwrap()
}

fn refused(s: StatusCode, b: &Value, cookie: bool, why: &str) {
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{why}: {b}");
    assert!(b["error"].as_str().unwrap().contains(why), "{why}: {b}");
    assert!(b.get("body").is_none() && !cookie, "{why}: {b}");
    assert!(
        b["accepts"].is_array(),
        "a fresh challenge to pay with: {b}"
    );
}

#[actix_web::test]
async fn a_buyer_reads_again_a_day_later_with_a_proof_only() {
    let shop = Shop::open().await;
    let (id, slug, _) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let signer = buyer.signer().unwrap();
    let bought = shop.client().buy(&slug, &signer).await.unwrap();

    // Every journal 402 declares the extension, each with a nonce of its own.
    let c1 = shop.client().challenge(id).await.unwrap();
    let c2 = shop.client().challenge(id).await.unwrap();
    let info = |c: &PaymentRequired| c.extensions.as_ref().unwrap()["sign-in-with-x"].clone();
    assert_eq!(
        info(&c1)["supportedChains"],
        json!([{ "chainId": "eip155:4663", "type": "eip191" }])
    );
    let uri = info(&c1)["info"]["uri"].as_str().unwrap().to_string();
    assert!(uri.ends_with("/api/pay/burn"), "the resource: {uri}");
    assert_ne!(info(&c1)["info"]["nonce"], info(&c2)["info"]["nonce"]);

    shop.app.clock.advance(chrono::Duration::days(1));
    let reader = shop.client();
    let read = reader.read_bought(&slug, &signer).await.unwrap();
    assert_eq!(read.body, bought.body);
    assert_eq!(read.txs, bought.txs, "the transaction that paid");
    assert_eq!(
        session_address(&reader).await,
        Some(buyer.address),
        "the answer opened a session"
    );

    // The detail accepts a proof too.
    let c = shop.client().challenge(id).await.unwrap();
    let d = send_json(
        shop.app
            .http
            .get(format!("{}/journals/{slug}", shop.app.base))
            .header(siwx::HEADER, proof_header(&c, &signer).unwrap()),
    )
    .await;
    assert_eq!(d["unlocked"], true);
    assert_eq!(d["body"].as_str(), Some(bought.body.as_str()));
    assert_eq!(
        charges(&shop, buyer.address).await.len(),
        1,
        "one charge in all"
    );
}

#[actix_web::test]
async fn proofs_that_do_not_hold_are_refused_and_move_nothing() {
    let shop = Shop::open().await;
    let (id, slug, _) = shop.swarm_journal().await;
    let buyer = shop.buyer(1);
    let signer = buyer.signer().unwrap();
    shop.client().buy(&slug, &signer).await.unwrap();
    let c = || async { shop.client().challenge(id).await.unwrap() };

    let h = tampered(&c().await, &signer, |p| p.domain = "evil.example".into());
    let (s, b, cookie, _) = read_with(&shop, id, &h).await;
    refused(s, &b, cookie, "domain");

    let h = tampered(&c().await, &signer, |p| {
        p.issued_at = siwx::ts(&(chrono::Utc::now() - chrono::Duration::minutes(6)));
        p.expiration_time = None;
    });
    let (s, b, cookie, _) = read_with(&shop, id, &h).await;
    refused(s, &b, cookie, "more than 5 minutes ago");

    // Another wallet's signature over the buyer's address.
    let other = shop.buyer(2).signer().unwrap();
    let mut p: Proof = x402::decode_header(&proof_header(&c().await, &other).unwrap()).unwrap();
    p.address = buyer.address.to_checksum(None);
    let (s, b, cookie, _) = read_with(&shop, id, &x402::encode_header(&p).unwrap()).await;
    refused(s, &b, cookie, "signature");

    // A wallet that never bought: a valid proof, the usual 402.
    let (s, b, cookie, _) = read_with(&shop, id, &proof_header(&c().await, &other).unwrap()).await;
    refused(s, &b, cookie, "has not bought");

    // A proof used twice: the second is refused, on any instance (the nonce is a row).
    let h = proof_header(&c().await, &signer).unwrap();
    let (s, b, cookie, _) = read_with(&shop, id, &h).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b["body"].is_string() && cookie);
    let (s, b, cookie, _) = read_with(&shop, id, &h).await;
    refused(s, &b, cookie, "already used");

    // Not base64 JSON.
    let (s, b, cookie, _) = read_with(&shop, id, "not a proof").await;
    refused(s, &b, cookie, "SIGN-IN-WITH-X");

    // On the detail: 401 for a refused proof, nothing revealed.
    let r = shop
        .app
        .http
        .get(format!("{}/journals/{slug}", shop.app.base))
        .header(siwx::HEADER, &h)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let b: Value = r.json().await.unwrap();
    assert!(b["error"].as_str().unwrap().contains("already used"), "{b}");

    assert_eq!(charges(&shop, buyer.address).await.len(), 1);
    assert!(charges(&shop, shop.buyer(2).address).await.is_empty());
}

/// Proofs verified at the same moment have their nonces written together: the same proof sent
/// twelve times at once opens the journal once, and different proofs sent at once each open it.
#[actix_web::test]
async fn a_proof_sent_many_times_at_once_is_used_once() {
    let shop = Shop::open().await;
    let (id, slug, _) = shop.swarm_journal().await;
    let signer = shop.buyer(0).signer().unwrap();
    shop.client().buy(&slug, &signer).await.unwrap();

    let c = shop.client().challenge(id).await.unwrap();
    let header = proof_header(&c, &signer).unwrap();
    let same = futures::future::join_all((0..12).map(|_| read_with(&shop, id, &header))).await;
    let opened = same.iter().filter(|r| r.0 == StatusCode::OK).count();
    assert_eq!(
        opened,
        1,
        "{:?}",
        same.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    for (s, b, cookie, _) in same.iter().filter(|r| r.0 != StatusCode::OK) {
        refused(*s, b, *cookie, "used");
    }

    let mut headers = Vec::new();
    for _ in 0..8 {
        let c = shop.client().challenge(id).await.unwrap();
        headers.push(proof_header(&c, &signer).unwrap());
    }
    let each = futures::future::join_all(headers.iter().map(|h| read_with(&shop, id, h))).await;
    assert!(
        each.iter().all(|r| r.0 == StatusCode::OK),
        "{:?}",
        each.iter().map(|r| r.0).collect::<Vec<_>>()
    );
}

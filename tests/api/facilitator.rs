//! `journal-market-facilitator` hardened: constant-time bearer check, one settlement per
//! permit (a duplicate gets the first answer and sends nothing), the hash in every answer
//! after sending (a receipt timeout included).

use std::time::Duration;

use alloy::primitives::U256;
use alloy::providers::Provider as _;
use journal_market_x402::{self as x402, PaymentPayload, PaymentRequirements};
use reqwest::StatusCode;
use serde_json::Value;

use crate::devchain::TestChain;
use crate::pay::{FACILITATOR_TOKEN, burn_payment, relayer_facilitator, serve_facilitator};
use crate::settle::transfers_from;

async fn settle(
    url: &str,
    token: &str,
    p: &PaymentPayload,
    r: &PaymentRequirements,
) -> (StatusCode, Value) {
    let body =
        serde_json::json!({ "x402Version": 2, "paymentPayload": p, "paymentRequirements": r });
    let resp = reqwest::Client::new()
        .post(format!("{url}/settle"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    (resp.status(), resp.json().await.unwrap_or(Value::Null))
}

#[actix_web::test]
async fn the_token_is_checked_whole() {
    let chain = TestChain::start().await;
    let url = serve_facilitator(relayer_facilitator(&chain)).await;
    let (p, r) = burn_payment(&chain, 1);
    for wrong in ["", "sesam", "sesame!", "SESAME"] {
        assert_eq!(
            settle(&url, wrong, &p, &r).await.0,
            StatusCode::UNAUTHORIZED,
            "{wrong:?}"
        );
    }
}

#[actix_web::test]
async fn a_permit_is_settled_once_and_duplicates_get_the_first_answer() {
    let chain = TestChain::start().await;
    let url = serve_facilitator(relayer_facilitator(&chain)).await;
    let (p, r) = burn_payment(&chain, 250_000);
    let buyer = chain.account("buyer", 0).address;
    let before = transfers_from(&chain, buyer).await.len();
    let (a, b) = futures::join!(
        settle(&url, FACILITATOR_TOKEN, &p, &r),
        settle(&url, FACILITATOR_TOKEN, &p, &r)
    );
    assert_eq!(a.1["success"], true, "{}", a.1);
    assert_eq!(a, b, "concurrent duplicates get the same answer");
    let later = settle(&url, FACILITATOR_TOKEN, &p, &r).await;
    assert_eq!(later, a, "a later duplicate too, not permit2_invalid_nonce");
    let after = transfers_from(&chain, buyer).await;
    assert_eq!(after.len(), before + 1, "one transfer");
    assert_eq!(
        format!("{:#x}", after.last().unwrap().2),
        a.1["transaction"]
    );
}

#[actix_web::test]
async fn a_receipt_timeout_answers_with_the_hash() {
    let chain = TestChain::start().await;
    let url = serve_facilitator(
        relayer_facilitator(&chain).with_receipt_timeout(Duration::from_millis(300)),
    )
    .await;
    let (p, r) = burn_payment(&chain, 300_000);
    let node = chain.provider(chain.account("deployer", 0));
    let _: () = node
        .raw_request("evm_setAutomine".into(), (false,))
        .await
        .unwrap();
    let (status, answer) = settle(&url, FACILITATOR_TOKEN, &p, &r).await;
    assert_eq!(status, StatusCode::OK);
    let s: x402::SettleResponse = serde_json::from_value(answer).unwrap();
    assert!(!s.success);
    assert_eq!(s.error_reason.as_deref(), Some("settle_receipt_timeout"));
    let tx = s.transaction.parse().expect("the hash it sent");
    let _: String = node.raw_request("evm_mine".into(), ()).await.unwrap();
    let receipt = node.get_transaction_receipt(tx).await.unwrap().unwrap();
    assert!(
        relayer_facilitator(&chain).transfer_in(
            &receipt,
            chain.account("buyer", 0).address,
            chain.account("buyback", 0).address,
            U256::from(300_000u64),
        ),
        "the hash answered is the transfer that was made"
    );
}

/// The facilitator settles, the connection is cut before the answer: the client's retry of the
/// same request gets the first settlement's answer, and only one transfer was made.
#[actix_web::test]
async fn a_settle_whose_answer_was_lost_is_answered_on_retry() {
    use crate::faultproxy::{Fault, FaultProxy};
    let chain = TestChain::start().await;
    let proxy = FaultProxy::start(&serve_facilitator(relayer_facilitator(&chain)).await).await;
    let (p, r) = burn_payment(&chain, 400_000);
    let buyer = chain.account("buyer", 0).address;
    let before = transfers_from(&chain, buyer).await.len();
    proxy.set("/settle", Fault::ForwardThenCut, Some(1));
    let body =
        serde_json::json!({ "x402Version": 2, "paymentPayload": &p, "paymentRequirements": &r });
    let lost = reqwest::Client::new()
        .post(format!("{}/settle", proxy.url))
        .bearer_auth(FACILITATOR_TOKEN)
        .json(&body)
        .send()
        .await;
    assert!(lost.is_err(), "the answer was cut off");
    let (status, answer) = settle(&proxy.url, FACILITATOR_TOKEN, &p, &r).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["success"], true, "{answer}");
    let after = transfers_from(&chain, buyer).await;
    assert_eq!(after.len(), before + 1, "one transfer");
    assert_eq!(
        format!("{:#x}", after.last().unwrap().2),
        answer["transaction"]
    );
}

/// The facilitator is a binary of its own: started with a devnet file and the relayer's key, it
/// answers `/supported` for the chain.
#[actix_web::test]
async fn the_facilitator_binary_serves_its_chain() {
    let chain = TestChain::start().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("devnet.json");
    std::fs::write(&file, serde_json::to_vec(&chain.devnet).unwrap()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_journal-market-facilitator"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("JM__CHAIN__DEVNET_FILE", &file)
        .env(
            "JM__PAYMENTS__RELAYER_KEY",
            &chain.account("relayer", 0).private_key,
        )
        .env("JM__LOG__FILTER", "warn")
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}/supported");
    let mut answer = None;
    for _ in 0..100 {
        if let Ok(r) = reqwest::get(&url).await {
            answer = Some((r.status(), r.json::<Value>().await.unwrap_or(Value::Null)));
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let (status, body) = answer.expect("the facilitator binary answers");
    assert_eq!(status, StatusCode::OK, "{body}");
    let kinds = body["kinds"].as_array().expect("kinds");
    assert!(
        kinds
            .iter()
            .any(|k| k["scheme"] == "exact" && k["network"] == "eip155:4663"),
        "{body}"
    );
}

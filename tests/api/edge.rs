//! The edge: rate limits per client and route class, and sign-in that cannot be starved or
//! tried without end.

use std::time::Duration;

use alloy::primitives::B256;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::devchain::TestChain;
use crate::faultproxy::{Fault, FaultProxy};
use crate::helpers::{self, TestApp, send_json};
use crate::shape::assert_error_body;
use journal_market::config::ClassLimit;
use journal_market_chain::devnet_file::Account;

async fn get(app: &TestApp, path: &str, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut req = app.http.get(format!("{}{path}", app.base));
    if let Some(f) = forwarded_for {
        req = req.header("x-forwarded-for", f);
    }
    req.send().await.unwrap()
}

async fn assert_429(resp: reqwest::Response, class: &str) {
    let message = helpers::assert_429(resp).await;
    assert!(message.contains(class), "{message}");
}

#[actix_web::test]
async fn each_client_and_route_class_has_its_own_quota() {
    let app = TestApp::spawn_with(|s| {
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.reads = ClassLimit {
            per_minute: 6,
            burst: 3,
        };
        s.limits.auth = ClassLimit {
            per_minute: 6,
            burst: 2,
        };
    })
    .await;
    for _ in 0..3 {
        assert_eq!(get(&app, "/journals", None).await.status(), StatusCode::OK);
    }
    assert_429(get(&app, "/journals", None).await, "reads").await;
    // Health probes are never limited.
    assert_eq!(
        get(&app, "/health/ready", None).await.status(),
        StatusCode::OK
    );
    // Behind the trusted proxy (127.0.0.1), each forwarded client has its own quota; what a
    // client wrote to the left of the proxy's entry does not choose its bucket.
    for _ in 0..3 {
        let r = get(&app, "/journals", Some("203.0.113.7")).await;
        assert_eq!(r.status(), StatusCode::OK);
    }
    assert_429(get(&app, "/journals", Some("203.0.113.7")).await, "reads").await;
    assert_429(
        get(&app, "/journals", Some("198.51.100.1, 203.0.113.7")).await,
        "reads",
    )
    .await;
    // Sign-in nonces (a row each) have their own, smaller quota.
    let address = format!("{:#x}", PrivateKeySigner::random().address());
    let nonce = || {
        app.http
            .post(format!("{}/auth/nonce", app.base))
            .header("x-forwarded-for", "192.0.2.9")
            .json(&json!({ "address": address }))
            .send()
    };
    assert_eq!(nonce().await.unwrap().status(), StatusCode::OK);
    assert_eq!(nonce().await.unwrap().status(), StatusCode::OK);
    assert_429(nonce().await.unwrap(), "auth").await;
    // That client's reads are untouched.
    let r = get(&app, "/journals", Some("192.0.2.9")).await;
    assert_eq!(r.status(), StatusCode::OK);
}

/// A read that carries a payment (the paid GET of a text) is counted in the pay class, as
/// `POST /pay/*` is: settling costs the same whichever route asks for it.
#[actix_web::test]
async fn a_read_that_carries_a_payment_counts_as_a_payment() {
    let app = TestApp::spawn_with(|s| {
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.pay = ClassLimit {
            per_minute: 6,
            burst: 2,
        };
    })
    .await;
    let paid_get = |header: &'static str| {
        app.http
            .get(format!("{}/journals/no-such-journal/text", app.base))
            .header("x-forwarded-for", "192.0.2.20")
            .header(header, "eyJ4NDAyVmVyc2lvbiI6Mn0=")
            .send()
    };
    for header in ["payment-signature", "x-payment"] {
        let r = paid_get(header).await.unwrap();
        assert_ne!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    assert_429(paid_get("payment-signature").await.unwrap(), "pay").await;
    // The same client's reads without a payment are counted as reads.
    let r = get(&app, "/journals/no-such-journal/text", Some("192.0.2.20")).await;
    assert_ne!(r.status(), StatusCode::TOO_MANY_REQUESTS);
}

/// A smart wallet deployed for the first buyer (salt `salt`): the owner, its key, and the
/// wallet's address.
async fn buyers_smart_wallet(chain: &TestChain, salt: u8) -> (&Account, WalletKey, String) {
    let owner = chain.account("buyer", 0);
    let wallet = chain
        .smart_wallet(owner, B256::with_last_byte(salt), true)
        .await;
    let key = WalletKey {
        owner: owner.signer().unwrap(),
        wallet,
        chain_id: chain.devnet.chain_id,
    };
    (owner, key, format!("{wallet:#x}"))
}

/// The owner's key of a smart wallet, signing for the wallet (ERC-7739 PersonalSign).
struct WalletKey {
    owner: PrivateKeySigner,
    wallet: alloy::primitives::Address,
    chain_id: u64,
}

impl WalletKey {
    fn sign_hash(&self, hash: B256) -> Vec<u8> {
        let domain = journal_market_chain::erc7739::smart_wallet_domain(self.wallet, self.chain_id);
        let nested = journal_market_chain::erc7739::personal_sign_hash(domain, hash);
        self.owner
            .sign_hash_sync(&nested)
            .unwrap()
            .as_bytes()
            .to_vec()
    }

    fn sign_message(&self, message: &str) -> String {
        let sig = self.sign_hash(alloy::primitives::eip191_hash_message(message));
        format!("0x{}", alloy::hex::encode(sig))
    }
}

async fn nonce(app: &TestApp, address: &str) -> (String, String) {
    let body = send_json(
        app.http
            .post(format!("{}/auth/nonce", app.base))
            .json(&json!({ "address": address })),
    )
    .await;
    (
        body["nonce"].as_str().unwrap().into(),
        body["message"].as_str().unwrap().into(),
    )
}

fn sign(signer: &PrivateKeySigner, message: &str) -> String {
    let sig = signer.sign_message_sync(message.as_bytes()).unwrap();
    format!("0x{}", alloy::hex::encode(sig.as_bytes()))
}

async fn verify(app: &TestApp, address: &str, nonce: &str, sig: &str) -> (StatusCode, Value) {
    let resp = app
        .http
        .post(format!("{}/auth/verify", app.base))
        .json(&json!({ "address": address, "nonce": nonce, "signature": sig }))
        .send()
        .await
        .unwrap();
    (resp.status(), resp.json().await.unwrap())
}

#[actix_web::test]
async fn failed_signatures_use_the_nonce_up() {
    let chain = TestChain::start().await;
    let app = chain.app_with(|s| s.auth.max_failures = 3).await;
    let signer = PrivateKeySigner::random();
    let other = PrivateKeySigner::random();
    let addr = format!("{:#x}", signer.address());
    let (n, msg) = nonce(&app, &addr).await;
    for bad in [
        sign(&other, &msg),
        "0x1234".into(),
        sign(&other, "another message"),
    ] {
        let (status, body) = verify(&app, &addr, &n, &bad).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    }
    let (status, body) = verify(&app, &addr, &n, &sign(&signer, &msg)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("used up"),
        "{body}"
    );
    // Two failures leave a nonce usable.
    let (n, msg) = nonce(&app, &addr).await;
    for _ in 0..2 {
        let (status, _) = verify(&app, &addr, &n, &sign(&other, &msg)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let (status, body) = verify(&app, &addr, &n, &sign(&signer, &msg)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[actix_web::test]
async fn a_slow_contract_wallet_cannot_starve_key_sign_ins() {
    let chain = TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let url = proxy.url.clone();
    let app = chain
        .app_with(|s| {
            s.chain.rpc_urls = vec![journal_market::config::Secret::new(url)];
            s.chain.rpc_timeout_ms = 10_000;
            s.auth.max_chain_checks = 2;
        })
        .await;
    let (_, owner_key, wallet) = buyers_smart_wallet(&chain, 7).await;
    // The wallet's isValidSignature (selector 0x1626ba7e) takes 4 s to answer.
    proxy.set("1626ba7e", Fault::Delay(Duration::from_secs(4)), None);
    let mut slow = Vec::new();
    for _ in 0..2 {
        let (n, msg) = nonce(&app, &wallet).await;
        let sig = owner_key.sign_message(&msg);
        let app_base = app.base.clone();
        let wallet = wallet.clone();
        slow.push(tokio::spawn(async move {
            reqwest::Client::new()
                .post(format!("{app_base}/auth/verify"))
                .json(&json!({ "address": wallet, "nonce": n, "signature": sig }))
                .send()
                .await
                .unwrap()
                .status()
        }));
    }
    // Both chain-check places are taken.
    for _ in 0..50 {
        if proxy.hits("1626ba7e") >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(proxy.hits("1626ba7e"), 2);
    // A third contract wallet sign-in is told "busy" at once rather than queued.
    let (n, msg) = nonce(&app, &wallet).await;
    let (status, body) = verify(&app, &wallet, &n, &owner_key.sign_message(&msg)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_error_body(&body);
    // Key-signed sign-ins go through meanwhile, while the slow checks are still running.
    for _ in 0..10 {
        let key = PrivateKeySigner::random();
        let addr = format!("{:#x}", key.address());
        let (n, msg) = nonce(&app, &addr).await;
        let (status, body) = verify(&app, &addr, &n, &sign(&key, &msg)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert!(
        slow.iter().all(|t| !t.is_finished()),
        "the slow checks were still running"
    );
    for t in slow {
        assert_eq!(t.await.unwrap(), StatusCode::OK);
    }
}

#[actix_web::test]
async fn a_wallet_check_gets_only_its_gas() {
    // The same valid ERC-1271 signature: refused when the check may not use the gas it needs
    // (as a wallet that burns gas is), accepted with the default allowance.
    let chain = TestChain::start().await;
    let (owner, owner_key, wallet) = buyers_smart_wallet(&chain, 9).await;
    // What the check costs, from the node; the stingy instance allows a little less.
    let hash = alloy::primitives::eip191_hash_message("any message");
    let sig = owner_key.sign_hash(hash);
    let needs = journal_market_chain::bindings::ISmartWallet::new(
        wallet.parse().unwrap(),
        chain.provider(owner),
    )
    .isValidSignature(hash, sig.into())
    .estimate_gas()
    .await
    .unwrap();
    let stingy = chain
        .app_with(|s| s.auth.signature_gas = needs - 1_500)
        .await;
    let (n, msg) = nonce(&stingy, &wallet).await;
    let (status, body) = verify(&stingy, &wallet, &n, &owner_key.sign_message(&msg)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("rejected"),
        "{body}"
    );
    let app = chain.app().await;
    let (n, msg) = nonce(&app, &wallet).await;
    let (status, body) = verify(&app, &wallet, &n, &owner_key.sign_message(&msg)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// POST `path` (as written: reqwest sends a percent-encoded path unchanged) from `client`.
async fn post_raw(app: &TestApp, path: &str, client: &str, body: Value) -> reqwest::Response {
    let origin = app.base.trim_end_matches("/api");
    app.http
        .post(format!("{origin}{path}"))
        .header("x-forwarded-for", client)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[actix_web::test]
async fn percent_encoded_paths_count_against_their_own_class() {
    let app = TestApp::spawn_with(|s| {
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        let small = ClassLimit {
            per_minute: 1,
            burst: 2,
        };
        s.limits.pay = small.clone();
        s.limits.auth = small.clone();
        s.limits.rpc = small;
    })
    .await;
    let address = format!("{:#x}", PrivateKeySigner::random().address());
    let cases = [
        (
            "/api/%70ay/burn",
            "/api/pay/burn",
            "pay",
            json!({ "journalId": 1 }),
        ),
        (
            "/api/%61uth/nonce",
            "/api/auth/nonce",
            "auth",
            json!({ "address": address }),
        ),
        (
            "/api/%72pc",
            "/api/rpc",
            "rpc",
            json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId" }),
        ),
        // The prefix spelt with an escape is the same prefix.
        (
            "/%61pi/pay/burn",
            "/api/pay/burn",
            "pay",
            json!({ "journalId": 1 }),
        ),
    ];
    for (n, (encoded, plain, class, body)) in cases.into_iter().enumerate() {
        let client = format!("198.51.100.{}", n + 1);
        // The encoded path reaches the route (not a 404) and uses the class's quota up...
        for _ in 0..2 {
            let r = post_raw(&app, encoded, &client, body.clone()).await;
            assert_ne!(r.status(), StatusCode::NOT_FOUND, "{encoded} is routed");
            assert_ne!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{encoded}");
        }
        assert_429(post_raw(&app, encoded, &client, body.clone()).await, class).await;
        // ...which is the plain path's quota too.
        assert_429(post_raw(&app, plain, &client, body.clone()).await, class).await;
    }
}

/// Sends `path` a POST whose headers promise 100 bytes of body, then only a few; the answer's
/// status line and body (or `None` when none came within 5 s).
async fn slow_body(app: &TestApp, path: &str) -> Option<(String, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app.base.trim_start_matches("http://");
    let addr = &addr[..addr.find('/').unwrap()];
    let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{\"a"
    );
    conn.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), conn.read_to_end(&mut answer)).await;
    if read.is_err() && answer.is_empty() {
        return None;
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    Some((status, body))
}

#[actix_web::test]
async fn a_body_that_does_not_arrive_in_time_is_408_on_every_route() {
    let app = TestApp::spawn_with(|s| s.server.body_timeout_ms = 300).await;
    let api = "/api";
    for path in ["/auth/nonce", "/pay/burn", "/votes/record", "/auth/verify"] {
        let started = std::time::Instant::now();
        let (status, body) = slow_body(&app, &format!("{api}{path}"))
            .await
            .unwrap_or_else(|| panic!("{path}: no answer while the body hangs"));
        assert!(status.contains(" 408 "), "{path}: {status}");
        assert!(started.elapsed() < Duration::from_secs(3), "{path}");
        let body: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
        crate::shape::assert_error_body(&body);
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("did not arrive in time")
        );
    }
    // /rpc keeps its JSON-RPC error, under the shorter of the two deadlines.
    let (status, body) = slow_body(&app, "/api/rpc").await.expect("an answer");
    assert!(status.contains(" 408 "), "{status}");
    assert!(body.contains("did not arrive in time"), "{body}");
    // The OpenAPI document says so for every operation that takes a body.
    let (_, doc) = app.get("/openapi.json").await;
    for path in ["/auth/nonce", "/pay/burn", "/votes/record", "/journal/save"] {
        let responses = &doc["paths"][path]["post"]["responses"];
        assert!(responses.get("408").is_some(), "{path}: {responses}");
    }
    // A body that arrives is read as before.
    let r = app
        .http
        .post(format!("{}/auth/nonce", app.base))
        .json(&json!({ "address": format!("{:#x}", PrivateKeySigner::random().address()) }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

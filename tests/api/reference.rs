//! The service driven by the reference x402 clients, unchanged and pinned: the Python `x402`
//! (httpx) client, `@x402/fetch`, the offer-receipt verifier of `@x402/extensions`, the Python
//! bazaar validators and `x402conf`. Each runs as a child process (tests/x402/*) that prints one
//! JSON object of what happened; money is judged from the chain's USDG `Transfer` logs.
//!
//! Needs `bash scripts/x402-env.sh` (the Python venv .venv-x402) and `npm ci` (node_modules):
//! a missing one fails the test with that instruction; nothing is skipped.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use alloy::primitives::{Address, U256};
use journal_market_x402::{self as x402, PaymentRequired};
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::send_json;
use crate::pay::Shop;
use crate::replay::{assert_one_charge, charges};

/// The `GET /config` field naming the address that signs offer-receipt receipts.
const RECEIPT_SIGNER_FIELD: &str = "receiptSigner";
/// How long one driver run may take (it may pay, settle and wait for the chain).
const DRIVER_TIMEOUT: Duration = Duration::from_secs(180);

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn venv_bin(name: &str) -> PathBuf {
    let p = root().join(".venv-x402/bin").join(name);
    assert!(
        p.exists(),
        "{} is missing: run `bash scripts/x402-env.sh` (installs the pinned reference x402 \
         Python packages into .venv-x402)",
        p.display()
    );
    p
}

fn node_ready() {
    let p = root().join("node_modules/@x402/fetch/package.json");
    assert!(
        p.exists(),
        "{} is missing: run `npm ci` (installs the pinned @x402/* packages)",
        p.display()
    );
}

/// Runs a driver to its end; its exit status, stdout and stderr.
async fn run(program: PathBuf, args: &[&str], key: Option<&str>) -> (i32, String, String) {
    let mut cmd = tokio::process::Command::new(&program);
    cmd.args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(key) = key {
        cmd.env("X402_PRIVATE_KEY", key);
    }
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let out = tokio::time::timeout(DRIVER_TIMEOUT, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("{} {args:?} ran over {DRIVER_TIMEOUT:?}", program.display()))
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The one JSON object a driver prints (its last line).
pub(crate) async fn driver(program: PathBuf, args: &[&str], key: Option<&str>) -> Value {
    let (code, stdout, stderr) = run(program.clone(), args, key).await;
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty());
    match line.map(serde_json::from_str::<Value>) {
        Some(Ok(v)) if code == 0 => v,
        _ => panic!(
            "{} {args:?} exited {code}\nstdout: {stdout}\nstderr: {stderr}",
            program.display()
        ),
    }
}

/// `tests/x402/py_client.py get URL …` as the wallet `key`.
async fn py_get(shop: &Shop, key: &str, url: &str, flags: &[&str]) -> Value {
    let script = root().join("tests/x402/py_client.py");
    let script = script.to_str().unwrap();
    let rpc = &shop.chain.devnet.rpc_url;
    let mut args = vec![script, "get", url, "--rpc", rpc];
    args.extend_from_slice(flags);
    driver(venv_bin("python"), &args, Some(key)).await
}

/// `tests/x402/fetch_client.mjs URL …` as the wallet `key`.
async fn fetch_get(shop: &Shop, key: &str, url: &str, flags: &[&str]) -> Value {
    node_ready();
    let rpc = &shop.chain.devnet.rpc_url;
    let mut args = vec!["tests/x402/fetch_client.mjs", url, "--rpc", rpc];
    args.extend_from_slice(flags);
    driver(PathBuf::from("node"), &args, Some(key)).await
}

/// The server with `server.origin` on its bound port: the reference SIWX clients refuse a
/// challenge whose domain is not the host they connected to.
pub(crate) async fn reference_shop() -> Shop {
    Shop::open_with(|s| s.server.origin = "http://127.0.0.1:0".into()).await
}

/// `http://127.0.0.1:PORT`: the base without the API prefix.
pub(crate) fn origin(shop: &Shop) -> String {
    let prefix = &shop.app.settings.server.api_prefix;
    shop.app
        .base
        .strip_suffix(prefix.as_str())
        .unwrap()
        .to_string()
}

/// Each HTTP exchange a driver's client made: what it added, and the status it got
/// (`"- 402"`, `"siwx 200"`, `"payment 200"`).
fn trail(v: &Value) -> Vec<String> {
    v["exchanges"]
        .as_array()
        .unwrap_or_else(|| panic!("no exchanges: {v}"))
        .iter()
        .map(|e| {
            let what = match (
                e["sent"]["sign-in-with-x"].as_bool().unwrap(),
                e["sent"]["payment-signature"].as_bool().unwrap(),
            ) {
                (false, false) => "-",
                (true, false) => "siwx",
                (false, true) => "payment",
                (true, true) => "siwx+payment",
            };
            format!("{what} {}", e["status"])
        })
        .collect()
}

/// The PaymentPayload the client sent (its last paid exchange).
fn sent_payment(v: &Value) -> &Value {
    v["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|e| &e["paymentSignature"])
        .find(|p| !p.is_null())
        .unwrap_or_else(|| panic!("no payment was sent: {v}"))
}

/// A 200 with the journal's text, the answer the driver's client ended with.
fn text_of(v: &Value) -> String {
    assert_eq!(v["ok"], true, "the client failed: {v}");
    assert_eq!(v["status"], 200, "{v}");
    let text = v["body"]["body"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in the answer: {v}"));
    assert!(!text.is_empty(), "{v}");
    text.to_string()
}

/// The decoded PAYMENT-RESPONSE of a paid 200: a success naming the answer's transaction, as
/// the reference model parses it.
fn settled(v: &Value) -> &Value {
    let r = &v["paymentResponse"];
    assert_eq!(r["success"], true, "PAYMENT-RESPONSE: {v}");
    assert_eq!(r["network"], "eip155:4663", "{v}");
    assert_eq!(v["paymentResponseParses"], true, "{v}");
    assert_eq!(r["transaction"], v["body"]["tx"], "{v}");
    r
}

#[actix_web::test]
async fn the_python_client_buys_retries_with_its_id_and_rereads_with_a_proof() {
    let shop = reference_shop().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let url = format!("{}/journals/{slug}/text", shop.app.base);
    let pid = "pay_reference_python_0001";

    let first = py_get(&shop, &buyer.private_key, &url, &["--payment-id", pid]).await;
    let text = text_of(&first);
    assert_eq!(trail(&first), ["- 402", "payment 200"], "{first}");
    assert_eq!(
        sent_payment(&first)["extensions"]["payment-identifier"]["info"]["id"],
        pid
    );
    let tx = settled(&first)["transaction"].clone();

    // The answer was lost: the same client (no SIWX hook) asks again with the same id. The
    // reference client signs a fresh permit; the server answers what it answered first.
    let again = py_get(&shop, &buyer.private_key, &url, &["--payment-id", pid]).await;
    assert_eq!(text_of(&again), text);
    assert_eq!(trail(&again), ["- 402", "payment 200"], "{again}");
    assert_eq!(again["body"]["tx"], tx, "{again}");
    if !again["paymentResponse"].is_null() {
        assert_eq!(again["paymentResponse"]["transaction"], tx, "{again}");
    }
    assert_ne!(
        sent_payment(&again)["payload"],
        sent_payment(&first)["payload"],
        "a fresh permit"
    );
    assert_one_charge(&shop, buyer.address, price).await;

    // A day later, a client that never pays reads it with a sign-in-with-x proof only.
    shop.app.clock.advance(chrono::Duration::days(1));
    let reread = py_get(&shop, &buyer.private_key, &url, &["--siwx", "--no-pay"]).await;
    assert_eq!(text_of(&reread), text, "{reread}");
    assert_eq!(trail(&reread), ["- 402", "siwx 200"], "{reread}");
    assert!(reread["paymentResponse"].is_null(), "nothing was paid now");
    assert_eq!(
        charges(&shop, buyer.address).await.len(),
        1,
        "still one charge"
    );
}

#[actix_web::test]
async fn the_python_client_buys_a_first_journal_without_gas_through_a_sponsored_approval() {
    let shop = reference_shop().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let w = shop.usdg_only_buyer(price).await;
    let key = alloy::hex::encode_prefixed(w.to_bytes());
    let url = format!("{}/journals/{slug}/text", shop.app.base);

    let got = py_get(&shop, &key, &url, &[]).await;
    text_of(&got);
    assert_eq!(trail(&got), ["- 402", "payment 200"], "{got}");
    settled(&got);
    // The reference client saw no allowance and signed the approval into the payment.
    let info = &sent_payment(&got)["extensions"]["erc20ApprovalGasSponsoring"]["info"];
    assert_eq!(
        info["from"].as_str().unwrap().parse::<Address>().unwrap(),
        w.address(),
        "{got}"
    );
    assert!(
        info["signedTransaction"]
            .as_str()
            .unwrap()
            .starts_with("0x02"),
        "{got}"
    );

    // From the chain: one USDG charge, Permit2 approved for good, and no more ether than the
    // approval's gas could cost ever reached the wallet (it had none).
    assert_one_charge(&shop, w.address(), price).await;
    assert_eq!(
        crate::sponsor::allowance(&shop, w.address()).await,
        U256::MAX
    );
    let left = crate::sponsor::eth(&shop, w.address()).await;
    assert!(left < U256::from(10u64.pow(15)), "{left} wei left");
}

#[actix_web::test]
async fn fetch_reads_a_swarm_journal_and_pays_a_person_written_one_step_by_step() {
    let shop = reference_shop().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let (_, person_slug) = shop.person_journal(0, "2.5").await;
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(1);

    let url = format!("{}/journals/{slug}/text", shop.app.base);
    let swarm = fetch_get(&shop, &buyer.private_key, &url, &[]).await;
    text_of(&swarm);
    settled(&swarm);
    assert_eq!(trail(&swarm), ["- 402", "payment 200"], "{swarm}");

    // A person-written journal: the URL names the payer, so each plain GET offers the step due.
    let url = format!(
        "{}/journals/{person_slug}/text?payer={}",
        shop.app.base,
        buyer.address.to_checksum(None)
    );
    let fee = fetch_get(&shop, &buyer.private_key, &url, &[]).await;
    assert_eq!(fee["status"], 200, "{fee}");
    assert_eq!(fee["body"]["ok"], true, "{fee}");
    assert!(fee["body"]["tx"].is_string(), "{fee}");
    assert!(
        fee["body"].get("body").is_none(),
        "no text for the fee: {fee}"
    );
    settled(&fee);
    let rest = fetch_get(&shop, &buyer.private_key, &url, &[]).await;
    text_of(&rest);
    settled(&rest);
    assert_ne!(rest["body"]["tx"], fee["body"]["tx"]);

    let (fee_units, author_units) = (250_000u64, 2_250_000u64);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(price)),
            (shop.buyback(), U256::from(fee_units)),
            (author, U256::from(author_units)),
        ]
    );
}

/// `@x402/fetch`, unchanged, from the URL `/.well-known/x402` lists (no `?payer=`): the fee, then
/// the URL its answer names (`next`), which sells the text; the listed URL paid again after the
/// fee is a 402 with the author's offer, nothing charged, never 200 without the text.
#[actix_web::test]
async fn fetch_from_the_listed_url_follows_next_to_the_text() {
    let shop = reference_shop().await;
    let (_, slug) = shop.person_journal(0, "2.5").await;
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(1);
    let doc: Value = reqwest::get(format!("{}/.well-known/x402", origin(&shop)))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let listed = doc["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|u| u.contains(&format!("/journals/{slug}/text")))
        .unwrap_or_else(|| panic!("{slug} is not listed: {doc}"))
        .to_string();

    let fee = fetch_get(&shop, &buyer.private_key, &listed, &[]).await;
    assert_eq!(fee["status"], 200, "{fee}");
    settled(&fee);
    assert!(fee["body"].get("body").is_none(), "{fee}");
    let next = fee["body"]["next"]
        .as_str()
        .unwrap_or_else(|| panic!("no next: {fee}"));
    assert!(next.contains("?payer="), "{fee}");
    assert_eq!(
        fee["headers"]["link"],
        format!("<{next}>; rel=\"next\""),
        "{fee}"
    );

    let again = fetch_get(&shop, &buyer.private_key, &listed, &[]).await;
    assert_eq!(again["status"], 402, "a fee paid again: {again}");
    assert_ne!(again["body"]["already"], true, "{again}");

    let rest = fetch_get(&shop, &buyer.private_key, next, &[]).await;
    text_of(&rest);
    settled(&rest);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(250_000u64)),
            (author, U256::from(2_250_000u64)),
        ]
    );
}

/// The same steps with the reference SIWX extension registered: its retry (a proof of a wallet
/// that has not bought yet) must not stand in for the step's 402.
#[actix_web::test]
async fn fetch_with_sign_in_with_x_pays_a_person_written_journal_step_by_step() {
    let shop = reference_shop().await;
    let (_, slug) = shop.person_journal(0, "2.5").await;
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(2);
    let url = format!(
        "{}/journals/{slug}/text?payer={}",
        shop.app.base,
        buyer.address.to_checksum(None)
    );
    let fee = fetch_get(&shop, &buyer.private_key, &url, &["--siwx"]).await;
    assert_eq!(trail(&fee), ["- 402", "siwx 402", "payment 200"], "{fee}");
    assert!(fee["body"]["tx"].is_string() && fee["body"].get("body").is_none());
    let rest = fetch_get(&shop, &buyer.private_key, &url, &["--siwx"]).await;
    assert_eq!(trail(&rest), ["- 402", "siwx 402", "payment 200"], "{rest}");
    let text = text_of(&rest);
    // Bought: now the proof alone reads it.
    let reread = fetch_get(&shop, &buyer.private_key, &url, &["--siwx", "--no-pay"]).await;
    assert_eq!(trail(&reread), ["- 402", "siwx 200"], "{reread}");
    assert_eq!(text_of(&reread), text);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(250_000u64)),
            (author, U256::from(2_250_000u64)),
        ]
    );
}

/// A payment's receipt (version 1: a person-written journal's fee) verifies with the reference
/// verifier; the receipt of the step that delivered the text is version 2, which binds the
/// delivery (the open upstream proposal, x402 PR #3186, that the reference 2.27.0 does not
/// know yet): the client crate's verifier checks it, from the answer `@x402/fetch` received.
#[actix_web::test]
async fn the_receipt_of_a_paid_answer_verifies_with_the_reference_verifier() {
    let shop = reference_shop().await;
    let (_, slug) = shop.person_journal(0, "2.5").await;
    let buyer = shop.buyer(3);
    let url = format!(
        "{}/journals/{slug}/text?payer={}",
        shop.app.base,
        buyer.address.to_checksum(None)
    );
    let paid = fetch_get(&shop, &buyer.private_key, &url, &[]).await;
    assert_eq!(paid["status"], 200, "{paid}");
    let settle = settled(&paid);
    let receipt = &settle["extensions"]["offer-receipt"]["info"]["receipt"];
    assert!(
        receipt.is_object(),
        "no receipt in PAYMENT-RESPONSE: {paid}"
    );

    // Verified from the header value as it came.
    let header = paid["paymentResponseHeader"].as_str().unwrap();
    node_ready();
    let verified = driver(
        PathBuf::from("node"),
        &["tests/x402/verify_receipt.mjs", header],
        None,
    )
    .await;
    assert_eq!(verified["ok"], true, "{verified}");
    assert_eq!(verified["format"], "eip712", "{verified}");

    let config = send_json(shop.app.http.get(format!("{}/config", shop.app.base))).await;
    let signer: Address = config[RECEIPT_SIGNER_FIELD]
        .as_str()
        .unwrap_or_else(|| panic!("no {RECEIPT_SIGNER_FIELD} in /config: {config}"))
        .parse()
        .unwrap();
    assert_eq!(
        verified["signer"]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        signer,
        "{verified}"
    );
    let payload = &verified["payload"];
    assert_eq!(
        payload["payer"]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        buyer.address
    );
    assert_eq!(payload["network"], "eip155:4663");
    assert_eq!(payload["version"], 1, "{payload}");

    // The text's answer, as `@x402/fetch` received it: its version 2 receipt holds.
    let delivered = fetch_get(&shop, &buyer.private_key, &url, &[]).await;
    text_of(&delivered);
    let exchange = delivered["exchanges"]
        .as_array()
        .and_then(|e| e.last())
        .cloned()
        .unwrap_or_default();
    let saved = journal_market_client::receipt::SavedAnswer {
        payment_response: delivered["paymentResponseHeader"]
            .as_str()
            .unwrap()
            .to_string(),
        body: exchange["rawBody"]
            .as_str()
            .unwrap_or_else(|| panic!("no raw body: {delivered}"))
            .to_string(),
    };
    let v = journal_market_client::receipt::verify(&shop.client(), &saved)
        .await
        .unwrap();
    assert_eq!(v.signer, signer);
    assert_eq!(v.slug, slug);
}

#[actix_web::test]
async fn x402conf_passes_the_text_url_of_a_swarm_journal() {
    let shop = reference_shop().await;
    let (_, slug, _) = shop.swarm_journal().await;
    let url = format!("{}/journals/{slug}/text", shop.app.base);
    let (code, stdout, stderr) = run(
        venv_bin("x402conf"),
        &["resource", &url, "--fail-on-error"],
        None,
    )
    .await;
    assert_eq!(
        code, 0,
        "x402conf failed\nstdout: {stdout}\nstderr: {stderr}"
    );
}

#[actix_web::test]
async fn discovery_documents_pass_the_reference_validators() {
    let shop = reference_shop().await;
    let (_, slug, _) = shop.swarm_journal().await;
    let url = format!("{}/journals/{slug}/text", shop.app.base);
    let validator = root().join("tests/x402/validate_discovery.py");
    let validator = validator.to_str().unwrap();

    let r = shop.app.fetch(&url).await;
    assert_eq!(r.status(), StatusCode::PAYMENT_REQUIRED);
    let header = r.headers()["payment-required"]
        .to_str()
        .unwrap()
        .to_string();
    let pr: PaymentRequired = x402::decode_header(&header).unwrap();
    assert!(!pr.accepts.is_empty());
    let checked = driver(
        venv_bin("python"),
        &[validator, "payment-required", &header],
        None,
    )
    .await;
    assert_eq!(checked["valid"], true, "{checked}");
    assert_eq!(checked["catalogued"]["method"], "GET", "{checked}");

    let r = shop
        .app
        .fetch(format!("{}/.well-known/x402", origin(&shop)))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let doc: Value = r.json().await.unwrap();
    let resources = doc["resources"].as_array().unwrap();
    assert!(
        resources.iter().any(|u| u == url.as_str()),
        "{url} is listed: {doc}"
    );
    let checked = driver(
        venv_bin("python"),
        &[validator, "well-known", &doc.to_string(), "--probe", "2"],
        None,
    )
    .await;
    assert_eq!(checked["valid"], true, "{checked}");
}

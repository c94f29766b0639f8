//! Test support for everything chain-facing: a fresh anvil with the dev contracts per test, and
//! an app configured against it. Every chain-facing test goes through here.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{App, HttpResponse, HttpServer, web};
use alloy::contract::{CallBuilder, CallDecoder};
use alloy::primitives::{Address, B256, U256};
use alloy::providers::{DynProvider, Provider};
use alloy::rpc::types::TransactionReceipt;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use journal_market::config::Settings;
use journal_market_chain::bindings::ISmartWalletFactory;
use journal_market_chain::devnet_file::{Account, Devnet};
use journal_market_chain::erc7739;
use journal_market_devnet::anvil::{self, Anvil};
use journal_market_devnet::deploy;

use crate::helpers::{TestApp, TestDb, test_settings};

/// Sends a contract call and waits for it to be mined (tests only: any failure panics).
pub(crate) trait Mined {
    async fn mined(&self) -> TransactionReceipt;

    /// Sends a call the chain mines but reverts (asserted); its transaction hash.
    async fn reverted(&self) -> String {
        let receipt = self.mined().await;
        assert!(!receipt.status());
        format!("{:#x}", receipt.transaction_hash)
    }
}

impl<P: Provider, D: CallDecoder> Mined for CallBuilder<P, D> {
    async fn mined(&self) -> TransactionReceipt {
        self.send().await.unwrap().get_receipt().await.unwrap()
    }
}

/// Marks the chain's state now, for `revert`.
pub(crate) async fn snapshot(p: &DynProvider) -> U256 {
    p.raw_request("evm_snapshot".into(), ()).await.unwrap()
}

/// The chain goes back to `snap`: every block after it is orphaned.
pub(crate) async fn revert(p: &DynProvider, snap: U256) {
    let ok: bool = p.raw_request("evm_revert".into(), (snap,)).await.unwrap();
    assert!(ok);
}

/// Mines `n` empty blocks.
pub(crate) async fn mine(p: &DynProvider, n: u64) {
    let _: serde_json::Value = p
        .raw_request("anvil_mine".into(), (U256::from(n),))
        .await
        .unwrap();
}

pub struct TestChain {
    pub anvil: Anvil,
    pub devnet: Devnet,
}

impl TestChain {
    pub async fn start() -> TestChain {
        let anvil = anvil::spawn(None, 4663)
            .await
            .expect("anvil starts (run npm ci)");
        let devnet = deploy::deploy(&anvil.url)
            .await
            .expect("dev contracts deploy");
        TestChain { anvil, devnet }
    }

    pub fn account(&self, role: &str, n: usize) -> &Account {
        self.devnet.accounts(role)[n]
    }

    pub fn provider(&self, account: &Account) -> DynProvider {
        self.devnet.provider_for(account).unwrap()
    }

    /// The address of `owner`'s smart wallet for `salt`, deployed through the factory when
    /// `deploy` (otherwise it stays counterfactual, for EIP-6492).
    pub async fn smart_wallet(&self, owner: &Account, salt: B256, deploy: bool) -> Address {
        let p = self.provider(owner);
        let factory = ISmartWalletFactory::new(self.devnet.contracts.wallet_factory, &p);
        let wallet = factory
            .getAddress(owner.address, salt)
            .call()
            .await
            .unwrap();
        if deploy {
            let receipt = factory.deploy_call(owner.address, salt).mined().await;
            assert!(receipt.status());
        }
        wallet
    }

    /// `owner`'s signature of `hash` for its smart wallet at `wallet`: the hash nested in the
    /// wallet's own domain (ERC-7739 PersonalSign), which that wallet alone accepts.
    pub fn wallet_sign(&self, owner: &PrivateKeySigner, wallet: Address, hash: B256) -> Vec<u8> {
        let domain = erc7739::smart_wallet_domain(wallet, self.devnet.chain_id);
        owner
            .sign_hash_sync(&erc7739::personal_sign_hash(domain, hash))
            .unwrap()
            .as_bytes()
            .to_vec()
    }

    /// Settings of an app that uses this chain, checking it every second.
    pub fn settings(&self, db: &TestDb) -> Settings {
        let mut s = test_settings(&db.url);
        journal_market::chain::apply_devnet(&mut s, &self.devnet).unwrap();
        s.chain.check_interval_secs = 1;
        s.demo.load_on_first_start = false;
        // Short leases and quick reconciliation, so restarts and takeovers finish in seconds.
        s.payments.lease_secs = 2;
        s.payments.reconcile_every_ms = 200;
        s
    }

    pub async fn app(&self) -> TestApp {
        self.app_with(|_| {}).await
    }

    pub async fn app_with(&self, f: impl FnOnce(&mut Settings)) -> TestApp {
        let db = TestDb::new().await;
        let mut s = self.settings(&db);
        f(&mut s);
        let app = TestApp::start(s, db).await;
        app.wait_chain(true).await;
        app
    }
}

impl TestApp {
    /// Waits (up to 15 s) until the app reports the chain ready (or not).
    pub async fn wait_chain(&self, ready: bool) {
        for _ in 0..150 {
            let (_, body) = self.get("/health/ready").await;
            if (body["chain"] == "ok") == ready {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "the chain never became {}",
            if ready { "ready" } else { "unready" }
        );
    }
}

/// A JSON-RPC forwarder in front of anvil that records every method it forwards, so tests can
/// prove what reached the upstream.
pub struct CountingUpstream {
    pub url: String,
    pub methods: Arc<Mutex<Vec<String>>>,
    /// Every body received, as sent.
    pub bodies: Arc<Mutex<Vec<String>>>,
    /// Answers forged so far (`start_forging`).
    pub forged: Arc<std::sync::atomic::AtomicUsize>,
}

/// The transaction hash of the log a forging upstream adds.
pub const FORGED_TX: &str = "0x2222222222222222222222222222222222222222222222222222222222222222";

/// An `eth_getLogs` answer with a log of another block added (as a provider answering from a
/// fork would): a copy of its first log under another block hash and transaction.
fn forge(answer: &[u8]) -> Option<Vec<u8>> {
    let mut v: serde_json::Value = serde_json::from_slice(answer).ok()?;
    let logs = v["result"].as_array_mut()?;
    let mut extra = logs.first()?.clone();
    extra["blockHash"] = serde_json::json!(format!("0x{}", "11".repeat(32)));
    extra["transactionHash"] = serde_json::json!(FORGED_TX);
    logs.push(extra);
    serde_json::to_vec(&v).ok()
}

/// The blocks an `eth_getLogs` call asks for, when it names both ends by number.
fn log_range(call: &serde_json::Value) -> Option<u64> {
    let f = &call["params"][0];
    let n = |k: &str| u64::from_str_radix(f[k].as_str()?.trim_start_matches("0x"), 16).ok();
    Some(n("toBlock")?.saturating_sub(n("fromBlock")?) + 1)
}

impl CountingUpstream {
    pub async fn start(target: &str) -> CountingUpstream {
        Self::start_limited(target, u64::MAX).await
    }

    /// As `start`, refusing `eth_getLogs` over more than `max_range` blocks as providers do.
    pub async fn start_limited(target: &str, max_range: u64) -> CountingUpstream {
        Self::start_with(target, max_range, 0).await
    }

    /// As `start`, forging the first `times` answers to `eth_getLogs` by block hash that hold
    /// logs: each gets a log of another block added.
    pub async fn start_forging(target: &str, times: usize) -> CountingUpstream {
        Self::start_with(target, u64::MAX, times).await
    }

    async fn start_with(target: &str, max_range: u64, forge_times: usize) -> CountingUpstream {
        let forged: Arc<std::sync::atomic::AtomicUsize> = Arc::default();
        let forged_count = forged.clone();
        let methods: Arc<Mutex<Vec<String>>> = Arc::default();
        let bodies: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = methods.clone();
        let raw = bodies.clone();
        let target = target.to_string();
        let http = reqwest::Client::new();
        let server = HttpServer::new(move || {
            let seen = seen.clone();
            let raw = raw.clone();
            let target = target.clone();
            let http = http.clone();
            let forged_count = forged_count.clone();
            App::new().default_service(web::to(move |body: web::Bytes| {
                let forged_count = forged_count.clone();
                raw.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&body).into_owned());
                let seen = seen.clone();
                let target = target.clone();
                let http = http.clone();
                async move {
                    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&body)
                        && v["method"] == "eth_getLogs"
                        && log_range(&v).is_some_and(|r| r > max_range)
                    {
                        seen.lock().unwrap().push("eth_getLogs (refused)".into());
                        return HttpResponse::Ok().json(serde_json::json!({
                            "jsonrpc": "2.0", "id": v["id"],
                            "error": { "code": -32602, "message": format!("block range too large: more than {max_range} blocks") }
                        }));
                    }
                    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&body) {
                        let items = match v {
                            serde_json::Value::Array(a) => a,
                            one => vec![one],
                        };
                        let mut seen = seen.lock().unwrap();
                        for i in items {
                            seen.push(i["method"].as_str().unwrap_or("").to_string());
                        }
                    }
                    let by_hash = serde_json::from_slice::<serde_json::Value>(&body)
                        .is_ok_and(|v| {
                            v["method"] == "eth_getLogs" && !v["params"][0]["blockHash"].is_null()
                        });
                    let resp = http
                        .post(&target)
                        .header("content-type", "application/json")
                        .body(body)
                        .send()
                        .await
                        .unwrap();
                    let mut answer = resp.bytes().await.unwrap().to_vec();
                    use std::sync::atomic::Ordering;
                    if by_hash
                        && forged_count.load(Ordering::SeqCst) < forge_times
                        && let Some(f) = forge(&answer)
                    {
                        forged_count.fetch_add(1, Ordering::SeqCst);
                        answer = f;
                    }
                    HttpResponse::Ok()
                        .content_type("application/json")
                        .body(answer)
                }
            }))
        })
        .workers(1)
        .bind("127.0.0.1:0")
        .unwrap();
        let port = server.addrs()[0].port();
        actix_web::rt::spawn(server.run());
        CountingUpstream {
            url: format!("http://127.0.0.1:{port}"),
            methods,
            bodies,
            forged,
        }
    }

    pub fn seen(&self) -> Vec<String> {
        self.methods.lock().unwrap().clone()
    }

    pub fn count(&self, method: &str) -> usize {
        self.seen().iter().filter(|m| *m == method).count()
    }
}

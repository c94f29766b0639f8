//! The soak run's traffic (bench/soak.sh): for SECS seconds, against every instance URL in turn,
//! a steady mix of public reads, EOA sign-ins, RPC calls through the proxy and swarm-journal
//! purchases by fresh funded wallets. Prints one line per route class:
//! "class requests errors_5xx other_errors p50_ms p99_ms".
//! `soak <secs> <devnet.json> <url>[,<url>...]`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::devnet_file::Devnet;
use journal_market_devnet::deploy::Buyers;
use serde_json::json;

/// Latencies and outcomes per class.
#[derive(Default)]
struct Tally {
    lat: Vec<Duration>,
    server_errors: u64,
    other_errors: u64,
}

type Tallies = Arc<Mutex<BTreeMap<&'static str, Tally>>>;

fn record(t: &Tallies, class: &'static str, took: Duration, status: Option<u16>) {
    let mut all = t.lock().unwrap_or_else(|p| p.into_inner());
    let e = all.entry(class).or_default();
    e.lat.push(took);
    match status {
        Some(s) if s >= 500 => e.server_errors += 1,
        Some(s) if s < 400 => {}
        _ => e.other_errors += 1,
    }
}

/// Runs `f` every `every` until `end`, recording its outcome under `class`.
async fn steady<F, Fut>(t: Tallies, class: &'static str, every: Duration, end: Instant, mut f: F)
where
    F: FnMut(u64) -> Fut,
    Fut: std::future::Future<Output = Option<u16>>,
{
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut n = 0u64;
    while Instant::now() < end {
        tick.tick().await;
        let started = Instant::now();
        let status = f(n).await;
        record(&t, class, started.elapsed(), status);
        n += 1;
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, secs, devnet, urls] = args.as_slice() else {
        anyhow::bail!("usage: soak <secs> <devnet.json> <url>[,<url>...]");
    };
    let end = Instant::now() + Duration::from_secs(secs.parse()?);
    let devnet = Arc::new(Devnet::load(std::path::Path::new(devnet))?);
    let urls: Arc<Vec<String>> = Arc::new(urls.split(',').map(str::to_string).collect());
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let t: Tallies = Arc::default();
    let journals = journal_market_client::Client::new(urls[0].clone())?
        .journals(None)
        .await?
        .journals;
    let slugs: Arc<Vec<String>> = Arc::new(journals.iter().map(|j| j.slug.clone()).collect());
    let swarm: Arc<Vec<String>> = Arc::new(
        journals
            .iter()
            .filter(|j| j.author.swarm)
            .map(|j| j.slug.clone())
            .collect(),
    );
    let url = {
        let urls = urls.clone();
        move |n: u64| urls[n as usize % urls.len()].clone()
    };
    let mut tasks = Vec::new();

    // Reads: 4 streams of 25 per second each, over lists, details, entries and the ledger.
    for stream in 0..4u64 {
        let (http, url, slugs, t) = (http.clone(), url.clone(), slugs.clone(), t.clone());
        tasks.push(tokio::spawn(steady(
            t,
            "reads",
            Duration::from_millis(40),
            end,
            move |n| {
                let (http, base) = (http.clone(), url(n + stream));
                let path = match n % 4 {
                    0 => "/journals".to_string(),
                    1 => format!("/journals/{}", slugs[(n as usize / 4) % slugs.len().max(1)]),
                    2 => "/entries.json".to_string(),
                    _ => "/token.json".to_string(),
                };
                async move {
                    let r = http.get(format!("{base}{path}")).send().await.ok()?;
                    let s = r.status().as_u16();
                    r.bytes().await.ok()?;
                    Some(s)
                }
            },
        )));
    }
    // Sign-ins: 5 per second, a new key each (nonce, then verify).
    {
        let (http, url, t) = (http.clone(), url.clone(), t.clone());
        tasks.push(tokio::spawn(steady(
            t,
            "auth",
            Duration::from_millis(200),
            end,
            move |n| {
                let (http, base) = (http.clone(), url(n));
                async move {
                    let key = PrivateKeySigner::random();
                    let address = format!("{:#x}", key.address());
                    let r = http
                        .post(format!("{base}/auth/nonce"))
                        .json(&json!({ "address": address }))
                        .send()
                        .await
                        .ok()?;
                    if !r.status().is_success() {
                        return Some(r.status().as_u16());
                    }
                    let issued: serde_json::Value = r.json().await.ok()?;
                    let message = issued["message"].as_str()?;
                    let sig = key.sign_message_sync(message.as_bytes()).ok()?;
                    let r = http
                        .post(format!("{base}/auth/verify"))
                        .json(&json!({
                            "address": address,
                            "nonce": issued["nonce"],
                            "signature": format!("0x{}", alloy::hex::encode(sig.as_bytes())),
                        }))
                        .send()
                        .await
                        .ok()?;
                    Some(r.status().as_u16())
                }
            },
        )));
    }
    // RPC: 20 per second through the proxy.
    {
        let (http, url, t) = (http.clone(), url.clone(), t.clone());
        let usdg = format!("{:#x}", devnet.contracts.usdg);
        tasks.push(tokio::spawn(steady(t, "rpc", Duration::from_millis(50), end, move |n| {
            let (http, base) = (http.clone(), url(n));
            let body = match n % 3 {
                0 => json!({ "jsonrpc": "2.0", "id": n, "method": "eth_blockNumber", "params": [] }),
                1 => json!({ "jsonrpc": "2.0", "id": n, "method": "eth_getBalance", "params": [usdg, "latest"] }),
                _ => json!({ "jsonrpc": "2.0", "id": n, "method": "eth_gasPrice", "params": [] }),
            };
            async move {
                let r = http.post(format!("{base}/rpc")).json(&body).send().await.ok()?;
                let s = r.status().as_u16();
                r.bytes().await.ok()?;
                Some(s)
            }
        })));
    }
    // Purchases: 2 per second; each wallet buys every swarm journal once, then a new one.
    {
        let (url, t, devnet, swarm) = (url.clone(), t.clone(), devnet.clone(), swarm.clone());
        let wallet: Arc<tokio::sync::Mutex<Option<PrivateKeySigner>>> = Arc::default();
        tasks.push(tokio::spawn(steady(
            t,
            "pay",
            Duration::from_millis(500),
            end,
            move |n| {
                let (base, devnet, swarm, wallet) =
                    (url(n), devnet.clone(), swarm.clone(), wallet.clone());
                async move {
                    let i = n as usize % swarm.len().max(1);
                    let buyer = {
                        let mut w = wallet.lock().await;
                        if i == 0 || w.is_none() {
                            *w = Some(devnet.funded_buyer(1_000_000_000).await.ok()?);
                        }
                        w.clone()?
                    };
                    let client = journal_market_client::Client::new(base).ok()?;
                    match client.buy(swarm.get(i)?, &buyer).await {
                        Ok(_) => Some(200),
                        Err(journal_market_client::ClientError::Api { status, .. }) => {
                            Some(status.as_u16())
                        }
                        Err(e) => {
                            eprintln!("purchase: {e}");
                            None
                        }
                    }
                }
            },
        )));
    }
    for task in tasks {
        task.await?;
    }
    let all = t.lock().unwrap_or_else(|p| p.into_inner());
    for (class, tally) in all.iter() {
        let mut lat = tally.lat.clone();
        lat.sort();
        let pct = |p: f64| {
            lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        println!(
            "{class} {} {} {} {:.1} {:.1}",
            lat.len(),
            tally.server_errors,
            tally.other_errors,
            pct(0.5),
            pct(0.99)
        );
    }
    Ok(())
}

//! Load generator for purchases: BUYERS fresh wallets (funded with ETH and USDG, Permit2
//! approved) each buy every swarm journal through the x402 payer, concurrently; prints
//! purchases per second, p50 and p95 latency, and errors.
//! `cargo run --release --example purchase_load -- http://127.0.0.1:18095/api data/devnet.json 16`
//! With `CPU_PIDS=svc:1234,anvil:5678`, also prints to stderr each process's CPU per purchase
//! over the buying alone (`/proc/<pid>/stat`, user + system), as `cpu <name> <ms> <ticks>
//! <purchases>` (the last two so that several runs can be added up).
//! With `VIA=mcp`, each purchase is the MCP paid call instead (`POST /mcp`, `tools/call
//! read_journal`: the payment-required result, then the call with the signed payment in
//! `_meta["x402/payment"]`), the same two requests as the REST purchase's challenge and payment.
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use journal_market_devnet::deploy::Buyers;
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (base, devnet, mut args) = common::args::base_and_devnet()?;
    let buyers: usize = args.number(16);

    let mut wallets = Vec::new();
    for _ in 0..buyers {
        wallets.push(devnet.funded_buyer(1_000_000_000).await?);
    }
    let list = journal_market_client::Client::new(base.clone())?
        .journals(None)
        .await?;
    let slugs: Vec<String> = list
        .journals
        .into_iter()
        .filter(|j| j.author.swarm)
        .map(|j| j.slug)
        .collect();

    let pids: Vec<(String, u32)> = std::env::var("CPU_PIDS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|p| {
            let (name, pid) = p.split_once(':')?;
            Some((name.to_string(), pid.parse().ok()?))
        })
        .collect();
    let before: Vec<Option<u64>> = pids.iter().map(|(_, p)| cpu_ticks(*p)).collect();
    let mcp = std::env::var("VIA").is_ok_and(|v| v == "mcp");
    let mcp_url = format!(
        "{}/mcp",
        base.trim_end_matches('/').trim_end_matches("/api")
    );
    let started = Instant::now();
    let tasks: Vec<_> = wallets
        .into_iter()
        .map(|w| {
            let base = base.clone();
            let slugs = slugs.clone();
            let mcp_url = mcp_url.clone();
            tokio::spawn(async move {
                let client = journal_market_client::Client::new(base).expect("client");
                let http = reqwest::Client::new();
                let mut lat: Vec<Duration> = Vec::new();
                let mut errors = 0;
                for slug in slugs {
                    let t = Instant::now();
                    let bought = match mcp {
                        true => mcp_buy(&http, &mcp_url, &slug, &w).await,
                        false => client.buy(&slug, &w).await.map(|_| ()).map_err(Into::into),
                    };
                    match bought {
                        Ok(()) => lat.push(t.elapsed()),
                        Err(e) => {
                            errors += 1;
                            eprintln!("{slug}: {e}");
                        }
                    }
                }
                (lat, errors)
            })
        })
        .collect();
    let (all, errors) = common::latency::gather(tasks).await?;
    let elapsed = started.elapsed();
    let bought = all.len().max(1) as f64;
    for ((name, pid), b) in pids.iter().zip(before) {
        if let (Some(b), Some(a)) = (b, cpu_ticks(*pid)) {
            // Linux reports CPU time in USER_HZ ticks, 100 per second.
            eprintln!(
                "cpu {name} {:.2} {} {bought}",
                (a - b) as f64 * 10.0 / bought,
                a - b
            );
        }
    }
    common::latency::report(all, elapsed, errors);
    Ok(())
}

/// One MCP paid call: `read_journal` without a payment (the challenge), then with the payment
/// signed for it.
async fn mcp_buy(
    http: &reqwest::Client,
    url: &str,
    slug: &str,
    w: &alloy::signers::local::PrivateKeySigner,
) -> anyhow::Result<()> {
    use serde_json::{Value, json};
    let call = |meta: Option<Value>| {
        let mut params = json!({ "name": "read_journal", "arguments": { "slug": slug } });
        if let Some(m) = meta {
            params["_meta"] = m;
        }
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params });
        async move {
            let v: Value = http.post(url).json(&body).send().await?.json().await?;
            anyhow::Ok(v["result"].clone())
        }
    };
    let probe = call(None).await?;
    let pr: journal_market_x402::PaymentRequired =
        serde_json::from_value(probe["structuredContent"].clone())?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs();
    let payment =
        journal_market_client::payer::sign_payment(&pr.accepts[0], Some(pr.resource), w, now)?;
    let paid = call(Some(json!({ "x402/payment": payment }))).await?;
    anyhow::ensure!(
        paid["isError"] == false,
        "refused: {}",
        paid["structuredContent"]
    );
    Ok(())
}

/// A process's user + system CPU so far, in clock ticks.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command (which may hold spaces) start after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

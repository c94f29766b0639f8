//! Load generator for first purchases without gas: BUYERS fresh wallets holding only USDG each
//! buy one swarm journal with an x402 `erc20ApprovalGasSponsoring` approval (the service funds
//! the gas, broadcasts the approval, then settles), concurrently; prints purchases, purchases
//! per second, p50 and p95 latency, and errors.
//! `cargo run --release --example sponsored_load -- http://127.0.0.1:18095/api data/devnet.json 16`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use alloy::providers::{Provider, ProviderBuilder};
use journal_market_client::payer::{ApprovalTx, sign_approval, sign_payment, with_approval};
use journal_market_devnet::deploy::Buyers;
use journal_market_x402::{self as x402, PaymentRequired};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (base, devnet, mut args) = common::args::base_and_devnet()?;
    let buyers: usize = args.number(16);

    let list = journal_market_client::Client::new(base.clone())?
        .journals(None)
        .await?;
    let journal = list
        .journals
        .into_iter()
        .find(|j| j.author.swarm)
        .ok_or_else(|| anyhow::anyhow!("no swarm journal"))?;
    let mut wallets = Vec::new();
    for _ in 0..buyers {
        wallets.push(devnet.usdg_only_buyer(1_000_000_000).await?);
    }
    let chain = ProviderBuilder::new().connect_http(devnet.rpc_url.parse()?);
    let base_fee = chain
        .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
        .await?
        .and_then(|b| b.header.base_fee_per_gas)
        .unwrap_or(1_000_000_000) as u128;
    // What the reference clients ask: twice the base fee plus a tip, 70000 gas.
    let tx = ApprovalTx {
        chain_id: devnet.chain_id,
        nonce: 0,
        gas: 70_000,
        max_fee_per_gas: base_fee * 2 + 1_000_000_000,
        max_priority_fee_per_gas: 1_000_000_000,
    };
    let usdg = devnet.contracts.usdg;

    let started = Instant::now();
    let tasks: Vec<_> = wallets
        .into_iter()
        .map(|w| {
            let base = base.clone();
            let id = journal.journal_id;
            tokio::spawn(async move {
                let client = journal_market_client::Client::new(base).expect("client");
                let t = Instant::now();
                let bought = async {
                    let challenge = client.pay_request("pay/burn", id, None).await?;
                    let header = challenge
                        .headers()
                        .get(x402::HEADER_REQUIRED)
                        .and_then(|h| h.to_str().ok())
                        .ok_or_else(|| anyhow::anyhow!("no challenge"))?
                        .to_string();
                    let offer: PaymentRequired =
                        x402::decode_header(&header).map_err(anyhow::Error::msg)?;
                    let now = chrono::Utc::now().timestamp() as u64;
                    let p = sign_payment(&offer.accepts[0], None, &w, now)?;
                    let p = with_approval(p, sign_approval(&w, usdg, tx)?);
                    let r = client.pay_request("pay/burn", id, Some(&p)).await?;
                    anyhow::ensure!(r.status().is_success(), "{}", r.text().await?);
                    Ok::<_, anyhow::Error>(())
                };
                match bought.await {
                    Ok(()) => Ok(t.elapsed()),
                    Err(e) => Err(e.to_string()),
                }
            })
        })
        .collect();
    let mut all: Vec<Duration> = Vec::new();
    let mut errors = 0;
    for t in tasks {
        match t.await? {
            Ok(d) => all.push(d),
            Err(e) => {
                errors += 1;
                eprintln!("{e}");
            }
        }
    }
    common::latency::report(all, started.elapsed(), errors);
    Ok(())
}

//! Keeps 50 audits running at once for a while against a running devnet service (bench
//! publish.sh): an author signs in, saves 50 drafts, and audits them in rounds of 50 concurrent
//! audits (each round saves the drafts again first) until the time is up; prints
//! "audits seconds".
//! `audit_load <api> <devnet.json> <seconds>`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use journal_market_chain::devnet_file::Devnet;
use journal_market_client::Client;
use journal_market_client::api::DraftInput;

const CONCURRENT: usize = 50;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (api, devnet, secs) = match args.as_slice() {
        [_, a, d, s] => (a.clone(), d.clone(), s.parse::<u64>()?),
        _ => anyhow::bail!("usage: audit_load <api> <devnet.json> <seconds>"),
    };
    let devnet = Devnet::load(std::path::Path::new(&devnet))?;
    let author = devnet.accounts("author")[2].signer()?;
    let client = Client::new(api)?;
    client.login(&author).await?;
    let entries = client.search_entries("NVDA").await?;
    let mut body = String::new();
    for (i, e) in entries.iter().take(3).enumerate() {
        body.push_str(&format!("## Part {}\n{} [{}]\n\n", i + 1, e.summary, e.id));
    }
    let dek: String = entries[0].summary.chars().take(200).collect();
    let draft = |id: Option<i64>, n: usize| DraftInput {
        id,
        ticker: "NVDA".into(),
        title: format!("Load draft number {n}"),
        dek: format!("{dek} {}", "What the filings show.".repeat(6))
            .chars()
            .take(300)
            .collect(),
        body: body.clone(),
        price_usdg: 1.0,
        author_name: "Load Author".into(),
    };
    let mut ids = Vec::new();
    for n in 0..CONCURRENT {
        ids.push(client.save_draft(&draft(None, n)).await?.id);
    }
    let (start, mut audits) = (Instant::now(), 0usize);
    while start.elapsed() < Duration::from_secs(secs) {
        for (n, id) in ids.iter().enumerate() {
            client.save_draft(&draft(Some(*id), n)).await?;
        }
        let round = futures::future::join_all(ids.iter().map(|id| client.audit(*id))).await;
        for r in round {
            r?;
            audits += 1;
        }
    }
    println!("{audits} {:.1}", start.elapsed().as_secs_f64());
    Ok(())
}

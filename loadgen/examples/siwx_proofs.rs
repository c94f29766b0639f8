//! Proofs for the sign-in-with-x re-read benchmark: a funded wallet buys the first swarm
//! journal, then COUNT `SIGN-IN-WITH-X` headers of that wallet (each signing the nonce of a
//! 402 challenge of its own, as nonces are single use) are printed one per line, after the
//! journal's slug.
//! `cargo run --release --example siwx_proofs -- http://127.0.0.1:18095/api data/devnet.json 40000`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alloy::primitives::U256;
use alloy::providers::Provider;
use futures::StreamExt;
use journal_market_devnet::deploy::Buyers;

/// Blocks mined after the purchase: past the devnet's `chain.reorg_safe_distance` (12).
const FINAL_AFTER: u64 = 16;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (base, devnet, mut args) = common::args::base_and_devnet()?;
    let count: usize = args.number(40_000);
    let wallet = devnet.funded_buyer(1_000_000_000).await?;
    let client = journal_market_client::Client::new(base)?;
    let j = client
        .journals(None)
        .await?
        .journals
        .into_iter()
        .find(|j| j.author.swarm)
        .ok_or_else(|| anyhow::anyhow!("no swarm journal on sale"))?;
    match client.buy(&j.slug, &wallet).await {
        Ok(_) => {}
        // A devnet buyer may hold it already: a proof of that wallet reads it just as well.
        Err(e) if e.to_string().contains("already unlocked") => {}
        Err(e) => return Err(e.into()),
    }
    // A re-read comes after the purchase is final (a day later, say): the chain grows past the
    // reorg-safe distance and the service's confirmation pass sees it.
    let node = devnet.provider_for(devnet.account("buyer")?)?;
    let _: serde_json::Value = node
        .raw_request("anvil_mine".into(), (U256::from(FINAL_AFTER),))
        .await?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !client
        .history()
        .await?
        .unlocks
        .iter()
        .any(|u| u.slug == j.slug && u.is_final)
    {
        anyhow::ensure!(
            std::time::Instant::now() < deadline,
            "the purchase did not become final"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // Asked without the purchase's session, which would answer "already unlocked". Each proof
    // signs the nonce of a challenge of its own, as a client does.
    let asker = journal_market_client::Client::new(client.base_url().to_string())?;
    println!("{}", j.slug);
    let challenges: Vec<_> = futures::stream::iter(0..count)
        .map(|_| asker.challenge(j.journal_id))
        .buffer_unordered(16)
        .collect()
        .await;
    let mut out = String::new();
    for challenge in challenges {
        out.push_str(&journal_market_client::siwx::proof_header(
            &challenge?,
            &wallet,
        )?);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}

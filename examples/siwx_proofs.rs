//! Proofs for the sign-in-with-x re-read benchmark: a funded wallet buys the first swarm
//! journal, then COUNT `SIGN-IN-WITH-X` headers of that wallet (each with a nonce of its own,
//! as nonces are single use) are printed one per line, after the journal's slug.
//! `cargo run --release --example siwx_proofs -- http://127.0.0.1:18095/api data/devnet.json 40000`

mod common;

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
    // Asked without the purchase's session, which would answer "already unlocked".
    let mut challenge = journal_market_client::Client::new(client.base_url().to_string())?
        .challenge(j.journal_id)
        .await?;
    println!("{}", j.slug);
    let mut out = String::new();
    for _ in 0..count {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Some(ext) = challenge.extensions.as_mut() {
            ext["sign-in-with-x"]["info"]["nonce"] = alloy::hex::encode(nonce).into();
        }
        out.push_str(&journal_market_client::siwx::proof_header(
            &challenge, &wallet,
        )?);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}

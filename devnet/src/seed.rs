//! Person-written journals on the dev chain, published the way a person publishes one: the
//! author signs in, saves the draft, has it audited (the built-in engine must approve it),
//! registers its metaUrl on the identity registry with the author's key, and reports the
//! transaction to `/journal/minted`, all over the HTTP API. The devnet seeds the journals of
//! `data/demo/person-journals.json`; tests seed their own.

use alloy::signers::local::PrivateKeySigner;
use journal_market_api::DraftInput;
use journal_market_client::{Client, publisher};
use serde::Deserialize;

use journal_market_chain::devnet_file::Devnet;
use journal_market_domain::money;
use journal_market_domain::status::JournalStatus;

pub const DEMO_PERSON_JOURNALS: &str = include_str!("../../data/demo/person-journals.json");

#[derive(Debug, Clone, Deserialize)]
pub struct PersonJournal {
    /// The slug the audit is expected to assign (derived from ticker and title).
    pub slug: String,
    pub ticker: String,
    pub title: String,
    pub dek: String,
    pub body: String,
    /// Decimal USDG.
    pub price: String,
    pub author_name: String,
    /// Index among the devnet's author accounts.
    #[serde(default)]
    pub author: usize,
}

#[derive(Deserialize)]
struct DemoFile {
    journals: Vec<PersonJournal>,
}

pub fn demo_person_journals() -> anyhow::Result<Vec<PersonJournal>> {
    Ok(serde_json::from_str::<DemoFile>(DEMO_PERSON_JOURNALS)?.journals)
}

/// Publishes `spec` as `author` through the API at `api` (its root, ending in `/api`) and
/// returns the journal's id and slug. A journal of that slug that is live already is left as
/// it is.
pub async fn publish(
    api: &str,
    rpc_url: &str,
    author: &PrivateKeySigner,
    spec: &PersonJournal,
) -> anyhow::Result<(i64, String)> {
    let client = Client::new(api)?;
    if let Ok(j) = client.journal(&spec.slug).await {
        return Ok((j.item.journal_id, j.item.slug));
    }
    let units =
        money::parse_usdg(&spec.price).map_err(|e| anyhow::anyhow!("{}: {e}", spec.slug))?;
    client.login(author).await?;
    let saved = client
        .save_draft(&DraftInput {
            id: None,
            ticker: spec.ticker.clone(),
            title: spec.title.clone(),
            dek: spec.dek.clone(),
            body: spec.body.clone(),
            price_usdg: money::units_to_usdg(units),
            author_name: spec.author_name.clone(),
        })
        .await
        .map_err(|e| anyhow::anyhow!("saving {}: {e}", spec.slug))?;
    let audit = client.audit(saved.id).await?;
    anyhow::ensure!(
        audit.status == JournalStatus::Approved.as_str(),
        "the audit did not approve {}: {} {:?}",
        spec.slug,
        audit.report.summary,
        audit.report.issues
    );
    let published = publisher::publish(&client, rpc_url, author, saved.id).await?;
    Ok((saved.id, published.slug))
}

/// Votes for the devnet: two buyers buy `slug` and vote on it, one up and one down.
pub async fn votes(api: &str, devnet: &Devnet, slug: &str) -> anyhow::Result<()> {
    let buyers = devnet.accounts("buyer");
    for (n, (up, tag)) in [(true, "well-sourced"), (false, "thin")]
        .into_iter()
        .enumerate()
    {
        let Some(buyer) = buyers.get(n) else { break };
        let signer = buyer.signer()?;
        let client = Client::new(api)?;
        client.buy(slug, &signer).await?;
        publisher::vote(&client, &devnet.rpc_url, &signer, slug, up, tag).await?;
    }
    Ok(())
}

/// The devnet's demo: the person-written journals, published through the API as an author
/// would, then swaps, a burn, purchases and votes, so the ledger and the vote counts are not empty.
pub async fn demo(api: &str, devnet: &Devnet) -> anyhow::Result<()> {
    let authors = devnet.accounts("author");
    let mut first = None;
    for spec in demo_person_journals()? {
        let author = authors
            .get(spec.author % authors.len().max(1))
            .ok_or_else(|| anyhow::anyhow!("the devnet has no author account"))?
            .signer()?;
        let (_, slug) = publish(api, &devnet.rpc_url, &author, &spec).await?;
        tracing::info!(%slug, "published a demo journal");
        first.get_or_insert(slug);
    }
    crate::deploy::market_activity(devnet).await?;
    if let Some(slug) = first {
        votes(api, devnet, &slug).await?;
    }
    tracing::info!("the devnet's swaps, burn and votes are in");
    Ok(())
}

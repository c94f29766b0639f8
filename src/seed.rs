//! Person-written journals on the dev chain: written to the database, registered on the
//! identity registry by their author, and made live, as `/journal/minted` would. The devnet
//! seeds the ones of `data/demo/person-journals.json`; tests seed their own.

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use chrono::Utc;
use jm_chain::bindings::IIdentityRegistry;
use jm_chain::devnet::wallet_provider;
use journal_market_entity::{audit_reports, journal_citations, journals};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use serde::Deserialize;

use crate::domain::{money, text};
use crate::queries::journals::STATUS_LIVE;

pub const DEMO_PERSON_JOURNALS: &str = include_str!("../data/demo/person-journals.json");

#[derive(Debug, Clone, Deserialize)]
pub struct PersonJournal {
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

/// Publishes `spec` for `author` and returns the journal's id and token id. A slug that exists
/// already is left as it is.
pub async fn publish(
    db: &DatabaseConnection,
    meta_base: &str,
    rpc_url: &str,
    identity: Address,
    author: &PrivateKeySigner,
    spec: &PersonJournal,
) -> anyhow::Result<(i32, Option<String>)> {
    if let Some(j) = journals::Entity::find()
        .filter(journals::Column::Slug.eq(spec.slug.clone()))
        .one(db)
        .await?
    {
        return Ok((j.id, j.token_id));
    }
    let price_units = money::parse_usdg(&spec.price).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(problem) = money::person_price_problem(price_units) {
        anyhow::bail!("{}: {problem}", spec.slug);
    }
    let now = Utc::now();
    let row = journals::ActiveModel {
        slug: Set(Some(spec.slug.clone())),
        ticker: Set(spec.ticker.clone()),
        swarm: Set(false),
        author_wallet: Set(Some(format!("{:#x}", author.address()))),
        author_name: Set(spec.author_name.clone()),
        title: Set(spec.title.clone()),
        dek: Set(spec.dek.clone()),
        body: Set(spec.body.clone()),
        price_units: Set(price_units),
        status: Set("approved".into()),
        content_hash: Set(Some(format!(
            "{:#x}",
            alloy::primitives::keccak256(spec.body.as_bytes())
        ))),
        audit_count: Set(1),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    for (i, accession) in text::citations(&spec.body).into_iter().enumerate() {
        journal_citations::ActiveModel {
            journal_id: Set(row.id),
            position: Set(i as i32 + 1),
            accession: Set(accession),
        }
        .insert(db)
        .await?;
    }
    audit_reports::ActiveModel {
        journal_id: Set(row.id),
        verdict: Set("approve".into()),
        score: Set(90.0),
        summary: Set("Claims match the cited entries.".into()),
        issues: Set(serde_json::json!([])),
        engine: Set("seed".into()),
        audited_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;

    let meta_url = format!("{meta_base}/meta/{}", row.id);
    let provider = wallet_provider(rpc_url, author.clone())?;
    let receipt = IIdentityRegistry::new(identity, &provider)
        .register_0(meta_url.clone())
        .send()
        .await?
        .get_receipt()
        .await?;
    anyhow::ensure!(receipt.status(), "registering {} reverted", spec.slug);
    let token = receipt
        .inner
        .logs()
        .iter()
        .find_map(|l| l.log_decode::<IIdentityRegistry::Transfer>().ok())
        .map(|t| t.inner.data.tokenId.to_string())
        .ok_or_else(|| anyhow::anyhow!("registering {} minted no token", spec.slug))?;
    let mut live: journals::ActiveModel = row.into();
    live.meta_url = Set(Some(meta_url));
    live.token_id = Set(Some(token.clone()));
    live.mint_tx = Set(Some(format!("{:#x}", receipt.transaction_hash)));
    live.status = Set(STATUS_LIVE.into());
    live.author_holds_stock = Set(Some(false));
    live.published_at = Set(Some(Utc::now()));
    let live = live.update(db).await?;
    Ok((live.id, Some(token)))
}

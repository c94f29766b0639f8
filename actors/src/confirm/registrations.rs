//! Live journals' registrations until final. A reorg that drops and re-includes a `register`
//! can mint another token id: the re-read takes the token the transaction minted to the author
//! with the journal's metaUrl, so `/pay/author` pays whoever holds the right token. A
//! registration gone from the chain clears the token (the journal takes no author payment
//! until it is re-mined, or the author registers again through `/journal/minted`).

use alloy::primitives::{Address, B256};
use journal_market_chain::erc8004::{self, RegistrationError};
use journal_market_entity::journals;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::depth::{self, Sighting, Verdict};
use super::{BATCH, Inner, PassError};

/// What the registration transaction proves now: the journal's token and where it was mined.
async fn reread(
    inner: &Inner,
    registry: Address,
    j: &journals::Model,
    tx: B256,
) -> Result<(Sighting<B256>, Option<String>), PassError> {
    let reg = match erc8004::registration(inner.chain.provider(), registry, tx).await {
        Ok(reg) => reg,
        Err(RegistrationError::Chain(e)) => return Err(e.into()),
        Err(_) => return Ok((Sighting::Gone, None)),
    };
    let author = j.author_wallet.map(|a| a.address());
    let (Some(author), Some(meta_url)) = (author, j.meta_url.as_deref()) else {
        return Ok((Sighting::Gone, None));
    };
    let (token, _) =
        erc8004::journal_token(inner.chain.provider(), registry, &reg, author, meta_url).await?;
    Ok(match token {
        Some(id) => (
            Sighting::Mined {
                block: reg.block,
                hash: reg.block_hash,
            },
            Some(id.to_string()),
        ),
        // Mined, but no longer minting this journal's token to its author.
        None => (Sighting::Gone, None),
    })
}

pub(super) async fn pass(inner: &Inner, registry: Address, head: u64) -> Result<(), PassError> {
    let distance = inner.settings.distance;
    let open = journals::Entity::find()
        .filter(journals::Column::MintTx.is_not_null())
        .filter(journals::Column::MintFinalAt.is_null())
        .order_by_asc(journals::Column::Id)
        .limit(BATCH)
        .all(&inner.db)
        .await?;
    for j in open {
        let block = j.mint_block.map(|b| b.max(0) as u64);
        // A cleared token is looked for every pass: the transaction may be mined again.
        if j.token_id.is_some() && !depth::due(block, head, distance) {
            continue;
        }
        let Some(tx) = j.mint_tx.map(B256::from) else {
            continue;
        };
        let (sighting, token) = reread(inner, registry, &j, tx).await?;
        let now = inner.clock.now();
        let (block, final_at) = match depth::judge(sighting, head, distance) {
            Verdict::Final { block, .. } => (Some(block as i64), Some(now)),
            Verdict::Seen { block, .. } => (Some(block as i64), None),
            Verdict::Dropped => (None, None),
        };
        if token != j.token_id {
            tracing::warn!(journal = j.id, was = ?j.token_id, now = ?token,
                "a reorg changed the journal's registration: token corrected");
        }
        crate::journals::correct_registration(&inner.db, &j, token, block, final_at).await?;
        inner.health.alive(super::NAME);
    }
    Ok(())
}

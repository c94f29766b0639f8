//! Settled payments until final: a transaction a reorg dropped (or re-mined reverted) sends its
//! row back to pending, where the settlement actor settles it again from the same permit or
//! fails it and withdraws the unlock. A pass asks the chain for the receipts of every row due
//! at once and records what they say in one update per verdict, so its cost does not grow a
//! call and a statement per payment.

use alloy::primitives::B256;

use super::depth::{self, Verdict};
use super::{BATCH, Inner, PassError, sightings};
use crate::settlement::store::{self, Sighted};

pub(super) async fn pass(inner: &Inner, head: u64) -> Result<(), PassError> {
    let distance = inner.settings.distance;
    let due: Vec<(i32, B256)> = store::unconfirmed(&inner.db, BATCH)
        .await?
        .into_iter()
        .filter(|row| depth::due(row.block(), head, distance))
        .map(|row| (row.id, B256::from(row.tx)))
        .collect();
    if due.is_empty() {
        return Ok(());
    }
    let txs: Vec<B256> = due.iter().map(|(_, tx)| *tx).collect();
    let seen = sightings(&inner.chain, &txs).await?;
    let now = inner.clock.now();
    let (mut finals, mut seens) = (Vec::new(), Vec::new());
    for ((id, tx), sighting) in due.into_iter().zip(seen) {
        match depth::judge(sighting, head, distance) {
            Verdict::Final { block, hash } => finals.push(Sighted::new(id, block, hash)),
            Verdict::Seen { block, hash } => seens.push(Sighted::new(id, block, hash)),
            Verdict::Dropped => {
                if store::reorged(&inner.db, id, now).await? {
                    tracing::warn!(payment = id, tx = %tx,
                        "a reorg took the settle transaction back: the payment is pending again");
                }
            }
        }
    }
    store::seen_at(&inner.db, &finals, Some(now)).await?;
    store::seen_at(&inner.db, &seens, None).await?;
    inner.health.alive(super::NAME);
    Ok(())
}

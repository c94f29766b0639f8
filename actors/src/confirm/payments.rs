//! Settled payments until final: a transaction a reorg dropped (or re-mined reverted) sends its
//! row back to pending, where the settlement actor settles it again from the same permit or
//! fails it and withdraws the unlock.

use alloy::primitives::B256;

use super::depth::{self, Verdict};
use super::{BATCH, Inner, PassError, sighting};
use crate::settlement::store;

pub(super) async fn pass(inner: &Inner, head: u64) -> Result<(), PassError> {
    let distance = inner.settings.distance;
    for row in store::unconfirmed(&inner.db, BATCH).await? {
        let block = row.block_number.map(|b| b.max(0) as u64);
        if !depth::due(block, head, distance) {
            continue;
        }
        let Some(tx) = row.tx.as_deref().and_then(|t| t.parse::<B256>().ok()) else {
            continue;
        };
        let now = inner.clock.now();
        match depth::judge(sighting(&inner.chain, tx).await?, head, distance) {
            Verdict::Final { block, hash } => {
                store::seen_at(&inner.db, row.id, block, &format!("{hash:#x}"), Some(now)).await?
            }
            Verdict::Seen { block, hash } => {
                store::seen_at(&inner.db, row.id, block, &format!("{hash:#x}"), None).await?
            }
            Verdict::Dropped => {
                if store::reorged(&inner.db, row.id, now).await? {
                    tracing::warn!(payment = row.id, tx = %tx,
                        "a reorg took the settle transaction back: the payment is pending again");
                }
            }
        }
        inner.health.alive(super::NAME);
    }
    Ok(())
}

//! Reconciliation: every pending row whose lease has expired, taken one by one and settled,
//! failed or given back with a backoff. `next` decides from the evidence; this gathers it.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use sea_orm::DbErr;

use super::outcome::RowState;
use super::{Inner, NAME, chrono_of, store};
use crate::supervise::Turn;

pub mod next;

pub use next::*;

impl Inner {
    /// One reconciliation pass: keeps the relayer lease, then every due row, each on its own
    /// (one bad row never stops the others).
    pub(super) async fn tick(self: Arc<Self>) {
        let Some(_turn) = Turn::begin(&self.reconciling) else {
            return;
        };
        if let Err(e) = self.pass().await {
            self.health.error(NAME, format!("reconciliation: {e}"));
        } else {
            self.health.heartbeat(NAME);
        }
    }

    pub(super) async fn pass(&self) -> Result<(), DbErr> {
        if !self.predecessor_freed.load(Ordering::Relaxed) {
            let n = store::free_predecessor(&self.db, &self.instance, self.started).await?;
            if n > 0 {
                tracing::info!(
                    rows = n,
                    "took over the payments of this instance's predecessor"
                );
            }
            self.predecessor_freed.store(true, Ordering::Relaxed);
        }
        self.renew_relayer().await?;
        let now = self.clock.now();
        for row in store::due(&self.db, now, 100).await? {
            if !store::take_lease(&self.db, row.id, &self.instance, now, self.lease_until()).await?
            {
                continue;
            }
            let next_in = match self.settle_row(&row, Duration::ZERO).await {
                Ok(RowState::Settled(_)) | Ok(RowState::Failed(_)) => continue,
                // Without the relayer key this instance may have been unable to send: the row
                // goes straight back, for the key holder.
                Ok(RowState::Pending) if !self.can_send() => {
                    store::release(&self.db, row.id, &self.instance, now, false).await?;
                    continue;
                }
                Ok(RowState::Pending) => backoff(self.settings.reconcile_every, row.attempts),
                Err(e) => {
                    tracing::warn!(payment = row.id, error = %e, "reconciling a payment failed");
                    backoff(self.settings.reconcile_every, row.attempts + 1)
                }
            };
            let next = self.clock.now() + chrono_of(next_in);
            store::release(&self.db, row.id, &self.instance, next, true).await?;
            // A long pass shows it advances, row by row.
            self.health.alive(NAME);
        }
        Ok(())
    }
}

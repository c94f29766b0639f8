//! The relayer key's lease: of several instances on one database only the holder sends with
//! the built-in settler's key, so its nonces are never raced.

use std::sync::atomic::Ordering;

use chrono::{DateTime, Utc};
use journal_market_domain::wallet::lower;
use sea_orm::DbErr;

use super::{Inner, chrono_of, store};

impl Inner {
    pub(super) fn lease_until(&self) -> DateTime<Utc> {
        self.clock.now() + chrono_of(self.settings.lease)
    }

    /// Whether this instance may send now: always with an HTTP facilitator; with the relayer
    /// key only while it holds the key's lease.
    pub(super) fn can_send(&self) -> bool {
        self.settler.relayer().is_none()
            || self.relayer_until.load(Ordering::Relaxed) > self.clock.now().timestamp_millis()
    }

    /// A clean shutdown: stops sending and gives the relayer key up, so an instance under
    /// another name sends at once instead of after the lease.
    pub(super) async fn release(&self) -> Result<(), DbErr> {
        self.released.store(true, Ordering::SeqCst);
        self.relayer_until.store(i64::MIN, Ordering::SeqCst);
        match self.settler.relayer() {
            Some(relayer) => store::drop_relayer(&self.db, &lower(&relayer), &self.instance).await,
            None => Ok(()),
        }
    }

    /// Takes or renews the relayer key's lease when it is due.
    pub(super) async fn renew_relayer(&self) -> Result<(), DbErr> {
        if self.released.load(Ordering::SeqCst) {
            return Ok(());
        }
        if let Some(relayer) = self.settler.relayer() {
            let now = self.clock.now();
            // Renewed once half of it is used: one write per half lease, not one per pass.
            let renew_at = self
                .relayer_until
                .load(Ordering::Relaxed)
                .saturating_sub((self.settings.lease / 4).as_millis() as i64);
            if now.timestamp_millis() >= renew_at {
                let until = self.lease_until();
                let held = store::hold_relayer(
                    self.db.pool(),
                    &lower(&relayer),
                    &self.instance,
                    now,
                    until,
                )
                .await?;
                // Stop sending a quarter lease early: another instance may take it at the end.
                let margin = chrono_of(self.settings.lease / 4);
                self.relayer_until.store(
                    if held {
                        (until - margin).timestamp_millis()
                    } else {
                        i64::MIN
                    },
                    Ordering::Relaxed,
                );
                // A shutdown that gave the key up while this renewal ran gives it up again.
                if held && self.released.load(Ordering::SeqCst) {
                    self.release().await?;
                }
            }
        }
        self.relayer_tried.store(true, Ordering::Relaxed);
        Ok(())
    }
}

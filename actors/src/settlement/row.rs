//! One payment row against the chain: its send, what its transactions did, and the write that
//! settles or fails it. Shared by the request path and reconciliation.

use std::time::Duration;

use alloy::primitives::{Address, B256, U256};
use futures::future::BoxFuture;
use journal_market_chain::facilitator::TxStatus;
use journal_market_domain::purchase::Step;
use journal_market_domain::state::PaymentState;
use journal_market_domain::tx::TxHash;
use journal_market_entity::payments;
use journal_market_x402::facilitator::{Checked, Permit, Sent, SettleError};
use journal_market_x402::{PaymentPayload, PaymentRequirements};
use sea_orm::DbErr;

#[cfg(feature = "faults")]
use super::FaultPoint;
use super::outcome::{PayError, RowState};
use super::reconcile::next::{self as reconcile, Evidence, Next};
use super::stats::RowOutcome;
use super::store::{self, RowKey};
use super::{Inner, NAME, now_secs};

/// The parsed money terms of a row.
pub(super) struct Terms {
    pub(super) from: Address,
    pub(super) to: Address,
    pub(super) amount: U256,
    pub(super) nonce: U256,
    pub(super) deadline: u64,
}

/// A chain read that failed: the row waits for the next look.
fn chain_error(e: SettleError) -> PayError {
    PayError::Chain(e.to_string())
}

pub(super) fn terms(row: &payments::Model) -> Option<Terms> {
    Some(Terms {
        from: row.wallet.address(),
        to: row.pay_to.address(),
        amount: U256::from(u64::try_from(row.amount_units).ok()?),
        nonce: U256::from_str_radix(&row.permit_nonce, 10).ok()?,
        deadline: now_secs(row.permit_deadline),
    })
}

impl Inner {
    /// The transaction that paid the row's permit, when the send answered with its receipt
    /// (the node's own word on the transaction signed for this permit: nothing else to read).
    pub(super) fn paid_by_sent(&self, t: &Terms, sent: Option<Sent>) -> Option<B256> {
        let sent = sent?;
        self.chain
            .sent_pays(&sent, t.from, t.to, t.amount)
            .then_some(sent.tx)
    }

    /// Whether the row's step is the purchase's last (it unlocks the journal).
    pub(super) async fn is_last(&self, row: &payments::Model) -> Result<bool, DbErr> {
        Ok(Step::parse(&row.step) == Some(Step::Author)
            || store::journal_is_swarm(&self.db, row.journal_id).await?)
    }

    /// Sends the row's permit through the back-end, recording every hash it learns. Send
    /// errors are logged, not returned: what happened is read from the chain afterwards.
    /// `Some` when the back-end took it.
    pub(super) async fn send(
        &self,
        id: i32,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        permit: &Permit,
        checked: Checked,
    ) -> Result<Option<Sent>, PayError> {
        #[cfg(feature = "faults")]
        let fault = self.settings.fault;
        #[cfg(feature = "faults")]
        if fault == FaultPoint::BeforeSend {
            return Err(PayError::Interrupted);
        }
        let db = self.db.clone();
        let clock = self.clock.clone();
        let record = move |tx: B256| -> BoxFuture<'_, Result<(), String>> {
            let (db, clock) = (db.clone(), clock.clone());
            Box::pin(async move {
                #[cfg(feature = "faults")]
                if fault == FaultPoint::BeforeRecord {
                    return Ok(());
                }
                match store::record_tx(&db, id, TxHash(tx), clock.now()).await {
                    Ok(true) => {}
                    Ok(false) => return Err("the hash belongs to another payment".into()),
                    Err(e) => return Err(format!("recording the hash failed: {e}")),
                }
                #[cfg(feature = "faults")]
                if fault == FaultPoint::AfterRecord {
                    return Err("stopped by a fault point".into());
                }
                Ok(())
            })
        };
        let sent = self.settler.submit(p, r, permit, checked, &record).await;
        #[cfg(feature = "faults")]
        if matches!(
            fault,
            FaultPoint::AfterRecord | FaultPoint::BeforeRecord | FaultPoint::AfterSend
        ) {
            return Err(PayError::Interrupted);
        }
        match sent {
            Ok(sent) => Ok(Some(sent)),
            Err(e) => {
                tracing::warn!(payment = id, error = %e, "the settle call failed; the chain decides");
                self.health.error(NAME, format!("payment {id}: {e}"));
                Ok(None)
            }
        }
    }

    /// Settles, fails or leaves pending one row from what the chain says, sending its permit
    /// (again) when nothing is on the way and it is still valid. Waits up to `wait` for the
    /// receipt of its newest transaction.
    pub(super) async fn settle_row(
        &self,
        row: &payments::Model,
        wait: Duration,
    ) -> Result<RowState, PayError> {
        let Some(t) = terms(row) else {
            let why = "the row is unreadable";
            store::fail(self.db.pool(), row.id, why, self.clock.now()).await?;
            self.stats.row(RowOutcome::Failed);
            return Ok(RowState::Failed(why.into()));
        };
        let last = self.is_last(row).await?;
        let evidence = self.evidence(row.id, &t, wait).await?;
        match reconcile::next(&evidence) {
            Next::Settle(tx) => self.settle_with(RowKey::of(row), tx, last).await,
            Next::Search => self.search(row, &t, evidence.head_time, last).await,
            Next::Fail(why) => self.fail(row.id, why).await,
            Next::Wait => Ok(RowState::Pending),
            Next::Send if self.can_send() => self.resend(row, &t, wait, last).await,
            Next::Send => Ok(RowState::Pending),
        }
    }

    /// What the chain says of the row's permit: the transaction that paid it, else whether its
    /// nonce is spent at the head (one block for both facts: unspent past the deadline is
    /// final).
    async fn evidence(&self, id: i32, t: &Terms, wait: Duration) -> Result<Evidence, PayError> {
        let (paid_by, in_flight) = self.look_at_txs(id, t, wait).await?;
        if let Some(tx) = paid_by {
            return Ok(Evidence {
                paid_by: Some(tx),
                in_flight,
                nonce_used: true,
                head_time: 0,
                deadline: t.deadline,
            });
        }
        let head = self.chain.head().await.map_err(chain_error)?;
        Ok(Evidence {
            paid_by: None,
            in_flight,
            nonce_used: self
                .chain
                .nonce_used_at(t.from, t.nonce, head.number)
                .await
                .map_err(chain_error)?,
            head_time: head.timestamp,
            deadline: t.deadline,
        })
    }

    /// The permit's nonce is spent by no transaction we know: the chain's logs say whether it
    /// paid this row (settled) or something else (failed).
    async fn search(
        &self,
        row: &payments::Model,
        t: &Terms,
        head_time: u64,
        last: bool,
    ) -> Result<RowState, PayError> {
        let found = self
            .chain
            .find_settlement(
                t.from,
                t.to,
                t.amount,
                t.nonce,
                now_secs(row.created_at).saturating_sub(600),
                t.deadline.min(head_time),
            )
            .await
            .map_err(chain_error)?;
        match found {
            Some(tx) => {
                tracing::info!(payment = row.id, tx = %tx, "found the transaction that paid the permit");
                self.settle_with(RowKey::of(row), tx, last).await
            }
            None => self.fail(row.id, reconcile::SPENT_ELSEWHERE).await,
        }
    }

    /// Sends the stored permit again (nothing on the way, still valid), then reads what it did.
    async fn resend(
        &self,
        row: &payments::Model,
        t: &Terms,
        wait: Duration,
        last: bool,
    ) -> Result<RowState, PayError> {
        let Ok(p) = serde_json::from_str::<PaymentPayload>(&row.payload) else {
            return self.fail(row.id, "the stored payload is unreadable").await;
        };
        if row.reorged_at.is_some() {
            self.settler.resync_nonces().await;
        }
        let r = p.accepted.clone();
        let now = now_secs(self.clock.now());
        let Ok(permit) = self.chain.verify_signature(&p, &r, now).await else {
            // Too close to its deadline for the terms check, or the chain is away: the next
            // look decides.
            return Ok(RowState::Pending);
        };
        let sent = self
            .send(row.id, &p, &r, &permit, Checked::default())
            .await?;
        if let Some(tx) = self.paid_by_sent(t, sent) {
            return self.settle_with(RowKey::of(row), tx, last).await;
        }
        match self.look_at_txs(row.id, t, wait).await?.0 {
            Some(tx) => self.settle_with(RowKey::of(row), tx, last).await,
            None => Ok(RowState::Pending),
        }
    }

    /// Looks at every transaction known for the row, newest first (waiting up to `wait` for
    /// the newest one's receipt): the one that paid the permit, and whether one is in flight.
    pub(super) async fn look_at_txs(
        &self,
        id: i32,
        t: &Terms,
        wait: Duration,
    ) -> Result<(Option<B256>, bool), PayError> {
        let mut in_flight = false;
        let txs = store::txs(&self.db, id).await?;
        for (i, tx) in txs.iter().rev().enumerate() {
            let tx = B256::from(*tx);
            let w = if i == 0 { wait } else { Duration::ZERO };
            match self
                .chain
                .tx_status(tx, t.from, t.nonce, t.to, t.amount, w)
                .await
                .map_err(|e| PayError::Chain(e.to_string()))?
            {
                TxStatus::Paid => return Ok((Some(tx), in_flight)),
                TxStatus::Pending => in_flight = true,
                TxStatus::NotPaid | TxStatus::Unknown => {}
            }
        }
        Ok((None, in_flight))
    }

    /// Settles the row by `tx`, with the unlock when its step is the `last`.
    pub(super) async fn settle_with(
        &self,
        row: RowKey,
        tx: B256,
        last: bool,
    ) -> Result<RowState, PayError> {
        if store::settle(&self.db, row, TxHash(tx), last, self.clock.now()).await? {
            self.stats.row(RowOutcome::Settled);
            return Ok(RowState::Settled(tx));
        }
        // Settled by someone else meanwhile, or the hash settled another payment.
        let now = store::find(&self.db, row.id).await?;
        Ok(match now.state {
            PaymentState::Settled => match now.tx {
                Some(tx) => RowState::Settled(tx.into()),
                None => RowState::Pending,
            },
            PaymentState::Failed => RowState::Failed(now.error.unwrap_or_default()),
            PaymentState::Pending => {
                tracing::error!(payment = row.id, tx = %tx, "the transaction settled another payment");
                RowState::Pending
            }
        })
    }

    pub(super) async fn fail(&self, id: i32, why: &str) -> Result<RowState, PayError> {
        store::fail(self.db.pool(), id, why, self.clock.now()).await?;
        self.stats.row(RowOutcome::Failed);
        Ok(RowState::Failed(why.to_string()))
    }
}

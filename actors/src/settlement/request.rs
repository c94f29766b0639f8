//! The request path: one payment step from its signed payload to a pending row, the send, and
//! the answer; what it cannot finish is left to reconciliation.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, U256};
use chrono::{DateTime, Utc};
use journal_market_chain::extensions::payment_identifier;
use journal_market_chain::facilitator::{Checked, SettleError};
use journal_market_chain::signature;
use journal_market_domain::purchase::{Standing, Verdict, rules};
use journal_market_domain::state::PaymentState;
use journal_market_domain::wallet::Wallet;
use sea_orm::DbErr;

use super::outcome::{Paid, PayError, PayStep, RowState, rejected};
use super::row::Terms;
use super::store::{self, Claim, RowKey};
use super::{Inner, chrono_of, now_secs, replay};

impl Inner {
    pub(super) async fn pay(&self, s: PayStep) -> Result<Paid, PayError> {
        let started = Instant::now();
        let now = self.clock.now();
        // Who pays: the signer, proven before anything is looked up for that wallet.
        let t = Instant::now();
        let permit = self
            .chain
            .verify_signature(&s.payload, &s.requirements, now_secs(now))
            .await
            .map_err(rejected)?;
        let mut chain_time = t.elapsed();
        let wallet = Wallet(permit.from);
        let nonce = permit.permit.nonce.to_string();
        let signature_key = signature::key(&permit.signature).to_string();
        let key = store::PermitKey {
            wallet,
            nonce: &nonce,
            signature: &signature_key,
        };
        let fingerprint = payment_identifier::fingerprint(&s.payload);
        let id = s.payment_id.as_deref();
        let asked = replay::Asked {
            journal_id: s.journal_id,
            step: s.step,
            id,
            fingerprint: &fingerprint,
            signer: wallet,
        };
        // What the claim's write checks again, read once here so a replay or a refusal never
        // costs a simulation on the chain.
        let seen = store::seen(&self.db, id, key, s.journal_id).await?;
        if let Some(row) = seen.known(id, key) {
            return replay::answer(row.clone(), asked);
        }
        let standing = seen.standing(wallet, s.journal_id, s.author_wallet);
        if let Some(answer) = judge(standing, &s) {
            return answer;
        }
        if seen.open_step(wallet, s.journal_id, s.step).is_some() {
            return Err(PayError::StillSettling);
        }
        // A payment that arrives before the first reconciliation pass took the relayer's lease
        // takes it here, so it is sent at once rather than left to that pass.
        if !self.relayer_tried.load(Ordering::Relaxed) {
            self.renew_relayer().await?;
        }
        let sender = self.can_send();
        let t = Instant::now();
        let sponsored = self.sponsorable(&s, &permit, sender).await?;
        // A spent nonce may have paid us (a front-runner settled this permit): the row is
        // claimed and the chain searched, instead of refusing a buyer whose money moved.
        // `None`: the nonce is spent.
        let checked = match sponsored {
            // Without the allowance the settle cannot be simulated yet: it is, once approved.
            Some(_) => Some(Checked::default()),
            None => match self
                .settler
                .verify(&s.payload, &s.requirements, &permit)
                .await
            {
                Ok(checked) => Some(checked),
                Err(SettleError::Invalid(i)) if i.code == "permit2_invalid_nonce" => None,
                Err(e @ SettleError::Invalid(_)) => {
                    // A copy of this permit may have been claimed and sent since it was looked
                    // up (its row is written before its send): the node then refuses the
                    // simulation before the nonce reads as spent. That row answers.
                    let seen = store::seen(&self.db, id, key, s.journal_id).await?;
                    if let Some(row) = seen.known(id, key) {
                        return replay::answer(row.clone(), asked);
                    }
                    return Err(rejected(e));
                }
                Err(e) => return Err(rejected(e)),
            },
        };
        chain_time += t.elapsed();
        let payload = serde_json::to_string(&s.payload)
            .map_err(|e| PayError::Rejected(format!("the payload cannot be stored: {e}")))?;
        let lease = self.lease_until();
        let claim = store::claim(
            &self.db,
            &store::NewPayment {
                wallet,
                journal_id: s.journal_id,
                author_wallet: s.author_wallet,
                swarm: s.swarm,
                step: s.step,
                amount_units: s.amount_units,
                pay_to: Wallet(s.pay_to),
                permit_nonce: &nonce,
                signature_key: &signature_key,
                permit_deadline: DateTime::<Utc>::from_timestamp(
                    permit.permit.deadline.saturating_to::<i64>(),
                    0,
                )
                .unwrap_or(now),
                payload: &payload,
                payment_id: id,
                fingerprint: &fingerprint,
                now,
                lease: sender.then_some((self.instance.as_str(), lease)),
            },
            standing,
        )
        .await?;
        let id = match claim {
            Claim::Claimed(id) => id,
            Claim::Rules(Verdict::FeeAlreadyPaid) => return Ok(Paid::FeeAlreadyPaid),
            Claim::Rules(Verdict::Refused(r)) => return Err(PayError::Refused(r)),
            Claim::Rules(Verdict::Pay) | Claim::StepHeld(_) => {
                return Err(PayError::StillSettling);
            }
            Claim::Known(row) => {
                return replay::answer(*row, asked);
            }
        };
        if !sender {
            // Another instance holds the relayer key: its reconciliation sends this row.
            return self.await_row(id, permit.from).await;
        }
        let t = Instant::now();
        if let Some((approval, need)) = sponsored {
            self.sponsor(id, wallet, &approval, need).await?;
        }
        let sent = match checked {
            Some(checked) => {
                self.send(id, &s.payload, &s.requirements, &permit, checked)
                    .await?
            }
            None => None,
        };
        // The request knows the row's terms and whether its step is the last: no re-read
        // unless the chain has to be asked.
        let terms = Terms {
            from: permit.from,
            to: s.pay_to,
            amount: U256::from(u64::try_from(s.amount_units).unwrap_or_default()),
            nonce: permit.permit.nonce,
            deadline: permit.permit.deadline.saturating_to(),
        };
        let key = RowKey {
            id,
            wallet,
            journal_id: s.journal_id,
        };
        let state = match self.paid_by_sent(&terms, sent) {
            // The send recorded its hash as this row's before sending it.
            Some(tx) => self.settle_with(key, tx, s.step.is_last(s.swarm)).await,
            None => {
                let row = store::find(&self.db, id).await?;
                self.settle_row(&row, self.settings.receipt_wait).await
            }
        };
        chain_time += t.elapsed();
        let state = match state {
            Ok(state) => state,
            Err(PayError::Interrupted) => return Err(PayError::Interrupted),
            Err(e) => {
                // The payment may be on its way: the row is reconciliation's now.
                tracing::warn!(payment = id, error = %e, "settling is left to reconciliation");
                self.give_back(id).await?;
                return Err(PayError::StillSettling);
            }
        };
        tracing::debug!(
            total_ms = started.elapsed().as_secs_f64() * 1000.0,
            chain_ms = chain_time.as_secs_f64() * 1000.0,
            "payment settled"
        );
        match state {
            RowState::Settled(tx) => Ok(Paid::Settled {
                payer: permit.from,
                tx,
                at: now,
            }),
            RowState::Failed(why) => Err(PayError::Rejected(format!("settlement failed: {why}"))),
            RowState::Pending => {
                self.give_back(id).await?;
                Err(PayError::StillSettling)
            }
        }
    }

    /// Hands a row this request worked on to reconciliation.
    pub(super) async fn give_back(&self, id: i32) -> Result<(), DbErr> {
        let next = self.clock.now() + chrono_of(self.settings.reconcile_every);
        store::release(&self.db, id, &self.instance, next, false).await
    }

    /// Waits for a row another instance settles.
    pub(super) async fn await_row(&self, id: i32, payer: Address) -> Result<Paid, PayError> {
        let until = Instant::now() + self.settings.receipt_wait;
        let mut pause = Duration::from_millis(20);
        while Instant::now() < until {
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(250));
            let row = store::find(&self.db, id).await?;
            match row.state {
                PaymentState::Pending => continue,
                PaymentState::Settled => {
                    if let Some(tx) = row.tx {
                        return Ok(Paid::Settled {
                            payer,
                            tx: tx.into(),
                            at: row.created_at,
                        });
                    }
                }
                _ => {
                    return Err(PayError::Rejected(format!(
                        "settlement failed: {}",
                        row.error.unwrap_or_default()
                    )));
                }
            }
        }
        Err(PayError::StillSettling)
    }
}

/// The judge: the purchase rules for the wallet that signed the payment, once its signature is
/// verified; `None` when it may pay. (The handler's pre-check saw only who asked; the claim's
/// guard checks again in the write.)
fn judge(standing: Standing, s: &PayStep) -> Option<Result<Paid, PayError>> {
    match rules(standing, s.step, s.swarm) {
        Verdict::Pay => None,
        Verdict::FeeAlreadyPaid => Some(Ok(Paid::FeeAlreadyPaid)),
        Verdict::Refused(r) => Some(Err(PayError::Refused(r))),
    }
}

//! The request path: one payment step from its signed payload to a pending row, the send, and
//! the answer; what it cannot finish is left to reconciliation.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, U256};
use chrono::{DateTime, Utc};
use journal_market_domain::purchase::{Standing, Verdict, rules};
use journal_market_domain::state::PaymentState;
use journal_market_domain::wallet::Wallet;
use journal_market_x402::extensions::gas_sponsoring;
use journal_market_x402::extensions::payment_identifier;
use journal_market_x402::facilitator::{Checked, Permit, Sent, SettleError};
use journal_market_x402::signature;
use sea_orm::DbErr;

use super::approval::Cost;
use super::outcome::{Paid, PayError, PayStep, RowState, rejected};
use super::row::Terms;
use super::store::{self, Claim, RowKey};
use super::{Inner, chrono_of, now_secs, replay};

/// The signer of a payment, proven, and the keys its rows are found by.
struct Signer {
    permit: Permit,
    wallet: Wallet,
    nonce: String,
    signature_key: String,
    fingerprint: String,
}

impl Signer {
    fn key(&self) -> store::PermitKey<'_> {
        store::PermitKey {
            wallet: self.wallet,
            nonce: &self.nonce,
            signature: &self.signature_key,
        }
    }

    fn asked<'a>(&'a self, s: &'a PayStep) -> replay::Asked<'a> {
        replay::Asked {
            journal_id: s.journal_id,
            step: s.step,
            id: s.payment_id.as_deref(),
            fingerprint: &self.fingerprint,
            signer: self.wallet,
        }
    }
}

/// What the chain said before the row is claimed: the sponsored approval the payer needs, if
/// any, and the settle's simulation (`None`: the permit's nonce is spent).
struct Ready {
    sender: bool,
    sponsored: Option<(gas_sponsoring::Approval, Cost)>,
    checked: Option<Checked>,
}

impl Inner {
    /// One payment step: the signer proven, the rules judged for it, the chain asked, the row
    /// claimed (the guard), then sent and settled; what cannot finish now is reconciliation's.
    pub(super) async fn pay(&self, s: PayStep) -> Result<Paid, PayError> {
        let started = Instant::now();
        let now = self.clock.now();
        let t = Instant::now();
        let signer = self.signer(&s, now).await?;
        let standing = match self.look_up(&s, &signer).await? {
            Ok(standing) => standing,
            Err(answer) => return answer,
        };
        let ready = match self.ready(&s, &signer).await? {
            Ok(ready) => ready,
            Err(answer) => return answer,
        };
        let mut chain_time = t.elapsed();
        let id = match self.claim(&s, &signer, standing, now, ready.sender).await? {
            Ok(id) => id,
            Err(answer) => return answer,
        };
        if !ready.sender {
            // Another instance holds the relayer key: its reconciliation sends this row.
            return self.await_row(id, signer.permit.from).await;
        }
        let t = Instant::now();
        let sent = self.send_claimed(&s, &signer, id, ready).await?;
        let state = self.settle_sent(&s, &signer, id, sent).await;
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
                payer: signer.permit.from,
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

    /// Who pays: the signer, proven before anything is looked up for that wallet.
    async fn signer(&self, s: &PayStep, now: DateTime<Utc>) -> Result<Signer, PayError> {
        let permit = self
            .chain
            .verify_signature(&s.payload, &s.requirements, now_secs(now))
            .await
            .map_err(rejected)?;
        Ok(Signer {
            wallet: Wallet(permit.from),
            nonce: permit.permit.nonce.to_string(),
            signature_key: signature::key(&permit.signature).to_string(),
            fingerprint: payment_identifier::fingerprint(&s.payload),
            permit,
        })
    }

    /// What the claim's write checks again, read once here so a replay or a refusal never
    /// costs a simulation on the chain: a known payment's answer, the judge's verdict, or a
    /// step still settling (`Err` holds the answer); else where the signer stands.
    async fn look_up(
        &self,
        s: &PayStep,
        signer: &Signer,
    ) -> Result<Result<Standing, Result<Paid, PayError>>, PayError> {
        let id = s.payment_id.as_deref();
        let seen = store::seen(&self.db, id, signer.key(), s.journal_id).await?;
        if let Some(row) = seen.known(id, signer.key()) {
            return Ok(Err(replay::answer(row.clone(), signer.asked(s))));
        }
        let standing = seen.standing(signer.wallet, s.journal_id, s.author_wallet);
        if let Some(answer) = judge(standing, s) {
            return Ok(Err(answer));
        }
        if seen
            .open_step(signer.wallet, s.journal_id, s.step)
            .is_some()
        {
            return Ok(Err(Err(PayError::StillSettling)));
        }
        Ok(Ok(standing))
    }

    /// The chain asked before the row is claimed: the relayer's lease, a sponsored approval,
    /// the settle's simulation. A spent nonce may have paid us (a front-runner settled this
    /// permit): the row is claimed and the chain searched, instead of refusing a buyer whose
    /// money moved.
    async fn ready(
        &self,
        s: &PayStep,
        signer: &Signer,
    ) -> Result<Result<Ready, Result<Paid, PayError>>, PayError> {
        // A payment that arrives before the first reconciliation pass took the relayer's lease
        // takes it here, so it is sent at once rather than left to that pass.
        if !self.relayer_tried.load(Ordering::Relaxed) {
            self.renew_relayer().await?;
        }
        let sender = self.can_send();
        let sponsored = self.sponsorable(s, &signer.permit, sender).await?;
        let checked = match sponsored {
            // Without the allowance the settle cannot be simulated yet: it is, once approved.
            Some(_) => Some(Checked::default()),
            None => match self
                .settler
                .verify(&s.payload, &s.requirements, &signer.permit)
                .await
            {
                Ok(checked) => Some(checked),
                Err(SettleError::Invalid(i)) if i.code == "permit2_invalid_nonce" => None,
                Err(e @ SettleError::Invalid(_)) => {
                    // A copy of this permit may have been claimed and sent since it was looked
                    // up (its row is written before its send): the node then refuses the
                    // simulation before the nonce reads as spent. That row answers.
                    let id = s.payment_id.as_deref();
                    let seen = store::seen(&self.db, id, signer.key(), s.journal_id).await?;
                    if let Some(row) = seen.known(id, signer.key()) {
                        return Ok(Err(replay::answer(row.clone(), signer.asked(s))));
                    }
                    return Err(rejected(e));
                }
                Err(e) => return Err(rejected(e)),
            },
        };
        Ok(Ok(Ready {
            sender,
            sponsored,
            checked,
        }))
    }

    /// The pending row, inserted by the store's guard under the standing read before; its id,
    /// or the answer when the guard or another request's row says otherwise.
    async fn claim(
        &self,
        s: &PayStep,
        signer: &Signer,
        standing: Standing,
        now: DateTime<Utc>,
        sender: bool,
    ) -> Result<Result<i32, Result<Paid, PayError>>, PayError> {
        let payload = serde_json::to_string(&s.payload)
            .map_err(|e| PayError::Rejected(format!("the payload cannot be stored: {e}")))?;
        let lease = self.lease_until();
        let deadline = signer.permit.permit.deadline.saturating_to::<i64>();
        let claim = store::claim(
            &self.db,
            &store::NewPayment {
                wallet: signer.wallet,
                journal_id: s.journal_id,
                author_wallet: s.author_wallet,
                swarm: s.swarm,
                step: s.step,
                amount_units: s.amount_units,
                pay_to: Wallet(s.pay_to),
                permit_nonce: &signer.nonce,
                signature_key: &signer.signature_key,
                permit_deadline: DateTime::<Utc>::from_timestamp(deadline, 0).unwrap_or(now),
                payload: &payload,
                payment_id: s.payment_id.as_deref(),
                fingerprint: &signer.fingerprint,
                now,
                lease: sender.then_some((self.instance.as_str(), lease)),
            },
            standing,
        )
        .await?;
        Ok(match claim {
            Claim::Claimed(id) => Ok(id),
            Claim::Rules(Verdict::FeeAlreadyPaid) => Err(Ok(Paid::FeeAlreadyPaid)),
            Claim::Rules(Verdict::Refused(r)) => Err(Err(PayError::Refused(r))),
            Claim::Rules(Verdict::Pay) | Claim::StepHeld(_) => Err(Err(PayError::StillSettling)),
            Claim::Known(row) => Err(replay::answer(*row, signer.asked(s))),
        })
    }

    /// The claimed row sent, after its sponsored approval if any (`None`: the nonce was spent,
    /// nothing to send).
    async fn send_claimed(
        &self,
        s: &PayStep,
        signer: &Signer,
        id: i32,
        ready: Ready,
    ) -> Result<Option<Sent>, PayError> {
        if let Some((approval, need)) = ready.sponsored {
            self.sponsor(id, signer.wallet, &approval, need).await?;
        }
        Ok(match ready.checked {
            Some(checked) => {
                self.send(id, &s.payload, &s.requirements, &signer.permit, checked)
                    .await?
            }
            None => None,
        })
    }

    /// The row's state once its transaction is known: from what was sent, else from the chain.
    async fn settle_sent(
        &self,
        s: &PayStep,
        signer: &Signer,
        id: i32,
        sent: Option<Sent>,
    ) -> Result<RowState, PayError> {
        // The request knows the row's terms and whether its step is the last: no re-read
        // unless the chain has to be asked.
        let terms = Terms {
            from: signer.permit.from,
            to: s.pay_to,
            amount: U256::from(u64::try_from(s.amount_units).unwrap_or_default()),
            nonce: signer.permit.permit.nonce,
            deadline: signer.permit.permit.deadline.saturating_to(),
        };
        let key = RowKey {
            id,
            wallet: signer.wallet,
            journal_id: s.journal_id,
        };
        match self.paid_by_sent(&terms, sent) {
            // The send recorded its hash as this row's before sending it.
            Some(tx) => self.settle_with(key, tx, s.step.is_last(s.swarm)).await,
            None => {
                let row = store::find(&self.db, id).await?;
                self.settle_row(&row, self.settings.receipt_wait).await
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

//! The SettlementActor: moves one payment step from a signed x402 payload to money on the chain
//! and an unlock in the database, and reconciles every pending row with the chain until it is
//! settled or provably unpaid.
//!
//! Durable first: the step is a pending row (claimed under the purchase rules, for the wallet
//! that signed) before the settle call; every transaction hash is recorded as soon as it is
//! known (before sending, for the built-in settler); the row is settled (with the unlock, on
//! the last step) only when a transaction that is the proxy's `settle` of this very permit
//! paid the USDG. Rows carry a lease, so of several instances on one database only the one
//! working on a row touches it; reconciliation takes rows whose lease has expired.

pub mod reconcile;
pub mod replay;
pub mod settler;
pub mod sponsor;
pub mod stats;
pub mod store;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use actix::prelude::*;
use alloy::primitives::{Address, B256, U256};
use chrono::{DateTime, Utc};
use futures::future::BoxFuture;
use jm_chain::extensions::{gas_sponsoring, payment_identifier};
use jm_chain::facilitator::{Checked, Facilitator, Permit, Sent, SettleError, TxStatus};
use jm_chain::x402::{PaymentPayload, PaymentRequirements};
use journal_market_domain::purchase::{Verdict, rules};
use journal_market_domain::wallet::lower;
use journal_market_entity::payments;
use sea_orm::{DatabaseConnection, DbErr};

use crate::clock::SharedClock;
use crate::handle::{ActorHandle, CallError};
use crate::health::HealthRegistry;
use crate::supervise::{self, Stop, Turn};
pub use journal_market_domain::purchase::{Refusal, Step};
use reconcile::{Evidence, Next};
pub use settler::{HttpSettler, LocalSettler, Settler};
pub use sponsor::{SponsorSettings, Tally as SponsorTally};
pub use stats::SettlementStats;
use stats::{RequestOutcome, RowOutcome};
use store::Claim;

const NAME: &str = "settlement";

/// One payment step to settle. Who pays is the payload's signer, proven inside.
#[derive(Debug, Clone)]
pub struct PayStep {
    pub journal_id: i32,
    /// The journal's author (lower-case address), for the "you wrote it" rule.
    pub author_wallet: Option<String>,
    pub swarm: bool,
    pub step: Step,
    pub amount_units: i64,
    pub pay_to: Address,
    pub payload: PaymentPayload,
    pub requirements: PaymentRequirements,
    /// The payload's x402 `payment-identifier`, if it carries one (checked well-formed).
    pub payment_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paid {
    /// The step is settled by this transaction: by this request, or by the first request with
    /// this request's payment-identifier and payment (a retry gets the first answer).
    Settled { payer: Address, tx: B256 },
    /// The permit was settled by an earlier request, and this one has no claim to its answer:
    /// a permit is public once settled, so it proves the payment, not who is asking.
    Used { payer: Address, tx: B256 },
    /// The fee of a person-written journal was paid already: `{ ok, already }`.
    FeeAlreadyPaid,
}

#[derive(Debug, thiserror::Error)]
pub enum PayError {
    /// The payload must not be settled, or settling it failed without moving money (402).
    #[error("{0}")]
    Rejected(String),
    /// The purchase rules refuse the signer (409).
    #[error("{0}")]
    Refused(Refusal),
    /// The step's payment is on its way; the outcome is not known yet (409 + Retry-After).
    #[error("the payment for this step is still settling; retry the same request shortly")]
    StillSettling,
    /// The payment-identifier came first with another payment (409).
    #[error(
        "this payment-identifier was already used with another payment; use a new id for a new payment"
    )]
    IdReused,
    /// The in-flight limit is full (503 + Retry-After).
    #[error("payments are busy; retry shortly")]
    Busy,
    #[error("the chain could not be reached: {0}")]
    Chain(String),
    #[error("the settlement actor is restarting; retry shortly")]
    Stopped,
    #[error("the payment store failed")]
    Db(#[from] DbErr),
    /// A test fault point stopped the settlement, as a crash would.
    #[error("settlement interrupted by a fault point")]
    Interrupted,
}

/// Where a test stops a settlement, as a crash would (test configurations only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultPoint {
    #[default]
    None,
    /// After the pending row is written, before anything is sent.
    BeforeSend,
    /// Built-in settler: after the signed transaction's hash is recorded, before it is sent.
    AfterRecord,
    /// After the transaction is sent, before its hash is recorded (only the chain knows it).
    BeforeRecord,
    /// After the transaction is sent and recorded, before its receipt is read.
    AfterSend,
    /// After a sponsored approval is mined, before the settle is sent.
    AfterApproval,
}

#[derive(Debug, Clone)]
pub struct SettlementSettings {
    pub max_in_flight: usize,
    /// The longest a payment request waits for its settlement before answering "still
    /// settling".
    pub deadline: Duration,
    /// How long a request waits for the receipt of the transaction it sent.
    pub receipt_wait: Duration,
    /// How long an instance may work on a row before another may take it.
    pub lease: Duration,
    /// How often pending rows are reconciled (the first backoff step).
    pub reconcile_every: Duration,
    /// This process's name on leases. A process that takes over its predecessor's name (the
    /// same host and port: the predecessor is gone, or the port would be taken) takes over its
    /// leases at once.
    pub instance: String,
    pub fault: FaultPoint,
    /// Gas sponsoring with the built-in settler; `None`: approvals are not sponsored here.
    pub sponsoring: Option<SponsorSettings>,
}

/// The outcome of settling one row, as far as it got.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RowState {
    Settled(B256),
    Failed(String),
    Pending,
}

struct Inner {
    db: DatabaseConnection,
    settler: Arc<dyn Settler>,
    chain: Arc<Facilitator>,
    clock: SharedClock,
    settings: SettlementSettings,
    health: HealthRegistry,
    stats: Arc<SettlementStats>,
    /// This process's name on leases.
    instance: String,
    /// Until when (unix ms) this instance holds the lease of the relayer key it sends with.
    relayer_until: AtomicI64,
    /// Whether this process has tried to take the relayer's lease yet.
    relayer_tried: AtomicBool,
    reconciling: AtomicBool,
    /// When this process started; until its first pass has freed them, rows a predecessor
    /// under the same name held are still leased.
    started: DateTime<Utc>,
    predecessor_freed: AtomicBool,
    /// Set by a clean shutdown: the relayer key is given up and not taken again.
    released: AtomicBool,
    /// Serialises sponsorships' budget checks with their inserts.
    sponsoring: tokio::sync::Mutex<()>,
}

fn now_secs(t: DateTime<Utc>) -> u64 {
    t.timestamp().max(0) as u64
}

fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

fn rejected(e: SettleError) -> PayError {
    match e {
        SettleError::Invalid(i) => PayError::Rejected(i.message),
        SettleError::Chain(e) => PayError::Chain(e),
        SettleError::Failed(e) => PayError::Rejected(format!("settlement failed: {e}")),
    }
}

/// The parsed money terms of a row.
struct Terms {
    from: Address,
    to: Address,
    amount: U256,
    nonce: U256,
    deadline: u64,
}

fn terms(row: &payments::Model) -> Option<Terms> {
    Some(Terms {
        from: row.wallet.parse().ok()?,
        to: row.pay_to.parse().ok()?,
        amount: U256::from(u64::try_from(row.amount_units).ok()?),
        nonce: U256::from_str_radix(&row.permit_nonce, 10).ok()?,
        deadline: now_secs(row.permit_deadline),
    })
}

impl Inner {
    fn lease_until(&self) -> DateTime<Utc> {
        self.clock.now() + chrono_of(self.settings.lease)
    }

    /// Whether this instance may send now: always with an HTTP facilitator; with the relayer
    /// key only while it holds the key's lease.
    fn can_send(&self) -> bool {
        self.settler.relayer().is_none()
            || self.relayer_until.load(Ordering::Relaxed) > self.clock.now().timestamp_millis()
    }

    async fn pay(&self, s: PayStep) -> Result<Paid, PayError> {
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
        let wallet = lower(&permit.from);
        let nonce = permit.permit.nonce.to_string();
        let fingerprint = payment_identifier::fingerprint(&s.payload);
        let id = s.payment_id.as_deref();
        let asked = replay::Asked {
            journal_id: s.journal_id,
            step: s.step,
            id,
            fingerprint: &fingerprint,
            signer: &wallet,
        };
        if let Some(row) = store::known(&self.db, id, &wallet, &nonce).await? {
            return replay::answer(row, asked);
        }
        let standing =
            store::standing(&self.db, &wallet, s.journal_id, s.author_wallet.as_deref()).await?;
        match rules(standing, s.step, s.swarm) {
            Verdict::Pay => {}
            Verdict::FeeAlreadyPaid => return Ok(Paid::FeeAlreadyPaid),
            Verdict::Refused(r) => return Err(PayError::Refused(r)),
        }
        if store::open_step(&self.db, &wallet, s.journal_id, s.step)
            .await?
            .is_some()
        {
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
                wallet: &wallet,
                journal_id: s.journal_id,
                author_wallet: s.author_wallet.as_deref(),
                swarm: s.swarm,
                step: s.step,
                amount_units: s.amount_units,
                pay_to: &lower(&s.pay_to),
                permit_nonce: &nonce,
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
            self.sponsor(id, &wallet, &approval, need).await?;
        }
        let sent = match checked {
            Some(checked) => {
                self.send(id, &s.payload, &s.requirements, &permit, checked)
                    .await?
            }
            None => None,
        };
        let row = store::find(&self.db, id).await?;
        let state = match self.paid_by_sent(&row, sent) {
            Some(tx) => self.settle_with(&row, tx, self.is_last(&row).await?).await,
            None => self.settle_row(&row, self.settings.receipt_wait).await,
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
            }),
            RowState::Failed(why) => Err(PayError::Rejected(format!("settlement failed: {why}"))),
            RowState::Pending => {
                self.give_back(id).await?;
                Err(PayError::StillSettling)
            }
        }
    }

    /// The sponsored approval a payment carries, checked and with the wei its gas needs, when
    /// this settler sponsors and the payload asks for it (`None`: a plain payment).
    async fn sponsorable(
        &self,
        s: &PayStep,
        permit: &Permit,
        sender: bool,
    ) -> Result<Option<(gas_sponsoring::Approval, u64)>, PayError> {
        let Some(cfg) = &self.settings.sponsoring else {
            return Ok(None);
        };
        let refused = |r: gas_sponsoring::Refusal| PayError::Rejected(r.message);
        let Some(info) = gas_sponsoring::of(s.payload.extensions.as_ref()).map_err(refused)? else {
            return Ok(None);
        };
        let amount = permit.permit.permitted.amount;
        let limits = gas_sponsoring::Limits {
            chain_id: self.chain.chain_id(),
            token: permit.permit.permitted.token,
            permit2: self.chain.permit2(),
            max_gas: cfg.max_gas,
            max_fee_per_gas: cfg.max_fee_per_gas,
        };
        let approval =
            gas_sponsoring::check(&info, permit.from, amount, &limits).map_err(refused)?;
        if !sender {
            // The sponsor's nonces are kept by the instance that holds the relayer key.
            return Err(PayError::Busy);
        }
        let need = self
            .chain
            .prepare_approval(&approval, amount)
            .await
            .map_err(rejected)?;
        let need = u64::try_from(need).map_err(|_| {
            PayError::Rejected("the approval's gas would cost more than can be funded".into())
        })?;
        let spent = sponsor::spent(&self.db, &lower(&approval.from), self.clock.now()).await?;
        sponsor::within_budget(spent, need, cfg).map_err(PayError::Rejected)?;
        Ok(Some((approval, need)))
    }

    /// Funds and broadcasts the sponsored approval of payment `id`, whose row this request
    /// holds, and waits until it is mined. A refusal fails the payment (nothing of the buyer's
    /// moved); an approval not mined in time leaves the payment to reconciliation, which
    /// settles it once the allowance is there (or fails it at the permit's deadline).
    async fn sponsor(
        &self,
        id: i32,
        wallet: &str,
        a: &gas_sponsoring::Approval,
        need: u64,
    ) -> Result<(), PayError> {
        let Some(cfg) = &self.settings.sponsoring else {
            return Ok(());
        };
        let now = self.clock.now();
        let reserved = {
            let _one = self.sponsoring.lock().await;
            sponsor::reserve(
                &self.db,
                &sponsor::NewSponsorship {
                    payment_id: id,
                    wallet,
                    approval_tx: &format!("{:#x}", a.hash),
                    funded_wei: need,
                    now,
                },
                cfg,
            )
            .await?
        };
        let sid = match reserved {
            Ok(sid) => sid,
            Err(why) => {
                self.fail(id, &why).await?;
                return Err(PayError::Rejected(why));
            }
        };
        let failed = |why: String| async move {
            let now = self.clock.now();
            sponsor::finish(&self.db, sid, Some(&why), now).await?;
            self.fail(id, &why).await?;
            Err::<(), PayError>(PayError::Rejected(why))
        };
        let pending = || async {
            self.give_back(id).await?;
            Err::<(), PayError>(PayError::StillSettling)
        };
        let wait = self.settings.receipt_wait;
        if need > 0 {
            let db = self.db.clone();
            let clock = self.clock.clone();
            let record = move |tx: B256| -> BoxFuture<'_, Result<(), String>> {
                let (db, clock) = (db.clone(), clock.clone());
                Box::pin(async move {
                    sponsor::record_funding(&db, sid, &format!("{tx:#x}"), clock.now())
                        .await
                        .map_err(|e| format!("recording the funding failed: {e}"))
                })
            };
            let funded = match self.chain.fund(a.from, U256::from(need), &record).await {
                Ok(sent) => match sent.receipt {
                    Some(r) => Some(r),
                    None => self
                        .chain
                        .receipt_within(sent.tx, wait)
                        .await
                        .ok()
                        .flatten(),
                },
                Err(e) => return failed(format!("funding the approval's gas failed: {e}")).await,
            };
            match funded {
                Some(r) if r.status() => {}
                Some(_) => return failed("funding the approval's gas reverted".into()).await,
                None => return pending().await,
            }
        }
        let mined = match self.chain.broadcast(&a.raw, a.hash).await {
            Ok(Some(r)) => Some(r),
            Ok(None) => self.chain.receipt_within(a.hash, wait).await.ok().flatten(),
            Err(SettleError::Invalid(i)) => return failed(i.message).await,
            Err(e) => {
                tracing::warn!(payment = id, error = %e, "the approval's broadcast had no answer");
                None
            }
        };
        match mined {
            Some(r) if r.status() => {
                sponsor::finish(&self.db, sid, None, self.clock.now()).await?;
            }
            Some(_) => return failed("the sponsored approval reverted".into()).await,
            None => return pending().await,
        }
        if self.settings.fault == FaultPoint::AfterApproval {
            return Err(PayError::Interrupted);
        }
        Ok(())
    }

    /// Hands a row this request worked on to reconciliation.
    async fn give_back(&self, id: i32) -> Result<(), DbErr> {
        let next = self.clock.now() + chrono_of(self.settings.reconcile_every);
        store::release(&self.db, id, &self.instance, next, false).await
    }

    /// Waits for a row another instance settles.
    async fn await_row(&self, id: i32, payer: Address) -> Result<Paid, PayError> {
        let until = Instant::now() + self.settings.receipt_wait;
        let mut pause = Duration::from_millis(20);
        while Instant::now() < until {
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(250));
            let row = store::find(&self.db, id).await?;
            match row.state.as_str() {
                store::PENDING => continue,
                store::SETTLED => {
                    if let Some(Ok(tx)) = row.tx.as_deref().map(str::parse) {
                        return Ok(Paid::Settled { payer, tx });
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

    /// The transaction that paid the row's permit, when the send answered with its receipt
    /// (the node's own word on the transaction signed for this permit: nothing else to read).
    fn paid_by_sent(&self, row: &payments::Model, sent: Option<Sent>) -> Option<B256> {
        let (sent, t) = (sent?, terms(row)?);
        self.chain
            .sent_pays(&sent, t.from, t.to, t.amount)
            .then_some(sent.tx)
    }

    /// Whether the row's step is the purchase's last (it unlocks the journal).
    async fn is_last(&self, row: &payments::Model) -> Result<bool, DbErr> {
        Ok(Step::parse(&row.step) == Some(Step::Author)
            || store::journal_is_swarm(&self.db, row.journal_id).await?)
    }

    /// Sends the row's permit through the back-end, recording every hash it learns. Send
    /// errors are logged, not returned: what happened is read from the chain afterwards.
    /// `Some` when the back-end took it.
    async fn send(
        &self,
        id: i32,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        permit: &Permit,
        checked: Checked,
    ) -> Result<Option<Sent>, PayError> {
        let fault = self.settings.fault;
        if fault == FaultPoint::BeforeSend {
            return Err(PayError::Interrupted);
        }
        let db = self.db.clone();
        let clock = self.clock.clone();
        let record = move |tx: B256| -> BoxFuture<'_, Result<(), String>> {
            let (db, clock) = (db.clone(), clock.clone());
            Box::pin(async move {
                if fault == FaultPoint::BeforeRecord {
                    return Ok(());
                }
                match store::record_tx(&db, id, &format!("{tx:#x}"), clock.now()).await {
                    Ok(true) => {}
                    Ok(false) => return Err("the hash belongs to another payment".into()),
                    Err(e) => return Err(format!("recording the hash failed: {e}")),
                }
                if fault == FaultPoint::AfterRecord {
                    return Err("stopped by a fault point".into());
                }
                Ok(())
            })
        };
        let sent = self.settler.submit(p, r, permit, checked, &record).await;
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
    async fn settle_row(
        &self,
        row: &payments::Model,
        wait: Duration,
    ) -> Result<RowState, PayError> {
        let chain = |e: SettleError| PayError::Chain(e.to_string());
        let Some(t) = terms(row) else {
            store::fail(&self.db, row.id, "the row is unreadable", self.clock.now()).await?;
            self.stats.row(RowOutcome::Failed);
            return Ok(RowState::Failed("the row is unreadable".into()));
        };
        let last = self.is_last(row).await?;
        let (paid_by, in_flight) = self.look_at_txs(row.id, &t, wait).await?;
        let evidence = match paid_by {
            Some(tx) => Evidence {
                paid_by: Some(tx),
                in_flight,
                nonce_used: true,
                head_time: 0,
                deadline: t.deadline,
            },
            None => {
                // One block for both facts: unspent at a block past the deadline is final.
                let head = self.chain.head().await.map_err(chain)?;
                Evidence {
                    paid_by: None,
                    in_flight,
                    nonce_used: self
                        .chain
                        .nonce_used_at(t.from, t.nonce, head.number)
                        .await
                        .map_err(chain)?,
                    head_time: head.timestamp,
                    deadline: t.deadline,
                }
            }
        };
        match reconcile::next(&evidence) {
            Next::Settle(tx) => self.settle_with(row, tx, last).await,
            Next::Search => {
                let found = self
                    .chain
                    .find_settlement(
                        t.from,
                        t.to,
                        t.amount,
                        t.nonce,
                        now_secs(row.created_at).saturating_sub(600),
                        t.deadline.min(evidence.head_time),
                    )
                    .await
                    .map_err(chain)?;
                match found {
                    Some(tx) => {
                        tracing::info!(payment = row.id, tx = %tx, "found the transaction that paid the permit");
                        self.settle_with(row, tx, last).await
                    }
                    None => self.fail(row.id, reconcile::SPENT_ELSEWHERE).await,
                }
            }
            Next::Fail(why) => self.fail(row.id, why).await,
            Next::Wait => Ok(RowState::Pending),
            Next::Send if self.can_send() => {
                let Ok(p) = serde_json::from_str::<PaymentPayload>(&row.payload) else {
                    return self.fail(row.id, "the stored payload is unreadable").await;
                };
                if row.reorged_at.is_some() {
                    self.settler.resync_nonces().await;
                }
                let r = p.accepted.clone();
                let permit = match self
                    .chain
                    .verify_signature(&p, &r, now_secs(self.clock.now()))
                    .await
                {
                    Ok(permit) => permit,
                    // Too close to its deadline for the terms check, or the chain is away:
                    // the next look decides.
                    Err(_) => return Ok(RowState::Pending),
                };
                let sent = self
                    .send(row.id, &p, &r, &permit, Checked::default())
                    .await?;
                if let Some(tx) = self.paid_by_sent(row, sent) {
                    return self.settle_with(row, tx, last).await;
                }
                let (paid_by, _) = self.look_at_txs(row.id, &t, wait).await?;
                match paid_by {
                    Some(tx) => self.settle_with(row, tx, last).await,
                    None => Ok(RowState::Pending),
                }
            }
            Next::Send => Ok(RowState::Pending),
        }
    }

    /// Looks at every transaction known for the row, newest first (waiting up to `wait` for
    /// the newest one's receipt): the one that paid the permit, and whether one is in flight.
    async fn look_at_txs(
        &self,
        id: i32,
        t: &Terms,
        wait: Duration,
    ) -> Result<(Option<B256>, bool), PayError> {
        let mut in_flight = false;
        let txs = store::txs(&self.db, id).await?;
        for (i, tx) in txs.iter().rev().enumerate() {
            let Ok(tx) = tx.parse::<B256>() else { continue };
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

    async fn settle_with(
        &self,
        row: &payments::Model,
        tx: B256,
        last: bool,
    ) -> Result<RowState, PayError> {
        if store::settle(
            &self.db,
            row.id,
            &format!("{tx:#x}"),
            last,
            self.clock.now(),
        )
        .await?
        {
            self.stats.row(RowOutcome::Settled);
            return Ok(RowState::Settled(tx));
        }
        // Settled by someone else meanwhile, or the hash settled another payment.
        let now = store::find(&self.db, row.id).await?;
        Ok(match now.state.as_str() {
            store::SETTLED => match now.tx.as_deref().map(str::parse) {
                Some(Ok(tx)) => RowState::Settled(tx),
                _ => RowState::Pending,
            },
            store::FAILED => RowState::Failed(now.error.unwrap_or_default()),
            _ => {
                tracing::error!(payment = row.id, tx = %tx, "the transaction settled another payment");
                RowState::Pending
            }
        })
    }

    async fn fail(&self, id: i32, why: &str) -> Result<RowState, PayError> {
        store::fail(&self.db, id, why, self.clock.now()).await?;
        self.stats.row(RowOutcome::Failed);
        Ok(RowState::Failed(why.to_string()))
    }

    /// One reconciliation pass: keeps the relayer lease, then every due row, each on its own
    /// (one bad row never stops the others).
    async fn tick(&self) {
        let Some(_turn) = Turn::begin(&self.reconciling) else {
            return;
        };
        if let Err(e) = self.pass().await {
            self.health.error(NAME, format!("reconciliation: {e}"));
        } else {
            self.health.heartbeat(NAME);
        }
    }

    /// A clean shutdown: stops sending and gives the relayer key up, so an instance under
    /// another name sends at once instead of after the lease.
    async fn release(&self) -> Result<(), DbErr> {
        self.released.store(true, Ordering::SeqCst);
        self.relayer_until.store(i64::MIN, Ordering::SeqCst);
        match self.settler.relayer() {
            Some(relayer) => store::drop_relayer(&self.db, &lower(&relayer), &self.instance).await,
            None => Ok(()),
        }
    }

    /// Takes or renews the relayer key's lease when it is due.
    async fn renew_relayer(&self) -> Result<(), DbErr> {
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
                let held =
                    store::hold_relayer(&self.db, &lower(&relayer), &self.instance, now, until)
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

    async fn pass(&self) -> Result<(), DbErr> {
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
                Ok(RowState::Pending) => {
                    reconcile::backoff(self.settings.reconcile_every, row.attempts)
                }
                Err(e) => {
                    tracing::warn!(payment = row.id, error = %e, "reconciling a payment failed");
                    reconcile::backoff(self.settings.reconcile_every, row.attempts + 1)
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

pub struct SettlementActor {
    inner: Arc<Inner>,
}

impl Actor for SettlementActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let every = self.inner.settings.reconcile_every;
        supervise::every(ctx, NAME, &self.inner.health, every, |act, ctx| {
            let inner = act.inner.clone();
            supervise::spawn(act, ctx, NAME, &act.inner.health, async move {
                inner.tick().await
            });
        });
    }
}

impl Handler<Stop> for SettlementActor {
    type Result = ();
    fn handle(&mut self, _: Stop, ctx: &mut Self::Context) {
        ctx.stop();
    }
}

impl Supervised for SettlementActor {
    fn restarting(&mut self, _: &mut Self::Context) {
        self.inner.health.restarted(NAME);
    }
}

#[derive(Message)]
#[rtype(result = "Result<Paid, PayError>")]
struct Pay(PayStep);

impl Handler<Pay> for SettlementActor {
    type Result = ResponseFuture<Result<Paid, PayError>>;
    fn handle(&mut self, m: Pay, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        let health = inner.health.clone();
        Box::pin(supervise::guard(ctx.address(), NAME, health, async move {
            inner.pay(m.0).await
        }))
    }
}

#[derive(Clone)]
pub struct SettlementHandle {
    handle: ActorHandle<SettlementActor>,
    stats: Arc<SettlementStats>,
    inner: Arc<Inner>,
}

impl SettlementHandle {
    pub fn start(
        db: DatabaseConnection,
        settler: Arc<dyn Settler>,
        chain: Arc<Facilitator>,
        clock: SharedClock,
        settings: SettlementSettings,
        health: HealthRegistry,
    ) -> Self {
        health.register(NAME, supervise::stale_limit(settings.reconcile_every));
        let (max, deadline) = (settings.max_in_flight, settings.deadline);
        let instance = settings.instance.clone();
        let stats = Arc::new(SettlementStats::default());
        let inner = Arc::new(Inner {
            db,
            settler,
            chain,
            clock: clock.clone(),
            settings,
            health: health.clone(),
            stats: stats.clone(),
            instance,
            relayer_until: AtomicI64::new(i64::MIN),
            relayer_tried: AtomicBool::new(false),
            reconciling: AtomicBool::new(false),
            started: clock.now(),
            predecessor_freed: AtomicBool::new(false),
            released: AtomicBool::new(false),
            sponsoring: tokio::sync::Mutex::new(()),
        });
        let actor_inner = inner.clone();
        let addr = Supervisor::start(move |_| SettlementActor {
            inner: actor_inner.clone(),
        });
        SettlementHandle {
            handle: ActorHandle::new(NAME, addr, max, deadline, health),
            stats,
            inner,
        }
    }

    /// For a clean shutdown, once requests are done: this instance stops sending and gives the
    /// relayer key up, so another instance sends at once. Pending rows keep their leases (their
    /// sends may be on the way).
    pub async fn release(&self) {
        if let Err(e) = self.inner.release().await {
            tracing::warn!(error = %e, "the relayer key could not be given up; it frees at the end of its lease");
        }
    }

    /// What this instance's settlements came to so far.
    pub fn stats(&self) -> &SettlementStats {
        &self.stats
    }

    /// Settles one step. The pending row is written inside, before any money moves, so a
    /// request that gives up still leaves a row that reconciliation finishes.
    pub async fn pay(&self, step: PayStep) -> Result<Paid, PayError> {
        let r = match self.handle.call(Pay(step)).await {
            Ok(r) => r,
            Err(CallError::Busy) => Err(PayError::Busy),
            // The work goes on in the actor; the row is pending.
            Err(CallError::TimedOut) => {
                self.stats.request(RequestOutcome::TimedOut);
                return Err(PayError::StillSettling);
            }
            Err(CallError::Stopped) => Err(PayError::Stopped),
        };
        self.stats.request(RequestOutcome::of(&r));
        r
    }
}

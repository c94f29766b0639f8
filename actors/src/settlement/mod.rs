//! The SettlementActor: moves one payment step from a signed x402 payload to money on the chain
//! and an unlock in the database. Durable first: the step is a pending row before the settle
//! call, the transaction hash is written as soon as it is known, and the row is settled (with
//! the unlock, on the last step) only after the receipt shows the USDG `Transfer`. On start the
//! actor finishes every pending row from the chain.

pub mod settler;
pub mod store;

use std::sync::Arc;
use std::time::Duration;

use actix::prelude::*;
use alloy::primitives::{Address, B256, U256};
use chrono::{DateTime, Utc};
use jm_chain::facilitator::{Facilitator, SettleError};
use jm_chain::x402::{PaymentPayload, PaymentRequirements};
use sea_orm::{DatabaseConnection, DbErr};

use crate::clock::SharedClock;
use crate::health::{HealthRegistry, InFlight};
pub use settler::{HttpSettler, LocalSettler, Settler};
use store::Claim;

const NAME: &str = "settlement";

/// One payment step to settle.
#[derive(Debug, Clone)]
pub struct PayStep {
    pub wallet: Address,
    pub journal_id: i32,
    pub step: &'static str,
    pub amount_units: i64,
    pub pay_to: Address,
    /// Whether this step completes the purchase (then the unlock is written with it).
    pub last: bool,
    pub payload: PaymentPayload,
    pub requirements: PaymentRequirements,
}

#[derive(Debug, Clone)]
pub struct Settled {
    pub tx: B256,
}

#[derive(Debug, thiserror::Error)]
pub enum PayError {
    /// The payload must not be settled (402), with the reason.
    #[error("{0}")]
    Rejected(String),
    /// The step is held by another request or already done (409).
    #[error("{0}")]
    Conflict(String),
    /// The settlement was attempted and failed (402).
    #[error("settlement failed: {0}")]
    Failed(String),
    #[error("payments are busy; retry shortly")]
    Busy,
    #[error("the chain could not be reached: {0}")]
    Chain(String),
    #[error("the payment store failed")]
    Db(#[from] DbErr),
    /// A test fault hook stopped the settlement after the transaction was sent.
    #[error("settlement interrupted after the transaction was sent")]
    Interrupted,
}

#[derive(Debug, Clone)]
pub struct SettlementSettings {
    pub max_in_flight: usize,
    pub call_timeout: Duration,
    /// Test hook: stop after the settle transaction is sent and recorded, as a crash would.
    pub fault_after_send: bool,
    /// Test hook: stop after the settle transaction is sent, before its hash is recorded: a
    /// crash in the one window where only the chain knows the transaction.
    pub fault_before_record: bool,
}

struct Inner {
    db: DatabaseConnection,
    settler: Arc<dyn Settler>,
    chain: Arc<Facilitator>,
    clock: SharedClock,
    settings: SettlementSettings,
    health: HealthRegistry,
}

fn now_secs(t: DateTime<Utc>) -> u64 {
    t.timestamp().max(0) as u64
}

fn lower(a: &Address) -> String {
    format!("{a:#x}")
}

impl Inner {
    async fn pay(&self, s: PayStep) -> Result<Settled, PayError> {
        let started = std::time::Instant::now();
        let now = self.clock.now();
        // Every check that needs no money to move, before a row exists.
        let t = std::time::Instant::now();
        let verified = self
            .settler
            .verify(&s.payload, &s.requirements, now_secs(now))
            .await;
        let mut chain_time = t.elapsed();
        let permit = match verified {
            Ok(p) => p,
            Err(SettleError::Invalid(i)) => return Err(PayError::Rejected(i.message)),
            Err(SettleError::Chain(e)) => return Err(PayError::Chain(e)),
            Err(SettleError::Failed(e)) => return Err(PayError::Failed(e)),
        };
        let payload =
            serde_json::to_string(&s.payload).map_err(|e| PayError::Failed(e.to_string()))?;
        let deadline =
            DateTime::<Utc>::from_timestamp(permit.permit.deadline.saturating_to::<i64>(), 0)
                .unwrap_or(now);
        let claim = store::claim(
            &self.db,
            &store::NewPayment {
                wallet: &lower(&s.wallet),
                journal_id: s.journal_id,
                step: s.step,
                amount_units: s.amount_units,
                pay_to: &lower(&s.pay_to),
                permit_nonce: &permit.permit.nonce.to_string(),
                permit_deadline: deadline,
                payload: &payload,
                now,
            },
        )
        .await?;
        let id = match claim {
            Claim::Claimed(id) => id,
            Claim::Taken { state } if state == store::SETTLED => {
                return Err(PayError::Conflict(
                    "this payment step is already settled".into(),
                ));
            }
            Claim::Taken { state } if state == "nonce" => {
                return Err(PayError::Rejected(
                    "this signed payment was already used".into(),
                ));
            }
            Claim::Taken { .. } => {
                return Err(PayError::Conflict(
                    "a payment for this step is being settled; wait for it to finish".into(),
                ));
            }
        };
        let t = std::time::Instant::now();
        let submitted = self
            .settler
            .submit(&s.payload, &s.requirements, &permit)
            .await;
        chain_time += t.elapsed();
        let tx = match submitted {
            Ok(tx) => tx,
            Err(e) => {
                let msg = e.to_string();
                store::fail(&self.db, id, &msg, self.clock.now()).await?;
                return Err(match e {
                    SettleError::Invalid(i) => PayError::Rejected(i.message),
                    _ => PayError::Failed(msg),
                });
            }
        };
        if self.settings.fault_before_record {
            return Err(PayError::Interrupted);
        }
        store::record_tx(&self.db, id, &format!("{tx:#x}"), self.clock.now()).await?;
        if self.settings.fault_after_send {
            return Err(PayError::Interrupted);
        }
        let t = std::time::Instant::now();
        let receipt = self.chain.receipt(tx).await;
        chain_time += t.elapsed();
        let amount = U256::from(s.amount_units);
        self.apply_receipt(id, tx, receipt, s.wallet, s.pay_to, amount, s.last)
            .await?;
        // What the service itself spends per payment, apart from the chain (bench/purchase.sh).
        tracing::debug!(
            total_ms = started.elapsed().as_secs_f64() * 1000.0,
            chain_ms = chain_time.as_secs_f64() * 1000.0,
            "payment settled"
        );
        Ok(Settled { tx })
    }

    /// Settles the row once the receipt shows the transfer; fails it when the receipt shows none.
    async fn confirm(
        &self,
        id: i32,
        tx: B256,
        from: Address,
        to: Address,
        amount: U256,
        last: bool,
    ) -> Result<(), PayError> {
        let receipt = self.chain.receipt(tx).await;
        self.apply_receipt(id, tx, receipt, from, to, amount, last)
            .await
    }

    #[allow(clippy::too_many_arguments)]
    async fn apply_receipt(
        &self,
        id: i32,
        tx: B256,
        receipt: Result<Option<alloy::rpc::types::TransactionReceipt>, SettleError>,
        from: Address,
        to: Address,
        amount: U256,
        last: bool,
    ) -> Result<(), PayError> {
        let receipt = receipt.map_err(|e| PayError::Chain(e.to_string()))?;
        match receipt {
            Some(r) if self.chain.transfer_in(&r, from, to, amount) => {
                store::settle(&self.db, id, &format!("{tx:#x}"), last, self.clock.now()).await?;
                Ok(())
            }
            Some(_) => {
                let msg = format!("transaction {tx:#x} moved no matching USDG");
                store::fail(&self.db, id, &msg, self.clock.now()).await?;
                Err(PayError::Failed(msg))
            }
            None => Err(PayError::Chain(format!(
                "no receipt for {tx:#x} yet; the payment stays pending"
            ))),
        }
    }

    /// Finishes the pending rows left by a crash: confirmed transfers are settled (with their
    /// unlock), permits that can no longer move money are failed, the rest are sent again.
    async fn recover(&self) -> Result<usize, PayError> {
        let rows = store::pending(&self.db).await?;
        let mut done = 0;
        for row in rows {
            let last = row.step == "author" || self.is_single_step(row.journal_id).await?;
            let (Ok(from), Ok(to)) = (row.wallet.parse::<Address>(), row.pay_to.parse::<Address>())
            else {
                store::fail(&self.db, row.id, "unreadable addresses", self.clock.now()).await?;
                continue;
            };
            let amount = U256::from(row.amount_units);
            if let Some(tx) = row.tx.as_deref().and_then(|t| t.parse::<B256>().ok()) {
                match self.confirm(row.id, tx, from, to, amount, last).await {
                    Ok(()) => {
                        done += 1;
                        continue;
                    }
                    Err(PayError::Failed(_)) => {}
                    Err(e) => return Err(e),
                }
            }
            let nonce = U256::from_str_radix(&row.permit_nonce, 10).unwrap_or_default();
            let used = self
                .chain
                .nonce_used(from, nonce)
                .await
                .map_err(|e| PayError::Chain(e.to_string()))?;
            let expired = row.permit_deadline <= self.clock.now();
            if !used && expired {
                store::fail(
                    &self.db,
                    row.id,
                    "the permit expired before it was settled",
                    self.clock.now(),
                )
                .await?;
            } else if !used {
                // Not sent (or dropped): send it again; the nonce makes it at most once.
                if let Ok(p) = serde_json::from_str::<PaymentPayload>(&row.payload) {
                    let requirements = p.accepted.clone();
                    if let Ok(permit) = self
                        .settler
                        .verify(&p, &requirements, now_secs(self.clock.now()))
                        .await
                        && let Ok(tx) = self.settler.submit(&p, &requirements, &permit).await
                    {
                        done += self.adopt(row.id, tx, from, to, amount, last).await? as usize;
                    }
                }
            } else {
                // Used, but the transaction was never recorded: find it on the chain, between
                // ten minutes before the row (clock skew between this host and the chain) and
                // the permit's deadline (no later block can spend it).
                let found = self
                    .chain
                    .find_settlement(
                        from,
                        to,
                        amount,
                        nonce,
                        now_secs(row.created_at).saturating_sub(600),
                        now_secs(row.permit_deadline),
                    )
                    .await
                    .map_err(|e| PayError::Chain(e.to_string()))?;
                match found {
                    Some(tx) => {
                        tracing::info!(payment = row.id, tx = %tx, "found the lost settle transaction");
                        done += self.adopt(row.id, tx, from, to, amount, last).await? as usize;
                    }
                    None => tracing::warn!(
                        payment = row.id,
                        "permit used by a transaction that is not a settle of this payment; left pending for an operator"
                    ),
                }
            }
        }
        Ok(done)
    }

    /// Records a recovered row's transaction and settles the row from its receipt; whether it
    /// settled (a receipt not yet there or without the transfer leaves that to the row's state).
    async fn adopt(
        &self,
        id: i32,
        tx: B256,
        from: Address,
        to: Address,
        amount: U256,
        last: bool,
    ) -> Result<bool, DbErr> {
        store::record_tx(&self.db, id, &format!("{tx:#x}"), self.clock.now()).await?;
        Ok(self.confirm(id, tx, from, to, amount, last).await.is_ok())
    }

    async fn is_single_step(&self, journal_id: i32) -> Result<bool, DbErr> {
        use sea_orm::EntityTrait;
        Ok(
            journal_market_entity::journals::Entity::find_by_id(journal_id)
                .one(&self.db)
                .await?
                .is_some_and(|j| j.swarm),
        )
    }
}

pub struct SettlementActor {
    inner: Arc<Inner>,
}

impl Actor for SettlementActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let inner = self.inner.clone();
        ctx.spawn(
            async move {
                match inner.recover().await {
                    Ok(n) => {
                        inner.health.heartbeat(NAME);
                        if n > 0 {
                            tracing::info!(settled = n, "recovered pending payments");
                        }
                    }
                    Err(e) => inner.health.error(NAME, format!("recovery: {e}")),
                }
            }
            .into_actor(self),
        );
    }
}

impl Supervised for SettlementActor {
    fn restarting(&mut self, _: &mut Self::Context) {
        self.inner.health.restarted(NAME);
    }
}

#[derive(Message)]
#[rtype(result = "Result<Settled, PayError>")]
struct Pay(PayStep);

impl Handler<Pay> for SettlementActor {
    type Result = ResponseFuture<Result<Settled, PayError>>;
    fn handle(&mut self, m: Pay, _: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        Box::pin(async move { inner.pay(m.0).await })
    }
}

#[derive(Clone)]
pub struct SettlementHandle {
    addr: Addr<SettlementActor>,
    in_flight: InFlight,
    deadline: Duration,
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
        let in_flight = InFlight::new(NAME, settings.max_in_flight, health.clone());
        // Verify, send, and wait for a receipt: a few chain calls.
        let deadline = settings.call_timeout * 20;
        health.heartbeat(NAME);
        let inner = Arc::new(Inner {
            db,
            settler,
            chain,
            clock,
            settings,
            health,
        });
        let addr = Supervisor::start(move |_| SettlementActor {
            inner: inner.clone(),
        });
        SettlementHandle {
            addr,
            in_flight,
            deadline,
        }
    }

    /// Settles one step. The pending row is written inside, before any money moves, so a
    /// dropped request still leaves a row the recovery finishes.
    pub async fn pay(&self, step: PayStep) -> Result<Settled, PayError> {
        let _slot = self.in_flight.try_enter().ok_or(PayError::Busy)?;
        match tokio::time::timeout(self.deadline, self.addr.send(Pay(step))).await {
            Ok(Ok(r)) => r,
            _ => Err(PayError::Busy),
        }
    }
}

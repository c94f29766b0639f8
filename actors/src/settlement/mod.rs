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

mod approval;
mod fault;
mod lease;
mod outcome;
pub mod reconcile;
pub mod replay;
mod request;
mod row;
pub mod settler;
pub mod sponsor;
pub mod stats;
pub mod store;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::time::Duration;

use actix::prelude::*;
use chrono::{DateTime, Utc};
use journal_market_chain::facilitator::Facilitator;
use journal_market_x402::facilitator::Settler;

use crate::clock::SharedClock;
use crate::db::Lanes;
use crate::handle::{ActorHandle, CallError};
use crate::health::HealthRegistry;
use crate::supervise;
pub use fault::FaultPoint;
pub use journal_market_domain::purchase::{Refusal, Step};
pub use outcome::{Paid, PayError, PayStep};
pub use settler::{HttpSettler, LocalSettler};
pub use sponsor::{SponsorSettings, Tally as SponsorTally};
use stats::RequestOutcome;
pub use stats::SettlementStats;

const NAME: &str = "settlement";

/// Settles one step: the pending row first, then the settle, the receipt and the unlock.
#[derive(Message)]
#[rtype(result = "Result<Paid, PayError>")]
struct Pay(PayStep);

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

struct Inner {
    /// The writer's lanes (one on SQLite); transactions on its pool.
    db: Lanes,
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

supervise::actor!(SettlementActor, NAME, stop);

impl Handler<Pay> for SettlementActor {
    type Result = ResponseFuture<Result<Paid, PayError>>;
    fn handle(&mut self, m: Pay, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        supervise::beside(ctx, NAME, &self.inner.health, async move {
            inner.pay(m.0).await
        })
    }
}

impl SettlementActor {
    /// A reconciling pass at once and every `settings.reconcile_every`.
    fn schedule(&mut self, ctx: &mut Context<Self>) {
        let every = self.inner.settings.reconcile_every;
        supervise::every_spawned(ctx, NAME, &self.inner.health, every, |act, _| {
            act.inner.clone().tick()
        });
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
        db: Lanes,
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

    /// Registers `jm_settlement_*` and `jm_gas_sponsor*`, which this handle and its actor
    /// count.
    pub fn register_metrics(&self, registry: &mut prometheus_client::registry::Registry) {
        registry.register_collector(Box::new(self.stats.clone()));
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

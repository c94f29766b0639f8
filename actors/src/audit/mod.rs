//! The AuditActor: runs audit jobs. A job is a row before the engine runs (the handle writes
//! it), so a request that goes away, or a restart, never loses an asked-for audit: the actor's
//! sweep finds open jobs whose lease is free and finishes them, once. A concurrency limit
//! bounds the engines running at a time; the handle's deadline bounds how long a request waits.
//! A job whose draft was saved again is never worth its engine time: it is dropped when it
//! reaches its engine slot, and a running engine is stopped; each wallet has a bounded number of
//! jobs open, so its hung-up requests cannot fill the queue ahead of other authors.

pub mod engine;
pub mod stats;
pub mod store;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use actix::prelude::*;
use alloy::primitives::{Address, U256};
use dashmap::DashSet;
use journal_market_audit::{Source, Submission};
use journal_market_chain::client::ChainClient;
use journal_market_domain::state::JobState;
use journal_market_domain::status::JournalStatus;
use journal_market_entity::{
    audit_jobs, audit_reports, companies, entries, journal_citations, journals,
};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder,
};
use tokio::sync::Semaphore;

use crate::clock::SharedClock;
use crate::db::Lease;
use crate::handle::{ActorHandle, CallError};
use crate::health::HealthRegistry;
use crate::supervise::{self, Turn};
use engine::Engine;
use stats::{AuditStats, JobOutcome};
use store::{Finished, Opened};

const NAME: &str = "audit";
/// How often a waiting request looks at a job run elsewhere.
const POLL: Duration = Duration::from_millis(100);
/// How often a running engine's job is checked for a newer save (which stops the engine). Only
/// slow engines (an LLM reviewer) live long enough to be checked.
const RECHECK: Duration = Duration::from_secs(1);

/// Runs an open job (by its id) to its outcome, here or on the instance that holds it, within
/// the audit's deadline; the job goes on if the caller goes away.
#[derive(Message)]
#[rtype(result = "Result<Outcome, AuditError>")]
struct Run(i32);

#[derive(Debug, Clone)]
pub struct AuditSettings {
    /// Engines running at once in this instance.
    pub concurrency: usize,
    pub max_in_flight: usize,
    /// How long a request waits for its audit.
    pub deadline: Duration,
    /// How long a job is this instance's once taken (longer than the engine's timeout).
    pub lease: Duration,
    pub sweep_every: Duration,
    pub instance: String,
    /// `{origin}{api prefix}`: a journal's metaUrl is `{meta_base}/meta/{id}`.
    pub meta_base: String,
    /// The stock token of each company's ticker.
    pub stock_tokens: HashMap<String, Address>,
    pub max_audits: i32,
    /// Jobs one wallet may have open (queued or running) at once, over its drafts.
    pub per_wallet: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("this draft was already audited {0} times; no more audits are allowed")]
    TooMany(i32),
    #[error("no such draft")]
    NotFound,
    #[error("the audit agent is unavailable: {0}; retry shortly")]
    Unavailable(String),
    #[error("the audit agent is busy; retry shortly")]
    Busy,
    #[error("the audit is still running; ask again shortly for its report")]
    StillRunning,
    #[error("the draft was saved again while it was audited; audit it again")]
    Superseded,
    #[error("you have {0} audits waiting or running already; ask again once one of them has ended")]
    WalletFull(usize),
    #[error("the audit store failed")]
    Db(#[from] DbErr),
}

/// A finished audit: the draft's status after it, the stored report, and the metaUrl when
/// approved.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub status: JournalStatus,
    pub report: audit_reports::Model,
    pub meta_url: Option<String>,
}

struct Inner {
    db: DatabaseConnection,
    engine: Arc<dyn Engine>,
    chain: ChainClient,
    clock: SharedClock,
    settings: AuditSettings,
    health: HealthRegistry,
    running: DashSet<i32>,
    permits: Semaphore,
    sweeping: AtomicBool,
    stats: AuditStats,
}

impl Inner {
    fn lease_until(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
            + chrono::Duration::from_std(self.settings.lease).unwrap_or(chrono::Duration::MAX)
    }

    /// Runs the job if nobody else holds it; returns whether this call ran it.
    async fn run(&self, id: i32) -> Result<bool, AuditError> {
        if !self.running.insert(id) {
            return Ok(false);
        }
        let ran = self.run_taken(id).await;
        self.running.remove(&id);
        ran
    }

    async fn run_taken(&self, id: i32) -> Result<bool, AuditError> {
        let owner = self.settings.instance.as_str();
        // The slot first, then the lease: the lease covers the engine's time, not the wait, and
        // what the job is for is read when its turn comes, not when it was queued.
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| AuditError::Unavailable("the audit agent is stopping".into()))?;
        let now = self.clock.now();
        let until = self.lease_until();
        if !store::take(&self.db, id, Lease { owner, now, until }).await? {
            return Ok(false);
        }
        let Some(job) = store::get(&self.db, id).await? else {
            return Ok(false);
        };
        if store::drop_if_stale(&self.db, &job, owner, now).await? {
            tracing::info!(
                job = id,
                "audit dropped: the draft was saved again before its turn"
            );
            self.stats.ended(JobOutcome::Dropped);
            self.health.heartbeat(NAME);
            return Ok(true);
        }
        self.stats.engine_started();
        let reviewed = tokio::select! {
            r = self.review(&job) => Some(r),
            () = self.moved_on(&job) => None,
        };
        match reviewed {
            None => {
                tracing::info!(
                    job = id,
                    "audit stopped: the draft was saved again, or the job taken over"
                );
                store::supersede(&self.db, id, owner, self.clock.now()).await?;
                self.stats.ended(JobOutcome::Stopped);
                self.health.heartbeat(NAME);
            }
            Some(Ok(finding)) => {
                let outcome =
                    store::finish(&self.db, &job, owner, &finding, &self.settings.meta_base)
                        .await?;
                if outcome == Finished::Superseded {
                    tracing::info!(job = id, "audit superseded by a newer save");
                }
                self.stats.ended(match outcome {
                    Finished::Done => JobOutcome::Done,
                    Finished::Superseded => JobOutcome::Superseded,
                });
                self.health.heartbeat(NAME);
            }
            Some(Err(why)) => {
                tracing::warn!(job = id, error = %why, "audit failed");
                self.health.error(NAME, why.clone());
                store::fail(&self.db, id, owner, &why, self.clock.now()).await?;
                self.stats.ended(JobOutcome::Failed);
            }
        }
        Ok(true)
    }

    /// Ends once the running job no longer stands for its draft (saved again, or the job
    /// superseded by a newer request or taken over); never while it does. A failed read is not
    /// taken for a change: `finish` checks again before anything is stored.
    async fn moved_on(&self, job: &audit_jobs::Model) {
        let owner = self.settings.instance.as_str();
        loop {
            tokio::time::sleep(RECHECK).await;
            if let Ok(false) = store::still_current(&self.db, job, owner).await {
                return;
            }
        }
    }

    /// Reads the draft, whether its author holds the stock token, and runs the engine.
    async fn review(&self, job: &audit_jobs::Model) -> Result<store::Finding, String> {
        let db_err = |e: DbErr| format!("the database failed: {e}");
        let j = journals::Entity::find_by_id(job.journal_id)
            .one(&self.db)
            .await
            .map_err(db_err)?
            .ok_or("the draft is gone")?;
        let holds_stock = self.holds_stock(&j).await?;
        let sub = submission(&self.db, j).await.map_err(db_err)?;
        let report = self.engine.review(&sub).await.map_err(|e| e.0)?;
        let issues = serde_json::to_value(&report.issues)
            .map_err(|e| format!("the report cannot be stored: {e}"))?;
        Ok(store::Finding {
            verdict: serde_json::to_value(report.verdict)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_else(|| "revise".into()),
            score: report.score,
            summary: report.summary,
            issues,
            engine: report.engine,
            audited_at: self.clock.now(),
            holds_stock,
        })
    }

    /// `balanceOf(author)` on the company's stock token; `None` when no token is configured.
    async fn holds_stock(&self, j: &journals::Model) -> Result<Option<bool>, String> {
        let (Some(token), Some(author)) = (
            self.settings.stock_tokens.get(&j.ticker),
            j.author_wallet.map(|w| w.address()),
        ) else {
            return Ok(None);
        };
        journal_market_chain::erc8004::balance_of(self.chain.provider(), *token, author)
            .await
            .map(|b| Some(b > U256::ZERO))
            .map_err(|e| format!("the stock token's balance could not be read ({e})"))
    }

    /// The outcome of a job that ended, `None` while it is open.
    async fn outcome(&self, id: i32) -> Result<Option<Outcome>, AuditError> {
        let job = store::get(&self.db, id)
            .await?
            .ok_or(AuditError::NotFound)?;
        match job.state {
            JobState::Done => {
                let report = match job.report_id {
                    Some(r) => audit_reports::Entity::find_by_id(r).one(&self.db).await?,
                    None => None,
                }
                .ok_or(AuditError::NotFound)?;
                let journal = journals::Entity::find_by_id(job.journal_id)
                    .one(&self.db)
                    .await?
                    .ok_or(AuditError::NotFound)?;
                Ok(Some(outcome_of(report, &journal)))
            }
            JobState::Failed => Err(AuditError::Unavailable(
                job.error.unwrap_or_else(|| "the engine failed".into()),
            )),
            JobState::Superseded => Err(AuditError::Superseded),
            JobState::Queued | JobState::Running => Ok(None),
        }
    }

    /// Runs the job here, or waits for whoever runs it until it ends or the deadline passes
    /// (the job itself goes on: the sweep or its holder finishes it).
    async fn settle(&self, id: i32) -> Result<Outcome, AuditError> {
        let until = tokio::time::Instant::now() + self.settings.deadline;
        loop {
            if let Some(o) = self.outcome(id).await? {
                return Ok(o);
            }
            if !self.run(id).await? {
                if tokio::time::Instant::now() >= until {
                    return Err(AuditError::StillRunning);
                }
                tokio::time::sleep(POLL).await;
            }
        }
    }

    /// Finishes every open job whose lease is free: queued by a request that went away, or left
    /// running by an instance that died.
    async fn sweep(self: Arc<Self>, addr: Addr<AuditActor>) {
        let Some(_turn) = Turn::begin(&self.sweeping) else {
            return;
        };
        let owner = self.settings.instance.clone();
        match store::due(&self.db, &owner, self.clock.now(), 32).await {
            Ok(jobs) => {
                self.health.heartbeat(NAME);
                for job in jobs {
                    let inner = self.clone();
                    let health = self.health.clone();
                    actix::spawn(supervise::guard(addr.clone(), NAME, health, async move {
                        if let Err(e) = inner.run(job.id).await {
                            inner
                                .health
                                .error(NAME, format!("audit job {}: {e}", job.id));
                        }
                    }));
                }
            }
            Err(e) => self
                .health
                .error(NAME, format!("the job sweep failed: {e}")),
        }
    }
}

/// What the engines read: the journal's text and every entry it cites that the archive holds.
/// The server builds the same for the report's `support` and the detail's quoted evidence.
pub async fn submission(db: &DatabaseConnection, j: journals::Model) -> Result<Submission, DbErr> {
    let cited: Vec<String> = journal_citations::Entity::find()
        .filter(journal_citations::Column::JournalId.eq(j.id))
        .order_by_asc(journal_citations::Column::Position)
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.accession)
        .collect();
    let sources = entries::Entity::find()
        .filter(entries::Column::Accession.is_in(cited))
        .all(db)
        .await?
        .into_iter()
        .map(source)
        .collect();
    Ok(Submission {
        company: company_name(db, &j.ticker).await?,
        ticker: j.ticker,
        title: j.title,
        dek: j.dek,
        body: j.body,
        sources,
    })
}

/// The name the archive gives the company of `ticker` (`Tesla, Inc.`); empty when it has none.
pub async fn company_name(db: &impl ConnectionTrait, ticker: &str) -> Result<String, DbErr> {
    Ok(companies::Entity::find_by_id(ticker.to_string())
        .one(db)
        .await?
        .map(|c| c.name)
        .unwrap_or_default())
}

/// An archive entry as the engines read it.
pub fn source(e: entries::Model) -> Source {
    Source {
        accession: e.accession,
        ticker: e.ticker,
        title: e.title,
        summary: e.summary,
        says: e.says,
        publisher: e.source_name,
    }
}

/// The outcome a finished report stands for.
pub fn outcome_of(report: audit_reports::Model, journal: &journals::Model) -> Outcome {
    let status = JournalStatus::after_verdict(&report.verdict);
    Outcome {
        status,
        meta_url: (status == JournalStatus::Approved)
            .then(|| journal.meta_url.clone())
            .flatten(),
        report,
    }
}

supervise::actor!(AuditActor, NAME, stop);

impl AuditActor {
    /// A sweep at once and every `settings.sweep_every`.
    fn schedule(&mut self, ctx: &mut Context<Self>) {
        let every = self.inner.settings.sweep_every;
        supervise::every_spawned(ctx, NAME, &self.inner.health, every, |act, ctx| {
            act.inner.clone().sweep(ctx.address())
        });
    }
}

impl Handler<Run> for AuditActor {
    type Result = ResponseFuture<Result<Outcome, AuditError>>;
    fn handle(&mut self, m: Run, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        let addr = ctx.address();
        // The job goes on if the request goes away: it is spawned, and the answer waits on it.
        Box::pin(async move {
            let worker = inner.clone();
            let health = inner.health.clone();
            let job = supervise::guard(addr, NAME, health, async move { worker.settle(m.0).await });
            match actix::spawn(job).await {
                Ok(r) => r,
                Err(_) => Err(AuditError::Unavailable("the audit task failed".into())),
            }
        })
    }
}

#[derive(Clone)]
pub struct AuditHandle {
    handle: ActorHandle<AuditActor>,
    inner: Arc<Inner>,
}

impl AuditHandle {
    pub fn start(
        db: DatabaseConnection,
        engine: Arc<dyn Engine>,
        chain: ChainClient,
        clock: SharedClock,
        settings: AuditSettings,
        health: HealthRegistry,
    ) -> Self {
        let (max, deadline) = (settings.max_in_flight, settings.deadline);
        let inner = Arc::new(Inner {
            permits: Semaphore::new(settings.concurrency.max(1)),
            db,
            engine,
            chain,
            clock,
            settings,
            health,
            running: DashSet::new(),
            sweeping: AtomicBool::new(false),
            stats: AuditStats::default(),
        });
        inner
            .health
            .register(NAME, supervise::stale_limit(inner.settings.sweep_every));
        let shared = inner.clone();
        let addr = Supervisor::start(move |_| AuditActor {
            inner: shared.clone(),
        });
        let handle = ActorHandle::new(NAME, addr, max, deadline, inner.health.clone());
        AuditHandle { handle, inner }
    }

    /// Audits `revision` of a journal: the job row first, then the engine (here or on the
    /// instance that holds the job), waiting at most the deadline.
    pub async fn audit(&self, journal_id: i32, revision: i32) -> Result<Outcome, AuditError> {
        let now = self.inner.clock.now();
        let s = &self.inner.settings;
        let id = match store::open(
            &self.inner.db,
            journal_id,
            revision,
            now,
            s.max_audits,
            s.per_wallet,
        )
        .await?
        {
            Opened::Job { id, dropped } => {
                if dropped {
                    self.inner.stats.ended(JobOutcome::Dropped);
                }
                id
            }
            Opened::TooMany => return Err(AuditError::TooMany(s.max_audits)),
            Opened::NoJournal => return Err(AuditError::NotFound),
            Opened::Stale => return Err(AuditError::Superseded),
            Opened::WalletFull => {
                self.inner.stats.refused();
                return Err(AuditError::WalletFull(s.per_wallet.max(1)));
            }
        };
        match self.handle.call(Run(id)).await {
            Ok(r) => r,
            Err(CallError::Busy) => Err(AuditError::Busy),
            Err(CallError::TimedOut | CallError::Stopped) => Err(AuditError::StillRunning),
        }
    }

    /// Registers `jm_audit_*`, which this handle and its actor count.
    pub fn register_metrics(&self, registry: &mut prometheus_client::registry::Registry) {
        registry.register_collector(Box::new(self.inner.stats.clone()));
    }

    /// The report of the newest finished audit of this revision, if any.
    pub async fn last_outcome(
        &self,
        journal: &journals::Model,
    ) -> Result<Option<Outcome>, AuditError> {
        Ok(
            store::last_done(&self.inner.db, journal.id, journal.revision)
                .await?
                .map(|r| outcome_of(r, journal)),
        )
    }
}

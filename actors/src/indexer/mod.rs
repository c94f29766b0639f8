//! The IndexerActor: reads the chain's history from a start block to the head with
//! `eth_getLogs` over adaptive ranges, stores each range's rows with the cursor (block number
//! and hash) in one transaction, and rolls back to the common ancestor when the block under
//! its cursor changed (a reorg). One instance indexes at a time (`leader`); every instance
//! serves the reads.

pub mod canonical;
mod fetch;
pub mod leader;
pub mod ledger;
pub mod rows;
pub mod store;
pub mod votes;
pub mod window;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use actix::prelude::*;
use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, Log};
use alloy::sol_types::SolEvent;
use journal_market_chain::bindings::{IERC20, IPool, IReputationRegistry};
use journal_market_chain::client::{ChainClient, ChainError};
use journal_market_chain::logs::RangeSize;
use sea_orm::{DatabaseConnection, DbErr};
use tokio::sync::Mutex;

use crate::clock::SharedClock;
use crate::handle::ActorHandle;
use crate::health::{HealthRegistry, Progress};
use crate::supervise::{self, Turn};
use fetch::{Ahead, Fetched, chain_err, fetch};
use leader::Leader;
use window::Window;

const NAME: &str = "indexer";
/// Ranges read per tick before yielding (the tick runs again at once while behind).
const RANGES_PER_TICK: usize = 64;

/// A look at the chain now (a reader found the index old, or a tick ended still behind): a
/// tick, unless one is running. Told, not called: nothing waits on it.
#[derive(Message)]
#[rtype(result = "()")]
struct Poke;

#[derive(Debug, Clone)]
pub struct IndexerSettings {
    /// The first block read.
    pub start_block: u64,
    pub poll: Duration,
    /// The largest `eth_getLogs` range asked for.
    pub max_range: u64,
    /// Blocks rolled back when a reorg goes deeper than the remembered hashes.
    pub reorg_depth: u64,
    /// Recent block hashes remembered to find a common ancestor.
    pub window: usize,
    pub reputation_registry: Address,
    /// The community token and its pool, when the ledger is kept.
    pub ledger: Option<ledger::LedgerAddresses>,
    /// The database URL, for the leader's own connection on PostgreSQL.
    pub database_url: String,
}

#[derive(Debug, thiserror::Error)]
enum StepError {
    #[error("{0}")]
    Chain(#[from] ChainError),
    #[error("the index store failed: {0}")]
    Db(#[from] DbErr),
}

struct State {
    window: Window,
    size: RangeSize,
    leader: Option<Leader>,
    reorgs: u64,
    head: Option<u64>,
    cursor: Option<u64>,
    /// The next range, fetched while the current one is written (catching up only).
    ahead: Option<Ahead>,
}

struct Inner {
    db: DatabaseConnection,
    chain: ChainClient,
    clock: SharedClock,
    settings: IndexerSettings,
    health: HealthRegistry,
    state: Mutex<State>,
    ticking: AtomicBool,
}

impl Inner {
    fn filter(&self) -> Filter {
        let mut addresses = vec![self.settings.reputation_registry];
        let mut events = vec![
            IReputationRegistry::NewFeedback::SIGNATURE_HASH,
            IReputationRegistry::FeedbackRevoked::SIGNATURE_HASH,
        ];
        if let Some(l) = self.settings.ledger {
            addresses.extend([l.token, l.pool]);
            events.extend([
                IPool::Swap::SIGNATURE_HASH,
                IERC20::Transfer::SIGNATURE_HASH,
            ]);
        }
        Filter::new().address(addresses).event_signature(events)
    }

    /// The range from `from`, as a future that owns what it needs (it may run on a task).
    fn fetch(
        &self,
        from: u64,
        head: u64,
        size: RangeSize,
    ) -> impl Future<Output = Result<Fetched, ChainError>> + Send + 'static {
        fetch(
            self.chain.clone(),
            self.filter(),
            self.settings.ledger,
            from,
            head,
            size,
        )
    }

    async fn hash_at(&self, block: u64) -> Result<Option<B256>, ChainError> {
        Ok(self
            .chain
            .provider()
            .get_block_by_number(BlockNumberOrTag::Number(block))
            .await
            .map_err(chain_err)?
            .map(|b| b.header.hash))
    }

    /// One turn: true when it stopped after RANGES_PER_TICK ranges with more to read.
    async fn tick(&self) -> bool {
        let Some(_turn) = Turn::begin(&self.ticking) else {
            return false;
        };
        let mut more = false;
        let mut st = self.state.lock().await;
        let leads = match st.leader.as_mut() {
            Some(l) => l.hold().await,
            None => match Leader::new(&self.db, &self.settings.database_url).await {
                Ok(mut l) => {
                    let r = l.hold().await;
                    st.leader = Some(l);
                    r
                }
                Err(e) => Err(e),
            },
        };
        let leader = matches!(leads, Ok(true));
        match leads {
            Ok(true) => {
                let mut outcome = Ok(());
                for n in 0..RANGES_PER_TICK {
                    // The head and the block under the cursor are looked at once a tick: the
                    // ranges after that continue from the cursor this tick wrote.
                    match self.step(&mut st, n == 0).await {
                        Ok(true) => {
                            // A long catch-up shows it advances, range by range.
                            self.health.alive(NAME);
                            more = n + 1 == RANGES_PER_TICK;
                            continue;
                        }
                        Ok(false) => break,
                        Err(e) => {
                            outcome = Err(e);
                            break;
                        }
                    }
                }
                match outcome {
                    Ok(()) => self.health.heartbeat(NAME),
                    Err(e) => {
                        tracing::warn!(error = %e, "indexing failed; retrying");
                        self.health.error(NAME, e.to_string());
                    }
                }
            }
            Ok(false) => {
                // Another instance indexes: what this one fetched ahead is of no use.
                st.ahead = None;
                self.health.heartbeat(NAME);
            }
            Err(e) => {
                if let Some(l) = st.leader.as_mut() {
                    l.lost();
                }
                self.health
                    .error(NAME, format!("the indexing lock cannot be checked: {e}"));
            }
        }
        self.health.progress(
            NAME,
            Progress {
                leader,
                head: st.head,
                cursor: st.cursor,
                lag: st.head.zip(st.cursor).map(|(h, c)| h.saturating_sub(c)),
                range: st.size.get(),
                reorgs: st.reorgs,
            },
        );
        more
    }

    /// One range (or one rollback). True when there is more to read at once.
    async fn step(&self, st: &mut State, first: bool) -> Result<bool, StepError> {
        let head = match (first, st.head) {
            (false, Some(h)) => h,
            _ => self.chain.block_number().await?,
        };
        st.head = Some(head);
        let start = self.settings.start_block;
        let cursor = if first {
            let (cursor, hash) = match store::cursor(&self.db).await? {
                Some((b, h)) => (Some(b), h.and_then(|h| h.parse::<B256>().ok())),
                None => (None, None),
            };
            // A cursor without a hash was final when written (see below): nothing to check.
            if let (Some(c), Some(h)) = (cursor, hash) {
                if self.hash_at(c).await? != Some(h) {
                    self.roll_back(st, c).await?;
                    return Ok(true);
                }
                st.window.record(c, h);
            }
            cursor
        } else {
            st.cursor
        };
        st.cursor = cursor;
        let from = cursor.map_or(start, |c| c + 1).max(start);
        if from > head {
            return Ok(false);
        }
        // Blocks a reorg can still take back are read block by block, checked canonical;
        // the final ones below them in adaptive ranges, never crossing into the others.
        let last_final = head.saturating_sub(self.settings.reorg_depth + 1);
        if from > last_final {
            return self.step_near_head(st, from, head).await;
        }
        let waited = std::time::Instant::now();
        let (fetched, ahead) = match st.ahead.take().filter(|a| a.next == from) {
            Some(mut a) => match a.recv().await {
                Some(got) => (got?, Some(a)),
                None => (self.fetch(from, last_final, st.size.clone()).await?, None),
            },
            None => (self.fetch(from, last_final, st.size.clone()).await?, None),
        };
        let waited = waited.elapsed();
        st.size = fetched.size.clone();
        let end = fetched.end;
        // Catching up, the ranges ahead are read while this one is written.
        st.ahead = match ahead {
            Some(a) => Some(a),
            None if end < last_final => Some(Ahead::start(
                (self.chain.clone(), self.filter(), self.settings.ledger),
                end + 1,
                last_final,
                st.size.clone(),
            )),
            None => None,
        };
        let written = std::time::Instant::now();
        // Final blocks: their hash is not needed to find an ancestor, so none is kept.
        self.store_range(
            &fetched.logs,
            &fetched.ledger,
            &fetched.times,
            (from, end),
            None,
        )
        .await?;
        tracing::debug!(
            from,
            end,
            logs = fetched.logs.len(),
            waited_ms = waited.as_secs_f64() * 1e3,
            written_ms = written.elapsed().as_secs_f64() * 1e3,
            "range stored"
        );
        st.cursor = Some(end);
        Ok(end < head)
    }

    /// Blocks within reorg distance of the head: stored only as one canonical chain on the
    /// block under the cursor (`canonical::read`); a chain that changed while it was read is
    /// read again on the next tick, a cursor block no longer canonical is rolled back.
    async fn step_near_head(
        &self,
        st: &mut State,
        from: u64,
        head: u64,
    ) -> Result<bool, StepError> {
        let parent = from.checked_sub(1).and_then(|p| st.window.get(p));
        let to = head.min(from.saturating_add(self.settings.max_range.max(1) - 1));
        let seg = match canonical::read(&self.chain, &self.filter(), from, to, parent).await? {
            Ok(seg) => seg,
            Err(canonical::Broken::Cursor) => {
                self.roll_back(st, from - 1).await?;
                return Ok(true);
            }
            Err(canonical::Broken::Changed(why)) => {
                st.ahead = None;
                tracing::info!(from, to, %why, "the chain changed while it was read; reading it again");
                return Ok(false);
            }
        };
        let ledger: Vec<ledger::LedgerEvent> = match &self.settings.ledger {
            Some(a) => seg
                .logs
                .iter()
                .filter_map(|l| ledger::decode(l, a))
                .collect(),
            None => Vec::new(),
        };
        self.store_range(
            &seg.logs,
            &ledger,
            &seg.times,
            (from, seg.end),
            Some(seg.end_hash),
        )
        .await?;
        st.window.record(seg.end, seg.end_hash);
        st.cursor = Some(seg.end);
        Ok(seg.end < head)
    }

    /// Stores a range's rows and the cursor at its end, in one transaction.
    async fn store_range(
        &self,
        logs: &[Log],
        ledger: &[ledger::LedgerEvent],
        times: &HashMap<u64, u64>,
        (from, end): (u64, u64),
        end_hash: Option<B256>,
    ) -> Result<(), StepError> {
        let now = self.clock.now();
        let txn = crate::db::begin_write(&self.db).await?;
        let mut kept = BTreeSet::new();
        for log in logs
            .iter()
            .filter(|l| l.address() == self.settings.reputation_registry)
        {
            if let Some(e) = votes::decode(log) {
                store::apply_vote(&txn, &e, now).await?;
            }
            if let (Some(tx), Some(i)) = (log.transaction_hash, log.log_index) {
                kept.insert((format!("{tx:#x}"), i32::try_from(i).unwrap_or(i32::MAX)));
            }
        }
        store::drop_unconfirmed(&txn, from, end, &kept).await?;
        ledger::apply(&txn, ledger, times).await?;
        store::set_cursor(&txn, end, end_hash.map(|h| format!("{h:#x}")), now).await?;
        txn.commit().await?;
        Ok(())
    }

    /// The block under the cursor changed: back to the newest remembered block the chain still
    /// has, or `reorg_depth` blocks when none is.
    async fn roll_back(&self, st: &mut State, cursor: u64) -> Result<(), StepError> {
        let mut ancestor = None;
        for (n, h) in st.window.below(cursor) {
            if self.hash_at(n).await? == Some(h) {
                ancestor = Some((n, h));
                break;
            }
        }
        let floor = self.settings.start_block.saturating_sub(1);
        let (to, hash) = match ancestor {
            Some((n, h)) => (n, Some(h)),
            None => {
                let n = cursor.saturating_sub(self.settings.reorg_depth).max(floor);
                (n, self.hash_at(n).await?)
            }
        };
        tracing::warn!(from = cursor, to, "reorg: rolling the index back");
        let txn = crate::db::begin_write(&self.db).await?;
        store::roll_back_above(&txn, to).await?;
        ledger::roll_back_above(&txn, to).await?;
        store::set_cursor(&txn, to, hash.map(|h| format!("{h:#x}")), self.clock.now()).await?;
        txn.commit().await?;
        st.window.forget_above(to);
        st.ahead = None;
        st.reorgs += 1;
        st.cursor = Some(to);
        Ok(())
    }
}

supervise::actor!(IndexerActor, NAME);

impl IndexerActor {
    /// A tick at once and every `settings.poll`.
    fn schedule(&mut self, ctx: &mut Context<Self>) {
        let poll = self.inner.settings.poll;
        supervise::every(ctx, NAME, &self.inner.health, poll, |act, ctx| {
            act.tick(ctx)
        });
    }
}

impl Handler<Poke> for IndexerActor {
    type Result = ();
    fn handle(&mut self, _: Poke, ctx: &mut Self::Context) {
        let health = self.inner.health.clone();
        supervise::sync(self, ctx, NAME, &health, |act, ctx| act.tick(ctx));
    }
}

impl IndexerActor {
    fn tick(&mut self, ctx: &mut Context<Self>) {
        let inner = self.inner.clone();
        let me = ctx.address();
        supervise::spawn(self, ctx, NAME, &self.inner.health, async move {
            // Still behind after a tick's ranges: the next tick starts at once, not a poll
            // later (the pause only lets the rest of the actor's messages in).
            if inner.tick().await {
                me.do_send(Poke);
            }
        });
    }
}

/// The running indexer; reads go to the database.
#[derive(Clone)]
pub struct IndexerHandle {
    handle: ActorHandle<IndexerActor>,
}

impl IndexerHandle {
    pub fn start(
        db: DatabaseConnection,
        chain: ChainClient,
        clock: SharedClock,
        settings: IndexerSettings,
        health: HealthRegistry,
    ) -> Self {
        let inner = Arc::new(Inner {
            state: Mutex::new(State {
                window: Window::new(settings.window),
                size: RangeSize::new(settings.max_range),
                leader: None,
                reorgs: 0,
                head: None,
                cursor: None,
                ahead: None,
            }),
            db,
            chain,
            clock,
            settings,
            health,
            ticking: AtomicBool::new(false),
        });
        inner
            .health
            .register(NAME, supervise::stale_limit(inner.settings.poll));
        let shared = inner.clone();
        let addr = Supervisor::start(move |_| IndexerActor {
            inner: shared.clone(),
        });
        // Only told (`Poke`): the limit and deadline of calls never come into play.
        let handle = ActorHandle::new(NAME, addr, 1, supervise::TURN, inner.health.clone());
        IndexerHandle { handle }
    }

    /// Asks for a look at the chain now (a reader found the index old). Nothing waits on it: a
    /// tick already running makes this one a no-op.
    pub fn poke(&self) {
        self.handle.tell(Poke);
    }
}

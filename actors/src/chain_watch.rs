//! The ChainWatch actor: checks at start and every few seconds that the RPC answers with the
//! configured chain id and that code exists at every contract the service relies on. Handlers
//! read the last status without a round-trip; payments open only while it is ready.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use actix::prelude::*;
use alloy::primitives::Address;
use alloy::providers::Provider;
use chrono::{DateTime, Utc};
use journal_market_chain::client::{ChainClient, short};
use serde::Serialize;

use crate::health::HealthRegistry;
use crate::supervise::{self, Turn};

const NAME: &str = "chain_watch";

/// What the service needs from the chain.
#[derive(Debug, Clone)]
pub struct ChainTargets {
    pub chain_id: u64,
    /// Contracts that must have code, with a name for the error message.
    pub contracts: Vec<(String, Address)>,
    pub call_timeout: Duration,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChainStatus {
    pub ready: bool,
    /// The latest block number seen.
    pub head: Option<u64>,
    pub checked_at: Option<DateTime<Utc>>,
    /// Why the chain is not ready.
    pub problem: Option<String>,
}

impl ChainStatus {
    fn unknown() -> Self {
        ChainStatus {
            ready: false,
            head: None,
            checked_at: None,
            problem: Some("the chain has not been checked yet".into()),
        }
    }
}

/// The checks, through the chain client (upstreams in order, the first that answers decides).
pub struct Probe {
    targets: ChainTargets,
    chain: ChainClient,
}

impl Probe {
    pub fn new(targets: ChainTargets, chain: ChainClient) -> Self {
        Probe { targets, chain }
    }

    /// One check; `Ok` carries the head block.
    pub async fn check(&self) -> Result<u64, String> {
        tokio::time::timeout(self.targets.call_timeout * 4, self.check_one())
            .await
            .unwrap_or_else(|_| Err("the RPC did not answer in time".into()))
    }

    async fn check_one(&self) -> Result<u64, String> {
        let t = &self.targets;
        let p = self.chain.provider();
        let id = p
            .get_chain_id()
            .await
            .map_err(|e| format!("the RPC does not answer: {}", short(&e.to_string())))?;
        if id != t.chain_id {
            return Err(format!("the RPC serves chain {id}, not {}", t.chain_id));
        }
        for (name, addr) in &t.contracts {
            let code = p
                .get_code_at(*addr)
                .await
                .map_err(|e| format!("cannot read code at {name}: {}", short(&e.to_string())))?;
            if code.is_empty() {
                return Err(format!("no contract code at {name} ({addr})"));
            }
        }
        p.get_block_number()
            .await
            .map_err(|e| format!("cannot read the block number: {}", short(&e.to_string())))
    }
}

/// Test-only (the `faults` feature; without it nothing strikes): while a file exists at this
/// path, every check panics (its actor is dead and restarted until the file is gone): in the
/// actor's synchronous code when the file says `sync`, else in the check's future.
#[derive(Debug, Clone, Default)]
pub struct PanicFault(pub Option<PathBuf>);

impl PanicFault {
    #[cfg(feature = "faults")]
    fn strike(&self, in_sync_code: bool) {
        if let Some(path) = &self.0
            && let Ok(text) = std::fs::read_to_string(path)
            && (text.trim() == "sync") == in_sync_code
        {
            panic!("fault point: {} exists", path.display());
        }
    }

    #[cfg(not(feature = "faults"))]
    fn strike(&self, _in_sync_code: bool) {}
}

pub struct ChainWatch {
    probe: Arc<Probe>,
    interval: Duration,
    status: Arc<RwLock<ChainStatus>>,
    health: HealthRegistry,
    /// Held while a check runs.
    checking: Arc<AtomicBool>,
    fault: PanicFault,
}

impl ChainWatch {
    fn check(&mut self, ctx: &mut Context<Self>) {
        let (probe, status, health) =
            (self.probe.clone(), self.status.clone(), self.health.clone());
        let (checking, fault) = (self.checking.clone(), self.fault.clone());
        fault.strike(true);
        supervise::spawn(self, ctx, NAME, &self.health, async move {
            let Some(_turn) = Turn::begin(&checking) else {
                return;
            };
            fault.strike(false);
            let res = probe.check().await;
            apply(&status, &health, res);
        });
    }
}

fn apply(shared: &RwLock<ChainStatus>, health: &HealthRegistry, res: Result<u64, String>) {
    let status = match res {
        Ok(head) => {
            health.heartbeat(NAME);
            ChainStatus {
                ready: true,
                head: Some(head),
                checked_at: Some(Utc::now()),
                problem: None,
            }
        }
        Err(problem) => {
            health.error(NAME, problem.clone());
            let head = shared.read().ok().and_then(|s| s.head);
            ChainStatus {
                ready: false,
                head,
                checked_at: Some(Utc::now()),
                problem: Some(problem),
            }
        }
    };
    if let Ok(mut s) = shared.write() {
        if s.ready != status.ready {
            tracing::info!(ready = status.ready, problem = ?status.problem, "chain status changed");
        }
        *s = status;
    }
}

impl Actor for ChainWatch {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        supervise::every(ctx, NAME, &self.health, self.interval, |act, ctx| {
            act.check(ctx)
        });
    }
}

impl Supervised for ChainWatch {
    fn restarting(&mut self, _: &mut Self::Context) {
        self.health.restarted(NAME);
    }
}

/// The typed handle the rest of the service uses.
#[derive(Clone)]
pub struct ChainWatchHandle {
    /// Keeps the actor alive: it stops when the last address is dropped.
    _addr: Addr<ChainWatch>,
    status: Arc<RwLock<ChainStatus>>,
}

impl ChainWatchHandle {
    /// Starts the supervised actor on the current arbiter.
    pub fn start(
        targets: ChainTargets,
        chain: ChainClient,
        interval: Duration,
        health: HealthRegistry,
        fault: PanicFault,
    ) -> Self {
        let status = Arc::new(RwLock::new(ChainStatus::unknown()));
        let shared = status.clone();
        // A check is bounded by four RPC time limits (see `Probe::check`).
        let turn = targets.call_timeout * 4;
        let probe = Arc::new(Probe::new(targets, chain));
        health.register(NAME, interval * 3 + turn.max(supervise::TURN));
        let checking = Arc::new(AtomicBool::new(false));
        let addr = Supervisor::start(move |_| ChainWatch {
            probe: probe.clone(),
            interval,
            status: shared.clone(),
            health: health.clone(),
            checking: checking.clone(),
            fault: fault.clone(),
        });
        ChainWatchHandle {
            _addr: addr,
            status,
        }
    }

    /// The last known status (no round-trip).
    pub fn status(&self) -> ChainStatus {
        self.status
            .read()
            .map(|s| s.clone())
            .unwrap_or_else(|_| ChainStatus::unknown())
    }

    pub fn is_ready(&self) -> bool {
        self.status.read().map(|s| s.ready).unwrap_or(false)
    }
}

//! The Confirmations actor: what the chain can still take back is *seen* until it is
//! `reorg_safe_distance` blocks deep, then *final*. Each pass reads the receipts of settled
//! payments and live journals' registrations that are not final yet (a row seen mined is read
//! again only once it could be final) and acts on what a reorg changed: a payment whose
//! transaction is gone goes back to pending for the settlement actor; a registration re-read
//! corrects its token id, or clears it when the transaction is gone. Passes write only guarded
//! updates, so several instances may run them at once.

pub mod depth;
mod payments;
mod registrations;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use actix::prelude::*;
use alloy::primitives::{Address, B256};
use alloy::rpc::types::TransactionReceipt;
use journal_market_chain::client::{ChainClient, ChainError};
use sea_orm::{DatabaseConnection, DbErr};

use crate::clock::SharedClock;
use crate::health::HealthRegistry;
use crate::supervise::{self, Turn};
use depth::Sighting;

const NAME: &str = "confirmations";
/// Rows looked at per kind and pass.
const BATCH: u64 = 200;

#[derive(Debug, Clone)]
pub struct ConfirmSettings {
    /// Blocks above a transaction's own before it is final.
    pub distance: u64,
    pub every: Duration,
    /// The ERC-8004 identity registry (registrations); `None` skips them.
    pub identity_registry: Option<Address>,
}

#[derive(Debug, thiserror::Error)]
enum PassError {
    #[error("the chain: {0}")]
    Chain(#[from] ChainError),
    #[error("the database: {0}")]
    Db(#[from] DbErr),
}

struct Inner {
    db: DatabaseConnection,
    chain: ChainClient,
    clock: SharedClock,
    settings: ConfirmSettings,
    health: HealthRegistry,
    turning: AtomicBool,
}

/// Receipts asked in one JSON-RPC batch (public endpoints cap batch sizes; 50 passes them).
const RECEIPTS_PER_CALL: usize = 50;

/// What each receipt of `txs` says now, in order; one batch call per 50 transactions instead
/// of a call each.
async fn sightings(chain: &ChainClient, txs: &[B256]) -> Result<Vec<Sighting<B256>>, ChainError> {
    let mut out = Vec::with_capacity(txs.len());
    for chunk in txs.chunks(RECEIPTS_PER_CALL) {
        let params: Vec<(B256,)> = chunk.iter().map(|tx| (*tx,)).collect();
        let receipts = chain
            .batch::<_, Option<TransactionReceipt>>("eth_getTransactionReceipt", &params)
            .await?;
        out.extend(receipts.into_iter().map(sighting));
    }
    Ok(out)
}

/// What a receipt says of its transaction: no receipt, or a reverted one, is gone.
fn sighting(receipt: Option<TransactionReceipt>) -> Sighting<B256> {
    match receipt {
        Some(r) if r.status() => match (r.block_number, r.block_hash) {
            (Some(block), Some(hash)) => Sighting::Mined { block, hash },
            _ => Sighting::Gone,
        },
        _ => Sighting::Gone,
    }
}

impl Inner {
    async fn tick(self: Arc<Self>) {
        let Some(_turn) = Turn::begin(&self.turning) else {
            return;
        };
        match self.pass().await {
            Ok(()) => self.health.heartbeat(NAME),
            Err(e) => self.health.error(NAME, e.to_string()),
        }
    }

    async fn pass(&self) -> Result<(), PassError> {
        let head = self.chain.block_number().await?;
        payments::pass(self, head).await?;
        if let Some(registry) = self.settings.identity_registry {
            registrations::pass(self, registry, head).await?;
        }
        Ok(())
    }
}

impl ConfirmActor {
    /// A pass at once and every `settings.every`.
    fn schedule(&mut self, ctx: &mut Context<Self>) {
        let every = self.inner.settings.every;
        supervise::every_spawned(ctx, NAME, &self.inner.health, every, |act, _| {
            act.inner.clone().tick()
        });
    }
}

supervise::actor!(ConfirmActor, NAME);

/// The typed handle: the actor needs no messages, only to be kept alive.
#[derive(Clone)]
pub struct ConfirmHandle {
    _addr: Addr<ConfirmActor>,
}

impl ConfirmHandle {
    /// Starts the supervised actor on the current arbiter.
    pub fn start(
        db: DatabaseConnection,
        chain: ChainClient,
        clock: SharedClock,
        settings: ConfirmSettings,
        health: HealthRegistry,
    ) -> Self {
        health.register(NAME, supervise::stale_limit(settings.every));
        let inner = Arc::new(Inner {
            db,
            chain,
            clock,
            settings,
            health,
            turning: AtomicBool::new(false),
        });
        let addr = Supervisor::start(move |_| ConfirmActor {
            inner: inner.clone(),
        });
        ConfirmHandle { _addr: addr }
    }
}

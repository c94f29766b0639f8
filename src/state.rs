//! What every handler shares: the services, each holding only what it uses.

use std::sync::Arc;
use std::time::Duration;

use journal_market_actors::audit::AuditHandle;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::confirm::ConfirmHandle;
use journal_market_actors::db::Lanes;
use journal_market_actors::health::HealthRegistry;
use journal_market_actors::indexer::IndexerHandle;
use journal_market_actors::session::SessionHandle;
use journal_market_chain::client::ChainClient;
use sea_orm::DatabaseConnection;

use crate::cache::{CacheRequests, PublicCaches};
use crate::chain::ChainAddresses;
use crate::metrics::Metrics;
use crate::purchase::{PaymentParts, Purchases};
use crate::quotes::Quotes;
use crate::rpc::proxy::RpcProxy;
use crate::services::accounts::Accounts;
use crate::services::catalog::Catalog;
use crate::services::ledger::TokenLedger;
use crate::services::publish::Publishing;
use crate::services::receipts::Receipts;
use crate::services::votes::Voting;
use crate::site::Site;

pub struct AppState {
    pub site: Site,
    pub catalog: Catalog,
    pub accounts: Accounts,
    pub purchases: Purchases,
    pub publishing: Publishing,
    /// The MCP endpoint's call and payment counters.
    pub mcp: crate::mcp::metrics::McpMetrics,
    pub onchain: Onchain,
    pub ops: Ops,
}

/// The chain as the routes read it beyond purchases and publishing.
pub struct Onchain {
    /// The ChainWatch actor's status: chain id and contracts checked, the head.
    pub watch: ChainWatchHandle,
    pub addresses: ChainAddresses,
    pub rpc: RpcProxy,
    pub quotes: Arc<Quotes>,
    pub token: TokenLedger,
    pub votes: Voting,
}

/// What operators read (health, counters and the connections behind them); it also keeps the
/// background workers that nothing else holds alive.
pub struct Ops {
    pub db: DatabaseConnection,
    pub health: HealthRegistry,
    /// The registry every part registered its metrics into; encoded by the metrics listener.
    pub metrics: Arc<Metrics>,
    /// The chain client every chain read of a request goes through.
    pub client: ChainClient,
    /// Re-checks what the chain can take back until it is final.
    pub confirm: ConfirmHandle,
    /// The chain indexer when it runs (it keeps itself going; reads go to the database).
    pub indexer: Option<IndexerHandle>,
}

/// The parts that talk to the chain, as the application builds them.
pub struct ChainParts {
    pub watch: ChainWatchHandle,
    pub addresses: ChainAddresses,
    pub rpc: RpcProxy,
    pub quotes: Quotes,
}

/// The actors and connections the services are made of, beyond the chain parts.
pub struct Workers {
    pub sessions: SessionHandle,
    pub pay: PaymentParts,
    pub audit: AuditHandle,
    pub indexer: Option<IndexerHandle>,
    pub confirm: ConfirmHandle,
    pub client: ChainClient,
}

impl AppState {
    pub fn new(
        db: DatabaseConnection,
        site: Site,
        health: HealthRegistry,
        chain: ChainParts,
        w: Workers,
        (mut metrics, cache_requests): (Metrics, &CacheRequests),
    ) -> Self {
        let settings = site.settings.clone();
        let caches = Arc::new(PublicCaches::new(
            Duration::from_millis(settings.cache.public_ttl_ms),
            cache_requests,
        ));
        caches.register_metrics(metrics.registry());
        let mcp = crate::mcp::metrics::McpMetrics::new(metrics.registry());
        let quotes = Arc::new(chain.quotes);
        let a = chain.addresses;
        // The reads every journal page and payment step make, on two SQLite lanes.
        let reads = Lanes::new(db.clone(), 2);
        let catalog = Catalog::new(reads.clone(), site.clone(), caches.clone());
        let receipts = Receipts::new(db.clone(), site.clone(), w.pay.receipts.clone());
        let accounts = Accounts::new(
            db.clone(),
            site.clone(),
            w.sessions,
            chain.watch.clone(),
            receipts.clone(),
        );
        let purchases = Purchases::new(
            reads,
            site.clone(),
            (catalog.clone(), accounts.clone(), receipts),
            (chain.watch.clone(), a.clone()),
            w.pay,
        );
        let publishing = Publishing::new(
            db.clone(),
            site.clone(),
            w.audit,
            w.client.clone(),
            a.identity_registry,
            quotes.clone(),
            caches.clone(),
        );
        let token = TokenLedger::new(
            db.clone(),
            w.client.clone(),
            quotes.clone(),
            w.indexer.clone(),
            a.ledger,
            Duration::from_millis(settings.indexer.ledger_max_age_ms),
        );
        let votes = Voting::new(
            db.clone(),
            site.clone(),
            w.client.clone(),
            a.reputation_registry,
            caches,
        );
        AppState {
            site,
            catalog,
            accounts,
            purchases,
            publishing,
            mcp,
            onchain: Onchain {
                watch: chain.watch,
                addresses: a,
                rpc: chain.rpc,
                quotes,
                token,
                votes,
            },
            ops: Ops {
                db,
                health,
                metrics: Arc::new(metrics),
                client: w.client,
                confirm: w.confirm,
                indexer: w.indexer,
            },
        }
    }
}

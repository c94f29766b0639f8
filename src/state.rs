//! What every handler shares.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use journal_market_actors::audit::AuditHandle;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::clock::SharedClock;
use journal_market_actors::health::HealthRegistry;
use journal_market_actors::session::SessionHandle;
use journal_market_actors::settlement::SettlementHandle;
use sea_orm::DatabaseConnection;

use crate::cache::TtlCache;
use crate::chain::ChainAddresses;
use crate::config::Settings;
use crate::metrics::Metrics;
use crate::queries::journals::LiveJournal;
use crate::quotes::Quotes;
use crate::rpc::proxy::RpcProxy;

/// Journal id, payment step, recipient, resource URL.
pub type ChallengeKey = (i32, &'static str, alloy::primitives::Address, String);
/// A serialized 402 answer, its sign-in-with-x nonce filled in per answer.
pub type Challenge = crate::payments::Template;

pub struct AppState {
    pub db: DatabaseConnection,
    pub settings: Arc<Settings>,
    /// Serialized answers of hot public lists, keyed by route and query.
    pub lists: TtlCache<String, Bytes>,
    /// Public journal details, keyed by slug or id.
    pub journals: TtlCache<String, Arc<LiveJournal>>,
    /// Serialized 402 challenges (body and PAYMENT-REQUIRED header), keyed by journal, step and
    /// recipient: the hottest answer of the payment endpoints.
    pub challenges: TtlCache<ChallengeKey, Arc<Challenge>>,
    pub health: HealthRegistry,
    /// The ChainWatch actor's status: chain id and contracts checked, the head.
    pub watch: ChainWatchHandle,
    pub addresses: ChainAddresses,
    pub rpc: RpcProxy,
    pub quotes: Quotes,
    pub sessions: SessionHandle,
    pub pay: PaymentParts,
    pub audit: AuditHandle,
    /// The chain indexer when it runs (it keeps itself going; reads go to the database).
    pub indexer: Option<journal_market_actors::indexer::IndexerHandle>,
    /// Re-checks what the chain can take back until it is final (kept alive here).
    pub confirm: journal_market_actors::confirm::ConfirmHandle,
    /// The chain client every chain read of a request goes through.
    pub client: journal_market_chain::client::ChainClient,
    pub clock: SharedClock,
    /// `GET /token.json`'s last answer.
    pub ledger: crate::cache::LedgerCache,
    /// Counted as requests are answered; read by the metrics listener.
    pub metrics: Arc<Metrics>,
}

/// The actors and clock a request may use beyond the chain parts.
pub struct Workers {
    pub sessions: SessionHandle,
    pub pay: PaymentParts,
    pub audit: AuditHandle,
    pub indexer: Option<journal_market_actors::indexer::IndexerHandle>,
    pub confirm: journal_market_actors::confirm::ConfirmHandle,
    pub client: journal_market_chain::client::ChainClient,
    pub clock: SharedClock,
}

/// What payments need; `settlement` is None when no back-end or buyback wallet is configured.
pub struct PaymentParts {
    pub settlement: Option<SettlementHandle>,
    pub buyback: Option<alloy::primitives::Address>,
    /// The built-in facilitator's chain reads of the purchase flow (`ownerOf`) and receipts.
    pub facilitator: Arc<journal_market_chain::facilitator::Facilitator>,
    /// The key that signs purchase receipts, when set.
    pub receipts: Option<alloy::signers::local::PrivateKeySigner>,
    /// Whether challenges declare `erc20ApprovalGasSponsoring`: the built-in settler sponsors,
    /// or the outside facilitator's `/supported` lists it (set once that answer is in).
    pub sponsoring: Arc<std::sync::atomic::AtomicBool>,
    /// Why the outside facilitator is unusable now (`None`: it answers); `None` for the
    /// built-in settler.
    pub facilitator_problem: Option<Arc<std::sync::RwLock<Option<String>>>>,
}

impl PaymentParts {
    pub fn sponsoring(&self) -> bool {
        self.sponsoring.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Why the outside facilitator is unusable now; `None` while it answers, or for the
    /// built-in settler.
    pub fn facilitator_problem(&self) -> Option<String> {
        self.facilitator_problem
            .as_ref()
            .and_then(|p| p.read().ok().and_then(|p| p.clone()))
    }

    /// `ok`, `built-in`, or why the outside facilitator is unusable.
    pub fn facilitator_status(&self) -> String {
        match (&self.facilitator_problem, self.facilitator_problem()) {
            (None, _) => "built-in".into(),
            (Some(_), None) => "ok".into(),
            (Some(_), Some(why)) => why,
        }
    }
}

/// The parts of the state that talk to the chain.
pub struct ChainParts {
    /// The ChainWatch actor's status: chain id and contracts checked, the head.
    pub watch: ChainWatchHandle,
    pub addresses: ChainAddresses,
    pub rpc: RpcProxy,
    pub quotes: Quotes,
}

impl AppState {
    pub fn new(
        db: DatabaseConnection,
        settings: Arc<Settings>,
        health: HealthRegistry,
        chain: ChainParts,
        w: Workers,
    ) -> Self {
        let ttl = Duration::from_millis(settings.cache.public_ttl_ms);
        let settings_ledger_age = settings.indexer.ledger_max_age_ms;
        AppState {
            db,
            settings,
            lists: TtlCache::new(ttl),
            journals: TtlCache::new(ttl),
            challenges: TtlCache::new(ttl),
            health,
            watch: chain.watch,
            addresses: chain.addresses,
            rpc: chain.rpc,
            quotes: chain.quotes,
            sessions: w.sessions,
            pay: w.pay,
            audit: w.audit,
            indexer: w.indexer,
            confirm: w.confirm,
            client: w.client,
            clock: w.clock,
            ledger: crate::cache::LedgerCache::new(Duration::from_millis(settings_ledger_age)),
            metrics: Arc::new(Metrics::new()),
        }
    }

    /// `{origin}{api prefix}`: public addresses of API resources start with it.
    pub fn api_base(&self) -> String {
        format!("{}{}", self.origin(), self.settings.server.api_prefix)
    }

    pub fn origin(&self) -> &str {
        self.settings.origin()
    }

    /// Payments need both the setting and a ready chain.
    pub fn payments_open(&self) -> bool {
        self.settings.payments.enabled
            && self.pay.settlement.is_some()
            && self.pay.buyback.is_some()
            && self.watch.is_ready()
            && self.pay.facilitator_problem().is_none()
    }

    /// The public address of a payment endpoint (the x402 `resource.url`).
    /// The paid text's URL of the journal `slug`, naming the paying wallet when one is hinted.
    pub fn text_url(&self, slug: &str, payer: Option<alloy::primitives::Address>) -> String {
        let base = format!(
            "{}{}/journals/{slug}/text",
            self.origin(),
            self.settings.server.api_prefix
        );
        match payer {
            Some(p) => format!("{base}?payer={}", p.to_checksum(None)),
            None => base,
        }
    }

    pub fn pay_url(&self, step: crate::payments::Step) -> String {
        format!(
            "{}{}{}",
            self.origin(),
            self.settings.server.api_prefix,
            step.path()
        )
    }

    /// Call after any write that public reads show.
    pub fn invalidate_public(&self) {
        self.lists.invalidate();
        self.journals.invalidate();
        self.challenges.invalidate();
    }
}

//! The parts the application is built from: the actors with their settings, the payment
//! back-end, the chain's addresses and clients.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use journal_market_actors::audit::engine::{Builtin, Engine, LlmSettings, WithLlm};
use journal_market_actors::audit::{AuditHandle, AuditSettings};
use journal_market_actors::chain_watch::{ChainWatchHandle, PanicFault};
use journal_market_actors::clock::SharedClock;
use journal_market_actors::db::Lanes;
use journal_market_actors::health::HealthRegistry;
use journal_market_actors::indexer::{IndexerHandle, IndexerSettings};
use journal_market_actors::session::SessionSettings;
use journal_market_actors::settlement::{
    HttpSettler, LocalSettler, SettlementHandle, SettlementSettings, SponsorSettings,
};
use journal_market_chain::client::ChainClient;
use journal_market_chain::facilitator::Facilitator;
use journal_market_x402::facilitator::Settler;
use sea_orm::DatabaseConnection;

use crate::cache::CacheRequests;
use crate::chain::{self, ChainAddresses};
use crate::config::Settings;
use crate::import;
use crate::purchase::PaymentParts;
use crate::quotes::Quotes;
use crate::rpc::params::Limits;
use crate::rpc::proxy::{ProxySettings, RpcProxy};
use crate::state::ChainParts;

pub(super) fn payment_parts(
    s: &Settings,
    a: &ChainAddresses,
    client: &ChainClient,
    db: &DatabaseConnection,
    (clock, instance): (SharedClock, String),
    health: HealthRegistry,
) -> anyhow::Result<PaymentParts> {
    let p = &s.payments;
    let relayer = p.relayer_key.signer().cloned();
    let buyback = p.buyback_wallet;
    let local = p.facilitator.trim() == "local";
    let sponsor_key = p.sponsor.key.signer().cloned();
    let mut facilitator = Facilitator::with_reader(
        client.provider().clone(),
        s.chain.chain_id,
        a.usdg,
        a.permit2,
        a.permit2_proxy,
        if local { relayer.clone() } else { None },
    )
    // A send answered with its receipt returns within the wait a payment gives its receipt.
    .with_send_wait(Duration::from_millis(p.receipt_wait_ms.max(1)));
    if let Some(key) = sponsor_key.filter(|_| local) {
        if relayer.as_ref().map(|r| r.address()) == Some(key.address()) {
            // Allowed, but what the sponsor spends is then the relayer's gas for settles.
            tracing::warn!(
                "payments.sponsor.key is the relayer's key: sponsored gas spends the settles' ether"
            );
        }
        facilitator = facilitator.with_sponsor(key);
    }
    let facilitator = Arc::new(facilitator);
    let timeout = Duration::from_millis(s.chain.rpc_timeout_ms);
    let sponsoring = Arc::new(AtomicBool::new(false));
    let facilitator_problem = Arc::new(std::sync::RwLock::new(None));
    let settler: Option<Arc<dyn Settler>> = if local {
        relayer
            .is_some()
            .then(|| Arc::new(LocalSettler(facilitator.clone())) as Arc<dyn Settler>)
    } else {
        let token = Some(p.facilitator_token.expose().to_string()).filter(|t| !t.is_empty());
        let http = Arc::new(HttpSettler::new(p.facilitator.trim(), token, timeout * 4)?);
        watch_facilitator(
            http.clone(),
            p.sponsor.enabled.then(|| sponsoring.clone()),
            facilitator_problem.clone(),
            Duration::from_secs(s.chain.check_interval_secs.max(1)),
            health.clone(),
        );
        Some(http as Arc<dyn Settler>)
    };
    let sponsor =
        (local && p.sponsor.enabled && facilitator.sponsor_address().is_some()).then(|| {
            SponsorSettings {
                max_gas: p.sponsor.max_gas,
                max_fee_per_gas: u128::from(p.sponsor.max_fee_per_gas),
                per_wallet_wei: p.sponsor.per_wallet_wei,
                daily_wei: p.sponsor.daily_wei,
                gas_floor: p.sponsor.gas_floor,
            }
        });
    let settlement = match (settler, buyback) {
        (Some(settler), Some(_)) => Some(SettlementHandle::start(
            Lanes::new(db.clone(), 1),
            settler,
            facilitator.clone(),
            clock,
            SettlementSettings {
                max_in_flight: p.max_in_flight,
                deadline: Duration::from_secs(p.deadline_secs.max(1)),
                receipt_wait: Duration::from_millis(p.receipt_wait_ms),
                lease: Duration::from_secs(p.lease_secs.max(1)),
                reconcile_every: Duration::from_millis(p.reconcile_every_ms.max(50)),
                instance,
                fault: p.fault,
                sponsoring: sponsor.clone(),
            },
            health,
        )),
        _ => {
            tracing::warn!(
                "payments stay closed: set payments.buyback_wallet and a settlement back-end"
            );
            None
        }
    };
    let receipts = p.receipt_key.signer().cloned();
    if settlement.is_some() && sponsor.is_some() {
        sponsoring.store(true, Ordering::Relaxed);
    }
    Ok(PaymentParts {
        settlement,
        buyback,
        facilitator,
        receipts,
        sponsoring,
        facilitator_problem: (!local).then_some(facilitator_problem),
    })
}

const FACILITATOR_WATCH: &str = "facilitator_watch";

/// Asks an outside facilitator for its `/supported` at start and every `every`: whether it
/// answers (health, and payments close while it does not, so purchases fail at once with 503
/// instead of after its time limit) and whether it sponsors approvals (`sponsoring`, when
/// asked). Reports to the health registry like an actor; its loop holds no state to lose.
fn watch_facilitator(
    http: Arc<HttpSettler>,
    sponsoring: Option<Arc<AtomicBool>>,
    problem: Arc<std::sync::RwLock<Option<String>>>,
    every: Duration,
    health: HealthRegistry,
) {
    let key = journal_market_x402::extensions::gas_sponsoring::KEY;
    health.register(
        FACILITATOR_WATCH,
        journal_market_actors::supervise::stale_limit(every),
    );
    actix_web::rt::spawn(async move {
        loop {
            let now = match http.lists_extension(key).await {
                Ok(listed) => {
                    if let Some(flag) = &sponsoring
                        && flag.swap(listed, Ordering::Relaxed) != listed
                    {
                        tracing::info!(listed, "the facilitator's /supported read for {key}");
                    }
                    health.heartbeat(FACILITATOR_WATCH);
                    None
                }
                Err(e) => {
                    let why = format!("the facilitator does not answer: {e}");
                    health.error(FACILITATOR_WATCH, why.clone());
                    Some(why)
                }
            };
            if let Ok(mut p) = problem.write() {
                if p.is_some() != now.is_some() {
                    tracing::warn!(problem = ?now, "the facilitator's status changed");
                }
                *p = now;
            }
            tokio::time::sleep(every).await;
        }
    });
}

/// What the actors that read the database and the chain are built from.
pub(super) struct Base<'a> {
    pub settings: &'a Settings,
    pub db: &'a DatabaseConnection,
    pub addresses: &'a ChainAddresses,
    pub client: &'a ChainClient,
    pub clock: SharedClock,
    pub health: HealthRegistry,
}

impl Base<'_> {
    /// The chain indexer, unless it is turned off.
    pub(super) fn indexer(&self) -> Option<IndexerHandle> {
        let (s, a) = (self.settings, self.addresses);
        let c = &s.indexer;
        c.enabled.then(|| {
            IndexerHandle::start(
                self.db.clone(),
                self.client.clone(),
                self.clock.clone(),
                IndexerSettings {
                    start_block: c.start_block,
                    poll: Duration::from_millis(c.poll_ms.max(50)),
                    max_range: c.max_range.max(1),
                    reorg_depth: c.reorg_depth.max(1),
                    window: c.window.max(1),
                    reputation_registry: a.reputation_registry,
                    ledger: a.ledger.map(|l| {
                        journal_market_actors::indexer::ledger::LedgerAddresses {
                            token: l.token,
                            pool: l.pool,
                        }
                    }),
                    database_url: s.database.url.expose().to_string(),
                },
                self.health.clone(),
            )
        })
    }

    /// The audit agent, with the engine `audit.engine` names.
    pub(super) fn audit(&self, port: u16) -> anyhow::Result<AuditHandle> {
        let s = self.settings;
        let c = &s.audit;
        let engine: Arc<dyn Engine> = match c.engine.trim() {
            "builtin" => Arc::new(Builtin),
            "llm" => Arc::new(WithLlm::new(LlmSettings {
                base_url: c.llm_base_url.trim().to_string(),
                model: c.llm_model.trim().to_string(),
                api_key: c.llm_api_key.expose().trim().to_string(),
                timeout: Duration::from_secs(c.llm_timeout_secs.max(1)),
            })?),
            other => anyhow::bail!("audit.engine must be \"builtin\" or \"llm\", not {other:?}"),
        };
        Ok(AuditHandle::start(
            self.db.clone(),
            engine,
            self.client.clone(),
            self.clock.clone(),
            AuditSettings {
                concurrency: c.concurrency,
                max_in_flight: c.max_in_flight,
                deadline: Duration::from_secs(c.deadline_secs.max(1)),
                lease: Duration::from_secs(c.lease_secs.max(1)),
                sweep_every: Duration::from_millis(c.sweep_every_ms.max(50)),
                instance: instance_name(s, port),
                meta_base: format!("{}{}", s.origin(), s.server.api_prefix),
                stock_tokens: self.addresses.stock_tokens.clone(),
                max_audits: i32::try_from(s.publish.audits_per_draft).unwrap_or(i32::MAX),
                per_wallet: c.max_queued_per_wallet.max(1),
            },
            self.health.clone(),
        ))
    }
}

/// This process's name on payment and relayer leases: `payments.instance_id`, else the host's
/// name and the port it serves on. Two live processes cannot serve on one host and port, so a
/// process with its predecessor's name may take over that predecessor's leases at once.
pub(super) fn instance_name(s: &Settings, port: u16) -> String {
    let id = s.payments.instance_id.trim();
    if !id.is_empty() {
        return id.to_string();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{port}")
}

pub(super) fn session_settings(s: &Settings, client: &ChainClient) -> SessionSettings {
    SessionSettings {
        origin: s.origin().to_string(),
        chain_id: s.chain.chain_id,
        nonce_ttl: chrono::Duration::seconds(s.auth.nonce_ttl_secs as i64),
        session_ttl: chrono::Duration::days(s.auth.session_ttl_days as i64),
        cache_ttl: Duration::from_secs(s.auth.session_cache_secs),
        chain: client.clone(),
        call_timeout: Duration::from_millis(s.chain.rpc_timeout_ms),
        max_in_flight: s.auth.max_in_flight,
        max_chain_checks: s.auth.max_chain_checks,
        signature_gas: s.auth.signature_gas,
        max_failures: s.auth.max_failures.max(1),
        purge_every: Duration::from_secs(s.auth.purge_every_secs.max(1)),
    }
}

pub(super) fn chain_parts(
    settings: &Settings,
    addresses: ChainAddresses,
    client: &ChainClient,
    health: HealthRegistry,
    cache_requests: &CacheRequests,
) -> anyhow::Result<ChainParts> {
    let c = &settings.chain;
    let timeout = Duration::from_millis(c.rpc_timeout_ms);
    let watch = ChainWatchHandle::start(
        addresses.targets(settings),
        client.clone(),
        Duration::from_secs(c.check_interval_secs.max(1)),
        health,
        PanicFault(
            Some(c.fault_panic_file.trim())
                .filter(|p| !p.is_empty())
                .map(std::path::PathBuf::from),
        ),
    );
    let r = &settings.rpc;
    let rpc = RpcProxy::new(
        ProxySettings {
            upstreams: chain::proxy_rpc_urls(settings),
            chain_id: c.chain_id,
            timeout,
            safe_distance: c.reorg_safe_distance,
            limits: Limits {
                gas_cap: r.gas_cap,
                fee_history_blocks: r.fee_history_blocks.max(1),
                max_state_age: r.max_state_age,
                head: None,
            },
            cache_bytes: r.cache_bytes,
            max_answer_bytes: r.max_answer_bytes,
        },
        watch.clone(),
        cache_requests,
    )?;
    let quotes = Quotes::new(
        addresses.price_feeds.clone(),
        client.clone(),
        Duration::from_secs(c.quote_max_age_secs),
        Duration::from_secs(c.quote_cache_secs),
    );
    Ok(ChainParts {
        watch,
        addresses,
        rpc,
        quotes,
    })
}

pub(super) async fn load_demo_if_empty(db: &DatabaseConnection) -> anyhow::Result<()> {
    if import::is_empty(db).await? {
        let summary = import::import_str(db, import::DEMO_ARCHIVE, false).await?;
        tracing::info!(%summary, "loaded the embedded demo archive");
    }
    Ok(())
}

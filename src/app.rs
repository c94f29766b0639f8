//! The application: settings in, a bound HTTP server out. Tests build it on port 0.

use std::net::{SocketAddr, TcpListener};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web::dev::{Server, Service, ServiceRequest};
use actix_web::http::StatusCode;
use actix_web::http::{Method, header};
use actix_web::{App, HttpResponse, HttpServer, ResponseError, error, middleware, web};
use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use futures::FutureExt;
use futures::future::Either;
use jm_chain::client::ChainClient;
use jm_chain::facilitator::Facilitator;
use journal_market_actors::audit::engine::{Builtin, Engine, LlmSettings, WithLlm};
use journal_market_actors::audit::{AuditHandle, AuditSettings};
use journal_market_actors::chain_watch::{ChainWatchHandle, PanicFault};
use journal_market_actors::clock::{SharedClock, SystemClock};
use journal_market_actors::confirm::{ConfirmHandle, ConfirmSettings};
use journal_market_actors::health::HealthRegistry;
use journal_market_actors::indexer::{IndexerHandle, IndexerSettings};
use journal_market_actors::session::{SessionHandle, SessionSettings};
use journal_market_actors::settlement::{
    HttpSettler, LocalSettler, SettlementHandle, SettlementSettings, Settler, SponsorSettings,
};
use sea_orm::DatabaseConnection;
use tracing::Instrument;

use crate::chain::{self, ChainAddresses};
use crate::config::Settings;
use crate::error::ApiError;
use crate::metrics::middleware::RecordMetrics;
use crate::quotes::Quotes;
use crate::ratelimit::RateLimits;
use crate::rpc::params::Limits;
use crate::rpc::proxy::{ProxySettings, RpcProxy};
use crate::state::{AppState, ChainParts, PaymentParts, Workers};
use crate::{db, import, routes};

pub struct Application {
    port: u16,
    server: Server,
    state: web::Data<AppState>,
    /// The metrics listener's address and server, when `metrics.listen` is set.
    metrics: Option<(SocketAddr, Server)>,
}

impl Application {
    /// Connects, migrates, loads the demo archive into an empty database when configured, and
    /// binds the listener (the server starts on [`Application::run_until_stopped`]).
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        Self::build_with_clock(settings, Arc::new(SystemClock)).await
    }

    /// As [`Application::build`], with the clock the actors use (tests move it).
    pub async fn build_with_clock(
        mut settings: Settings,
        clock: SharedClock,
    ) -> anyhow::Result<Application> {
        chain::apply_devnet_file(&mut settings)?;
        let listener = TcpListener::bind(&settings.server.listen)
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", settings.server.listen))?;
        let port = listener.local_addr()?.port();
        settings.server.origin = crate::config::origin_on_port(&settings.server.origin, port);
        let settings = Arc::new(settings);
        let addresses = ChainAddresses::from_settings(&settings)?;
        let db = db::connect(&settings.database).await?;
        db::migrate(&db)
            .await
            .map_err(|e| anyhow::anyhow!("migrations failed: {e}"))?;
        if settings.demo.load_on_first_start {
            load_demo_if_empty(&db).await?;
        }
        let metrics_listener =
            match settings.metrics.listen.trim() {
                "" => None,
                addr => Some(TcpListener::bind(addr).map_err(|e| {
                    anyhow::anyhow!("cannot listen on {addr} (metrics.listen): {e}")
                })?),
            };
        let health = HealthRegistry::new();
        // One chain client for every chain call of the service (not the public RPC proxy).
        let client = ChainClient::new(
            &chain::rpc_urls(&settings),
            Duration::from_millis(settings.chain.rpc_timeout_ms),
        )?;
        let chain = chain_parts(&settings, addresses, &client, health.clone())?;
        let sessions = SessionHandle::start(
            db.clone(),
            session_settings(&settings, &client),
            clock.clone(),
            health.clone(),
        )?;
        let pay = payment_parts(
            &settings,
            &chain.addresses,
            &client,
            &db,
            (clock.clone(), instance_name(&settings, port)),
            health.clone(),
        )?;
        let indexer = indexer_handle(&settings, &db, &chain.addresses, &client, &clock, &health);
        let confirm = ConfirmHandle::start(
            db.clone(),
            client.clone(),
            clock.clone(),
            ConfirmSettings {
                distance: settings.chain.reorg_safe_distance,
                every: Duration::from_millis(settings.chain.confirm_interval_ms.max(50)),
                identity_registry: Some(chain.addresses.identity_registry),
            },
            health.clone(),
        );
        let audit = audit_handle(
            &settings,
            &db,
            &chain.addresses,
            &client,
            &clock,
            &health,
            port,
        )?;
        let state = web::Data::new(AppState::new(
            db,
            settings.clone(),
            health,
            chain,
            Workers {
                sessions,
                pay,
                audit,
                indexer,
                confirm,
                client,
                clock,
            },
        ));
        let server = http_server(listener, state.clone(), &settings)?;
        let metrics = match metrics_listener {
            Some(l) => {
                let addr = l.local_addr()?;
                tracing::info!("metrics on http://{addr}/metrics");
                Some((addr, crate::routes::metrics::server(l, state.clone())?))
            }
            None => None,
        };
        Ok(Application {
            port,
            server,
            state,
            metrics,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Where `GET /metrics` is served, when `metrics.listen` is set.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(|(addr, _)| *addr)
    }

    pub fn db(&self) -> &DatabaseConnection {
        &self.state.db
    }

    /// What the handlers share: the devnet's seeding publishes through the same services.
    pub fn state(&self) -> &web::Data<AppState> {
        &self.state
    }

    /// Stops the server from elsewhere (tests restart it).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until the public server stops; the metrics listener stops with it.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let settlement = self.state.pay.settlement.clone();
        let served = match self.metrics {
            None => self.server.await,
            Some((_, metrics)) => {
                let metrics_handle = metrics.handle();
                let metrics_task = actix_web::rt::spawn(metrics);
                let served = self.server.await;
                metrics_handle.stop(true).await;
                if let Ok(Err(e)) = metrics_task.await {
                    tracing::warn!(error = %e, "the metrics listener failed");
                }
                served
            }
        };
        // The requests are done (or their grace is over): another instance may take the key.
        if let Some(s) = settlement {
            s.release().await;
        }
        served
    }
}

fn payment_parts(
    s: &Settings,
    a: &ChainAddresses,
    client: &ChainClient,
    db: &DatabaseConnection,
    (clock, instance): (SharedClock, String),
    health: HealthRegistry,
) -> anyhow::Result<PaymentParts> {
    let p = &s.payments;
    let relayer = match p.relayer_key.expose().trim() {
        "" => None,
        key => Some(
            key.parse::<PrivateKeySigner>()
                .map_err(|_| anyhow::anyhow!("payments.relayer_key is not a valid private key"))?,
        ),
    };
    let buyback = match p.buyback_wallet.trim() {
        "" => None,
        w => Some(
            w.parse::<Address>()
                .map_err(|_| anyhow::anyhow!("payments.buyback_wallet is not an address"))?,
        ),
    };
    let local = p.facilitator.trim() == "local";
    let sponsor_key = match p.sponsor.key.expose().trim() {
        "" => None,
        key => Some(
            key.parse::<PrivateKeySigner>()
                .map_err(|_| anyhow::anyhow!("payments.sponsor.key is not a valid private key"))?,
        ),
    };
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
            }
        });
    let settlement = match (settler, buyback) {
        (Some(settler), Some(_)) => Some(SettlementHandle::start(
            db.clone(),
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
    let receipts = match p.receipt_key.expose().trim() {
        "" => None,
        key => Some(
            key.parse::<PrivateKeySigner>()
                .map_err(|_| anyhow::anyhow!("payments.receipt_key is not a valid private key"))?,
        ),
    };
    if settlement.is_some() && sponsor.is_some() {
        sponsoring.store(true, Ordering::Relaxed);
    }
    Ok(PaymentParts {
        settlement,
        buyback,
        chain: facilitator,
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
    let key = jm_chain::extensions::gas_sponsoring::KEY;
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

/// This process's name on payment and relayer leases: `payments.instance_id`, else the host's
/// name and the port it serves on. Two live processes cannot serve on one host and port, so a
/// process with its predecessor's name may take over that predecessor's leases at once.
/// The chain indexer, unless it is turned off.
fn indexer_handle(
    s: &Settings,
    db: &DatabaseConnection,
    a: &ChainAddresses,
    client: &ChainClient,
    clock: &SharedClock,
    health: &HealthRegistry,
) -> Option<IndexerHandle> {
    let c = &s.indexer;
    c.enabled.then(|| {
        IndexerHandle::start(
            db.clone(),
            client.clone(),
            clock.clone(),
            IndexerSettings {
                start_block: c.start_block,
                poll: Duration::from_millis(c.poll_ms.max(50)),
                max_range: c.max_range.max(1),
                reorg_depth: c.reorg_depth.max(1),
                window: c.window.max(1),
                reputation_registry: a.reputation_registry,
                ledger: a.ledger.map(
                    |l| journal_market_actors::indexer::ledger::LedgerAddresses {
                        token: l.token,
                        pool: l.pool,
                    },
                ),
                database_url: s.database.url.expose().to_string(),
            },
            health.clone(),
        )
    })
}

fn audit_handle(
    s: &Settings,
    db: &DatabaseConnection,
    a: &ChainAddresses,
    client: &ChainClient,
    clock: &SharedClock,
    health: &HealthRegistry,
    port: u16,
) -> anyhow::Result<AuditHandle> {
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
        db.clone(),
        engine,
        client.clone(),
        clock.clone(),
        AuditSettings {
            concurrency: c.concurrency,
            max_in_flight: c.max_in_flight,
            deadline: Duration::from_secs(c.deadline_secs.max(1)),
            lease: Duration::from_secs(c.lease_secs.max(1)),
            sweep_every: Duration::from_millis(c.sweep_every_ms.max(50)),
            instance: instance_name(s, port),
            meta_base: format!("{}{}", s.origin(), s.server.api_prefix),
            stock_tokens: a.stock_tokens.clone(),
            max_audits: i32::try_from(s.publish.audits_per_draft).unwrap_or(i32::MAX),
        },
        health.clone(),
    ))
}

fn instance_name(s: &Settings, port: u16) -> String {
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

fn session_settings(s: &Settings, client: &ChainClient) -> SessionSettings {
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

fn chain_parts(
    settings: &Settings,
    addresses: ChainAddresses,
    client: &ChainClient,
    health: HealthRegistry,
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
    )?;
    let quotes = Quotes::new(
        addresses.price_feeds.clone(),
        client.clone(),
        Duration::from_secs(c.quote_max_age_secs),
        Duration::from_secs(c.quote_cache_secs),
    );
    Ok(ChainParts {
        chain: watch,
        addresses,
        rpc,
        quotes,
    })
}

async fn load_demo_if_empty(db: &DatabaseConnection) -> anyhow::Result<()> {
    if import::is_empty(db).await? {
        let summary = import::import_str(db, import::DEMO_ARCHIVE, false).await?;
        tracing::info!(%summary, "loaded the embedded demo archive");
    }
    Ok(())
}

fn json_error(message: String, status: StatusCode) -> error::Error {
    let err = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(message),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::BadRequest(message),
        _ => ApiError::BadRequest(message),
    };
    error::InternalError::from_response("", err.error_response()).into()
}

/// Why a state-changing request with the session cookie must be refused, if it must.
fn foreign_origin(req: &ServiceRequest, cookie_name: &str, origin: &str) -> Option<String> {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    // The Origin first: API clients send none, and then the cookies need not be parsed.
    let sent = req.headers().get(header::ORIGIN)?.to_str().unwrap_or("");
    req.cookie(cookie_name)?;
    (sent.trim_end_matches('/') != origin)
        .then(|| format!("cross-site request refused: Origin {sent:?} is not {origin}"))
}

fn http_server(
    listener: TcpListener,
    state: web::Data<AppState>,
    settings: &Settings,
) -> anyhow::Result<Server> {
    let prefix = settings.server.api_prefix.clone();
    let cookie_name = settings.cookie_name();
    let compress = settings.server.compress;
    let origin = settings.origin().to_string();
    let max_body = settings.server.max_body_bytes;
    let limits = Arc::new(RateLimits::new(&settings.limits)?);
    let idle = limits.clone();
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            idle.forget_idle();
        }
    });
    let metrics = state.metrics.clone();
    let metrics_on = !settings.metrics.listen.trim().is_empty();
    let mut server = HttpServer::new(move || {
        let cookie_name = cookie_name.clone();
        let origin = origin.clone();
        let limits = limits.clone();
        let prefix_len = prefix.len();
        App::new()
            .app_data(state.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(max_body)
                    .error_handler(|e, _| {
                        let status = e.status_code();
                        json_error(format!("the request body is not valid: {e}"), status)
                    }),
            )
            .app_data(web::QueryConfig::default().error_handler(|e, _| {
                json_error(
                    format!("the query string is not valid: {e}"),
                    StatusCode::BAD_REQUEST,
                )
            }))
            .app_data(web::PathConfig::default().error_handler(|e, _| {
                json_error(
                    format!("the path is not valid: {e}"),
                    StatusCode::BAD_REQUEST,
                )
            }))
            .app_data(web::PayloadConfig::default().limit(max_body))
            .wrap_fn(move |req, srv| {
                // One layer for what every request needs:
                // - rate limits per client IP and route class (429 with Retry-After);
                // - a cookie-authenticated change from another site's page is refused (CSRF);
                //   requests without Origin come from non-browser clients, and SameSite=Lax
                //   keeps browsers from sending the cookie on cross-site POSTs anyway;
                // - a panic below answers 500 with a JSON body instead of dropping the
                //   connection; the panic goes to the log, not to the client;
                // - the access log, built only when its level is enabled.
                // - a request id, in every log line of the request and in the answer;
                let id = crate::request_id::of(
                    req.headers()
                        .get(crate::request_id::HEADER)
                        .and_then(|v| v.to_str().ok()),
                );
                let span = tracing::info_span!("request", id = %id);
                let line = tracing::enabled!(target: "journal_market::http", tracing::Level::INFO)
                    .then(|| format!("{} {}", req.method(), req.path()));
                let started = std::time::Instant::now();
                let refusal = match limits.check(
                    req.path().get(prefix_len..).unwrap_or(""),
                    req.peer_addr().map(|a| a.ip()),
                    req.headers()
                        .get("x-forwarded-for")
                        .and_then(|v| v.to_str().ok()),
                ) {
                    Err(l) => {
                        // Whole seconds, rounded up: a client that waits them gets through.
                        let secs = l.retry_after.as_secs() + 1;
                        Some(ApiError::RateLimited {
                            message: format!(
                                "too many {} requests from this address; retry in {secs} s",
                                l.class.name()
                            ),
                            retry_after_secs: secs,
                        })
                    }
                    Ok(()) => foreign_origin(&req, &cookie_name, &origin).map(ApiError::Forbidden),
                };
                let answer = match refusal {
                    Some(e) => {
                        let resp = e.error_response();
                        Either::Left(futures::future::ready(Ok(req.into_response(resp))))
                    }
                    None => Either::Right(AssertUnwindSafe(srv.call(req).instrument(span.clone())).catch_unwind().map(|res| {
                        res.unwrap_or_else(|_| {
                            tracing::error!("a request handler panicked");
                            Err(ApiError::internal(anyhow::anyhow!("handler panicked")).into())
                        })
                    })),
                };
                async move {
                    let mut res = answer.await;
                    if let Ok(r) = &mut res
                        && let Ok(v) = header::HeaderValue::from_str(&id)
                    {
                        r.headers_mut()
                            .insert(header::HeaderName::from_static(crate::request_id::HEADER), v);
                    }
                    if let Some(line) = line {
                        let status = match &res {
                            Ok(r) => r.status(),
                            Err(e) => e.as_response_error().status_code(),
                        };
                        span.in_scope(|| {
                            tracing::info!(target: "journal_market::http", "{line} {} {:.2}ms", status.as_u16(), started.elapsed().as_secs_f64() * 1000.0)
                        });
                    }
                    res
                }
            })
            .wrap(middleware::Condition::new(
                compress,
                crate::compress::CompressWhenAsked,
            ))
            // Outermost: counts and times what the client gets, refusals and panics included.
            // Off (not even counted) without a metrics listener.
            .wrap(middleware::Condition::new(
                metrics_on,
                RecordMetrics(metrics.clone()),
            ))
            .service(web::scope(&prefix).configure(routes::configure))
            .configure(routes::discovery::configure_root)
            .default_service(web::to(|| async {
                HttpResponse::from_error(ApiError::not_found(
                    "no such endpoint; the API lives under /api",
                ))
            }))
    })
    // SIGTERM: stop accepting, let requests in flight (and the settlements they wait for)
    // finish within the grace period; a payment cut off then stays a pending row that the next
    // start, or another instance, reconciles with the chain.
    .shutdown_timeout(settings.server.shutdown_grace_secs)
    .listen(listener)?;
    if settings.server.workers > 0 {
        server = server.workers(settings.server.workers);
    }
    Ok(server.run())
}

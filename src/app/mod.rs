//! The application: settings in, a bound HTTP server out. Tests build it on port 0.

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::web;
use journal_market_actors::clock::{SharedClock, SystemClock};
use journal_market_actors::confirm::{ConfirmHandle, ConfirmSettings};
use journal_market_actors::health::HealthRegistry;
use journal_market_actors::session::SessionHandle;
use journal_market_chain::client::ChainClient;
use sea_orm::DatabaseConnection;

use crate::cache::CacheRequests;
use crate::chain::{self, ChainAddresses};
use crate::config::Settings;
use crate::db;
use crate::metrics::Metrics;
use crate::site::Site;
use crate::state::{AppState, Workers};

mod parts;
mod server;

use parts::{
    Base, chain_parts, instance_name, load_demo_if_empty, payment_parts, session_settings,
};
use server::http_server;

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
        // Settings built in code (tests, examples) get the refusals a loaded file gets.
        settings.validate()?;
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
        // The one registry: each part registers its own metrics into it as it is built.
        let mut metrics = Metrics::new();
        let health = HealthRegistry::new();
        health.register_metrics(metrics.registry());
        db::register_pool_metrics(&db, metrics.registry());
        // One family for every cache's lookups: the public reads' and the RPC proxy's.
        let cache_requests = CacheRequests::default();
        cache_requests.register(metrics.registry());
        // One chain client for every chain call of the service (not the public RPC proxy).
        let client = ChainClient::new(
            &chain::rpc_urls(&settings),
            Duration::from_millis(settings.chain.rpc_timeout_ms),
        )?;
        let chain = chain_parts(
            &settings,
            addresses,
            &client,
            health.clone(),
            &cache_requests,
        )?;
        chain.rpc.register_metrics(metrics.registry());
        client.register_metrics(metrics.registry());
        let writer = db::writer(&settings.database, &db).await?;
        let sessions = SessionHandle::start(
            writer.clone(),
            session_settings(&settings, &client),
            clock.clone(),
            health.clone(),
        )?;
        let pay = payment_parts(
            &settings,
            &chain.addresses,
            &client,
            &writer,
            (clock.clone(), instance_name(&settings, port)),
            health.clone(),
        )?;
        let base = Base {
            settings: &settings,
            db: &db,
            addresses: &chain.addresses,
            client: &client,
            clock: clock.clone(),
            health: health.clone(),
        };
        let indexer = base.indexer();
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
        let audit = base.audit(port)?;
        audit.register_metrics(metrics.registry());
        if let Some(settlement) = &pay.settlement {
            settlement.register_metrics(metrics.registry());
        }
        let state = web::Data::new(AppState::new(
            db,
            Site::new(settings.clone(), clock),
            health,
            chain,
            Workers {
                sessions,
                pay,
                audit,
                indexer,
                confirm,
                client,
            },
            (metrics, &cache_requests),
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
        &self.state.ops.db
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
        let settlement = self.state.purchases.settlement().cloned();
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

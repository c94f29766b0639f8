//! The application: settings in, a bound HTTP server out. Tests build it on port 0.

use std::net::TcpListener;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::{Server, Service};
use actix_web::http::StatusCode;
use actix_web::{App, HttpResponse, HttpServer, ResponseError, error, middleware, web};
use futures::FutureExt;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::health::HealthRegistry;
use sea_orm::DatabaseConnection;

use crate::chain::{self, ChainAddresses};
use crate::config::Settings;
use crate::error::ApiError;
use crate::quotes::Quotes;
use crate::rpc::proxy::RpcProxy;
use crate::state::{AppState, ChainParts};
use crate::{db, import, routes};

pub struct Application {
    port: u16,
    server: Server,
    state: web::Data<AppState>,
}

impl Application {
    /// Connects, migrates, loads the demo archive into an empty database when configured, and
    /// binds the listener (the server starts on [`Application::run_until_stopped`]).
    pub async fn build(mut settings: Settings) -> anyhow::Result<Application> {
        chain::apply_devnet_file(&mut settings)?;
        let settings = Arc::new(settings);
        let addresses = ChainAddresses::from_settings(&settings)?;
        let db = db::connect(&settings.database).await?;
        db::migrate(&db)
            .await
            .map_err(|e| anyhow::anyhow!("migrations failed: {e}"))?;
        if settings.demo.load_on_first_start {
            load_demo_if_empty(&db).await?;
        }
        let listener = TcpListener::bind(&settings.server.listen)
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", settings.server.listen))?;
        let port = listener.local_addr()?.port();
        let health = HealthRegistry::new();
        let chain = chain_parts(&settings, addresses, health.clone())?;
        let state = web::Data::new(AppState::new(db, settings.clone(), health, chain));
        let server = http_server(listener, state.clone(), &settings)?;
        Ok(Application {
            port,
            server,
            state,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn db(&self) -> &DatabaseConnection {
        &self.state.db
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

fn chain_parts(
    settings: &Settings,
    addresses: ChainAddresses,
    health: HealthRegistry,
) -> anyhow::Result<ChainParts> {
    let c = &settings.chain;
    let timeout = Duration::from_millis(c.rpc_timeout_ms);
    let watch = ChainWatchHandle::start(
        addresses.targets(settings),
        Duration::from_secs(c.check_interval_secs.max(1)),
        health,
    );
    let rpc = RpcProxy::new(
        chain::rpc_urls(settings),
        c.chain_id,
        timeout,
        c.reorg_safe_distance,
        watch.clone(),
    )?;
    let quotes = Quotes::new(
        addresses.price_feeds.clone(),
        chain::rpc_urls(settings),
        timeout,
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

fn http_server(
    listener: TcpListener,
    state: web::Data<AppState>,
    settings: &Settings,
) -> anyhow::Result<Server> {
    let prefix = settings.server.api_prefix.clone();
    let max_body = settings.server.max_body_bytes;
    let mut server = HttpServer::new(move || {
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
            .wrap_fn(|req, srv| {
                // A panic anywhere below answers 500 with a JSON body instead of dropping the
                // connection; the panic message goes to the log, not to the client.
                AssertUnwindSafe(srv.call(req))
                    .catch_unwind()
                    .map(|res| match res {
                        Ok(r) => r,
                        Err(_) => {
                            tracing::error!("a request handler panicked");
                            Err(ApiError::internal(anyhow::anyhow!("handler panicked")).into())
                        }
                    })
            })
            .wrap(middleware::Compress::default())
            .wrap(middleware::Logger::new("%r %s %Dms").log_target("journal_market::http"))
            .service(web::scope(&prefix).configure(routes::configure))
            .default_service(web::to(|| async {
                HttpResponse::from_error(ApiError::not_found(
                    "no such endpoint; the API lives under /api",
                ))
            }))
    })
    .listen(listener)?;
    if settings.server.workers > 0 {
        server = server.workers(settings.server.workers);
    }
    Ok(server.run())
}

//! The public HTTP server: the extractors' error answers, the middleware and the routes.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::http::StatusCode;
use actix_web::{App, HttpResponse, HttpServer, ResponseError, error, middleware, web};

use crate::config::Settings;
use crate::error::DomainError;
use crate::middleware::Edge;
use crate::middleware::compress::CompressWhenAsked;
use crate::middleware::metrics::RecordMetrics;
use crate::middleware::rate_limit::RateLimits;
use crate::middleware::shared::SharedLimits;
use crate::routes;
use crate::state::AppState;

fn json_error(message: String, status: StatusCode) -> error::Error {
    let err = match status {
        StatusCode::PAYLOAD_TOO_LARGE => DomainError::PayloadTooLarge(message),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => DomainError::BadRequest(message),
        _ => DomainError::BadRequest(message),
    };
    error::InternalError::from_response("", err.error_response()).into()
}

pub(super) fn http_server(
    listener: TcpListener,
    state: web::Data<AppState>,
    settings: &Settings,
) -> anyhow::Result<Server> {
    let prefix = settings.server.api_prefix.clone();
    let compress = settings.server.compress;
    let max_body = settings.server.max_body_bytes;
    let limits = Arc::new(RateLimits::with_store(
        &settings.limits,
        state.ops.metrics.limit_store.clone(),
    )?);
    if limits.shared() {
        let probe = limits.clone();
        actix_web::rt::spawn(async move {
            if let Some(store) = probe.store() {
                store.probe().await;
            }
        });
    }
    let idle = limits.clone();
    actix_web::rt::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(60));
        loop {
            every.tick().await;
            idle.forget_idle();
        }
    });
    let edge = Arc::new(Edge {
        limits,
        prefix: prefix.clone(),
        cookie_name: settings.cookie_name(),
        origin: settings.origin().to_string(),
        body_timeout: Duration::from_millis(settings.server.body_timeout_ms),
    });
    let metrics = state.ops.metrics.clone();
    let metrics_on = !settings.metrics.listen.trim().is_empty();
    let mut server = HttpServer::new(move || {
        let edge = edge.clone();
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
            .wrap(SharedLimits(edge.clone()))
            .wrap_fn(move |req, srv| edge.call(req, srv))
            .wrap(middleware::Condition::new(compress, CompressWhenAsked))
            // Outermost: counts and times what the client gets, refusals and panics included.
            // Off (not even counted) without a metrics listener.
            .wrap(middleware::Condition::new(
                metrics_on,
                RecordMetrics(metrics.clone()),
            ))
            .service(web::scope(&prefix).configure(routes::configure))
            .configure(routes::discovery::configure_root)
            .configure(crate::mcp::configure_root)
            .configure(crate::pages::configure)
            .default_service(web::to(|| async {
                HttpResponse::from_error(DomainError::not_found(
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

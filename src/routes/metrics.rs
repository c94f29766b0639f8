//! The metrics listener: `GET /metrics` and nothing else, on a port of its own
//! (`metrics.listen`), reading this instance's parts.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{App, HttpResponse, HttpServer, web};
use sea_orm::{DatabaseConnection, DatabaseConnectionType};

use crate::metrics::{CONTENT_TYPE, PoolUse, Snapshot};
use crate::state::AppState;

/// What this instance counts now, read from its parts.
fn snapshot(state: &AppState) -> Snapshot {
    let rpc = &state.onchain.rpc;
    let rpc_cache = rpc.cache_size();
    let caches = state.catalog.caches();
    Snapshot {
        actors: state.ops.health.snapshot(),
        db_pool: pool_use(&state.ops.db),
        caches: vec![
            ("lists", caches.lists.stats().counts()),
            ("journals", caches.journals.stats().counts()),
            ("slugs", caches.slugs.stats().counts()),
            ("challenges", caches.challenges.stats().counts()),
            ("payer_challenges", caches.payer_challenges.stats().counts()),
            ("tallies", caches.tallies.stats().counts()),
            ("readers", caches.readers.stats().counts()),
            ("unlocked", caches.unlocked.stats().counts()),
        ],
        cache_entries: caches.entries(),
        rpc: rpc.stats().counts(),
        rpc_cache_entries: rpc_cache.1 as u64,
        rpc_cache_bytes: rpc_cache.0,
        chain: state.ops.client.stats(),
        settlement: state.purchases.settlement().map(|s| {
            let s = s.stats();
            (
                s.requests()
                    .into_iter()
                    .map(|(o, n)| (o.as_str(), n))
                    .collect(),
                s.rows().into_iter().map(|(o, n)| (o.as_str(), n)).collect(),
            )
        }),
        sponsorships: None,
        sponsor_wei: None,
        audit: state.publishing.audit_counts(),
    }
}

/// The sqlx pool's use, for the backends this service runs on.
fn pool_use(db: &DatabaseConnection) -> Option<PoolUse> {
    let (open, idle, max) = match &db.inner {
        DatabaseConnectionType::SqlxSqlitePoolConnection(_) => {
            let p = db.get_sqlite_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        DatabaseConnectionType::SqlxPostgresPoolConnection(_) => {
            let p = db.get_postgres_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        _ => return None,
    };
    Some(PoolUse {
        open,
        idle: u32::try_from(idle).unwrap_or(u32::MAX),
        max,
    })
}

async fn scrape(state: web::Data<AppState>) -> HttpResponse {
    let mut snapshot = snapshot(&state);
    match state.purchases.sponsorships().await {
        Some(Ok(t)) => {
            snapshot.sponsorships = Some(t);
            snapshot.sponsor_wei = state
                .purchases
                .settlement()
                .map(|s| s.stats().sponsor_wei());
        }
        Some(Err(e)) => tracing::warn!(error = %e, "the sponsorships could not be counted"),
        None => {}
    }
    match state.ops.metrics.render(snapshot) {
        Ok(text) => HttpResponse::Ok().content_type(CONTENT_TYPE).body(text),
        Err(e) => {
            tracing::error!(error = %e, "encoding the metrics failed");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// The metrics listener: `GET /metrics` and nothing else, on one worker.
pub fn server(listener: TcpListener, state: web::Data<AppState>) -> std::io::Result<Server> {
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .route("/metrics", web::get().to(scrape))
    })
    .workers(1)
    .disable_signals()
    .listen(listener)?
    .run())
}

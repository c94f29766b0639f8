//! `GET /config`, `GET /me`, and the health endpoints.

use actix_web::{HttpResponse, web};
use journal_market_api::{ConfigInfo, Health, Readiness};

use crate::db;
use crate::error::DomainResult;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/config", "GET").route(web::get().to(config)))
        .service(super::resource("/health", "GET").route(web::get().to(health)))
        .service(super::resource("/health/ready", "GET").route(web::get().to(ready)))
        .service(super::resource("/health/actors", "GET").route(web::get().to(actors)));
}

#[utoipa::path(get, path = "/config", tag = "meta", responses((status = 200, body = ConfigInfo)))]
pub async fn config(state: web::Data<AppState>) -> web::Json<ConfigInfo> {
    let s = &state.site.settings;
    let a = &state.onchain.addresses;
    let wc = s.wallet.wc_project_id.trim();
    web::Json(ConfigInfo {
        chain_id: s.chain.chain_id,
        usdg: a.usdg.to_string(),
        usdg_decimals: crate::domain::money::USDG_DECIMALS as u8,
        permit2_proxy: a.permit2_proxy.to_string(),
        identity_registry: a.identity_registry.to_string(),
        reputation_registry: a.reputation_registry.to_string(),
        payments_open: state.purchases.open(),
        wc_project_id: (!wc.is_empty()).then(|| wc.to_string()),
        origin: state.site.origin().to_string(),
        receipt_signer: state
            .purchases
            .receipt_signer()
            .map(|a| a.to_checksum(None)),
    })
}

#[utoipa::path(get, path = "/health", tag = "health", responses((status = 200, body = Health)))]
pub async fn health() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
    })
}

#[utoipa::path(get, path = "/health/ready", tag = "health",
    responses((status = 200, body = Readiness), (status = 503, body = Readiness)))]
pub async fn ready(state: web::Data<AppState>) -> HttpResponse {
    let database = match db::ping(&state.ops.db).await {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("the database does not answer: {e}"),
    };
    let migrations = match db::pending_migrations(&state.ops.db).await {
        Ok(0) => "ok".to_string(),
        Ok(n) => format!("{n} migrations are not applied"),
        Err(_) => "unknown: the migration table cannot be read".to_string(),
    };
    let chain = state.onchain.watch.status();
    let chain_text = match (&chain.ready, &chain.problem) {
        (true, _) => "ok".to_string(),
        (false, Some(p)) => p.clone(),
        (false, None) => "not ready".to_string(),
    };
    // Every actor this instance runs (the indexer and payments only when configured) must be
    // alive and not stale. A failing actor (the chain is down) is still live: the archive is
    // served without a chain, so the chain's state is reported, not required.
    let unready = state.ops.health.unready();
    let actors = if unready.is_empty() {
        "ok".to_string()
    } else {
        unready.join("; ")
    };
    let problems: Vec<&str> = [&database, &migrations, &actors]
        .into_iter()
        .filter(|s| *s != "ok")
        .map(String::as_str)
        .collect();
    let ready = problems.is_empty();
    let body = Readiness {
        status: if ready { "ready" } else { "not ready" }.into(),
        error: (!ready).then(|| problems.join("; ")),
        database,
        migrations,
        chain: chain_text,
        chain_head: chain.head,
        facilitator: state.purchases.facilitator_status(),
        actors,
    };
    if ready {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}

#[utoipa::path(get, path = "/health/actors", tag = "health",
    responses((status = 200, description = "per actor: heartbeat and its age, the staleness limit, alive, stale, healthy, in-flight work, restarts, panics, the last error, and the indexer's progress")))]
pub async fn actors(state: web::Data<AppState>) -> DomainResult<HttpResponse> {
    let (bytes, entries) = state.onchain.rpc.cache_size();
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "actors": state.ops.health.snapshot(),
        "rpcCache": { "bytes": bytes, "entries": entries, "limit": state.site.settings.rpc.cache_bytes },
    })))
}

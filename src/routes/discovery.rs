//! `GET /.well-known/x402` (and `/.well-known/x402.json`): every paid resource, for catalogues
//! and agents (`purchase::discovery` writes it).

use actix_web::{HttpResponse, web};

use crate::error::DomainResult;
use crate::state::AppState;

/// Mounted at the site's root, outside the API prefix (a well-known URI).
pub fn configure_root(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/.well-known/x402", "GET").route(web::get().to(document)))
        .service(super::resource("/.well-known/x402.json", "GET").route(web::get().to(document)));
}

pub async fn document(state: web::Data<AppState>) -> DomainResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.purchases.discovery().await?))
}

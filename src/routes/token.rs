//! `GET /token.json`: the community token's ledger, or null when no token is configured.

use actix_web::{HttpResponse, web};
use journal_market_api::{ErrorBody, TokenLedger};

use super::json_bytes;
use crate::error::DomainResult;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/token.json", "GET").route(web::get().to(token_json)));
}

#[utoipa::path(get, path = "/token.json", tag = "token",
    responses((status = 200, body = Option<TokenLedger>, description = "null until the token is configured"),
              (status = 503, body = ErrorBody, description = "the first computation is still running, or the pool cannot be read")))]
pub async fn token_json(state: web::Data<AppState>) -> DomainResult<HttpResponse> {
    Ok(json_bytes(state.onchain.token.answer().await?))
}

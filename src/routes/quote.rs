//! `GET /quote/{ticker}`: a company's stock token's mid price.

use actix_web::web;
use journal_market_client::api::Quote;

use crate::domain::accession::is_ticker;
use crate::error::{ApiError, ApiResult};
use crate::quotes::QuoteError;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/quote/{ticker}", "GET").route(web::get().to(quote)));
}

#[utoipa::path(get, path = "/quote/{ticker}", tag = "chain",
    params(("ticker" = String, Path, description = "a ticker with a stock token, e.g. NVDA")),
    responses((status = 200, body = Quote), (status = 404, body = journal_market_client::api::ErrorBody),
              (status = 503, body = journal_market_client::api::ErrorBody)))]
pub async fn quote(
    state: web::Data<AppState>,
    ticker: web::Path<String>,
) -> ApiResult<web::Json<Quote>> {
    let ticker = ticker.into_inner();
    if !is_ticker(&ticker) || !state.quotes.knows(&ticker) {
        return Err(ApiError::not_found(format!(
            "no stock token is known for the ticker {ticker:?}"
        )));
    }
    match state.quotes.mid(&ticker).await {
        Ok(mid) => Ok(web::Json(Quote { ticker, mid })),
        Err(e @ QuoteError::Unknown(_)) => Err(ApiError::not_found(e.to_string())),
        Err(e) => Err(ApiError::unavailable(e.to_string())),
    }
}

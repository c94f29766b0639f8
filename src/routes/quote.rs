//! `GET /quote/{ticker}`: a company's stock token's mid price.

use actix_web::web;
use journal_market_api::Quote;

use crate::domain::accession::is_ticker;
use crate::error::{DomainError, DomainResult};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/quote/{ticker}", "GET").route(web::get().to(quote)));
}

#[utoipa::path(get, path = "/quote/{ticker}", tag = "chain",
    params(("ticker" = String, Path, description = "a ticker with a stock token, e.g. NVDA")),
    responses((status = 200, body = Quote), (status = 404, body = journal_market_api::ErrorBody),
              (status = 503, body = journal_market_api::ErrorBody)))]
pub async fn quote(
    state: web::Data<AppState>,
    ticker: web::Path<String>,
) -> DomainResult<web::Json<Quote>> {
    let ticker = ticker.into_inner();
    let quotes = &state.onchain.quotes;
    if !is_ticker(&ticker) || !quotes.knows(&ticker) {
        return Err(DomainError::not_found(format!(
            "no stock token is known for the ticker {ticker:?}"
        )));
    }
    let mid = quotes.mid(&ticker).await?;
    Ok(web::Json(Quote { ticker, mid }))
}

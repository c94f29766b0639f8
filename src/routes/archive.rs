//! The archive: `GET /entries.json`, `/entries/search`, `/entries/{accession}`, `/swarm.json`.

use actix_web::{HttpResponse, web};
use journal_market_api::{EntryDetail, EntryRow, EntrySearchRow, SwarmRun};
use serde::Deserialize;
use utoipa::IntoParams;

use super::json_bytes;
use crate::error::DomainResult;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    // `search` before `{accession}`: the first matching route wins.
    cfg.service(super::resource("/entries.json", "GET").route(web::get().to(newest)))
        .service(super::resource("/entries/search", "GET").route(web::get().to(search)))
        .service(super::resource("/entries/{accession}", "GET").route(web::get().to(entry)))
        .service(super::resource("/swarm.json", "GET").route(web::get().to(swarm_run)));
}

#[utoipa::path(get, path = "/entries.json", tag = "archive",
    responses((status = 200, body = Vec<EntryRow>, description = "the 50 newest entries by date of record")))]
pub async fn newest(state: web::Data<AppState>) -> DomainResult<HttpResponse> {
    Ok(json_bytes(state.catalog.newest_entries().await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The company's ticker, in any case; an unknown ticker is an empty list.
    #[param(pattern = "^[A-Za-z0-9]{1,10}$")]
    ticker: String,
}

#[utoipa::path(get, path = "/entries/search", tag = "archive", params(SearchQuery),
    responses((status = 200, body = Vec<EntrySearchRow>, description = "up to 80 entries, newest first; empty for a ticker the archive does not know"),
              (status = 400, body = journal_market_api::ErrorBody, description = "ticker is missing or not a ticker")))]
pub async fn search(
    state: web::Data<AppState>,
    q: web::Query<SearchQuery>,
) -> DomainResult<HttpResponse> {
    Ok(json_bytes(state.catalog.search(&q.ticker).await?))
}

#[utoipa::path(get, path = "/entries/{accession}", tag = "archive",
    params(("accession" = String, Path, description = "accession number, e.g. JM-NVDA-261120-01")),
    responses((status = 200, body = EntryDetail), (status = 404, body = journal_market_api::ErrorBody)))]
pub async fn entry(
    state: web::Data<AppState>,
    accession: web::Path<String>,
) -> DomainResult<web::Json<EntryDetail>> {
    Ok(web::Json(state.catalog.entry(&accession).await?))
}

#[utoipa::path(get, path = "/swarm.json", tag = "archive",
    responses((status = 200, body = SwarmRun, description = "the latest finished sitting and its log in time order; sitting is null before any has finished")))]
pub async fn swarm_run(state: web::Data<AppState>) -> DomainResult<HttpResponse> {
    Ok(json_bytes(state.catalog.swarm().await?))
}

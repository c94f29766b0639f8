//! The archive: `GET /entries.json`, `/entries/search`, `/entries/{accession}`, `/swarm.json`.

use actix_web::{HttpResponse, web};
use journal_market_client::api::{EntryDetail, EntryRow, EntrySearchRow, SwarmRun};
use serde::Deserialize;
use utoipa::IntoParams;

use super::journals::known_ticker;
use super::json_bytes;
use crate::cache::to_bytes;
use crate::error::{ApiError, ApiResult};
use crate::queries::{entries, swarm};
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
pub async fn newest(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let bytes = state
        .lists
        .get_or_try("entries.json".to_string(), || async {
            to_bytes(&entries::newest(&state.db).await?)
        })
        .await?;
    Ok(json_bytes(bytes))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The company's ticker.
    #[param(pattern = "^[A-Z0-9]{1,10}$")]
    ticker: String,
}

#[utoipa::path(get, path = "/entries/search", tag = "archive", params(SearchQuery),
    responses((status = 200, body = Vec<EntrySearchRow>, description = "up to 80 entries, newest first"),
              (status = 400, body = journal_market_client::api::ErrorBody), (status = 404, body = journal_market_client::api::ErrorBody)))]
pub async fn search(
    state: web::Data<AppState>,
    q: web::Query<SearchQuery>,
) -> ApiResult<HttpResponse> {
    let ticker = known_ticker(&state, "ticker", Some(q.ticker.as_str())).await?;
    let bytes = state
        .lists
        .get_or_try(format!("search?{ticker}"), || async {
            to_bytes(&entries::search(&state.db, &ticker).await?)
        })
        .await?;
    Ok(json_bytes(bytes))
}

#[utoipa::path(get, path = "/entries/{accession}", tag = "archive",
    params(("accession" = String, Path, description = "accession number, e.g. JM-NVDA-261120-01")),
    responses((status = 200, body = EntryDetail), (status = 404, body = journal_market_client::api::ErrorBody)))]
pub async fn entry(
    state: web::Data<AppState>,
    accession: web::Path<String>,
) -> ApiResult<web::Json<EntryDetail>> {
    entries::detail(&state.db, state.origin(), &accession)
        .await?
        .map(web::Json)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no archive entry has the accession number {:?}",
                accession.as_str()
            ))
        })
}

#[utoipa::path(get, path = "/swarm.json", tag = "archive",
    responses((status = 200, body = SwarmRun, description = "the latest finished sitting and its log in time order; sitting is null before any has finished")))]
pub async fn swarm_run(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let bytes = state
        .lists
        .get_or_try("swarm.json".to_string(), || async {
            to_bytes(&swarm::latest(&state.db).await?)
        })
        .await?;
    Ok(json_bytes(bytes))
}

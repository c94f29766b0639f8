//! `GET /journals` and `GET /journals/{slug or id}`.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use journal_market_api::{JournalDetail, JournalList};
use serde::Deserialize;
use utoipa::IntoParams;

use super::json_bytes;
use crate::error::{DomainError, DomainResult};
use crate::session::{Viewer, proof_header};
use crate::state::AppState;
use crate::toll::Toll;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/journals", "GET").route(web::get().to(list)))
        .service(super::resource("/journals/{key}", "GET").route(web::get().to(detail)));
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only journals about this ticker, in any case; an unknown ticker is an empty list.
    #[param(pattern = "^[A-Za-z0-9]{1,10}$")]
    company: Option<String>,
}

#[utoipa::path(get, path = "/journals", tag = "journals", params(ListQuery),
    responses((status = 200, body = JournalList, description = "newest first; empty for a company without journals or one the archive does not know"),
              (status = 400, body = journal_market_api::ErrorBody, description = "company is not a ticker")))]
pub async fn list(
    state: web::Data<AppState>,
    q: web::Query<ListQuery>,
) -> DomainResult<HttpResponse> {
    Ok(json_bytes(
        state.catalog.journals(q.company.as_deref()).await?,
    ))
}

#[utoipa::path(get, path = "/journals/{key}", tag = "journals",
    params(("key" = String, Path, description = "slug or numeric id")),
    responses((status = 200, body = JournalDetail), (status = 404, body = journal_market_api::ErrorBody),
              (status = 401, body = journal_market_api::ErrorBody, description = "a SIGN-IN-WITH-X header that was refused")))]
pub async fn detail(
    state: web::Data<AppState>,
    key: web::Path<String>,
    viewer: Viewer,
    req: HttpRequest,
) -> DomainResult<HttpResponse> {
    let live = state.catalog.shown(key.as_str()).await?;
    // A SIGN-IN-WITH-X proof speaks for its wallet; a refused one is said, not ignored.
    let viewer = match proof_header(&req) {
        Some(h) => Some(
            state
                .accounts
                .prove(&h, Toll::of(&req).as_ref())
                .await?
                .map_err(|why| {
                    DomainError::Unauthorized(format!(
                        "the SIGN-IN-WITH-X proof was refused: {why}"
                    ))
                })?,
        ),
        None => viewer.0,
    };
    // The paid text goes only to a viewer who reads it; the public answer never holds it.
    if let Some(wallet) = viewer
        && state.purchases.access(wallet, &live).await?.reads()
    {
        let mut resp = json_bytes(state.catalog.unlocked_detail(&live).await?);
        super::private(resp.headers_mut());
        return Ok(resp);
    }
    // The same address answers the text to its readers.
    let mut resp = json_bytes(state.catalog.public_detail(&live)?);
    resp.headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Cookie"));
    Ok(resp)
}

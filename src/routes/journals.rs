//! `GET /journals` and `GET /journals/{slug or id}`.

use actix_web::{HttpRequest, HttpResponse, web};
use journal_market_client::api::{JournalDetail, JournalList};
use serde::Deserialize;
use utoipa::IntoParams;

use super::json_bytes;
use crate::cache::to_bytes;
use crate::domain::accession::is_ticker;
use crate::error::{ApiError, ApiResult};
use crate::queries::{entries, journals};
use crate::services::catalog::live;
use crate::session::{Viewer, proof_header, prove};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/journals", "GET").route(web::get().to(list)))
        .service(super::resource("/journals/{key}", "GET").route(web::get().to(detail)));
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only journals about this ticker.
    #[param(pattern = "^[A-Z0-9]{1,10}$")]
    company: Option<String>,
}

/// Checks a `ticker`-like query value and that the company exists.
pub async fn known_ticker(state: &AppState, name: &str, value: Option<&str>) -> ApiResult<String> {
    let Some(t) = value else {
        return Err(ApiError::bad_request(format!(
            "the query parameter {name} is required"
        )));
    };
    if !is_ticker(t) {
        return Err(ApiError::bad_request(format!(
            "the query parameter {name} must be a ticker such as NVDA (1 to 10 upper-case letters or digits)"
        )));
    }
    if !entries::company_exists(&state.db, t).await? {
        return Err(ApiError::not_found(format!(
            "no company has the ticker {t}"
        )));
    }
    Ok(t.to_string())
}

#[utoipa::path(get, path = "/journals", tag = "journals", params(ListQuery),
    responses((status = 200, body = JournalList), (status = 400, body = journal_market_client::api::ErrorBody),
              (status = 404, body = journal_market_client::api::ErrorBody)))]
pub async fn list(state: web::Data<AppState>, q: web::Query<ListQuery>) -> ApiResult<HttpResponse> {
    let company = match q.company.as_deref() {
        Some(c) => Some(known_ticker(&state, "company", Some(c)).await?),
        None => None,
    };
    let key = format!("journals?{}", company.as_deref().unwrap_or(""));
    let bytes = state
        .lists
        .get_or_try(key, || async {
            let journals =
                journals::list_live(&state.db, state.origin(), company.as_deref()).await?;
            to_bytes(&JournalList { journals })
        })
        .await?;
    Ok(json_bytes(bytes))
}

#[utoipa::path(get, path = "/journals/{key}", tag = "journals",
    params(("key" = String, Path, description = "slug or numeric id")),
    responses((status = 200, body = JournalDetail), (status = 404, body = journal_market_client::api::ErrorBody),
              (status = 401, body = journal_market_client::api::ErrorBody, description = "a SIGN-IN-WITH-X header that was refused")))]
pub async fn detail(
    state: web::Data<AppState>,
    key: web::Path<String>,
    viewer: Viewer,
    req: HttpRequest,
) -> ApiResult<web::Json<JournalDetail>> {
    let live = live(&state, key.as_str()).await?;
    let mut detail = live.detail.clone();
    // A SIGN-IN-WITH-X proof speaks for its wallet; a refused one is said, not ignored.
    let viewer = match proof_header(&req) {
        Some(h) => Some(prove(&state, &h).await?.map_err(|why| {
            ApiError::Unauthorized(format!("the SIGN-IN-WITH-X proof was refused: {why}"))
        })?),
        None => viewer.0,
    };
    // The paid text is revealed per viewer and never cached with the public part.
    if let Some(wallet) = viewer {
        let w = format!("{wallet:#x}");
        let owns = live.author_wallet.as_deref() == Some(w.as_str())
            || journals::has_unlocked(&state.db, &w, live.id).await?;
        if owns {
            detail.unlocked = true;
            detail.body = Some(live.body.clone());
        }
    }
    Ok(web::Json(detail))
}

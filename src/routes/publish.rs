//! Publishing: `POST /journal/save`, `/journal/audit`, `/journal/minted` and
//! `GET /journal/{id}/draft`. All need a session; the work is in `services::publish`.

use actix_web::web;
use journal_market_api::{
    AuditOutcome, DraftView, ErrorBody, JournalRef, MintedInput, Published, Saved,
};

use super::Private;
use crate::error::{DomainError, DomainResult};
use crate::services::publish::SaveRequest;
use crate::session::SignedIn;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/journal/save", "POST").route(web::post().to(save)))
        .service(super::resource("/journal/audit", "POST").route(web::post().to(audit)))
        .service(super::resource("/journal/minted", "POST").route(web::post().to(minted)))
        .service(super::resource("/journal/{id}/draft", "GET").route(web::get().to(draft)));
}

#[utoipa::path(post, path = "/journal/save", tag = "publishing", request_body = SaveRequest,
    responses((status = 200, body = Saved),
              (status = 400, body = ErrorBody, description = "the body is not a JSON draft"),
              (status = 401, body = ErrorBody, description = "no session"),
              (status = 404, body = ErrorBody, description = "`id` is not one of the caller's journals"),
              (status = 409, body = ErrorBody, description = "the journal is published (checked before the fields)"),
              (status = 422, body = ErrorBody, description = "every broken rule in `problems` (the only answer that has them)"),
              (status = 429, body = ErrorBody, description = "more than 20 drafts in 24 hours; Retry-After")))]
pub async fn save(
    state: web::Data<AppState>,
    who: SignedIn,
    body: web::Json<SaveRequest>,
) -> DomainResult<web::Json<Saved>> {
    Ok(web::Json(
        state.publishing.save(who.0, body.into_inner()).await?,
    ))
}

#[utoipa::path(post, path = "/journal/audit", tag = "publishing", request_body = JournalRef,
    responses((status = 200, body = AuditOutcome),
              (status = 401, body = ErrorBody, description = "no session"),
              (status = 404, body = ErrorBody, description = "not one of the caller's journals"),
              (status = 409, body = ErrorBody, description = "the journal is live, or was saved again during the audit"),
              (status = 429, body = ErrorBody, description = "the draft was already audited 8 times, or the wallet has `audit.max_queued_per_wallet` audits waiting or running (Retry-After)"),
              (status = 503, body = ErrorBody, description = "audit agent unavailable or still running; Retry-After")))]
pub async fn audit(
    state: web::Data<AppState>,
    who: SignedIn,
    body: web::Json<JournalRef>,
) -> DomainResult<web::Json<AuditOutcome>> {
    Ok(web::Json(state.publishing.audit(who.0, body.id).await?))
}

#[utoipa::path(post, path = "/journal/minted", tag = "publishing", request_body = MintedInput,
    responses((status = 200, body = Published),
              (status = 400, body = ErrorBody, description = "tx is not a transaction hash"),
              (status = 401, body = ErrorBody, description = "no session"),
              (status = 404, body = ErrorBody, description = "not one of the caller's journals"),
              (status = 409, body = ErrorBody, description = "not approved, already live, token taken; or the transaction is not seen or not mined yet (with Retry-After)"),
              (status = 422, body = ErrorBody, description = "reverted, not a registration, minted to another wallet, or another tokenURI"),
              (status = 503, body = ErrorBody, description = "the chain cannot be read")))]
pub async fn minted(
    state: web::Data<AppState>,
    who: SignedIn,
    body: web::Json<MintedInput>,
) -> DomainResult<web::Json<Published>> {
    Ok(web::Json(
        state.publishing.minted(who.0, body.id, &body.tx).await?,
    ))
}

#[utoipa::path(get, path = "/journal/{id}/draft", tag = "publishing",
    params(("id" = i64, Path, description = "journal id")),
    responses((status = 200, body = DraftView),
              (status = 401, body = ErrorBody, description = "no session"),
              (status = 404, body = ErrorBody, description = "not one of the caller's journals")))]
pub async fn draft(
    state: web::Data<AppState>,
    who: Result<SignedIn, DomainError>,
    id: web::Path<i64>,
) -> Private<DomainResult<web::Json<DraftView>>> {
    let view = async {
        let who = who?;
        Ok(web::Json(
            state.publishing.draft_view(who.0, id.into_inner()).await?,
        ))
    };
    Private(view.await)
}

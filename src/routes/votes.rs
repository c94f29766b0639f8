//! `POST /votes/record`: a vote cast onchain, reported by anyone (the transaction is the proof).

use actix_web::web;
use journal_market_api::{ErrorBody, VoteInput, VoteRecorded};

use crate::error::DomainResult;
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/votes/record", "POST").route(web::post().to(record)));
}

#[utoipa::path(post, path = "/votes/record", tag = "votes", request_body = VoteInput,
    responses((status = 200, body = VoteRecorded),
              (status = 400, body = ErrorBody, description = "tx is not a transaction hash"),
              (status = 403, body = ErrorBody, description = "the voting wallet has not unlocked the journal"),
              (status = 409, body = ErrorBody, description = "the transaction is not seen or not mined yet; Retry-After"),
              (status = 422, body = ErrorBody, description = "reverted, no NewFeedback logged by the reputation registry, a value, decimals or tag the rules refuse, or a token that is not a live journal's"),
              (status = 503, body = ErrorBody, description = "the chain cannot be read")))]
pub async fn record(
    state: web::Data<AppState>,
    body: web::Json<VoteInput>,
) -> DomainResult<web::Json<VoteRecorded>> {
    Ok(web::Json(state.onchain.votes.record(&body.tx).await?))
}

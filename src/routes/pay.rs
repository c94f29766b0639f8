//! `POST /pay/burn` and `POST /pay/author`: x402 v2 payments for a journal, and
//! `GET /journal/{id}/body` for owners.

use actix_web::http::header::HeaderName;
use actix_web::{HttpRequest, HttpResponse, web};
use journal_market_api::PaymentAnswer;
use journal_market_x402::{self as x402, PaymentPayload};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Private;
use crate::domain::wallet::Wallet;
use crate::error::{DomainError, DomainResult};
use crate::purchase::{Caller, Step, Via, Want};
use crate::queries::journals::{JournalKey, journal_key};
use crate::session::{SignedIn, Viewer, proof_header};
use crate::state::AppState;
use crate::toll::Toll;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/pay/burn", "POST").route(web::post().to(pay_burn)))
        .service(super::resource("/pay/author", "POST").route(web::post().to(pay_author)))
        .service(super::resource("/journals/{slug}/text", "GET").route(web::get().to(text)))
        .service(super::resource("/journal/{id}/body", "GET").route(web::get().to(body)));
}

#[derive(Deserialize, ToSchema)]
pub struct PayBody {
    /// An integer; `12.0` is the same number as `12` in JSON and is taken as it.
    #[serde(
        rename = "journalId",
        deserialize_with = "journal_market_api::integral"
    )]
    #[schema(minimum = 1, maximum = 2147483647)]
    journal_id: i64,
}

#[utoipa::path(post, path = "/pay/burn", tag = "payments", request_body = PayBody,
    responses((status = 200, body = PaymentAnswer, description = "`{ ok, tx }` for a fee, `{ ok, tx, body, html }` for the last payment, `{ ok, already }` when the fee is paid"),
              (status = 402, description = "the x402 challenge (also base64 in PAYMENT-REQUIRED), or a refused payment"),
              (status = 400, body = journal_market_api::ErrorBody, description = "the body is not `{ journalId }`"),
              (status = 404, body = journal_market_api::ErrorBody),
              (status = 409, body = journal_market_api::ErrorBody, description = "already unlocked, written by the signer, or the payment is still settling (with Retry-After)"),
              (status = 503, body = journal_market_api::ErrorBody)))]
pub async fn pay_burn(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    body: web::Bytes,
) -> Private<DomainResult<HttpResponse>> {
    Private(pay_step(&state, &req, viewer, &body, Step::Burn).await)
}

#[utoipa::path(post, path = "/pay/author", tag = "payments", request_body = PayBody,
    responses((status = 200, body = PaymentAnswer, description = "`{ ok, tx, body, html }`"),
              (status = 400, body = journal_market_api::ErrorBody, description = "a swarm journal has no author payment"),
              (status = 402, description = "the x402 challenge, or a refused payment"),
              (status = 404, body = journal_market_api::ErrorBody),
              (status = 409, body = journal_market_api::ErrorBody, description = "already unlocked, written by the signer, fee not paid, or the payment is still settling (with Retry-After)"),
              (status = 503, body = journal_market_api::ErrorBody)))]
pub async fn pay_author(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    body: web::Bytes,
) -> Private<DomainResult<HttpResponse>> {
    Private(pay_step(&state, &req, viewer, &body, Step::Author).await)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TextQuery {
    /// The paying wallet, when no session or SIGN-IN-WITH-X proof names it: chooses which step
    /// of a person-written journal the challenge offers (the fee, then the author's share).
    #[param(pattern = "^0x[0-9a-fA-F]{40}$")]
    payer: Option<String>,
}

#[utoipa::path(get, path = "/journals/{slug}/text", tag = "payments",
    params(("slug" = String, Path, description = "the journal's slug or id"), TextQuery),
    responses((status = 200, body = PaymentAnswer, description = "`{ ok, tx, body, html }` when the payment completed the purchase or a SIGN-IN-WITH-X proof names a wallet that bought it; `{ ok, tx }` for a person-written journal's fee, `{ ok, already }` when the fee is paid"),
              (status = 402, description = "the x402 challenge for the step due (also base64 in PAYMENT-REQUIRED), or a refused payment"),
              (status = 400, body = journal_market_api::ErrorBody, description = "`payer` is not an address, or a malformed payment-identifier"),
              (status = 404, body = journal_market_api::ErrorBody),
              (status = 409, body = journal_market_api::ErrorBody, description = "already unlocked, written by the signer, a settled permit presented again, or the payment is still settling (with Retry-After)"),
              (status = 503, body = journal_market_api::ErrorBody)))]
pub async fn text(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    slug: web::Path<String>,
    query: web::Query<TextQuery>,
) -> Private<DomainResult<HttpResponse>> {
    Private(text_answer(&state, &req, viewer, slug.into_inner(), query.into_inner()).await)
}

async fn text_answer(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    slug: String,
    query: TextQuery,
) -> DomainResult<HttpResponse> {
    let hint = match query.payer {
        None => None,
        Some(p) => Some(Wallet::parse(&p).map(|w| w.address()).map_err(|_| {
            DomainError::bad_request(format!(
                "payer must be a 0x-prefixed 20-byte address, not {p:?}"
            ))
        })?),
    };
    let want = Want::Text {
        slug,
        hint,
        via: Via::Http,
    };
    pay(state, req, viewer, want).await
}

/// `{ journalId }` from the request body (read as bytes: this is the hottest POST).
fn journal_id(body: &[u8]) -> DomainResult<i64> {
    serde_json::from_slice::<PayBody>(body)
        .map(|b| b.journal_id)
        .map_err(|e| {
            DomainError::bad_request(format!(
                "the request body must be {{ \"journalId\": <integer> }}: {e}"
            ))
        })
}

/// The payload of the request's PAYMENT-SIGNATURE (or X-PAYMENT) header, if any.
fn payload(req: &HttpRequest) -> Option<Result<PaymentPayload, String>> {
    let h = req
        .headers()
        .get(PAYMENT_SIGNATURE)
        .or_else(|| req.headers().get(X_PAYMENT))?;
    Some(
        h.to_str()
            .map_err(|_| "the header is not ASCII".to_string())
            .and_then(x402::decode_header::<PaymentPayload>),
    )
}

/// `POST /pay/burn` and `/pay/author`: the same purchase, for the step the path names.
async fn pay_step(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    body: &[u8],
    step: Step,
) -> DomainResult<HttpResponse> {
    let want = Want::Step {
        journal_id: journal_id(body)?,
        step,
    };
    pay(state, req, viewer, want).await
}

/// The one call of a purchase: whoever asks, what for, and the payment sent.
async fn pay(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    want: Want,
) -> DomainResult<HttpResponse> {
    let caller = Caller {
        session: viewer.0,
        proof: proof_header(req),
        toll: Toll::of(req),
    };
    state.purchases.buy(caller, want, payload(req)).await
}

// The x402 payment headers' names, parsed once (a `&str` name is parsed at every use).
const PAYMENT_SIGNATURE: HeaderName = HeaderName::from_static(x402::HEADER_SIGNATURE);
const X_PAYMENT: HeaderName = HeaderName::from_static(x402::HEADER_X_PAYMENT);

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JournalBody {
    journal_id: i64,
    slug: String,
    html: String,
}

#[utoipa::path(get, path = "/journal/{id}/body", tag = "payments",
    params(("id" = i64, Path, description = "journal id")),
    responses((status = 200, body = JournalBody), (status = 401, body = journal_market_api::ErrorBody),
              (status = 403, body = journal_market_api::ErrorBody, description = "the wallet does not own the journal"),
              (status = 404, body = journal_market_api::ErrorBody)))]
pub async fn body(
    state: web::Data<AppState>,
    who: Result<SignedIn, DomainError>,
    id: web::Path<String>,
) -> Private<DomainResult<web::Json<JournalBody>>> {
    Private(body_answer(&state, who, &id).await)
}

async fn body_answer(
    state: &AppState,
    who: Result<SignedIn, DomainError>,
    id: &str,
) -> DomainResult<web::Json<JournalBody>> {
    let who = who?;
    let not_found = || DomainError::not_found(format!("no published journal has the id {id:?}"));
    // An id as written (`7`, not `0007`): the catalogue finds nothing under any other key.
    if !matches!(journal_key(id), Some(JournalKey::Id(_))) {
        return Err(not_found());
    }
    let j = state.catalog.live(id).await.map_err(|e| match e {
        DomainError::NotFound(_) => not_found(),
        e => e,
    })?;
    if !state.purchases.access(who.0, &j).await?.reads() {
        return Err(DomainError::Forbidden(
            "this wallet has not bought the journal".into(),
        ));
    }
    Ok(web::Json(JournalBody {
        journal_id: i64::from(j.id),
        slug: j.detail.item.slug.clone(),
        html: j.html.clone(),
    }))
}

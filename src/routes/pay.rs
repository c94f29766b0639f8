//! `POST /pay/burn` and `POST /pay/author`: x402 v2 payments for a journal, and
//! `GET /journal/{id}/body` for owners.

use actix_web::http::header::{ContentType, HeaderName, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use journal_market_api::{Paid, PaymentAnswer};
use journal_market_chain::x402::{self, PaymentPayload, SettleResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Private;
use crate::domain::wallet::Wallet;
use crate::error::{ApiError, ApiResult};
use crate::payments::{Fresh, Step, Terms};
use crate::queries::journals::{JournalKey, journal_key};
use crate::services::catalog::CatalogError;
use crate::services::purchase::{Caller, Outcome, Want};
use crate::session::{SignedIn, Viewer, proof_header, session_cookie};
use crate::state::AppState;
use crate::toll::Toll;
use journal_market_chain::extensions::offer_receipt;

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
) -> Private<ApiResult<HttpResponse>> {
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
) -> Private<ApiResult<HttpResponse>> {
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
) -> Private<ApiResult<HttpResponse>> {
    Private(text_answer(&state, &req, viewer, slug.into_inner(), query.into_inner()).await)
}

async fn text_answer(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    slug: String,
    query: TextQuery,
) -> ApiResult<HttpResponse> {
    let hint = match query.payer {
        None => None,
        Some(p) => Some(Wallet::parse(&p).map(|w| w.address()).map_err(|_| {
            ApiError::bad_request(format!(
                "payer must be a 0x-prefixed 20-byte address, not {p:?}"
            ))
        })?),
    };
    let want = Want::Text { slug, hint };
    pay(state, req, viewer, want).await
}

/// `{ journalId }` from the request body (read as bytes: this is the hottest POST).
fn journal_id(body: &[u8]) -> ApiResult<i64> {
    serde_json::from_slice::<PayBody>(body)
        .map(|b| b.journal_id)
        .map_err(|e| {
            ApiError::bad_request(format!(
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
) -> ApiResult<HttpResponse> {
    let want = Want::Step {
        journal_id: journal_id(body)?,
        step,
    };
    pay(state, req, viewer, want).await
}

async fn pay(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    want: Want,
) -> ApiResult<HttpResponse> {
    let caller = Caller {
        session: viewer.0,
        proof: proof_header(req),
        toll: Toll::of(req),
    };
    let mut resp = HttpResponse::Ok();
    let (payer, tx, text, open_session) =
        match state.purchases.pay_step(caller, want, payload(req)).await? {
            Outcome::Challenge {
                journal_id,
                step,
                terms,
            } => {
                return challenge_response(state, &terms, journal_id, step).await;
            }
            Outcome::FeeAlreadyPaid => {
                return Ok(resp.json(PaymentAnswer::already()));
            }
            // Nothing was paid now: no PAYMENT-RESPONSE.
            Outcome::Reread { payer, tx, text } => {
                (payer, tx.map(|t| format!("{t:#x}")), Some(text), true)
            }
            Outcome::Paid {
                resource,
                payer,
                tx,
                paid_at,
                network,
                text,
                open_session,
            } => {
                let signed = state.purchases.receipt(&resource, payer, tx, paid_at);
                let tx = format!("{tx:#x}");
                let receipt = SettleResponse {
                    success: true,
                    transaction: tx.clone(),
                    network,
                    payer: payer.to_checksum(None),
                    error_reason: None,
                    error_message: None,
                    extensions: signed.map(
                        |r| serde_json::json!({ offer_receipt::KEY: offer_receipt::extension(&r) }),
                    ),
                };
                if let Ok(h) = x402::encode_header(&receipt) {
                    resp.insert_header((x402::HEADER_RESPONSE, h));
                }
                (payer, Some(tx), text, open_session)
            }
        };
    let tx = tx.unwrap_or_default();
    let Some(j) = text else {
        return Ok(resp.json(Paid {
            ok: true,
            tx,
            body: None,
            html: None,
        }));
    };
    // The answer carries the text even when no session can be opened now.
    if open_session {
        match state.purchases.open_session(payer).await {
            Ok(session) => {
                resp.cookie(session_cookie(&state.site, &session));
            }
            Err(e) => {
                tracing::warn!(error = %e, "no session for the text's reader; answering without a cookie")
            }
        }
    }
    Ok(resp.json(Paid {
        ok: true,
        tx,
        html: Some(j.html.clone()),
        body: Some(j.body.clone()),
    }))
}

/// A header value of standard base64, without the byte-by-byte check `HeaderValue::from_str`
/// makes: on a 5.5 KB challenge that check was an eighth of the service's time per 402.
fn base64_header(b64: Vec<u8>) -> HeaderValue {
    debug_assert!(
        b64.iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    );
    // SAFETY: standard base64 is written in A–Z, a–z, 0–9, `+`, `/` and `=`, all visible
    // ASCII, which is every byte a header value may hold.
    unsafe { HeaderValue::from_maybe_shared_unchecked(web::Bytes::from(b64)) }
}

// The x402 headers' names, parsed once (a `&str` name is parsed at every use).
const PAYMENT_REQUIRED: HeaderName = HeaderName::from_static(x402::HEADER_REQUIRED);
const PAYMENT_SIGNATURE: HeaderName = HeaderName::from_static(x402::HEADER_SIGNATURE);
const X_PAYMENT: HeaderName = HeaderName::from_static(x402::HEADER_X_PAYMENT);

/// The plain challenge (no payment header yet), serialized once per journal, step and recipient.
async fn challenge_response(
    state: &AppState,
    terms: &Terms,
    id: i32,
    step: Step,
) -> ApiResult<HttpResponse> {
    let template = state.purchases.template(terms, id, step).await?;
    // Each answer carries a sign-in-with-x nonce of its own.
    let fresh = Fresh::new(state.site.now())
        .map_err(|_| ApiError::internal(anyhow::anyhow!("the random source failed")))?;
    let (body, header) = template.fill(&fresh);
    let header = base64_header(header);
    Ok(HttpResponse::PaymentRequired()
        .insert_header((PAYMENT_REQUIRED, header))
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .content_type(ContentType::json())
        .body(body))
}

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
    who: Result<SignedIn, ApiError>,
    id: web::Path<String>,
) -> Private<ApiResult<web::Json<JournalBody>>> {
    Private(body_answer(&state, who, &id).await)
}

async fn body_answer(
    state: &AppState,
    who: Result<SignedIn, ApiError>,
    id: &str,
) -> ApiResult<web::Json<JournalBody>> {
    let who = who?;
    let not_found = || ApiError::not_found(format!("no published journal has the id {id:?}"));
    // An id as written (`7`, not `0007`): the catalogue finds nothing under any other key.
    if !matches!(journal_key(id), Some(JournalKey::Id(_))) {
        return Err(not_found());
    }
    let j = match state.catalog.live(id).await {
        Ok(j) => j,
        Err(CatalogError::NotFound(_)) => return Err(not_found()),
        Err(e) => return Err(e.into()),
    };
    if !state.catalog.reads(who.0, &j).await? {
        return Err(ApiError::Forbidden(
            "this wallet has not bought the journal".into(),
        ));
    }
    Ok(web::Json(JournalBody {
        journal_id: i64::from(j.id),
        slug: j.detail.item.slug.clone(),
        html: j.html.clone(),
    }))
}

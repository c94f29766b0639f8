//! `POST /pay/burn` and `POST /pay/author`: x402 v2 payments for a journal, and
//! `GET /journal/{id}/body` for owners.

use std::sync::Arc;

use actix_web::http::header::{ContentType, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use alloy::primitives::{Address, U256};
use jm_chain::bindings::IIdentityRegistry;
use jm_chain::x402::{self, PaymentPayload, SettleResponse};
use journal_market_actors::settlement::{PayError, PayStep};
use journal_market_entity::{payments, unlocks};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::render::to_html;
use crate::error::{ApiError, ApiResult};
use crate::payments::{Step, Terms, challenge, signed_for, step_amount};
use crate::queries::journals::LiveJournal;
use crate::routes::journals::live;
use crate::session::{SignedIn, Viewer, auth_error, session_cookie};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/pay/burn", web::post().to(pay_burn))
        .route("/pay/author", web::post().to(pay_author))
        .route("/journal/{id}/body", web::get().to(body));
}

#[derive(Deserialize, ToSchema)]
pub struct PayBody {
    #[serde(rename = "journalId")]
    journal_id: i64,
}

#[utoipa::path(post, path = "/pay/burn", tag = "payments", request_body = PayBody,
    responses((status = 200, description = "`{ ok, tx }` for a fee, `{ ok, tx, body, html }` for the last payment, `{ ok, already }` when the fee is paid"),
              (status = 402, description = "the x402 challenge (also base64 in PAYMENT-REQUIRED), or a refused payment"),
              (status = 404, body = jm_client::api::ErrorBody), (status = 409, body = jm_client::api::ErrorBody),
              (status = 503, body = jm_client::api::ErrorBody)))]
pub async fn pay_burn(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    pay(&state, &req, viewer, journal_id(&body)?, Step::Burn).await
}

#[utoipa::path(post, path = "/pay/author", tag = "payments", request_body = PayBody,
    responses((status = 200, description = "`{ ok, tx, body, html }`"),
              (status = 400, body = jm_client::api::ErrorBody, description = "a swarm journal has no author payment"),
              (status = 402, description = "the x402 challenge, or a refused payment"),
              (status = 404, body = jm_client::api::ErrorBody), (status = 409, body = jm_client::api::ErrorBody),
              (status = 503, body = jm_client::api::ErrorBody)))]
pub async fn pay_author(
    state: web::Data<AppState>,
    req: HttpRequest,
    viewer: Viewer,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    pay(&state, &req, viewer, journal_id(&body)?, Step::Author).await
}

#[derive(Serialize)]
struct Paid {
    ok: bool,
    tx: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    html: Option<String>,
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
        .get(x402::HEADER_SIGNATURE)
        .or_else(|| req.headers().get(x402::HEADER_X_PAYMENT))?;
    Some(
        h.to_str()
            .map_err(|_| "the header is not ASCII".to_string())
            .and_then(x402::decode_header::<PaymentPayload>),
    )
}

/// The purchase rules for a wallet: `Err` answers now, `Ok(true)` means the fee is already paid.
async fn rules(state: &AppState, j: &LiveJournal, wallet: Address, step: Step) -> ApiResult<bool> {
    let w = format!("{wallet:#x}");
    if j.author_wallet.as_deref() == Some(w.as_str()) {
        return Err(ApiError::Conflict(
            "you wrote this journal; it is yours already".into(),
        ));
    }
    if unlocks::Entity::find_by_id((w.clone(), j.id))
        .one(&state.db)
        .await?
        .is_some()
    {
        return Err(ApiError::Conflict(
            "this wallet already unlocked the journal".into(),
        ));
    }
    if j.swarm {
        return Ok(false);
    }
    let fee_paid = payments::Entity::find()
        .filter(payments::Column::Wallet.eq(w))
        .filter(payments::Column::JournalId.eq(j.id))
        .filter(payments::Column::Step.eq(Step::Burn.as_str()))
        .filter(payments::Column::State.eq("settled"))
        .one(&state.db)
        .await?
        .is_some();
    if step == Step::Author && !fee_paid {
        return Err(ApiError::Conflict(
            "pay the fee first: POST /pay/burn, then /pay/author".into(),
        ));
    }
    Ok(fee_paid)
}

async fn pay(
    state: &AppState,
    req: &HttpRequest,
    viewer: Viewer,
    journal_id: i64,
    step: Step,
) -> ApiResult<HttpResponse> {
    let (Some(settlement), Some(buyback)) = (state.pay.settlement.as_ref(), state.pay.buyback)
    else {
        return Err(ApiError::unavailable("payments are not open"));
    };
    if !state.payments_open() {
        return Err(ApiError::unavailable(
            "payments are not open: the chain is not ready; retry shortly",
        ));
    }
    let not_on_sale = || ApiError::not_found(format!("journal {journal_id} is not on sale"));
    let id = i32::try_from(journal_id).map_err(|_| not_on_sale())?;
    let j = match live(state, &id.to_string()).await {
        Ok(j) => j,
        Err(ApiError::NotFound(_)) => return Err(not_on_sale()),
        Err(e) => return Err(e),
    };
    if step == Step::Author && j.swarm {
        return Err(ApiError::bad_request(
            "a swarm journal is bought with one payment to /pay/burn; it has no author payment",
        ));
    }
    let payload = payload(req);
    let payer = payload
        .as_ref()
        .and_then(|p| p.as_ref().ok())
        .and_then(|p| p.payload.permit2_authorization.from.parse::<Address>().ok());
    if let Some(wallet) = viewer.0.or(payer) {
        let fee_paid = rules(state, &j, wallet, step).await?;
        if step == Step::Burn && fee_paid {
            return Ok(HttpResponse::Ok().json(serde_json::json!({ "ok": true, "already": true })));
        }
    }

    let pay_to = match step {
        Step::Burn => buyback,
        Step::Author => token_holder(state, &j).await?,
    };
    let a = &state.addresses;
    let terms = Terms {
        chain_id: state.settings.chain.chain_id,
        usdg: a.usdg,
        proxy: a.permit2_proxy,
        amount: step_amount(j.price_units, j.swarm, step),
        pay_to,
        resource_url: state.pay_url(step),
    };
    let refuse = |why: String| ApiError::PaymentRequired(Box::new(challenge(&terms, why)));
    let p = match payload {
        None => return challenge_response(state, &terms, j.id, step).await,
        Some(Err(e)) => return Err(refuse(format!("the payment header is malformed: {e}"))),
        Some(Ok(p)) => p,
    };
    if p.x402_version != x402::VERSION {
        return Err(refuse(format!("x402Version must be {}", x402::VERSION)));
    }
    if !signed_for(&p, &terms) {
        return Err(refuse(
            "the payment does not match the current price or recipient".into(),
        ));
    }
    let wallet =
        payer.ok_or_else(|| refuse("permit2Authorization.from is not an address".into()))?;
    let last = step.is_last(j.swarm);
    let requirements = crate::payments::requirements(&terms);
    let settled = settlement
        .pay(PayStep {
            wallet,
            journal_id: j.id,
            step: step.as_str(),
            amount_units: terms.amount,
            pay_to,
            last,
            payload: p,
            requirements,
        })
        .await
        .map_err(|e| match e {
            PayError::Rejected(m) | PayError::Failed(m) => refuse(m),
            PayError::Conflict(m) => ApiError::Conflict(m),
            PayError::Busy => ApiError::unavailable("payments are busy; retry shortly"),
            PayError::Chain(m) => {
                ApiError::unavailable(format!("the chain could not be reached: {m}"))
            }
            PayError::Db(db) => ApiError::Database(db),
            PayError::Interrupted => {
                ApiError::internal(anyhow::anyhow!("settlement interrupted by the fault hook"))
            }
        })?;
    state.invalidate_public();

    let tx = format!("{:#x}", settled.tx);
    let receipt = SettleResponse {
        success: true,
        transaction: tx.clone(),
        network: format!("eip155:{}", terms.chain_id),
        payer: wallet.to_checksum(None),
        error_reason: None,
        error_message: None,
    };
    let mut resp = HttpResponse::Ok();
    if let Ok(h) = x402::encode_header(&receipt) {
        resp.insert_header((x402::HEADER_RESPONSE, h));
    }
    if !last {
        return Ok(resp.json(Paid {
            ok: true,
            tx,
            body: None,
            html: None,
        }));
    }
    let session = state.sessions.open_for(wallet).await.map_err(auth_error)?;
    Ok(resp.cookie(session_cookie(state, &session)).json(Paid {
        ok: true,
        tx,
        html: Some(to_html(&j.body, state.origin())),
        body: Some(j.body.clone()),
    }))
}

/// The plain challenge (no payment header yet), serialized once per journal, step and recipient.
async fn challenge_response(
    state: &AppState,
    terms: &Terms,
    id: i32,
    step: Step,
) -> ApiResult<HttpResponse> {
    let key = (id, step.as_str(), terms.pay_to);
    let cached = state
        .challenges
        .get_or_try(key, || async {
            let c = challenge(
                terms,
                "payment required: sign the offer in accepts and send it in the PAYMENT-SIGNATURE header",
            );
            let header = x402::encode_header(&c).map_err(ApiError::internal)?;
            let header = HeaderValue::from_str(&header).map_err(ApiError::internal)?;
            let body = serde_json::to_vec(&c).map_err(ApiError::internal)?;
            Ok::<_, ApiError>(Arc::new((web::Bytes::from(body), header)))
        })
        .await?;
    Ok(HttpResponse::PaymentRequired()
        .insert_header((x402::HEADER_REQUIRED, cached.1.clone()))
        .content_type(ContentType::json())
        .body(cached.0.clone()))
}

/// Whoever holds the journal's token now, read from the identity registry.
async fn token_holder(state: &AppState, j: &LiveJournal) -> ApiResult<Address> {
    let token = j
        .token_id
        .as_deref()
        .and_then(|t| U256::from_str_radix(t, 10).ok())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "journal {} has no onchain token and is not on sale",
                j.id
            ))
        })?;
    IIdentityRegistry::new(state.addresses.identity_registry, state.pay.chain.reader())
        .ownerOf(token)
        .call()
        .await
        .map_err(|_| {
            ApiError::unavailable(
                "the token's holder could not be read from the chain; retry shortly",
            )
        })
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
    responses((status = 200, body = JournalBody), (status = 401, body = jm_client::api::ErrorBody),
              (status = 403, body = jm_client::api::ErrorBody, description = "the wallet does not own the journal"),
              (status = 404, body = jm_client::api::ErrorBody)))]
pub async fn body(
    state: web::Data<AppState>,
    who: SignedIn,
    id: web::Path<String>,
) -> ApiResult<web::Json<JournalBody>> {
    let not_found =
        || ApiError::not_found(format!("no published journal has the id {:?}", id.as_str()));
    let id: i32 = id.parse().map_err(|_| not_found())?;
    let j = match live(&state, &id.to_string()).await {
        Ok(j) => j,
        Err(ApiError::NotFound(_)) => return Err(not_found()),
        Err(e) => return Err(e),
    };
    let w = format!("{:#x}", who.0);
    let owns = j.author_wallet.as_deref() == Some(w.as_str())
        || unlocks::Entity::find_by_id((w, j.id))
            .one(&state.db)
            .await?
            .is_some();
    if !owns {
        return Err(ApiError::Forbidden(
            "this wallet has not bought the journal".into(),
        ));
    }
    Ok(web::Json(JournalBody {
        journal_id: i64::from(j.id),
        slug: j.detail.item.slug.clone(),
        html: to_html(&j.body, state.origin()),
    }))
}

//! `POST /rpc` (the read-only JSON-RPC proxy) and `GET /quote/{ticker}`.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use futures::StreamExt;
use jm_client::api::Quote;
use serde_json::Value;

use crate::domain::accession::is_ticker;
use crate::error::{ApiError, ApiResult};
use crate::quotes::QuoteError;
use crate::rpc::jsonrpc::{self, Request};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/rpc", web::post().to(rpc))
        .route("/quote/{ticker}", web::get().to(quote));
}

/// Reads the body up to `limit` bytes; `None` when it is larger.
async fn read_limited(mut payload: web::Payload, limit: usize) -> Option<web::BytesMut> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.ok()?;
        if body.len() + chunk.len() > limit {
            return None;
        }
        body.extend_from_slice(&chunk);
    }
    Some(body)
}

fn jsonrpc_answer(status: StatusCode, body: Value) -> HttpResponse {
    HttpResponse::build(status).json(body)
}

#[utoipa::path(post, path = "/rpc", tag = "chain",
    request_body(content = Object, description = "a JSON-RPC 2.0 call or a batch of 1 to 20"),
    responses((status = 200, description = "JSON-RPC response(s)"),
              (status = 400, description = "not JSON (-32700) or not a valid request (-32600)"),
              (status = 403, description = "a method outside the allow-list"),
              (status = 413, description = "the body is too large"),
              (status = 502, description = "no upstream answered")))]
pub async fn rpc(state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    let Some(body) = read_limited(payload, state.settings.server.max_body_bytes).await else {
        return jsonrpc_answer(
            StatusCode::PAYLOAD_TOO_LARGE,
            jsonrpc::error_response(
                &Value::Null,
                jsonrpc::INVALID_REQUEST,
                "the request body is too large",
            ),
        );
    };
    let request = match jsonrpc::parse(&body) {
        Ok(r) => r,
        Err(rejection) => {
            let status =
                StatusCode::from_u16(rejection.status()).unwrap_or(StatusCode::BAD_REQUEST);
            return jsonrpc_answer(status, rejection.body());
        }
    };
    if let Request::Single(c) = &request
        && c.method != "eth_chainId"
        && jsonrpc::cache_key(c).is_none()
    {
        return match state.rpc.pass_through(body.freeze()).await {
            Ok(answer) => HttpResponse::Ok()
                .content_type(ContentType::json())
                .body(answer),
            Err(e) => jsonrpc_answer(
                StatusCode::BAD_GATEWAY,
                jsonrpc::error_response(
                    &c.id,
                    jsonrpc::UPSTREAM_ERROR,
                    &format!("the chain RPC is unavailable: {e}"),
                ),
            ),
        };
    }
    let (answers, outcome) = state.rpc.answer(request.calls()).await;
    let status = if outcome.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::BAD_GATEWAY
    };
    let body = match request {
        Request::Single(_) => answers.into_iter().next().unwrap_or(Value::Null),
        Request::Batch(_) => Value::Array(answers),
    };
    jsonrpc_answer(status, body)
}

#[utoipa::path(get, path = "/quote/{ticker}", tag = "chain",
    params(("ticker" = String, Path, description = "a ticker with a stock token, e.g. NVDA")),
    responses((status = 200, body = Quote), (status = 404, body = jm_client::api::ErrorBody),
              (status = 503, body = jm_client::api::ErrorBody)))]
pub async fn quote(
    state: web::Data<AppState>,
    ticker: web::Path<String>,
) -> ApiResult<web::Json<Quote>> {
    let ticker = ticker.into_inner();
    if !is_ticker(&ticker) || !state.quotes.knows(&ticker) {
        return Err(ApiError::not_found(format!(
            "no stock token is known for the ticker {ticker:?}"
        )));
    }
    match state.quotes.mid(&ticker).await {
        Ok(mid) => Ok(web::Json(Quote { ticker, mid })),
        Err(e @ QuoteError::Unknown(_)) => Err(ApiError::not_found(e.to_string())),
        Err(e) => Err(ApiError::unavailable(e.to_string())),
    }
}

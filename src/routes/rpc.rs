//! `POST /rpc`: the read-only JSON-RPC proxy.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use futures::StreamExt;
use serde_json::Value;

use crate::rpc::jsonrpc::{self, Request};
use crate::state::AppState;

/// `POST /rpc`, registered before every other route: a path with a parameter costs a regex
/// match for each request routed past it, and the proxy's calls are the cheapest requests.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/rpc", "POST").route(web::post().to(rpc)));
}

enum BodyError {
    TooLarge,
    TooSlow,
    Broken,
}

/// Reads the body up to `limit` bytes within `deadline`.
async fn read_limited(
    mut payload: web::Payload,
    limit: usize,
    deadline: Duration,
) -> Result<web::BytesMut, BodyError> {
    let read = async {
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk =
                chunk.map_err(|e| match crate::middleware::body_deadline::is_timeout(&e) {
                    true => BodyError::TooSlow,
                    false => BodyError::Broken,
                })?;
            if body.len() + chunk.len() > limit {
                return Err(BodyError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    };
    tokio::time::timeout(deadline, read)
        .await
        .unwrap_or(Err(BodyError::TooSlow))
}

fn jsonrpc_answer(status: StatusCode, body: Value) -> HttpResponse {
    HttpResponse::build(status).json(body)
}

/// The shape of `POST /rpc`'s body, for the OpenAPI document only (the handler parses the
/// body itself, to answer in JSON-RPC's own error format).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum RpcRequest {
    One(RpcCall),
    /// 1 to 20 calls.
    Batch(Vec<RpcCall>),
}

/// One JSON-RPC 2.0 call: exactly these members; `params` as the method takes them.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct RpcCall {
    jsonrpc: RpcVersion,
    id: i64,
    method: RpcMethod,
    #[schema(value_type = Vec<Object>)]
    params: Option<Vec<Value>>,
}

#[derive(serde::Deserialize, utoipa::ToSchema)]
#[allow(dead_code)]
pub enum RpcVersion {
    #[serde(rename = "2.0")]
    V2,
}

/// The allow-list (`rpc::jsonrpc::ALLOWED`).
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code, clippy::enum_variant_names)]
pub enum RpcMethod {
    #[serde(rename = "eth_call")]
    EthCall,
    #[serde(rename = "eth_chainId")]
    EthChainId,
    #[serde(rename = "eth_blockNumber")]
    EthBlockNumber,
    #[serde(rename = "eth_getBalance")]
    EthGetBalance,
    #[serde(rename = "eth_getCode")]
    EthGetCode,
    #[serde(rename = "eth_getTransactionCount")]
    EthGetTransactionCount,
    #[serde(rename = "eth_getTransactionReceipt")]
    EthGetTransactionReceipt,
    #[serde(rename = "eth_getTransactionByHash")]
    EthGetTransactionByHash,
    #[serde(rename = "eth_getBlockByNumber")]
    EthGetBlockByNumber,
    #[serde(rename = "eth_estimateGas")]
    EthEstimateGas,
    #[serde(rename = "eth_gasPrice")]
    EthGasPrice,
    #[serde(rename = "eth_maxPriorityFeePerGas")]
    EthMaxPriorityFeePerGas,
    #[serde(rename = "eth_feeHistory")]
    EthFeeHistory,
}

#[utoipa::path(post, path = "/rpc", tag = "chain",
    request_body(content = RpcRequest, description = "a JSON-RPC 2.0 call or a batch of 1 to 20"),
    responses((status = 200, description = "JSON-RPC response(s)"),
              (status = 400, description = "not JSON (-32700), not a valid request (-32600) or params the proxy does not forward (-32602)"),
              (status = 403, description = "a method outside the allow-list"),
              (status = 408, description = "the body did not arrive in time"),
              (status = 413, description = "the body is too large"),
              (status = 429, body = journal_market_api::ErrorBody, description = "too many RPC requests from this address (Retry-After)"),
              (status = 502, description = "no upstream answered")))]
pub async fn rpc(state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    let deadline = Duration::from_millis(state.site.settings.rpc.body_timeout_ms);
    let body =
        match read_limited(payload, state.site.settings.server.max_body_bytes, deadline).await {
            Ok(body) => body,
            Err(e) => {
                let (status, message) = match e {
                    BodyError::TooLarge => (
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "the request body is too large",
                    ),
                    BodyError::TooSlow => (
                        StatusCode::REQUEST_TIMEOUT,
                        "the request body did not arrive in time",
                    ),
                    BodyError::Broken => (StatusCode::BAD_REQUEST, "the request body broke off"),
                };
                return jsonrpc_answer(
                    status,
                    jsonrpc::error_response(&Value::Null, jsonrpc::INVALID_REQUEST, message),
                );
            }
        };
    let request = match jsonrpc::parse(&body, &state.onchain.rpc.limits()) {
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
        return match state.onchain.rpc.pass_through(c).await {
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
    let (answers, outcome) = state.onchain.rpc.answer(request.calls()).await;
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

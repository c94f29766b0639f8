//! The MCP endpoint: `POST /mcp` on the public port, MCP's streamable HTTP transport served
//! statelessly (no session id; `initialize` answered like any request, and 2026-07-28's
//! per-request envelope needs nothing more), every answer one JSON body. Tools and resources
//! over the same services as the routes; the paid tool goes through [`crate::purchase`].
//!
//! ```text
//!  POST /mcp → jsonrpc (envelope) → initialize | ping | server/discover   (protocol)
//!                                   tools/list | tools/call               (tools, paid)
//!                                   resources/{list,templates/list,read}  (resources)
//! ```

mod card;
mod headers;
mod jsonrpc;
pub mod metrics;
mod paid;
mod protocol;
mod resources;
mod tools;

use actix_web::http::header::{self, ContentType};
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use serde_json::Value;

use crate::answers::{private, resource};
use crate::state::AppState;
use jsonrpc::{METHOD_NOT_FOUND, Message, RpcError};

/// Mounted at the site's root, beside `/.well-known/x402`.
pub fn configure_root(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/mcp", "POST").route(web::post().to(endpoint)))
        .service(resource("/mcp/server-card", "GET").route(web::get().to(server_card)))
        .service(
            resource("/.well-known/mcp/server-card.json", "GET").route(web::get().to(server_card)),
        )
        .service(resource("/.well-known/mcp/server-card", "GET").route(web::get().to(server_card)))
        .service(resource("/.well-known/ai-catalog.json", "GET").route(web::get().to(ai_catalog)));
}

/// The service's version, as `initialize` and the card state it.
const VERSION: &str = env!("CARGO_PKG_VERSION");

async fn server_card(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(card::CARD_TYPE)
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(card::card(state.site.origin(), VERSION).to_string())
}

async fn ai_catalog(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .json(card::catalog(state.site.origin()))
}

/// `POST /mcp`: one message or a batch; requests are answered in one JSON body, notifications
/// and client responses alone get 202.
pub async fn endpoint(state: web::Data<AppState>, req: HttpRequest, body: Bytes) -> HttpResponse {
    let (messages, batch) = match jsonrpc::parse_body(&body) {
        Ok(m) => {
            let batch = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
            (m, batch)
        }
        Err(r) => return answer(jsonrpc::error(&r.id, &r.error)),
    };
    // The headers mirror one message; a batch (before 2025-06-18) has nothing to mirror.
    if let ([one], false) = (messages.as_slice(), batch)
        && let Err(why) = mirrored(&req).and_then(|h| headers::check(&h, one))
    {
        let id = one.get("id").cloned().unwrap_or(Value::Null);
        let e = RpcError::new(headers::HEADER_MISMATCH, why);
        return HttpResponse::BadRequest()
            .content_type(ContentType::json())
            .body(jsonrpc::error(&id, &e).to_string());
    }
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        match jsonrpc::message(m) {
            Ok(Message::Request { id, method, params }) => {
                let reply = match serve(&state, &req, &method, params).await {
                    Ok(r) => jsonrpc::result(&id, r),
                    Err(e) => {
                        state.mcp.call(&method, None, "rpc_error");
                        jsonrpc::error(&id, &e)
                    }
                };
                out.push(reply);
            }
            Ok(Message::Notice) => state.mcp.call("notifications", None, "ok"),
            Err(r) => out.push(jsonrpc::error(&r.id, &r.error)),
        }
    }
    match (out.len(), batch) {
        (0, _) => HttpResponse::Accepted().finish(),
        (1, false) => answer(out.remove(0)),
        _ => answer(Value::Array(out)),
    }
}

/// The request's mirrored MCP headers; `Err` when one is not text.
fn mirrored(req: &HttpRequest) -> Result<headers::Mirrored<'_>, String> {
    let get = |name: &str| match req.headers().get(name) {
        None => Ok(None),
        Some(v) => v
            .to_str()
            .map(Some)
            .map_err(|_| format!("the {name} header is not text")),
    };
    Ok(headers::Mirrored {
        version: get(headers::VERSION)?,
        method: get(headers::METHOD)?,
        name: get(headers::NAME)?,
    })
}

fn answer(v: Value) -> HttpResponse {
    let mut resp = HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(v.to_string());
    // A paid text is one caller's: no cache keeps an answer of this endpoint.
    private(resp.headers_mut());
    resp
}

/// One request's result.
async fn serve(
    state: &AppState,
    req: &HttpRequest,
    method: &str,
    params: Value,
) -> Result<Value, RpcError> {
    let metrics = &state.mcp;
    let result = match method {
        "initialize" => protocol::initialize(&params, VERSION),
        "ping" => serde_json::json!({}),
        "server/discover" => protocol::discover(),
        "tools/list" => tools::list(),
        "tools/call" => {
            let called = tools::call(state, req, params.clone()).await?;
            let tool = params.get("name").and_then(Value::as_str);
            let outcome = match called.result["isError"] == true {
                true => "error",
                false => "ok",
            };
            metrics.call(method, tool, outcome);
            if let Some(p) = called.paying {
                metrics.payment(p);
            }
            return Ok(called.result);
        }
        "resources/list" => resources::list(state).await?,
        "resources/templates/list" => resources::templates(),
        "resources/read" => {
            let (result, paying) = resources::read(state, req, &params).await?;
            if let Some(p) = paying {
                metrics.payment(p);
            }
            result
        }
        other => {
            return Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("this server does not serve {other:?}"),
            ));
        }
    };
    metrics.call(method, None, "ok");
    Ok(result)
}

//! Journals as MCP resources, `journal://{slug}`: a read answers the preview (the journal's
//! public detail: never the text); a read that carries a payment or a sign-in-with-x proof in
//! `_meta` (as `read_journal` takes them) goes through the same purchase and answers the text.
//! The x402 MCP binding covers tools only: a payment required on a read is a JSON-RPC error
//! `402` with the PaymentRequired as `data`, the shape the reference helper
//! `extract_payment_required_from_error` reads (docs/decisions.md).

use actix_web::HttpRequest;
use serde_json::{Value, json};

use super::jsonrpc::{INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError};
use crate::error::DomainError;
use crate::purchase::mcp::{PAYMENT_META, PAYMENT_RESPONSE_META, Paying, SIWX_META};
use crate::state::AppState;

pub const SCHEME: &str = "journal://";

/// The slug a `journal://{slug}` URI names.
pub fn slug_of(uri: &str) -> Option<&str> {
    let slug = uri.strip_prefix(SCHEME)?.trim_end_matches('/');
    (!slug.is_empty() && !slug.contains(['/', '?', '#'])).then_some(slug)
}

/// `resources/list`: every journal on sale.
pub async fn list(state: &AppState) -> Result<Value, RpcError> {
    let items = state.catalog.journal_items(None).await.map_err(internal)?;
    let resources: Vec<Value> = items
        .iter()
        .map(|j| {
            json!({
                "uri": format!("{SCHEME}{}", j.slug),
                "name": j.slug,
                "title": j.title,
                "description": j.preview,
                "mimeType": "application/json",
            })
        })
        .collect();
    Ok(json!({ "resources": resources }))
}

/// `resources/templates/list`.
pub fn templates() -> Value {
    json!({ "resourceTemplates": [{
        "uriTemplate": "journal://{slug}",
        "name": "journal",
        "title": "A journal",
        "description": "A journal's preview, audit and evidence; with a payment (or a sign-in-with-x proof of a wallet that bought it) in _meta as read_journal takes them, its text",
        "mimeType": "application/json",
    }]})
}

/// `resources/read`, and whether it was a paid read (for the metrics).
pub async fn read(
    state: &AppState,
    req: &HttpRequest,
    params: &Value,
) -> Result<(Value, Option<Paying>), RpcError> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, "resources/read needs a \"uri\""))?;
    let slug = slug_of(uri).ok_or_else(|| {
        RpcError::new(
            RESOURCE_NOT_FOUND,
            format!("no resource is named {uri:?}: journals are journal://{{slug}}"),
        )
    })?;
    let meta = params.get("_meta");
    let paid = meta.is_some_and(|m| {
        !m.get(PAYMENT_META).unwrap_or(&Value::Null).is_null()
            || !m.get(SIWX_META).unwrap_or(&Value::Null).is_null()
    });
    if !paid {
        let live = match state.catalog.shown(slug).await {
            Ok(live) => live,
            Err(DomainError::NotFound(m)) => return Err(RpcError::new(RESOURCE_NOT_FOUND, m)),
            Err(e) => return Err(internal(e)),
        };
        let text = state.catalog.public_detail(&live).map_err(internal)?;
        let contents = json!([{
            "uri": uri,
            "mimeType": "application/json",
            "text": String::from_utf8_lossy(&text),
        }]);
        return Ok((json!({ "contents": contents }), None));
    }
    let (result, paying) = super::paid::buy(state, req, slug.to_string(), None, meta).await;
    Ok((contents_of(uri, result)?, Some(paying)))
}

/// A paid tool result as a read's result: the text with its receipt, or the error.
fn contents_of(uri: &str, tool: Value) -> Result<Value, RpcError> {
    let structured = &tool["structuredContent"];
    if tool["isError"] == true {
        let message = structured["error"]
            .as_str()
            .unwrap_or("the journal could not be read")
            .to_string();
        if structured.get("accepts").is_some() {
            return Err(RpcError {
                code: 402,
                message,
                data: Some(structured.clone()),
            });
        }
        return Err(RpcError::new(INVALID_PARAMS, message));
    }
    let mut v = json!({ "contents": [{
        "uri": uri,
        "mimeType": "application/json",
        "text": tool["content"][0]["text"],
    }]});
    if let Some(r) = tool["_meta"].get(PAYMENT_RESPONSE_META) {
        v["_meta"] = json!({ PAYMENT_RESPONSE_META: r });
    }
    Ok(v)
}

fn internal(e: DomainError) -> RpcError {
    e.log();
    RpcError::new(super::jsonrpc::INTERNAL_ERROR, e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_uri_names_one_slug() {
        assert_eq!(slug_of("journal://nvda-a-view"), Some("nvda-a-view"));
        assert_eq!(slug_of("journal://nvda-a-view/"), Some("nvda-a-view"));
        assert_eq!(slug_of("journal://"), None);
        assert_eq!(slug_of("journal://a/b"), None);
        assert_eq!(slug_of("https://x/a"), None);
    }

    #[test]
    fn a_payment_required_read_is_a_402_error_with_the_offer() {
        let tool = json!({
            "isError": true,
            "structuredContent": { "x402Version": 2, "error": "payment required", "accepts": [{}] },
            "content": [{ "type": "text", "text": "{}" }],
        });
        let e = contents_of("journal://a", tool).unwrap_err();
        assert_eq!(e.code, 402);
        assert_eq!(e.data.unwrap()["x402Version"], 2);
        let ok = json!({
            "isError": false,
            "structuredContent": { "ok": true },
            "content": [{ "type": "text", "text": "{\"ok\":true}" }],
            "_meta": { PAYMENT_RESPONSE_META: { "success": true } },
        });
        let v = contents_of("journal://a", ok).unwrap();
        assert_eq!(v["contents"][0]["text"], "{\"ok\":true}");
        assert_eq!(v["_meta"][PAYMENT_RESPONSE_META]["success"], true);
    }
}

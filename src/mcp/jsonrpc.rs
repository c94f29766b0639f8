//! The JSON-RPC 2.0 envelope of MCP's streamable HTTP transport, read and written by hand:
//! `rmcp` serves only through tower/hyper (`http` 1.x), the public port is actix-web
//! (docs/decisions.md, "The MCP endpoint"). Pure.

use serde_json::{Value, json};

use crate::error::DomainError;

/// JSON-RPC's own error codes, and MCP's for an unknown resource.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
pub const RESOURCE_NOT_FOUND: i64 = -32002;

/// The most messages one POST may carry. A request passes the rate limits once, so an unbounded
/// batch would let one request make any number of calls (searches, purchase attempts).
pub const MAX_BATCH: usize = 8;

/// One message of a POST body.
#[derive(Debug, PartialEq)]
pub enum Message {
    /// A request: answered with a result or an error under its id.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification (no id) or a response from the client: accepted, never answered.
    Notice,
}

/// A message that cannot be served, with the id to answer under (null when unknown).
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub id: Value,
    pub error: RpcError,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    /// The error's `data`, when it carries some (a PaymentRequired).
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// The POST body as JSON: one message, or a batch (protocol versions before 2025-06-18).
pub fn parse_body(body: &[u8]) -> Result<Vec<Value>, Refusal> {
    let v: Value = serde_json::from_slice(body).map_err(|e| Refusal {
        id: Value::Null,
        error: RpcError::new(PARSE_ERROR, format!("the body is not JSON: {e}")),
    })?;
    match v {
        Value::Array(batch) if batch.is_empty() => Err(Refusal {
            id: Value::Null,
            error: RpcError::new(INVALID_REQUEST, "an empty batch"),
        }),
        Value::Array(batch) if batch.len() > MAX_BATCH => Err(Refusal {
            id: Value::Null,
            error: RpcError::new(
                INVALID_REQUEST,
                format!("a batch of at most {MAX_BATCH} messages"),
            ),
        }),
        Value::Array(batch) => Ok(batch),
        one => Ok(vec![one]),
    }
}

/// One JSON-RPC message read: a request, or something only to accept.
pub fn message(v: Value) -> Result<Message, Refusal> {
    let Value::Object(mut m) = v else {
        return Err(invalid(Value::Null, "a message must be a JSON object"));
    };
    let id = m.remove("id");
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(
            id.unwrap_or(Value::Null),
            "\"jsonrpc\" must be \"2.0\"",
        ));
    }
    let method = match m.remove("method") {
        Some(Value::String(s)) => s,
        // A client's response to a server request (this server sends none): accepted.
        None if m.contains_key("result") || m.contains_key("error") => return Ok(Message::Notice),
        _ => {
            return Err(invalid(
                id.unwrap_or(Value::Null),
                "\"method\" must be a string",
            ));
        }
    };
    let Some(id) = id else {
        return Ok(Message::Notice);
    };
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return Err(invalid(
            Value::Null,
            "\"id\" must be a string or an integer",
        ));
    }
    let params = match m.remove("params") {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(p @ Value::Object(_)) => p,
        Some(_) => return Err(invalid(id, "\"params\" must be an object")),
    };
    Ok(Message::Request { id, method, params })
}

fn invalid(id: Value, why: &str) -> Refusal {
    Refusal {
        id,
        error: RpcError::new(INVALID_REQUEST, why),
    }
}

/// `{ jsonrpc, id, result }`.
pub fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// `{ jsonrpc, id, error: { code, message, data? } }`.
pub fn error(id: &Value, e: &RpcError) -> Value {
    let mut err = json!({ "code": e.code, "message": e.message });
    if let Some(d) = &e.data {
        err["data"] = d.clone();
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": err })
}

/// The arguments of `tool`, or why not (a tool error an agent can correct).
pub fn args<T: serde::de::DeserializeOwned>(tool: &str, v: Value) -> Result<T, DomainError> {
    serde_json::from_value(v).map_err(|e| {
        DomainError::bad_request(format!("the arguments of {tool} are not valid: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_notifications_and_refusals() {
        let r = message(json!({"jsonrpc":"2.0","id":1,"method":"ping"})).unwrap();
        assert_eq!(
            r,
            Message::Request {
                id: json!(1),
                method: "ping".into(),
                params: json!({}),
            }
        );
        let n = message(json!({"jsonrpc":"2.0","method":"notifications/initialized"})).unwrap();
        assert_eq!(n, Message::Notice);
        let reply = message(json!({"jsonrpc":"2.0","id":"s1","result":{}})).unwrap();
        assert_eq!(reply, Message::Notice);
        let e = message(json!({"jsonrpc":"1.0","id":2,"method":"ping"})).unwrap_err();
        assert_eq!((e.id, e.error.code), (json!(2), INVALID_REQUEST));
        let e = message(json!({"jsonrpc":"2.0","id":3,"method":"x","params":[1]})).unwrap_err();
        assert_eq!(e.error.code, INVALID_REQUEST);
        let e = message(json!({"jsonrpc":"2.0","id":[1],"method":"x"})).unwrap_err();
        assert_eq!(e.id, Value::Null);
        assert_eq!(message(json!([])).unwrap_err().error.code, INVALID_REQUEST);
    }

    #[test]
    fn bodies_and_batches() {
        assert_eq!(parse_body(b"{").unwrap_err().error.code, PARSE_ERROR);
        assert_eq!(parse_body(b"[]").unwrap_err().error.code, INVALID_REQUEST);
        assert_eq!(parse_body(b"[{},{}]").unwrap().len(), 2);
        let many = format!("[{}]", ["{}"; MAX_BATCH + 1].join(","));
        assert_eq!(
            parse_body(many.as_bytes()).unwrap_err().error.code,
            INVALID_REQUEST
        );
        assert_eq!(parse_body(b"{}").unwrap().len(), 1);
        let e = error(&json!(7), &RpcError::new(METHOD_NOT_FOUND, "no"));
        assert_eq!(e["error"]["code"], METHOD_NOT_FOUND);
        assert_eq!(result(&json!(7), json!({}))["id"], 7);
    }
}

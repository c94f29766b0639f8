//! JSON-RPC 2.0 for the read-only proxy: parsing, the allow-list, and which answers may be cached.
//! Pure functions, no I/O.

use std::collections::HashMap;

use actix_web::web::Bytes;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::params::{self, Limits};

/// The methods the proxy forwards (interface §4.5).
pub const ALLOWED: [&str; 13] = [
    "eth_call",
    "eth_chainId",
    "eth_blockNumber",
    "eth_getBalance",
    "eth_getCode",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_getTransactionByHash",
    "eth_getBlockByNumber",
    "eth_estimateGas",
    "eth_gasPrice",
    "eth_maxPriorityFeePerGas",
    "eth_feeHistory",
];

pub const MAX_BATCH: usize = 20;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;
/// Method exists but is not allowed here (server-defined range).
pub const METHOD_NOT_ALLOWED: i64 = -32601;
pub const UPSTREAM_ERROR: i64 = -32603;

#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: Value,
    pub method: String,
    pub params: Value,
}

#[derive(Debug, PartialEq)]
pub enum Request {
    Single(Call),
    Batch(Vec<Call>),
}

impl Request {
    pub fn calls(&self) -> &[Call] {
        match self {
            Request::Single(c) => std::slice::from_ref(c),
            Request::Batch(v) => v,
        }
    }
}

/// Why a request is refused before anything is forwarded.
#[derive(Debug, PartialEq)]
pub enum Rejection {
    /// Not JSON (400, -32700).
    Parse,
    /// JSON but not a valid request (400, -32600).
    Invalid { id: Value, reason: String },
    /// A valid request whose parameters the proxy does not forward (400, -32602).
    InvalidParams { id: Value, reason: String },
    /// A method outside the allow-list (403).
    Forbidden { id: Value, method: String },
}

impl Rejection {
    pub fn status(&self) -> u16 {
        match self {
            Rejection::Forbidden { .. } => 403,
            _ => 400,
        }
    }

    pub fn body(&self) -> Value {
        match self {
            Rejection::Parse => error_response(
                &Value::Null,
                PARSE_ERROR,
                "Parse error: the body is not JSON",
            ),
            Rejection::Invalid { id, reason } => {
                error_response(id, INVALID_REQUEST, &format!("Invalid Request: {reason}"))
            }
            Rejection::InvalidParams { id, reason } => {
                error_response(id, INVALID_PARAMS, &format!("Invalid params: {reason}"))
            }
            Rejection::Forbidden { id, method } => error_response(
                id,
                METHOD_NOT_ALLOWED,
                &format!("the method {method} is not allowed by this read-only proxy"),
            ),
        }
    }
}

pub fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub fn result_response(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn call(v: &Value, at: Option<usize>) -> Result<Call, Rejection> {
    let place = at.map(|i| format!("batch item {i}: ")).unwrap_or_default();
    let invalid = |id: &Value, why: &str| Rejection::Invalid {
        id: id.clone(),
        reason: format!("{place}{why}"),
    };
    let Some(obj) = v.as_object() else {
        return Err(invalid(&Value::Null, "a request must be an object"));
    };
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    if !(id.is_string() || id.is_number() || id.is_null()) {
        return Err(invalid(
            &Value::Null,
            "id must be a string, a number or null",
        ));
    }
    if !obj.contains_key("id") {
        return Err(invalid(
            &Value::Null,
            "notifications (requests without an id) are not supported",
        ));
    }
    // Go nodes match member names case-insensitively (last one wins): a "METHOD" beside
    // "method" would run there unchecked, so only the four exact names are accepted.
    if let Some(k) = obj
        .keys()
        .find(|k| !["jsonrpc", "id", "method", "params"].contains(&k.as_str()))
    {
        return Err(invalid(&id, &format!("unknown member {k:?}")));
    }
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(&id, "jsonrpc must be \"2.0\""));
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return Err(invalid(&id, "method must be a string"));
    };
    let params = match obj.get("params") {
        None => Value::Array(Vec::new()),
        Some(p) if p.is_array() || p.is_object() => p.clone(),
        Some(_) => return Err(invalid(&id, "params must be an array or an object")),
    };
    Ok(Call {
        id,
        method: method.to_string(),
        params,
    })
}

/// Parses a single call or a batch of 1 to 20, checks every method against the allow-list and
/// puts every call's params in canonical form within `limits`: one bad item refuses the whole
/// request.
pub fn parse(body: &[u8], limits: &Limits) -> Result<Request, Rejection> {
    let v: Value = serde_json::from_slice(body).map_err(|_| Rejection::Parse)?;
    let req = match &v {
        Value::Array(items) => {
            if items.is_empty() {
                return Err(Rejection::Invalid {
                    id: Value::Null,
                    reason: "an empty batch".into(),
                });
            }
            if items.len() > MAX_BATCH {
                return Err(Rejection::Invalid {
                    id: Value::Null,
                    reason: format!(
                        "a batch holds at most {MAX_BATCH} calls, this one {}",
                        items.len()
                    ),
                });
            }
            Request::Batch(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| call(item, Some(i)))
                    .collect::<Result<_, _>>()?,
            )
        }
        other => Request::Single(call(other, None)?),
    };
    let single = matches!(req, Request::Single(_));
    let id_of = |c: &Call| if single { c.id.clone() } else { Value::Null };
    if let Some(c) = req
        .calls()
        .iter()
        .find(|c| !ALLOWED.contains(&c.method.as_str()))
    {
        return Err(Rejection::Forbidden {
            id: id_of(c),
            method: c.method.clone(),
        });
    }
    let canonical = |mut c: Call, at: Option<usize>| -> Result<Call, Rejection> {
        match params::canonical(&c.method, &c.params, limits) {
            Ok(p) => {
                c.params = p;
                Ok(c)
            }
            Err(reason) => Err(Rejection::InvalidParams {
                id: if single { c.id } else { Value::Null },
                reason: match at {
                    Some(i) => format!("batch item {i}: {reason}"),
                    None => reason,
                },
            }),
        }
    };
    Ok(match req {
        Request::Single(c) => Request::Single(canonical(c, None)?),
        Request::Batch(v) => Request::Batch(
            v.into_iter()
                .enumerate()
                .map(|(i, c)| canonical(c, Some(i)))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// The bytes forwarded for one canonical call: the four members, written by us.
pub fn to_bytes(c: &Call) -> Vec<u8> {
    serde_json::to_vec(
        &json!({ "jsonrpc": "2.0", "id": c.id, "method": c.method, "params": c.params }),
    )
    .unwrap_or_default()
}

/// What makes two calls the same request to the upstream: the method and canonical params
/// (every spelling of one call has one key).
pub fn flight_key(c: &Call) -> String {
    format!("{}:{}", c.method, c.params)
}

/// A single upstream answer's `result` or `error`, byte for byte as the node wrote it, to be
/// sent under any caller's id.
#[derive(Debug, Clone)]
pub struct Reply {
    error: bool,
    raw: Bytes,
}

impl Reply {
    /// `None` when `answer` is not a JSON object with a `result` or an `error`.
    pub fn parse(answer: Bytes) -> Option<Reply> {
        let fields: HashMap<&str, &RawValue> = serde_json::from_slice(&answer).ok()?;
        let (error, value) = match (fields.get("result"), fields.get("error")) {
            (Some(r), _) => (false, r.get()),
            (None, Some(e)) => (true, e.get()),
            (None, None) => return None,
        };
        // The value is a slice of `answer`: keep that part, no copy.
        let start = (value.as_ptr() as usize).checked_sub(answer.as_ptr() as usize)?;
        let raw = answer.slice(start..start + value.len());
        Some(Reply { error, raw })
    }

    /// The answer with `id` as its id.
    pub fn to(&self, id: &Value) -> Vec<u8> {
        let id = serde_json::to_string(id).unwrap_or_else(|_| "null".into());
        let member = if self.error { "error" } else { "result" };
        let mut out = Vec::with_capacity(self.raw.len() + id.len() + 32);
        out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(format!(r#","{member}":"#).as_bytes());
        out.extend_from_slice(&self.raw);
        out.push(b'}');
        out
    }
}

/// The cache key of a call whose answer can become immutable, or `None`.
pub fn cache_key(c: &Call) -> Option<String> {
    match c.method.as_str() {
        "eth_getTransactionReceipt" | "eth_getTransactionByHash" | "eth_getBlockByNumber" => {
            Some(flight_key(c))
        }
        _ => None,
    }
}

/// Whether this answer can never change: a transaction, receipt or block at least
/// `safe_distance` below `head` (a reorg cannot reach it). Never `latest`, `pending`, a lookup
/// that found nothing, or anything while the head is unknown.
pub fn is_final(c: &Call, result: &Value, head: Option<u64>, safe_distance: u64) -> bool {
    if result.is_null() {
        return false;
    }
    let block = match c.method.as_str() {
        "eth_getTransactionReceipt" | "eth_getTransactionByHash" => {
            result.get("blockNumber").and_then(params::quantity)
        }
        "eth_getBlockByNumber" => c.params.get(0).and_then(params::quantity),
        _ => None,
    };
    match (block, head) {
        (Some(n), Some(h)) => n.saturating_add(safe_distance) <= h,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checked call with id 1.
    fn c(method: &str, params: Value) -> Call {
        Call {
            id: json!(1),
            method: method.into(),
            params,
        }
    }

    fn parse(body: &[u8]) -> Result<Request, Rejection> {
        super::parse(body, &Limits::default())
    }

    fn req(method: &str) -> Value {
        json!({ "jsonrpc": "2.0", "id": 7, "method": method, "params": [] })
    }

    #[test]
    fn single_and_batch() {
        let r = parse(req("eth_blockNumber").to_string().as_bytes()).unwrap();
        assert_eq!(r.calls().len(), 1);
        assert_eq!(r.calls()[0].id, json!(7));
        let batch = json!([req("eth_chainId"), req("eth_gasPrice")]);
        assert!(
            matches!(parse(batch.to_string().as_bytes()).unwrap(), Request::Batch(v) if v.len() == 2)
        );
    }

    #[test]
    fn rejections() {
        assert_eq!(parse(b"{nope").unwrap_err(), Rejection::Parse);
        assert_eq!(parse(b"[]").unwrap_err().status(), 400);
        let big = Value::Array((0..21).map(|_| req("eth_chainId")).collect());
        assert_eq!(parse(big.to_string().as_bytes()).unwrap_err().status(), 400);
        let err = parse(req("eth_sendRawTransaction").to_string().as_bytes()).unwrap_err();
        assert_eq!(err.status(), 403);
        assert_eq!(err.body()["id"], json!(7));
        let mixed = json!([req("eth_chainId"), req("debug_traceTransaction")]);
        assert_eq!(
            parse(mixed.to_string().as_bytes()).unwrap_err().status(),
            403
        );
        for bad in [
            json!({ "jsonrpc": "1.0", "id": 1, "method": "eth_chainId" }),
            json!({ "jsonrpc": "2.0", "id": 1 }),
            json!({ "jsonrpc": "2.0", "method": "eth_chainId" }),
            json!({ "jsonrpc": "2.0", "id": [1], "method": "eth_chainId" }),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": 3 }),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "METHOD": "eth_sendRawTransaction" }),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "Params": [] }),
            json!(5),
        ] {
            let e = parse(bad.to_string().as_bytes()).unwrap_err();
            assert_eq!(e.status(), 400, "{bad}");
            assert_eq!(e.body()["error"]["code"], json!(INVALID_REQUEST));
        }
    }

    /// Found by the `jsonrpc` fuzz target: a 103-digit id was read as a slightly different
    /// double than the one its own serialization reads back as, so the call forwarded (and the
    /// id answered) was not the caller's. serde_json's `float_roundtrip` reads numbers exactly.
    #[test]
    fn a_huge_numeric_id_is_forwarded_and_answered_as_it_was_read() {
        let id = format!("{}1", "6".repeat(102));
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"eth_chainId","params":[]}}"#);
        let r = parse(body.as_bytes()).unwrap();
        let call = &r.calls()[0];
        let again = parse(&to_bytes(call)).unwrap();
        assert_eq!(again, Request::Single(call.clone()));
        let reply = Reply::parse(Bytes::from_static(br#"{"result":"0x1237"}"#)).unwrap();
        let answered: Value = serde_json::from_slice(&reply.to(&call.id)).unwrap();
        assert_eq!(answered["id"], call.id);
        let sent: f64 = id.parse().unwrap();
        assert_eq!(
            answered["id"].as_f64(),
            Some(sent),
            "the id the caller's parser reads"
        );
    }

    #[test]
    fn bad_params_are_refused_and_good_ones_made_canonical() {
        let r = parse(
            json!({ "jsonrpc": "2.0", "id": 3, "method": "eth_getBlockByNumber", "params": ["0xA"] })
                .to_string()
                .as_bytes(),
        )
        .unwrap();
        assert_eq!(r.calls()[0].params, json!(["0xa", false]));
        let bytes = to_bytes(&r.calls()[0]);
        let back: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            back,
            json!({ "jsonrpc": "2.0", "id": 3, "method": "eth_getBlockByNumber", "params": ["0xa", false] })
        );
        let e = parse(
            json!({ "jsonrpc": "2.0", "id": 4, "method": "eth_call", "params": [{}, "latest", {}] })
                .to_string()
                .as_bytes(),
        )
        .unwrap_err();
        assert_eq!(e.status(), 400);
        assert_eq!(e.body()["error"]["code"], json!(INVALID_PARAMS));
        assert_eq!(e.body()["id"], json!(4));
    }

    #[test]
    fn only_final_answers_are_cached() {
        let receipt = c("eth_getTransactionReceipt", json!(["0xab"]));
        let mined = json!({ "blockHash": "0x01", "blockNumber": "0x10" });
        assert!(is_final(&receipt, &mined, Some(0x10 + 12), 12));
        // Mined but within a reorg's reach, or the head unknown: not yet.
        assert!(!is_final(&receipt, &mined, Some(0x10 + 11), 12));
        assert!(!is_final(&receipt, &mined, None, 12));
        assert!(!is_final(&receipt, &Value::Null, Some(100), 12));
        let tx = c("eth_getTransactionByHash", json!(["0xab"]));
        assert!(!is_final(
            &tx,
            &json!({ "blockNumber": null }),
            Some(100),
            12
        ));
        assert!(is_final(
            &tx,
            &json!({ "blockNumber": "0x5" }),
            Some(100),
            12
        ));
        let deep = c("eth_getBlockByNumber", json!(["0x10", false]));
        assert!(is_final(&deep, &json!({}), Some(0x10 + 12), 12));
        assert!(!is_final(&deep, &json!({}), Some(0x10 + 11), 12));
        assert!(!is_final(&deep, &json!({}), None, 12));
        let latest = c("eth_getBlockByNumber", json!(["latest", false]));
        assert!(!is_final(&latest, &json!({}), Some(1000), 12));
        assert!(cache_key(&c("eth_call", json!([]))).is_none());
    }

    #[test]
    fn answers_are_readdressed_byte_for_byte() {
        let re = |a: &'static str, id: Value| {
            Reply::parse(Bytes::from(a)).map(|r| String::from_utf8(r.to(&id)).unwrap())
        };
        assert_eq!(
            re(
                r#"{"jsonrpc":"2.0","id":0,"result":{"b":1, "a":[1,2]}}"#,
                json!("x")
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":"x","result":{"b":1, "a":[1,2]}}"#
        );
        assert_eq!(
            re(r#"{"id":0,"jsonrpc":"2.0","result":null}"#, json!(7)).unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"result":null}"#
        );
        assert_eq!(
            re(
                r#"{"jsonrpc":"2.0","id":0,"error":{"code":3,"message":"execution reverted"}}"#,
                Value::Null
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":3,"message":"execution reverted"}}"#
        );
        for bad in [
            r#"{"jsonrpc":"2.0","id":0}"#,
            "[1]",
            "nope",
            r#"{"result":1"#,
        ] {
            assert_eq!(re(bad, json!(1)), None, "{bad}");
        }
    }

    #[test]
    fn flights_are_told_apart_by_method_and_params() {
        let a = flight_key(&c("eth_getBalance", json!(["0xab", "latest"])));
        assert_eq!(
            a,
            flight_key(&Call {
                id: json!("other"),
                ..c("eth_getBalance", json!(["0xab", "latest"]))
            })
        );
        assert_ne!(
            a,
            flight_key(&c("eth_getBalance", json!(["0xac", "latest"])))
        );
        assert_ne!(a, flight_key(&c("eth_getCode", json!(["0xab", "latest"]))));
    }
}

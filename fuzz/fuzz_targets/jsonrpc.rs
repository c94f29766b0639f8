//! The read-only JSON-RPC proxy: a client's request (single or batch), each call's params put in
//! canonical form, and an upstream's answer re-addressed to a caller's id.
//!
//! Input: a request body, also read as an upstream answer. Asserts that canonical params are a
//! fixed point (the canonical form of a canonical call is itself), that the bytes forwarded for a
//! call parse back to that call, and that a re-addressed answer is JSON carrying the same value.
#![no_main]

use bytes::Bytes;
use journal_market::rpc::jsonrpc::{self, Reply, Request};
use journal_market::rpc::params::{self, Limits};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn limits() -> [Limits; 2] {
    [
        Limits::default(),
        Limits {
            gas_cap: 1_000_000,
            fee_history_blocks: 64,
            max_state_age: 100,
            head: Some(1_000),
        },
    ]
}

fn request(data: &[u8], limits: &Limits) {
    let req = match jsonrpc::parse(data, limits) {
        Ok(r) => r,
        Err(e) => {
            let body = e.body();
            assert!(body["error"]["code"].is_i64());
            assert!(matches!(e.status(), 400 | 403));
            return;
        }
    };
    let calls = req.calls();
    assert!((1..=jsonrpc::MAX_BATCH).contains(&calls.len()));
    for c in calls {
        assert!(jsonrpc::ALLOWED.contains(&c.method.as_str()));
        assert_eq!(
            params::canonical(&c.method, &c.params, limits).as_ref(),
            Ok(&c.params),
            "canonical params are canonical"
        );
        let again = jsonrpc::parse(&jsonrpc::to_bytes(c), limits).expect("forwarded bytes parse");
        assert_eq!(
            again,
            Request::Single(c.clone()),
            "forwarded bytes are the call"
        );
        assert_eq!(
            jsonrpc::flight_key(c),
            jsonrpc::flight_key(&again.calls()[0])
        );
        let _ = jsonrpc::cache_key(c);
        for result in [Value::Null, json!({ "blockNumber": "0x10" }), json!({})] {
            let _ = jsonrpc::is_final(c, &result, limits.head, 12);
        }
    }
}

fn answer(data: &[u8]) {
    let Some(reply) = Reply::parse(Bytes::copy_from_slice(data)) else {
        return;
    };
    let outs: Vec<Vec<u8>> = [json!(1), json!("a\"b"), Value::Null]
        .iter()
        .map(|id| reply.to(id))
        .collect();
    // Numbers beyond f64 are valid JSON a `Value` cannot hold: nothing to compare then.
    let Ok(original) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for (id, out) in [json!(1), json!("a\"b"), Value::Null].into_iter().zip(outs) {
        let out: Value = serde_json::from_slice(&out).expect("a re-addressed answer is JSON");
        assert_eq!(out["id"], id);
        let value = out
            .get("result")
            .or_else(|| out.get("error"))
            .expect("result or error");
        let member = if out.get("result").is_some() {
            "result"
        } else {
            "error"
        };
        // Keys are unique in a map that reads back: the last of duplicates wins either way.
        assert_eq!(Some(value), original.get(member));
    }
}

fuzz_target!(|data: &[u8]| {
    for l in &limits() {
        request(data, l);
    }
    answer(data);
});

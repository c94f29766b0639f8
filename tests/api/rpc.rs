//! `POST /rpc`: the read-only JSON-RPC proxy.

use std::time::Duration;

use alloy::primitives::U256;
use alloy::providers::Provider;
use alloy::sol_types::SolCall;
use journal_market_chain::bindings::IERC20;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::devchain::{CountingUpstream, Mined, TestChain};
use crate::faultproxy::{Fault, FaultProxy};
use crate::helpers::TestApp;

async fn post(app: &TestApp, body: &Value) -> (StatusCode, Value) {
    post_raw(app, body.to_string()).await
}

async fn post_raw(app: &TestApp, body: String) -> (StatusCode, Value) {
    let resp = app
        .http
        .post(format!("{}/rpc", app.base))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap())
}

fn call(id: Value, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A mined transaction's hash: a USDG transfer by a buyer.
async fn a_transaction(chain: &TestChain) -> String {
    let buyer = chain.account("buyer", 0);
    let p = chain.provider(buyer);
    let receipt = IERC20::new(chain.devnet.contracts.usdg, &p)
        .transfer(chain.account("buyer", 1).address, U256::from(1))
        .mined()
        .await;
    format!("{:#x}", receipt.transaction_hash)
}

#[actix_web::test]
async fn every_allowed_method_is_answered() {
    let chain = TestChain::start().await;
    let app = chain.app().await;
    let c = &chain.devnet.contracts;
    let buyer = format!("{:#x}", chain.account("buyer", 0).address);
    let usdg = format!("{:#x}", c.usdg);
    let balance_of = format!(
        "0x{}",
        alloy::hex::encode(
            IERC20::balanceOfCall {
                owner: chain.account("buyer", 0).address
            }
            .abi_encode()
        )
    );
    let tx = a_transaction(&chain).await;
    let calls = [
        (
            "eth_call",
            json!([{ "to": usdg, "data": balance_of }, "latest"]),
        ),
        ("eth_chainId", json!([])),
        ("eth_blockNumber", json!([])),
        ("eth_getBalance", json!([buyer, "latest"])),
        ("eth_getCode", json!([usdg, "latest"])),
        ("eth_getTransactionCount", json!([buyer, "latest"])),
        ("eth_getTransactionReceipt", json!([tx])),
        ("eth_getTransactionByHash", json!([tx])),
        ("eth_getBlockByNumber", json!(["0x1", false])),
        (
            "eth_estimateGas",
            json!([{ "from": buyer, "to": usdg, "data": balance_of }]),
        ),
        ("eth_gasPrice", json!([])),
        ("eth_maxPriorityFeePerGas", json!([])),
        ("eth_feeHistory", json!(["0x1", "latest", []])),
    ];
    for (i, (method, params)) in calls.iter().enumerate() {
        let (status, body) = post(&app, &call(json!(i), method, params.clone())).await;
        assert_eq!(status, StatusCode::OK, "{method}: {body}");
        assert_eq!(body["jsonrpc"], "2.0");
        assert_eq!(body["id"], json!(i), "{method}");
        assert!(
            body.get("result").is_some_and(|r| !r.is_null()),
            "{method}: {body}"
        );
    }
    // The client's typed call.
    let n = app.client.rpc("eth_blockNumber", json!([])).await.unwrap();
    assert!(n.as_str().unwrap().starts_with("0x"));
}

#[actix_web::test]
async fn chain_id_is_answered_locally() {
    let chain = TestChain::start().await;
    let upstream = CountingUpstream::start(&chain.devnet.rpc_url).await;
    let app = app_behind(&chain, &upstream.url).await;
    let before = upstream.count("eth_chainId");
    let (status, body) = post(&app, &call(json!("a"), "eth_chainId", json!([]))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({ "jsonrpc": "2.0", "id": "a", "result": "0x1237" })
    );
    // The proxy answers the chain id itself.
    let (status, _) = post(&app, &call(json!(1), "eth_chainId", json!([]))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(upstream.count("eth_chainId"), before);
}

#[actix_web::test]
async fn rejections_forward_nothing() {
    let chain = TestChain::start().await;
    let upstream = CountingUpstream::start(&chain.devnet.rpc_url).await;
    let app = app_behind(&chain, &upstream.url).await;
    // The counting upstream serves the proxy alone (the service's own actors read the chain
    // through `chain.rpc_urls`), so anything it sees was forwarded by the proxy.
    let forwarded = || upstream.seen().len();
    let base = forwarded();

    let (status, body) = post(
        &app,
        &call(json!(3), "eth_sendRawTransaction", json!(["0x00"])),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["id"], json!(3));
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("eth_sendRawTransaction")
    );

    let batch = json!([
        call(
            json!(1),
            "eth_getBalance",
            json!(["0x0000000000000000000000000000000000000000", "latest"])
        ),
        call(json!(2), "personal_sign", json!([]))
    ]);
    let (status, body) = post(&app, &batch).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");

    let (status, body) = post_raw(&app, "{not json".into()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], -32700);
    assert_eq!(body["id"], Value::Null);

    for invalid in [
        json!({ "jsonrpc": "2.0", "id": 1 }),
        json!({ "id": 1, "method": "eth_blockNumber" }),
        json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": "x" }),
        json!([]),
        Value::Array(
            (0..21)
                .map(|i| call(json!(i), "eth_blockNumber", json!([])))
                .collect(),
        ),
        json!("eth_blockNumber"),
    ] {
        let (status, body) = post(&app, &invalid).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{invalid}");
        assert_eq!(body["error"]["code"], -32600, "{invalid}");
    }

    let huge = format!(
        "[{}]",
        vec![r#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}"#; 2000].join(",")
    );
    let (status, body) = post_raw(&app, huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["error"].is_object());

    assert_eq!(forwarded(), base, "a rejected request reached the upstream");
}

#[actix_web::test]
async fn batches_keep_order_and_ids() {
    let chain = TestChain::start().await;
    let app = chain.app().await;
    let ids = [json!("x"), json!(2), json!(null), json!(2), json!("y-é")];
    let batch: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            if i % 2 == 0 {
                call(id.clone(), "eth_chainId", json!([]))
            } else {
                call(id.clone(), "eth_blockNumber", json!([]))
            }
        })
        .collect();
    let (status, body) = post(&app, &Value::Array(batch)).await;
    assert_eq!(status, StatusCode::OK);
    let answers = body.as_array().unwrap();
    assert_eq!(answers.len(), ids.len());
    for (a, id) in answers.iter().zip(&ids) {
        assert_eq!(&a["id"], id);
        assert!(a["result"].is_string(), "{a}");
    }
    let full: Vec<Value> = (0..20)
        .map(|i| call(json!(i), "eth_gasPrice", json!([])))
        .collect();
    let (status, body) = post(&app, &Value::Array(full)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body.as_array().unwrap().len(), 20);
}

/// Mines `n` empty blocks on the test chain.
async fn mine(chain: &TestChain, n: u64) {
    crate::devchain::mine(&chain.provider(chain.account("buyer", 0)), n).await;
}

/// Posts `body` until an ask no longer reaches the upstream (the proxy has seen a head deep
/// enough to keep the answer), at most 10 s.
async fn until_cached(app: &TestApp, upstream: &CountingUpstream, method: &str, body: &Value) {
    for _ in 0..50 {
        post(app, body).await;
        let before = upstream.count(method);
        post(app, body).await;
        if upstream.count(method) == before {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("{method} was never answered from the cache");
}

#[actix_web::test]
async fn final_answers_are_cached() {
    let (chain, upstream, app) = counted_app(|s| s.chain.check_interval_secs = 1).await;
    let tx = a_transaction(&chain).await;
    let receipt = call(json!(1), "eth_getTransactionReceipt", json!([tx]));
    // Mined but within a reorg's reach: every ask goes upstream.
    let (_, first) = post(&app, &receipt).await;
    let (_, second) = post(&app, &receipt).await;
    assert_eq!(first["result"], second["result"]);
    assert_eq!(upstream.count("eth_getTransactionReceipt"), 2);
    // Twelve blocks later it is final, and kept.
    mine(&chain, 12).await;
    until_cached(&app, &upstream, "eth_getTransactionReceipt", &receipt).await;
    let n = upstream.count("eth_getTransactionReceipt");
    // Every spelling of the hash is the same call: one entry, no new upstream call.
    let shouted = format!("0x{}", tx[2..].to_ascii_uppercase());
    let (status, third) = post(
        &app,
        &call(json!(2), "eth_getTransactionReceipt", json!([shouted])),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(third["result"], first["result"]);
    assert_eq!(upstream.count("eth_getTransactionReceipt"), n);

    // An unknown transaction is not final: every ask goes upstream.
    let missing = call(
        json!(1),
        "eth_getTransactionReceipt",
        json!([format!("0x{}", "ab".repeat(32))]),
    );
    post(&app, &missing).await;
    post(&app, &missing).await;
    assert_eq!(upstream.count("eth_getTransactionReceipt"), n + 2);

    // `latest` is never cached.
    let latest = call(json!(1), "eth_getBlockByNumber", json!(["latest", false]));
    let blocks = upstream.count("eth_getBlockByNumber");
    post(&app, &latest).await;
    post(&app, &latest).await;
    assert_eq!(upstream.count("eth_getBlockByNumber"), blocks + 2);
}

/// Reads the RPC cache's size from `/health/actors`.
async fn cache_size(app: &TestApp) -> (u64, u64, u64) {
    let (_, body) = app.get("/health/actors").await;
    let c = &body["rpcCache"];
    (
        c["bytes"].as_u64().unwrap(),
        c["entries"].as_u64().unwrap(),
        c["limit"].as_u64().unwrap(),
    )
}

#[actix_web::test]
async fn the_cache_stays_within_its_bytes_under_a_flood() {
    let limit = 64 * 1024;
    let (chain, upstream, app) = counted_app(|s| {
        s.chain.check_interval_secs = 1;
        s.rpc.cache_bytes = limit;
    })
    .await;
    let tx = a_transaction(&chain).await;
    mine(&chain, 300).await;
    let receipt = call(json!(1), "eth_getTransactionReceipt", json!([tx]));
    until_cached(&app, &upstream, "eth_getTransactionReceipt", &receipt).await;
    // A flood of spellings of one hash: one entry, no upstream call.
    let n = upstream.count("eth_getTransactionReceipt");
    let digits: Vec<char> = tx[2..].chars().collect();
    for i in 0..200usize {
        let variant: String = digits
            .iter()
            .enumerate()
            .map(|(k, c)| {
                if (i >> (k % 8)) & 1 == 1 {
                    c.to_ascii_uppercase()
                } else {
                    *c
                }
            })
            .collect();
        let (status, _) = post(
            &app,
            &call(
                json!(i),
                "eth_getTransactionReceipt",
                json!([format!("0x{variant}")]),
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(upstream.count("eth_getTransactionReceipt"), n);
    let (_, entries, _) = cache_size(&app).await;
    assert_eq!(entries, 1, "every spelling shares one entry");
    // A flood of distinct final blocks (full, several KB each in JSON): the bytes stay bound.
    for b in 1..=280u64 {
        let (status, _) = post(
            &app,
            &call(
                json!(b),
                "eth_getBlockByNumber",
                json!([format!("{b:#x}"), true]),
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (bytes, _, cap) = cache_size(&app).await;
        assert_eq!(cap, limit);
        assert!(bytes <= limit, "{bytes} bytes held, the bound is {limit}");
    }
    let (bytes, entries, _) = cache_size(&app).await;
    assert!(
        entries > 10 && entries < 280,
        "{entries} entries, {bytes} bytes"
    );
}

#[actix_web::test]
async fn only_the_checked_call_reaches_the_upstream() {
    let (chain, upstream, app) = counted_app(|s| {
        s.rpc.gas_cap = 1_000_000;
        s.rpc.fee_history_blocks = 16;
    })
    .await;
    let usdg = format!("{:#x}", chain.devnet.contracts.usdg);
    // Go nodes read member names case-insensitively, the last one winning: these would run
    // as eth_sendRawTransaction there.
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","METHOD":"eth_sendRawTransaction","params":["0x00"]}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","Method":"eth_sendRawTransaction"}"#.to_string(),
        r#"[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","mEtHoD":"eth_sendRawTransaction"}]"#.to_string(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{{"to":"{usdg}","GAS":"0xffffffffff"}},"latest"]}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{{"to":"{usdg}"}},"latest",{{"{usdg}":{{"balance":"0x1"}}}}]}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"eth_estimateGas","params":[{{"to":"{usdg}"}},"latest",{{}}]}}"#),
        r#"{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["LATEST",false]}"#.to_string(),
    ] {
        let (status, answer) = post_raw(&app, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(answer["error"]["message"].is_string(), "{answer}");
    }
    // Allowed calls reach it in canonical form: gas lowered to the cap, fee history capped.
    let (status, _) = post(
        &app,
        &call(json!(9), "eth_call", json!([{ "to": usdg.to_uppercase().replace("0X", "0x"), "gas": "0xffffffffff" }, "latest"])),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, fees) = post(
        &app,
        &call(json!(10), "eth_feeHistory", json!(["0x400", "latest", []])),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{fees}");
    let bodies = upstream.bodies.lock().unwrap().clone();
    let mut calls = Vec::new();
    for b in &bodies {
        let v: Value = serde_json::from_str(b).unwrap();
        let items = match v {
            Value::Array(a) => a,
            one => vec![one],
        };
        for item in items {
            let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
            assert!(
                keys.iter()
                    .all(|k| ["jsonrpc", "id", "method", "params"].contains(&k.as_str())),
                "{b}"
            );
            assert!(
                !b.to_ascii_lowercase().contains("sendrawtransaction"),
                "{b}"
            );
            calls.push(item);
        }
    }
    let eth_call = calls.iter().find(|c| c["method"] == "eth_call").unwrap();
    assert_eq!(eth_call["params"][0]["gas"], "0xf4240");
    assert_eq!(eth_call["params"][0]["to"], json!(usdg));
    assert_eq!(eth_call["params"].as_array().unwrap().len(), 2);
    let fee = calls
        .iter()
        .find(|c| c["method"] == "eth_feeHistory")
        .unwrap();
    assert_eq!(fee["params"][0], "0x10");
}

#[actix_web::test]
async fn fails_over_and_answers_502_when_no_upstream_answers() {
    let chain = TestChain::start().await;
    let dead = format!(
        "http://127.0.0.1:{}",
        journal_market_devnet::anvil::free_port().unwrap()
    );
    let app = chain
        .app_with(|s| {
            s.chain.rpc_urls = vec![
                journal_market::config::Secret::new(dead.clone()),
                journal_market::config::Secret::new(chain.devnet.rpc_url.clone()),
            ]
        })
        .await;
    let (status, body) = post(&app, &call(json!(9), "eth_blockNumber", json!([]))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["result"].is_string());

    let db = crate::helpers::TestDb::new().await;
    let mut s = chain.settings(&db);
    s.chain.rpc_urls = vec![journal_market::config::Secret::new(dead)];
    s.chain.rpc_timeout_ms = 500;
    let down = TestApp::start(s, db).await;
    let started = std::time::Instant::now();
    let (status, body) = post(&down, &call(json!(9), "eth_blockNumber", json!([]))).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(body["id"], json!(9));
    assert_eq!(body["error"]["code"], -32603);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // eth_chainId needs no upstream.
    let (status, _) = post(&down, &call(json!(1), "eth_chainId", json!([]))).await;
    assert_eq!(status, StatusCode::OK);
}

/// How a hand-rolled upstream behaves: the failure modes a real node or load balancer shows
/// that anvil does not.
#[derive(Clone, Copy)]
enum Misbehaviour {
    /// Accepts connections and never answers.
    Silent,
    /// Answers the first request on each connection (chunked when asked) and drops the
    /// connection when the next request arrives on it, without ever announcing
    /// `Connection: close`: a node or balancer closing an idle connection just as it is reused.
    OncePerConnection { chunked: bool },
    /// Answers every request with this HTTP status.
    Status(u16),
}

/// Starts the upstream on a free port; returns its URL. It lives as long as the test's runtime.
async fn misbehaving_upstream(how: Misbehaviour) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut held = Vec::new();
                let mut answered = 0;
                loop {
                    // Read one request: headers, then a Content-Length body.
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 4096];
                    let body = loop {
                        let n = match socket.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => n,
                        };
                        buf.extend_from_slice(&chunk[..n]);
                        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                            continue;
                        };
                        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                        let len: usize = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .map(|v| v.trim().parse().unwrap())
                            .unwrap_or(0);
                        if buf.len() >= end + 4 + len {
                            break buf[end + 4..end + 4 + len].to_vec();
                        }
                    };
                    let request: Value = serde_json::from_slice(&body).unwrap();
                    let answer = json!({ "jsonrpc": "2.0", "id": request["id"], "result": "0x2a" })
                        .to_string();
                    let response = match how {
                        Misbehaviour::OncePerConnection { .. } if answered > 0 => return,
                        Misbehaviour::Silent => {
                            held.push(body);
                            continue;
                        }
                        Misbehaviour::Status(code) => format!(
                            "HTTP/1.1 {code} Oops\r\ncontent-type: text/plain\r\ncontent-length: 4\r\n\r\noops"
                        ),
                        Misbehaviour::OncePerConnection { chunked: false } => format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
                            answer.len()
                        ),
                        Misbehaviour::OncePerConnection { chunked: true } => {
                            let (a, b) = answer.split_at(answer.len() / 2);
                            format!(
                                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
                                a.len(),
                                b.len()
                            )
                        }
                    };
                    if socket.write_all(response.as_bytes()).await.is_err() {
                        return;
                    }
                    answered += 1;
                }
            });
        }
    });
    url
}

/// An app whose only chain RPC URLs are `urls` (no chain behind it: the proxy is all it uses).
async fn proxy_app(urls: Vec<String>, timeout_ms: u64) -> TestApp {
    let db = crate::helpers::TestDb::new().await;
    let mut s = crate::helpers::test_settings(&db.url);
    s.chain.rpc_urls = urls
        .into_iter()
        .map(journal_market::config::Secret::new)
        .collect();
    s.chain.rpc_timeout_ms = timeout_ms;
    s.demo.load_on_first_start = false;
    TestApp::start(s, db).await
}

#[actix_web::test]
async fn connections_the_upstream_drops_are_replaced() {
    for chunked in [false, true] {
        let up = misbehaving_upstream(Misbehaviour::OncePerConnection { chunked }).await;
        let app = proxy_app(vec![up], 2_000).await;
        for id in 0..6 {
            let (status, body) = post(&app, &call(json!(id), "eth_blockNumber", json!([]))).await;
            assert_eq!(
                status,
                StatusCode::OK,
                "call {id}, chunked {chunked}: {body}"
            );
            assert_eq!(
                body,
                json!({ "jsonrpc": "2.0", "id": id, "result": "0x2a" })
            );
        }
    }
}

#[actix_web::test]
async fn a_silent_upstream_times_out_and_the_next_one_answers() {
    let silent = misbehaving_upstream(Misbehaviour::Silent).await;
    let app = proxy_app(vec![silent.clone()], 400).await;
    let started = std::time::Instant::now();
    let (status, body) = post(&app, &call(json!("a"), "eth_blockNumber", json!([]))).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{body}");
    assert_eq!(body["id"], "a");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did not answer in time"),
        "{body}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(3));

    let good = misbehaving_upstream(Misbehaviour::OncePerConnection { chunked: false }).await;
    let app = proxy_app(vec![silent, good], 400).await;
    let (status, body) = post(&app, &call(json!(2), "eth_blockNumber", json!([]))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"], "0x2a");
}

#[actix_web::test]
async fn an_upstream_http_error_is_a_502_naming_the_status() {
    let up = misbehaving_upstream(Misbehaviour::Status(500)).await;
    let app = proxy_app(vec![up], 2_000).await;
    for body in [
        call(json!(1), "eth_blockNumber", json!([])),
        json!([
            call(json!(1), "eth_blockNumber", json!([])),
            call(json!(2), "eth_gasPrice", json!([]))
        ]),
    ] {
        let (status, answer) = post(&app, &body).await;
        assert_eq!(status, StatusCode::BAD_GATEWAY, "{answer}");
        let first = if answer.is_array() {
            &answer[0]
        } else {
            &answer
        };
        assert!(
            first["error"]["message"]
                .as_str()
                .unwrap()
                .contains("answered HTTP 500"),
            "{answer}"
        );
    }
}

/// A chain, a fault proxy in front of it holding every `eth_getBalance` answer for `held`,
/// and the proxy's app behind that.
async fn balances_held(held: Duration) -> (TestChain, FaultProxy, TestApp) {
    let chain = TestChain::start().await;
    let slow = FaultProxy::start(&chain.devnet.rpc_url).await;
    slow.set("eth_getBalance", Fault::Delay(held), None);
    let app = app_behind(&chain, &slow.url).await;
    (chain, slow, app)
}

/// A chain, an upstream in front of it that counts the calls, and the proxy's app with that
/// upstream only and no indexer (whose reads would count too), with `f`'s settings.
async fn counted_app(
    f: impl FnOnce(&mut journal_market::config::Settings),
) -> (TestChain, CountingUpstream, TestApp) {
    let chain = TestChain::start().await;
    let upstream = CountingUpstream::start(&chain.devnet.rpc_url).await;
    let url = upstream.url.clone();
    let app = chain
        .app_with(|s| {
            s.chain.proxy_rpc_urls = vec![journal_market::config::Secret::new(url)];
            s.indexer.enabled = false;
            f(s);
        })
        .await;
    (chain, upstream, app)
}

/// The proxy's app with `upstream` as its only upstream.
async fn app_behind(chain: &TestChain, upstream: &str) -> TestApp {
    let url = upstream.to_string();
    chain
        .app_with(move |s| {
            s.chain.proxy_rpc_urls = vec![journal_market::config::Secret::new(url.clone())]
        })
        .await
}

#[actix_web::test]
async fn identical_calls_in_flight_share_one_upstream_request() {
    let (chain, slow, app) = balances_held(Duration::from_millis(600)).await;
    let buyer = chain.account("buyer", 0).address;
    let other = chain.account("buyer", 1).address;
    let expected = format!(
        "{:#x}",
        chain
            .provider(chain.account("buyer", 0))
            .get_balance(buyer)
            .await
            .unwrap()
    );
    let balance = |id: Value, who: alloy::primitives::Address| {
        call(id, "eth_getBalance", json!([format!("{who:#x}"), "latest"]))
    };

    // Eight identical calls (however their ids differ) at once, and one for another address.
    let same = futures::future::join_all((0..8).map(|i| {
        let body = balance(json!(format!("c{i}")), buyer);
        let app = &app;
        async move { post(app, &body).await }
    }));
    let (answers, (status, lone)) = tokio::join!(same, async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        post(&app, &balance(json!(99), other)).await
    });
    for (i, (status, body)) in answers.into_iter().enumerate() {
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            body,
            json!({ "jsonrpc": "2.0", "id": format!("c{i}"), "result": expected })
        );
    }
    assert_eq!(status, StatusCode::OK, "{lone}");
    assert_eq!(lone["id"], json!(99));
    assert_eq!(
        slow.hits("eth_getBalance"),
        2,
        "one request per distinct call"
    );

    // Once answered, the same call asks the node again: nothing is kept.
    let (status, body) = post(&app, &balance(json!(1), buyer)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(slow.hits("eth_getBalance"), 3);
}

#[actix_web::test]
async fn a_call_sharing_a_request_gets_its_answer_when_the_first_caller_left() {
    let (chain, slow, app) = balances_held(Duration::from_millis(1500)).await;
    let buyer = format!("{:#x}", chain.account("buyer", 0).address);
    let body = |id: u64| call(json!(id), "eth_getBalance", json!([buyer, "latest"])).to_string();
    // The first caller gives up (its connection closes) while the second waits on its request.
    let quitter = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let gone = quitter
        .post(format!("{}/rpc", app.base))
        .header("content-type", "application/json")
        .body(body(1))
        .send();
    let (gone, (status, answer)) = tokio::join!(gone, async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        post_raw(&app, body(2)).await
    });
    assert!(gone.is_err(), "the first caller timed out");
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["id"], json!(2));
    assert!(answer["result"].is_string(), "{answer}");
    assert!(slow.hits("eth_getBalance") <= 2);
}

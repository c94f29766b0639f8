//! `GET /metrics` on the metrics listener (`metrics.listen`): counters move with the right
//! labels, and the public port does not serve it.

use journal_market::config::Secret;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::pay::Shop;

/// The exposition's text, checked to be OpenMetrics.
pub(crate) async fn scrape(app: &TestApp) -> String {
    let base = app.metrics.as_ref().expect("the metrics listener is on");
    let resp = app.fetch(format!("{base}/metrics")).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let kind = resp.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    let text = resp.text().await.unwrap();
    assert!(text.ends_with("# EOF\n"));
    text
}

/// The value of one series (`name{labels}` exactly as exposed), if exposed.
pub(crate) fn value(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| {
        l.strip_prefix(series)
            .and_then(|rest| rest.strip_prefix(' '))
            .and_then(|v| v.trim().parse().ok())
    })
}

pub(crate) fn expect(text: &str, series: &str) -> f64 {
    value(text, series).unwrap_or_else(|| panic!("{series} is missing from\n{text}"))
}

/// Asserts each series' value in `text`.
pub(crate) fn assert_series(text: &str, expected: &[(&str, f64)]) {
    for (series, value) in expected {
        assert_eq!(expect(text, series), *value, "{series}");
    }
}

/// The shape of an exposition, values left out: per family (sorted by name) its type, unit and
/// help text, then each sample name with its label names. The metric contract Grafana reads;
/// `golden` compares it with a file kept under `tests/api/golden/` (`GOLDEN_UPDATE=1` rewrites
/// it), so a change of name, type, label or help text shows up as a diff.
pub(crate) fn shape(text: &str) -> String {
    use std::collections::BTreeMap;
    #[derive(Default)]
    struct Family {
        kind: String,
        unit: String,
        help: String,
        samples: std::collections::BTreeSet<String>,
    }
    let mut families: BTreeMap<String, Family> = BTreeMap::new();
    for line in text.lines().filter(|&l| l != "# EOF") {
        if let Some(rest) = line.strip_prefix("# ") {
            let mut parts = rest.splitn(3, ' ');
            let (what, name, value) = (
                parts.next().unwrap(),
                parts.next().unwrap_or(""),
                parts.next().unwrap_or("").to_string(),
            );
            let f = families.entry(name.to_string()).or_default();
            match what {
                "HELP" => f.help = value,
                "TYPE" => f.kind = value,
                "UNIT" => f.unit = value,
                _ => {}
            }
            continue;
        }
        let name_end = line.find(['{', ' ']).unwrap_or(line.len());
        let sample = &line[..name_end];
        let labels = label_names(&line[name_end..]);
        let family = families
            .keys()
            .filter(|f| sample.starts_with(f.as_str()))
            .max_by_key(|f| f.len())
            .cloned()
            .unwrap_or_else(|| panic!("{sample} belongs to no family"));
        families
            .get_mut(&family)
            .unwrap()
            .samples
            .insert(format!("{sample}{{{}}}", labels.join(",")));
    }
    let mut out = String::new();
    for (name, f) in families {
        out.push_str(&format!(
            "{name} {} unit={:?} help={:?}\n",
            f.kind, f.unit, f.help
        ));
        for s in f.samples {
            out.push_str(&format!("  {s}\n"));
        }
    }
    out
}

/// The label names of a sample (`{k="v",…} value`), in order; values may hold `{`, `}`, `,`.
fn label_names(rest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let Some(mut rest) = rest.strip_prefix('{') else {
        return names;
    };
    while let Some((key, after)) = rest.split_once("=\"") {
        names.push(key.trim_start_matches(',').to_string());
        let mut escaped = false;
        let end = after
            .char_indices()
            .find(|&(_, c)| {
                let close = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                close
            })
            .map(|(i, _)| i)
            .unwrap();
        rest = &after[end + 1..];
        if rest.starts_with('}') {
            break;
        }
    }
    names
}

/// Compares the exposition's [`shape`] with `tests/api/golden/{name}`.
pub(crate) fn golden(text: &str, name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/api/golden")
        .join(name);
    let got = shape(text);
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (GOLDEN_UPDATE=1 writes it)", path.display()));
    assert!(
        got == want,
        "the metrics' shape changed ({}):\n--- want\n{want}\n--- got\n{got}",
        path.display()
    );
}

#[actix_web::test]
async fn requests_are_counted_by_route_on_a_listener_of_their_own() {
    let app = TestApp::spawn_with(|s| {
        s.metrics.listen = "127.0.0.1:0".into();
        s.cache.public_ttl_ms = 60_000;
    })
    .await;
    let public_port = app
        .base
        .trim_end_matches("/api")
        .rsplit(':')
        .next()
        .unwrap();
    assert!(
        !app.metrics
            .as_ref()
            .unwrap()
            .ends_with(&format!(":{public_port}")),
        "the metrics listener has a port of its own"
    );
    let before = scrape(&app).await;
    assert_eq!(
        value(
            &before,
            r#"http_requests_total{route="/api/journals",method="GET",status="200"}"#
        ),
        None
    );

    let (status, list) = app.get("/journals").await;
    assert_eq!(status, StatusCode::OK);
    app.get("/journals").await;
    let slug = list["journals"][0]["slug"].as_str().unwrap().to_string();
    let (status, _) = app.get(&format!("/journals/{slug}")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app.get("/no-such-thing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Not on the public port, under the prefix or at the root.
    let (status, _) = app.get("/metrics").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let root = app.base.trim_end_matches("/api");
    let resp = app.fetch(format!("{root}/metrics")).await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    // The metrics listener serves nothing else.
    let other = format!("{}/api/journals", app.metrics.as_ref().unwrap());
    let resp = app.fetch(other).await;
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);

    let text = scrape(&app).await;
    assert_eq!(
        expect(
            &text,
            r#"http_requests_total{route="/api/journals",method="GET",status="200"}"#
        ),
        2.0
    );
    assert_eq!(
        expect(
            &text,
            r#"http_requests_total{route="/api/journals/{key}",method="GET",status="200"}"#
        ),
        1.0
    );
    // /api/no-such-thing, /api/metrics and /metrics: unmatched, never their raw paths.
    assert_eq!(
        expect(
            &text,
            r#"http_requests_total{route="unmatched",method="GET",status="404"}"#
        ),
        3.0
    );
    assert!(!text.contains("no-such-thing") && !text.contains(&slug));
    assert_eq!(
        expect(
            &text,
            r#"http_request_duration_seconds_count{route="/api/journals",method="GET"}"#
        ),
        2.0
    );
    assert!(
        expect(
            &text,
            r#"http_request_duration_seconds_sum{route="/api/journals",method="GET"}"#
        ) > 0.0
    );
    // The list: computed once, then served from the cache.
    assert_eq!(
        expect(
            &text,
            r#"jm_cache_requests_total{cache="lists",result="miss"}"#
        ),
        1.0
    );
    assert_eq!(
        expect(
            &text,
            r#"jm_cache_requests_total{cache="lists",result="hit"}"#
        ),
        1.0
    );
    assert_eq!(
        expect(
            &text,
            r#"jm_cache_requests_total{cache="journals",result="miss"}"#
        ),
        1.0
    );
    // Read at the scrape: actors and the database pool.
    for actor in ["audit", "session"] {
        assert_eq!(
            expect(
                &text,
                &format!(r#"jm_actor_restarts_total{{actor="{actor}"}}"#)
            ),
            0.0
        );
        assert_eq!(
            expect(&text, &format!(r#"jm_actor_in_flight{{actor="{actor}"}}"#)),
            0.0
        );
    }
    assert_eq!(expect(&text, "jm_db_pool_max_connections"), 5.0);
    let idle = expect(&text, r#"jm_db_pool_connections{state="idle"}"#);
    let in_use = expect(&text, r#"jm_db_pool_connections{state="in_use"}"#);
    assert!(idle + in_use >= 1.0, "the pool keeps a connection open");
    // No payments back-end in this app: no settlement figures.
    assert!(!text.contains("jm_settlement_requests_total{"));
    // The indexer's first report (leader, no chain head in this app) may come after the
    // requests above: wait for it, so the shape does not depend on timing.
    let mut text = text;
    for _ in 0..100 {
        if value(&text, r#"jm_indexer_leader{actor="indexer"}"#).is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        text = scrape(&app).await;
    }
    golden(&text, "metrics_plain.txt");
}

#[actix_web::test]
async fn rpc_failovers_cache_hits_and_settlements_are_counted() {
    let dead = format!(
        "http://127.0.0.1:{}",
        journal_market_devnet::anvil::free_port().unwrap()
    );
    let shop = Shop::open_with(|s| {
        s.metrics.listen = "127.0.0.1:0".into();
        let live = s.chain.rpc_urls[0].clone();
        s.chain.rpc_urls = vec![Secret::new(dead.clone()), live];
    })
    .await;
    let app = &shop.app;

    // A purchase: one settled request, one settled row.
    let (_, slug, _) = shop.swarm_journal().await;
    let bought = shop.buy(&slug, shop.buyer(0)).await;
    let tx = bought.txs[0].clone();
    // An MCP paid call without a payment: the payment-required result, counted per tool.
    let mcp = format!("{}/mcp", app.base.trim_end_matches("/api"));
    let call = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "read_journal", "arguments": { "slug": slug } } });
    let answer: Value = app
        .http
        .post(mcp)
        .json(&call)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["result"]["isError"], true, "{answer}");

    // Through the proxy: a pass-through call and a final answer asked twice.
    let rpc = |body: Value| {
        let http = app.http.clone();
        let url = format!("{}/rpc", app.base);
        async move {
            let resp = http.post(url).json(&body).send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::OK);
        }
    };
    rpc(json!({ "jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": [] })).await;
    // The receipt is kept once a reorg can no longer reach it (12 blocks), when the chain
    // watch has seen that head: ask until an answer comes from the cache.
    crate::devchain::mine(&shop.chain.provider(shop.chain.account("deployer", 0)), 12).await;
    let receipt =
        json!({ "jsonrpc": "2.0", "id": 2, "method": "eth_getTransactionReceipt", "params": [tx] });
    let mut asked = 0.0;
    let text = loop {
        rpc(receipt.clone()).await;
        asked += 1.0;
        let text = scrape(app).await;
        if expect(
            &text,
            r#"jm_cache_requests_total{cache="rpc",result="hit"}"#,
        ) >= 1.0
        {
            break text;
        }
        assert!(
            asked < 50.0,
            "the receipt was never answered from the cache"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    // Every forwarded call met the dead upstream first, then the live one: the eth_blockNumber
    // and every receipt ask but the last (a cache hit).
    let forwarded = asked;
    assert_eq!(
        expect(
            &text,
            r#"jm_rpc_upstream_calls_total{upstream="0",outcome="error"}"#
        ),
        forwarded
    );
    assert_eq!(
        expect(
            &text,
            r#"jm_rpc_upstream_calls_total{upstream="1",outcome="ok"}"#
        ),
        forwarded
    );
    assert_eq!(
        expect(
            &text,
            r#"jm_rpc_upstream_calls_total{upstream="0",outcome="ok"}"#
        ),
        0.0
    );
    assert_eq!(expect(&text, "jm_rpc_failovers_total"), forwarded);
    assert_eq!(
        expect(
            &text,
            r#"jm_cache_requests_total{cache="rpc",result="miss"}"#
        ),
        asked - 1.0
    );
    assert_eq!(
        expect(
            &text,
            r#"jm_cache_requests_total{cache="rpc",result="hit"}"#
        ),
        1.0
    );
    assert_eq!(expect(&text, "jm_rpc_cache_entries"), 1.0);
    assert!(expect(&text, "jm_rpc_cache_bytes") > 0.0);
    assert_eq!(
        expect(
            &text,
            r#"http_requests_total{route="/api/rpc",method="POST",status="200"}"#
        ),
        asked + 1.0
    );
    // The service's own chain client met the dead upstream too.
    assert!(expect(&text, r#"jm_chain_upstream_failures_total{upstream="0"}"#) >= 1.0);
    assert!(expect(&text, r#"jm_chain_upstream_calls_total{upstream="1"}"#) >= 1.0);
    assert!(expect(&text, "jm_chain_failovers_total") >= 1.0);
    // The payment.
    assert_series(
        &text,
        &[
            (r#"jm_settlement_requests_total{outcome="settled"}"#, 1.0),
            (r#"jm_settlement_requests_total{outcome="busy"}"#, 0.0),
            (r#"jm_settlement_rows_total{outcome="settled"}"#, 1.0),
            (r#"jm_settlement_rows_total{outcome="failed"}"#, 0.0),
            (r#"jm_actor_restarts_total{actor="settlement"}"#, 0.0),
        ],
    );
    assert_series(
        &text,
        &[
            (
                r#"jm_mcp_calls_total{method="tools/call",tool="read_journal",outcome="error"}"#,
                1.0,
            ),
            (r#"jm_mcp_payments_total{outcome="challenged"}"#, 1.0),
        ],
    );

    // The indexer's progress, once it has looked at the chain.
    let mut text = text;
    for _ in 0..100 {
        if value(&text, r#"jm_indexer_lag_blocks{actor="indexer"}"#).is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        text = scrape(app).await;
    }
    assert_eq!(expect(&text, r#"jm_indexer_leader{actor="indexer"}"#), 1.0);
    let head = expect(&text, r#"jm_indexer_head_block{actor="indexer"}"#);
    let cursor = expect(&text, r#"jm_indexer_cursor_block{actor="indexer"}"#);
    assert_eq!(
        expect(&text, r#"jm_indexer_lag_blocks{actor="indexer"}"#),
        head - cursor
    );
    // Every family of an instance with payments, sponsoring and the indexer.
    golden(&text, "metrics_shop.txt");
}

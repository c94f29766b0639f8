//! The MCP endpoint (`POST /mcp`): the reference `mcp` SDK with the `x402` package's MCP binding
//! client (tests/x402/mcp_client.py) buys, retries and re-reads; raw JSON-RPC from here for the
//! protocol, the free tools, the resources, discovery and every refusal. Money is judged from
//! the chain's USDG `Transfer` logs.

use alloy::primitives::U256;
use journal_market_client::payer::sign_payment;
use journal_market_client::receipt::{SavedAnswer, verify};
use journal_market_x402 as x402;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::pay::{Shop, now};
use crate::reference::{driver, origin, reference_shop, root, venv_bin};
use crate::replay::{assert_one_charge, charges};

const PAYMENT: &str = "x402/payment";
const RESPONSE: &str = "x402/payment-response";

fn mcp_url(shop: &Shop) -> String {
    format!("{}/mcp", origin(shop))
}

/// `tests/x402/mcp_client.py MODE URL --slug SLUG …` as the wallet `key`.
async fn py_mcp(shop: &Shop, key: &str, mode: &str, slug: &str, flags: &[&str]) -> Value {
    let script = root().join("tests/x402/mcp_client.py");
    let url = mcp_url(shop);
    let rpc = &shop.chain.devnet.rpc_url;
    let mut args = vec![
        script.to_str().unwrap(),
        mode,
        &url,
        "--slug",
        slug,
        "--rpc",
        rpc,
    ];
    args.extend_from_slice(flags);
    let v = driver(venv_bin("python"), &args, Some(key)).await;
    assert_eq!(v["ok"], true, "the MCP client failed: {v}");
    // Every result, the payment-required and refusals included, matches its tool's
    // outputSchema, as a strict client demands.
    let checks = v["schemaChecks"].as_array().unwrap();
    assert!(checks.iter().any(|c| c["isError"] == true), "{v}");
    for c in checks {
        assert!(
            c["error"].is_null(),
            "a strict client refuses this result: {c}"
        );
    }
    v
}

/// One JSON-RPC request to `/mcp`: the HTTP status and the body.
async fn post(shop: &Shop, body: &Value) -> (StatusCode, Value) {
    let r = shop
        .app
        .http
        .post(mcp_url(shop))
        .header("accept", "application/json, text/event-stream")
        .json(body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The result of `method` (panics on a JSON-RPC error).
async fn call(shop: &Shop, method: &str, params: Value) -> Value {
    let (status, v) = post(
        shop,
        &json!({"jsonrpc":"2.0","id":1,"method":method,"params":params}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("error").is_none(), "{method}: {v}");
    v["result"].clone()
}

/// A `tools/call` result.
async fn tool(shop: &Shop, name: &str, arguments: Value, meta: Option<Value>) -> Value {
    let mut params = json!({ "name": name, "arguments": arguments });
    if let Some(m) = meta {
        params["_meta"] = m;
    }
    call(shop, "tools/call", params).await
}

/// The text a paid result delivered (`content[0].text` is `{ ok, tx, body, html }`).
fn delivered(r: &Value) -> String {
    assert_eq!(r["isError"], false, "{r}");
    let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        text, r["structuredContent"],
        "text and structured content agree"
    );
    let body = text["body"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {r}"));
    assert!(!body.is_empty());
    body.to_string()
}

/// A refusal that delivered nothing: an error result, no text.
fn refused(r: &Value) -> String {
    assert_eq!(r["isError"], true, "{r}");
    assert!(r["structuredContent"].get("body").is_none(), "{r}");
    assert!(r["structuredContent"].get("ok").is_none(), "{r}");
    r["structuredContent"]["error"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The answer a paid result is, as `jm verify-receipt` reads a saved one.
fn saved_answer(r: &Value) -> SavedAnswer {
    let settle = &r["_meta"][RESPONSE];
    assert_eq!(settle["success"], true, "{r}");
    SavedAnswer {
        payment_response: x402::encode_header(settle).unwrap(),
        body: r["content"][0]["text"].as_str().unwrap().to_string(),
    }
}

/// The receipt of a paid result, checked against the public API as `jm verify-receipt` does.
async fn verify_receipt(shop: &Shop, r: &Value) -> String {
    let saved = saved_answer(r);
    let v = verify(&shop.client(), &saved).await.unwrap();
    // One byte of the text changed: the receipt no longer holds.
    let tampered = SavedAnswer {
        body: saved.body.replacen("## ", "##  ", 1),
        ..saved
    };
    assert!(verify(&shop.client(), &tampered).await.is_err());
    v.slug
}

#[actix_web::test]
async fn the_reference_mcp_client_buys_a_swarm_journal_retries_once_and_rereads_with_a_proof() {
    let shop = reference_shop().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);

    let bought = py_mcp(&shop, &buyer.private_key, "buy", &slug, &[]).await;
    assert_eq!(bought["serverName"], "journal-market", "{bought}");
    for t in [
        "search_entries",
        "get_entry",
        "list_journals",
        "get_journal",
        "read_journal",
    ] {
        assert!(
            bought["tools"].as_array().unwrap().iter().any(|n| n == t),
            "{t}: {bought}"
        );
    }
    // The payment-required result of the binding: isError, the PaymentRequired twice.
    let probe = &bought["probe"];
    assert_eq!(probe["isError"], true, "{probe}");
    let pr = &probe["structuredContent"];
    assert_eq!(pr["x402Version"], 2);
    assert_eq!(pr["accepts"][0]["amount"], price.to_string());
    let text: Value = serde_json::from_str(probe["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(&text, pr);
    assert_eq!(
        pr["extensions"]["bazaar"]["info"]["input"]["type"], "mcp",
        "{pr}"
    );
    assert_eq!(
        pr["extensions"]["bazaar"]["info"]["input"]["toolName"],
        "read_journal"
    );

    let calls = bought["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{bought}");
    let paid = &calls[0];
    assert_eq!(paid["paymentMade"], true, "{paid}");
    assert_eq!(paid["paymentResponseParses"], true, "{paid}");
    let result = &paid["result"];
    let text = delivered(result);
    assert_eq!(
        paid["paymentResponse"]["transaction"], result["structuredContent"]["tx"],
        "{paid}"
    );
    assert_eq!(verify_receipt(&shop, result).await, slug);
    assert_one_charge(&shop, buyer.address, price).await;

    // Another wallet's answer is lost: the same payment (same payment-identifier) sent again
    // is answered as it was first, charged once.
    let other = shop.buyer(1);
    let pid = "pay_reference_mcp_0001";
    let retried = py_mcp(
        &shop,
        &other.private_key,
        "retry",
        &slug,
        &["--payment-id", pid],
    )
    .await;
    assert_eq!(
        retried["payment"]["extensions"]["payment-identifier"]["info"]["id"],
        pid
    );
    assert_eq!(delivered(&retried["first"]), text);
    assert_eq!(delivered(&retried["again"]), text);
    assert_eq!(
        retried["first"]["structuredContent"]["tx"],
        retried["again"]["structuredContent"]["tx"]
    );
    let malformed = &retried["malformed"];
    assert_eq!(malformed["isError"], true, "{malformed}");
    assert!(malformed["structuredContent"].get("body").is_none());
    assert_one_charge(&shop, other.address, price).await;

    // A wallet that bought reads again with a sign-in-with-x proof in _meta, paying nothing.
    shop.app.clock.advance(chrono::Duration::hours(1));
    let again = py_mcp(&shop, &buyer.private_key, "reread", &slug, &[]).await;
    assert_eq!(delivered(&again["reread"]), text, "{again}");
    assert!(
        again["reread"].get("_meta").is_none(),
        "nothing paid now: {again}"
    );
    assert_one_charge(&shop, buyer.address, price).await;
}

#[actix_web::test]
async fn the_reference_mcp_client_pays_a_person_written_journal_in_two_calls() {
    let shop = reference_shop().await;
    let (_, slug) = shop.person_journal(0, "2.5").await;
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(2);

    let bought = py_mcp(&shop, &buyer.private_key, "buy", &slug, &[]).await;
    let calls = bought["calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "the fee, then the author's share: {bought}");
    let fee = &calls[0]["result"];
    assert_eq!(fee["isError"], false, "{fee}");
    assert!(
        fee["structuredContent"].get("body").is_none(),
        "no text for the fee"
    );
    assert_eq!(calls[0]["paymentResponse"]["success"], true);
    let next = &fee["structuredContent"]["nextCall"];
    assert_eq!(next["name"], "read_journal");
    assert_eq!(
        next["arguments"]["payer"].as_str().unwrap().to_lowercase(),
        format!("{:#x}", buyer.address)
    );
    let last = &calls[1]["result"];
    delivered(last);
    assert_eq!(verify_receipt(&shop, last).await, slug);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(250_000u64)),
            (author, U256::from(2_250_000u64)),
        ]
    );
}

#[actix_web::test]
async fn the_endpoint_speaks_stateless_streamable_http() {
    let shop = Shop::open().await;
    let init = call(
        &shop,
        "initialize",
        json!({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}),
    )
    .await;
    assert_eq!(init["protocolVersion"], "2025-06-18");
    assert!(
        init["capabilities"]["tools"].is_object() && init["capabilities"]["resources"].is_object()
    );
    assert_eq!(call(&shop, "ping", json!({})).await, json!({}));
    // A notification alone is accepted, with nothing to say.
    let r = shop
        .app
        .http
        .post(mcp_url(&shop))
        .json(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    assert!(r.headers().get("mcp-session-id").is_none());
    let (_, v) = post(
        &shop,
        &json!({"jsonrpc":"2.0","id":2,"method":"prompts/get"}),
    )
    .await;
    assert_eq!(v["error"]["code"], -32601, "{v}");
    let r = shop
        .app
        .http
        .post(mcp_url(&shop))
        .body("{")
        .send()
        .await
        .unwrap();
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32700, "{v}");
    let r = shop.app.http.get(mcp_url(&shop)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(r.headers()["allow"], "POST");
    // A batch is answered as one.
    let (_, v) = post(
        &shop,
        &json!([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]),
    )
    .await;
    assert_eq!(v.as_array().unwrap().len(), 2, "{v}");
    let (_, v) = post(
        &shop,
        &json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}),
    )
    .await;
    assert_eq!(v["error"]["code"], -32602, "{v}");

    // 2026-07-28's mirrored headers: required when a request says it speaks that version,
    // checked against the body whenever they are sent (400, -32020, nothing served).
    let modern = |headers: &[(&'static str, &'static str)], body: Value| {
        let mut r = shop
            .app
            .http
            .post(mcp_url(&shop))
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28");
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        async move {
            let r = r.json(&body).send().await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        }
    };
    let entry = json!({"jsonrpc":"2.0","id":7,"method":"tools/call",
        "params":{"name":"search_entries","arguments":{"ticker":"NVDA"}}});
    let (status, v) = modern(
        &[("mcp-method", "tools/call"), ("mcp-name", "search_entries")],
        entry.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["isError"], false, "{v}");
    for (headers, why) in [
        (&[][..], "Mcp-Method header is required"),
        (
            &[("mcp-method", "tools/call")][..],
            "Mcp-Name header is required",
        ),
        (
            &[("mcp-method", "tools/call"), ("mcp-name", "read_journal")][..],
            "does not match",
        ),
    ] {
        let (status, v) = modern(headers, entry.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(v["error"]["code"], -32020, "{v}");
        assert_eq!(v["id"], 7, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains(why), "{v}");
    }
    // An older client may leave them out, but not contradict the body.
    let r = shop
        .app
        .http
        .post(mcp_url(&shop))
        .header("mcp-method", "ping")
        .json(&json!({"jsonrpc":"2.0","id":8,"method":"tools/list"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn the_free_tools_read_what_the_routes_read_and_never_the_text() {
    let shop = Shop::open().await;
    let (id, slug, _) = shop.swarm_journal().await;
    let found = tool(&shop, "search_entries", json!({"ticker": "nvda"}), None).await;
    let entries = found["structuredContent"]["entries"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!entries.is_empty(), "{found}");
    let rest = shop.app.client.search_entries("NVDA").await.unwrap();
    assert_eq!(entries.len(), rest.len());
    let word = entries[0]["title"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let narrowed = tool(
        &shop,
        "search_entries",
        json!({"ticker": "NVDA", "text": word}),
        None,
    )
    .await;
    assert!(
        !narrowed["structuredContent"]["entries"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let accession = entries[0]["id"].as_str().unwrap();
    let entry = tool(&shop, "get_entry", json!({"accession": accession}), None).await;
    assert_eq!(entry["structuredContent"]["id"], accession, "{entry}");
    let all = tool(&shop, "list_journals", json!({}), None).await;
    let listed = all["structuredContent"]["journals"]
        .as_array()
        .unwrap()
        .clone();
    let ours = listed
        .iter()
        .find(|j| j["slug"] == slug.as_str())
        .unwrap_or_else(|| panic!("{all}"));
    let ticker = ours["company"]["ticker"].as_str().unwrap();
    let list = tool(&shop, "list_journals", json!({"company": ticker}), None).await;
    let of_company = list["structuredContent"]["journals"].as_array().unwrap();
    assert!(
        of_company.iter().all(|j| j["company"]["ticker"] == ticker),
        "{list}"
    );
    assert!(
        of_company.iter().any(|j| j["slug"] == slug.as_str()),
        "{list}"
    );
    let j = tool(&shop, "get_journal", json!({"slug": id.to_string()}), None).await;
    assert_eq!(j["isError"], false, "{j}");
    assert!(
        j["structuredContent"]["audit"].is_object()
            && j["structuredContent"]["evidence"].is_array()
    );
    assert!(
        j["structuredContent"]["body"].is_null(),
        "never the text: {j}"
    );
    // Refusals a caller can correct: a tool error, not a protocol one.
    let bad = tool(
        &shop,
        "search_entries",
        json!({"ticker": "not a ticker!"}),
        None,
    )
    .await;
    assert!(refused(&bad).contains("ticker"));
    let bad = tool(&shop, "get_entry", json!({"wrong": 1}), None).await;
    assert!(refused(&bad).contains("arguments"));
    let missing = tool(
        &shop,
        "get_journal",
        json!({"slug": "no-such-journal"}),
        None,
    )
    .await;
    refused(&missing);
}

/// A payment signed here for the challenge `read_journal` answers `slug` with, after `edit`.
async fn signed(
    shop: &Shop,
    slug: &str,
    buyer: usize,
    edit: impl FnOnce(&mut x402::PaymentRequirements),
) -> Value {
    let probe = tool(shop, "read_journal", json!({"slug": slug}), None).await;
    let pr: x402::PaymentRequired =
        serde_json::from_value(probe["structuredContent"].clone()).unwrap();
    let mut offer = pr.accepts[0].clone();
    edit(&mut offer);
    let signer = shop.buyer(buyer).signer().unwrap();
    serde_json::to_value(sign_payment(&offer, Some(pr.resource), &signer, now()).unwrap()).unwrap()
}

#[actix_web::test]
async fn refusals_over_mcp_are_as_over_rest_and_deliver_nothing() {
    let shop = Shop::open().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(3).address;
    let read = |meta: Value| tool(&shop, "read_journal", json!({"slug": slug}), Some(meta));

    // A malformed payment: a clear refusal with the offer, never a panic or the text.
    for bad in [json!(7), json!({"x402Version": 2}), json!("not a payment")] {
        let r = read(json!({ PAYMENT: bad })).await;
        let why = refused(&r);
        assert!(why.contains("malformed"), "{why}");
        assert!(r["structuredContent"]["accepts"].is_array(), "{r}");
    }
    // Signed for another amount, or to another payee.
    let cheaper = signed(&shop, &slug, 3, |o| o.amount = (price - 1).to_string()).await;
    assert!(refused(&read(json!({ PAYMENT: cheaper })).await).contains("price or recipient"));
    let elsewhere = signed(&shop, &slug, 3, |o| o.pay_to = format!("{:#x}", buyer)).await;
    assert!(refused(&read(json!({ PAYMENT: elsewhere })).await).contains("price or recipient"));
    assert!(charges(&shop, buyer).await.is_empty());
    // An unknown journal.
    let r = tool(
        &shop,
        "read_journal",
        json!({"slug": "no-such-journal"}),
        None,
    )
    .await;
    assert!(refused(&r).contains("not on sale"), "{r}");
    let r = tool(
        &shop,
        "read_journal",
        json!({"slug": slug, "payer": "me"}),
        None,
    )
    .await;
    assert!(refused(&r).contains("payer"));

    // Paid, then the settled permit presented again (no payment-identifier, no proof): a
    // conflict, no text, nothing charged again.
    let payment = signed(&shop, &slug, 3, |_| {}).await;
    let paid = read(json!({ PAYMENT: payment.clone() })).await;
    delivered(&paid);
    assert_eq!(verify_receipt(&shop, &paid).await, slug);
    let replayed = read(json!({ PAYMENT: payment })).await;
    assert!(refused(&replayed).contains("settled already"), "{replayed}");
    assert_one_charge(&shop, buyer, price).await;
    // A proof that is no proof is refused with the offer.
    let r = read(json!({ "x402/sign-in-with-x": "bogus" })).await;
    assert!(refused(&r).contains("SIGN-IN-WITH-X"), "{r}");
    // The receipt binds the cited sources too: one byte of one, and it no longer holds.
    crate::text::change_a_cited_source(&shop, &slug).await;
    crate::text::sources_no_longer_hold(&shop.client(), &saved_answer(&paid)).await;
}

#[actix_web::test]
async fn journals_are_resources_with_the_text_behind_the_same_payment() {
    let shop = Shop::open().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let uri = format!("journal://{slug}");
    let list = call(&shop, "resources/list", json!({})).await;
    assert!(
        list["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["uri"] == uri.as_str()),
        "{list}"
    );
    let t = call(&shop, "resources/templates/list", json!({})).await;
    assert_eq!(t["resourceTemplates"][0]["uriTemplate"], "journal://{slug}");
    let preview = call(&shop, "resources/read", json!({"uri": uri})).await;
    let detail: Value =
        serde_json::from_str(preview["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(detail["slug"], slug.as_str());
    assert!(detail["body"].is_null(), "the preview holds no text");
    let (_, v) = post(&shop, &json!({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"journal://no-such"}})).await;
    assert_eq!(v["error"]["code"], -32002, "{v}");
    // A refused payment on a read: error 402 with the offer as data.
    let (_, v) = post(&shop, &json!({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri": uri, "_meta": { PAYMENT: 7 }}})).await;
    assert_eq!(v["error"]["code"], 402, "{v}");
    assert_eq!(v["error"]["data"]["x402Version"], 2, "{v}");
    let payment = signed(&shop, &slug, 1, |_| {}).await;
    let paid = call(
        &shop,
        "resources/read",
        json!({"uri": uri, "_meta": { PAYMENT: payment }}),
    )
    .await;
    let text: Value = serde_json::from_str(paid["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert!(text["body"].as_str().unwrap().starts_with("## "), "{paid}");
    assert_eq!(paid["_meta"][RESPONSE]["success"], true, "{paid}");
    assert_one_charge(&shop, shop.buyer(1).address, price).await;
}

#[actix_web::test]
async fn the_mcp_endpoint_is_discoverable() {
    let shop = Shop::open().await;
    // A journal published here has its ERC-8004 registration file.
    let (id, _) = shop.person_journal(0, "2.5").await;
    let base = origin(&shop);
    for path in [
        "/.well-known/mcp/server-card.json",
        "/.well-known/mcp/server-card",
        "/mcp/server-card",
    ] {
        let r = shop
            .app
            .http
            .get(format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let card: Value = r.json().await.unwrap();
        assert_eq!(card["remotes"][0]["type"], "streamable-http");
        assert_eq!(card["remotes"][0]["url"], mcp_url(&shop));
        assert!(card["name"].as_str().unwrap().ends_with("/journal-market"));
    }
    let cat: Value = shop
        .app
        .http
        .get(format!("{base}/.well-known/ai-catalog.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        cat["entries"][0]["url"]
            .as_str()
            .unwrap()
            .ends_with("/.well-known/mcp/server-card.json")
    );
    let doc: Value = shop
        .app
        .http
        .get(format!("{base}/.well-known/x402"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["mcp"]["endpoint"], mcp_url(&shop), "{doc}");
    let reg: Value = shop
        .app
        .http
        .get(format!("{}/meta/{id}", shop.app.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        reg["services"]
            .as_array()
            .unwrap_or_else(|| panic!("{reg}"))
            .iter()
            .any(|s| s["name"] == "MCP" && s["endpoint"] == mcp_url(&shop).as_str()),
        "{reg}"
    );
}

/// Over MCP as over REST: a payment costs a unit of the caller's pay class (the POST itself is
/// a read), and a contract wallet's proof a unit of its auth class before the chain is asked.
#[actix_web::test]
async fn paid_calls_and_contract_wallet_proofs_cost_the_classes_they_cost_over_rest() {
    use alloy::primitives::B256;
    use journal_market::config::{ClassLimit, Secret};

    let chain = crate::devchain::TestChain::start().await;
    let proxy = crate::faultproxy::FaultProxy::start(&chain.devnet.rpc_url).await;
    let url = proxy.url.clone();
    let shop = Shop::open_on_chain(chain, move |s| {
        s.chain.rpc_urls = vec![Secret::new(url)];
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.auth = ClassLimit {
            per_minute: 1,
            burst: 1,
        };
        s.limits.pay = ClassLimit {
            per_minute: 1,
            burst: 2,
        };
    })
    .await;
    let (_, slug, _) = shop.swarm_journal().await;
    // One client behind the trusted proxy (the shop's own setup counts against the proxy).
    let read = |meta: Value| {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "read_journal", "arguments": {"slug": slug}, "_meta": meta }});
        let req = shop
            .app
            .http
            .post(mcp_url(&shop))
            .header("accept", "application/json, text/event-stream")
            .header("x-forwarded-for", "198.51.100.9")
            .json(&body);
        async move {
            let r = req.send().await.unwrap();
            assert_eq!(r.status(), StatusCode::OK);
            let v: Value = r.json().await.unwrap();
            v["result"].clone()
        }
    };

    // Two payments (malformed ones cost as much as good ones), then the pay class is spent;
    // calls without a payment are reads and go on.
    for _ in 0..2 {
        assert!(refused(&read(json!({ PAYMENT: 7 })).await).contains("malformed"));
    }
    let limited = refused(&read(json!({ PAYMENT: 7 })).await);
    assert!(limited.contains("too many pay requests"), "{limited}");
    let offer = read(json!({})).await;
    assert!(offer["structuredContent"]["accepts"].is_array(), "{offer}");

    // A contract wallet's proof: charged, checked on the chain once (it has not bought: the
    // offer). The next one finds the auth class spent, before the chain is asked.
    let owner = shop.chain.account("buyer", 2);
    let owner_key = owner.signer().unwrap();
    let wallet = shop
        .chain
        .smart_wallet(owner, B256::with_last_byte(62), true)
        .await;
    let isvalid = "1626ba7e";
    let proof = |nonce| crate::wallets::wallet_proof(&shop, &owner_key, wallet, nonce, None);
    let first = read(json!({ "x402/sign-in-with-x": proof("mcpwallet0001") })).await;
    assert!(first["structuredContent"]["accepts"].is_array(), "{first}");
    assert_eq!(proxy.hits(isvalid), 1);
    let second = refused(&read(json!({ "x402/sign-in-with-x": proof("mcpwallet0002") })).await);
    assert!(second.contains("too many auth requests"), "{second}");
    assert_eq!(proxy.hits(isvalid), 1, "refused before the chain was asked");
}

//! The site in a real browser: Debian's chromium, headless, driven through the DevTools
//! protocol by `tests/browser/site.mjs` (playwright-core), with a test wallet injected into the
//! page (an EIP-1193 provider that signs with a devnet key through viem). Each scenario is
//! judged from what the page showed, from the chain and from the API.
//!
//! Needs `npm ci` (playwright-core, axe-core, viem) and chromium (`scripts/test.sh` installs
//! Debian's package when it is missing; `JM_CHROMIUM` names another binary).

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use alloy::primitives::U256;
use alloy::providers::Provider;
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::bindings::IIdentityRegistry;
use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::pay::Shop;

const RUN_TIMEOUT: Duration = Duration::from_secs(240);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> String {
    let bin = std::env::var("JM_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(
        std::path::Path::new(&bin).exists(),
        "{bin} is missing: `bash scripts/test.sh` installs Debian's chromium (or set JM_CHROMIUM)"
    );
    let m = root().join("node_modules/playwright-core/package.json");
    assert!(m.exists(), "{} is missing: run `npm ci`", m.display());
    bin
}

fn shots() -> String {
    root().join("target/screenshots").display().to_string()
}

fn site(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

/// Runs one scenario of `tests/browser/site.mjs`; its JSON report (it must have finished).
async fn drive(mut args: Value) -> Value {
    args["chromium"] = json!(chromium());
    args["shots"] = json!(shots());
    args["chainId"] = json!(4663);
    let child = tokio::process::Command::new("node")
        .arg("tests/browser/site.mjs")
        .env("JM_BROWSER", args.to_string())
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    let out = tokio::time::timeout(RUN_TIMEOUT, child.wait_with_output())
        .await
        .expect("the browser scenario finished in time")
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty());
    let v: Value = line
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("{args} printed no report\nstdout: {stdout}\nstderr: {stderr}"));
    assert_eq!(
        v["ok"], true,
        "{}: {}\npage errors: {}\nthe page showed: {}",
        args["scenario"], v["failure"], v["pageErrors"], v["shown"]
    );
    assert_eq!(v["pageErrors"], json!([]), "no script error on the page");
    v
}

/// The page's requests all went to the site itself.
fn only_the_site(report: &Value, site: &str) {
    for o in report["origins"].as_array().unwrap() {
        assert_eq!(o.as_str().unwrap(), site, "the page loaded from {o}");
    }
}

/// What the page said each time the wallet was asked to sign a payment.
fn signatures(report: &Value) -> Vec<String> {
    report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["method"] == "eth_signTypedData_v4")
        .map(|c| c["shown"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn readers_buy_in_the_browser_and_come_back() {
    let shop = Shop::open().await;
    let site = site(&shop.app);
    let rpc = shop.chain.devnet.rpc_url.clone();

    // A swarm journal: one signature, the whole price to the buyback wallet.
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let (paid_before, buyback_before) = (
        shop.usdg(buyer.address).await,
        shop.usdg(shop.buyback()).await,
    );
    let r = drive(
        json!({"scenario": "buy", "root": site, "rpc": rpc, "key": buyer.private_key,
        "slug": slug, "name": "swarm-journal"}),
    )
    .await;
    assert_eq!(r["error"], false, "{}", r["text"]);
    assert!(r["textChars"].as_u64().unwrap() > 200, "the text is shown");
    let asked = signatures(&r);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].contains("Signature 1 of 1: the price, "),
        "{asked:?}"
    );
    only_the_site(&r, &site);
    let price = U256::from(price as u64);
    assert_eq!(
        shop.usdg(buyer.address).await,
        paid_before - price,
        "the buyer paid the price once"
    );
    assert_eq!(shop.usdg(shop.buyback()).await, buyback_before + price);
    let api = shop.client();
    api.login(&buyer.signer().unwrap()).await.unwrap();
    let history = api.history().await.unwrap();
    assert!(history.unlocks.iter().any(|u| u.slug == slug));

    // A person's journal: two signatures, the 10% fee then the author's 90%, each explained
    // before the wallet asks.
    let (_, pslug) = shop.person_journal(0, "2.5").await;
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(1);
    let (author_before, buyback_before) =
        (shop.usdg(author).await, shop.usdg(shop.buyback()).await);
    let r = drive(
        json!({"scenario": "buy", "root": site, "rpc": rpc, "key": buyer.private_key,
        "slug": pslug, "name": "person-journal"}),
    )
    .await;
    assert_eq!(r["error"], false, "{}", r["text"]);
    let asked = signatures(&r);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0].contains("Signature 1 of 2: the 10% fee, 0.25 USDG, to the service"),
        "{asked:?}"
    );
    assert!(
        asked[1].contains("Signature 2 of 2: the author's 90%, 2.25 USDG, to the journal's owner"),
        "{asked:?}"
    );
    assert_eq!(
        shop.usdg(author).await,
        author_before + U256::from(2_250_000u64)
    );
    assert_eq!(
        shop.usdg(shop.buyback()).await,
        buyback_before + U256::from(250_000u64)
    );

    // The first buyer comes back on another day's browser: signs in and reads, paying nothing.
    let buyer = shop.buyer(0);
    let before = shop.usdg(buyer.address).await;
    let r = drive(json!({"scenario": "signin", "root": site, "rpc": rpc, "key": buyer.private_key, "slug": slug}))
    .await;
    assert!(r["textChars"].as_u64().unwrap() > 200);
    assert_eq!(
        r["calls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["method"] == "personal_sign")
            .count(),
        1
    );
    assert_eq!(
        shop.usdg(buyer.address).await,
        before,
        "signing in moved nothing"
    );

    // A new wallet with USDG and gas but no Permit2 allowance: the page asks for the approval
    // as one transaction first, then for the signature.
    let fresh = shop.usdg_only_buyer(10_000_000).await;
    let deployer = shop.chain.provider(shop.chain.account("deployer", 0));
    let _: () = deployer
        .raw_request(
            "anvil_setBalance".into(),
            (fresh.address(), U256::from(10u64).pow(U256::from(18u64))),
        )
        .await
        .unwrap();
    let other = shop.swarm_journals().await.remove(1);
    let key = format!("0x{}", alloy::hex::encode(fresh.to_bytes()));
    let r = drive(
        json!({"scenario": "buy", "root": site, "rpc": rpc, "key": key,
        "slug": other.slug, "name": "first-purchase"}),
    )
    .await;
    assert_eq!(r["error"], false, "{}", r["text"]);
    let methods: Vec<&str> = r["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap())
        .filter(|m| m.starts_with("eth_s"))
        .collect();
    assert_eq!(
        methods,
        ["eth_sendTransaction", "eth_signTypedData_v4"],
        "approval, then the signature"
    );
    let approval = &r["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["method"] == "eth_sendTransaction")
        .unwrap()["shown"];
    assert!(
        approval.as_str().unwrap().contains("allow Permit2"),
        "{approval}"
    );
    let paid = U256::from(other.price_units.parse::<u64>().unwrap());
    assert_eq!(
        shop.usdg(fresh.address()).await,
        U256::from(10_000_000u64) - paid
    );

    // A reader who rejects the signature, one whose wallet sits on another chain and one
    // without USDG are each told what happened in a sentence; nothing is signed or moved.
    let buyer = shop.buyer(2);
    let before = shop.usdg(buyer.address).await;
    let empty = PrivateKeySigner::random();
    let empty_key = format!("0x{}", alloy::hex::encode(empty.to_bytes()));
    for (name, key, wallet, said) in [
        (
            "rejected",
            buyer.private_key.as_str(),
            json!({"reject": "eth_signTypedData_v4"}),
            "You declined in your wallet",
        ),
        (
            "wrong-chain",
            buyer.private_key.as_str(),
            json!({"walletChain": 1}),
            "Your wallet is on chain 1; switch it to chain 4663",
        ),
        (
            "no-usdg",
            empty_key.as_str(),
            json!({}),
            "Your wallet holds 0 USDG",
        ),
    ] {
        let mut args = json!({"scenario": "buy", "root": site, "rpc": rpc, "key": key, "slug": slug, "name": name});
        for (k, v) in wallet.as_object().unwrap() {
            args[k] = v.clone();
        }
        let r = drive(args).await;
        assert_eq!(r["error"], true, "{name}");
        let text = r["text"].as_str().unwrap();
        assert!(text.contains(said), "{name}: {text}");
        if name != "rejected" {
            assert!(signatures(&r).is_empty(), "{name}: nothing to sign");
        }
    }
    assert_eq!(shop.usdg(buyer.address).await, before, "nothing moved");
}

#[actix_web::test]
async fn an_author_publishes_at_the_desk_and_a_reader_votes() {
    let shop = Shop::open().await;
    let site = site(&shop.app);
    let rpc = shop.chain.devnet.rpc_url.clone();
    let author = shop.chain.account("author", 2);
    let draft = shop
        .faithful_draft("Written at the desk in a browser", 3.0)
        .await;
    let r = drive(
        json!({"scenario": "publish", "root": site, "rpc": rpc, "key": author.private_key,
        "draft": draft}),
    )
    .await;
    assert_eq!(r["error"], false, "{}", r["text"]);
    let problems = r["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p.as_str().unwrap().contains("dek")),
        "the 422's problems were shown: {problems:?}"
    );
    assert_eq!(
        r["loaded"],
        draft.title.as_str(),
        "Edit loaded the saved draft"
    );
    assert!(
        r["verdict"].as_str().unwrap().contains("approved"),
        "{}",
        r["verdict"]
    );
    let href = r["href"].as_str().unwrap();
    let slug = href.trim_start_matches("/journal/");
    // Live in the API, its token held by the author on the chain.
    let j = shop.app.client.journal(slug).await.unwrap();
    assert_eq!(
        j.item.author.wallet.as_deref().map(str::to_lowercase),
        Some(format!("{:#x}", author.address))
    );
    assert_eq!(
        j.item.title,
        format!("{} (edited)", draft.title),
        "the edit was saved"
    );
    let token = j.token_id.expect("registered");
    let p = shop.chain.provider(author);
    let owner = IIdentityRegistry::new(shop.chain.devnet.contracts.identity_registry, &p)
        .ownerOf(U256::from(token))
        .call()
        .await
        .unwrap();
    assert_eq!(owner, author.address);

    // A reader buys it (through the client) and votes in the browser.
    let buyer = shop.buyer(2);
    shop.buy(slug, buyer).await;
    let r = drive(
        json!({"scenario": "vote", "root": site, "rpc": rpc, "key": buyer.private_key,
        "slug": slug, "value": 1}),
    )
    .await;
    assert_eq!(r["error"], false, "{}", r["text"]);
    let j = shop.app.client.journal(slug).await.unwrap();
    assert_eq!(j.item.votes.up, 1, "the vote is counted");
    let api = shop.client();
    api.login(&buyer.signer().unwrap()).await.unwrap();
    let votes = api.history().await.unwrap().votes;
    assert!(
        votes
            .iter()
            .any(|v| v.slug == slug && v.value == 1 && v.tx.starts_with("0x"))
    );
}

#[actix_web::test]
async fn pages_pass_axe_fit_a_phone_and_replay_the_swarm() {
    let app = TestApp::spawn().await;
    let site = site(&app);
    let j = app.client.journals(None).await.unwrap().journals.remove(0);
    let e = app.client.entries().await.unwrap().remove(0);
    let paths = [
        "/".to_string(),
        format!("/journal/{}", j.slug),
        format!("/entry/{}", e.id),
        "/company/NVDA".into(),
        "/swarm".into(),
        "/token".into(),
        "/desk".into(),
        "/history".into(),
    ];
    let r = drive(json!({"scenario": "axe", "root": site, "paths": paths})).await;
    for p in r["pages"].as_array().unwrap() {
        let bad: Vec<&Value> = p["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["impact"] == "serious" || v["impact"] == "critical")
            .collect();
        assert!(
            bad.is_empty(),
            "{} at {} px: {bad:?}",
            p["path"],
            p["width"]
        );
        assert_eq!(
            p["overflow"], false,
            "{} is wider than {} px",
            p["path"], p["width"]
        );
    }
    only_the_site(&r, &site);

    let r = drive(json!({"scenario": "swarm", "root": site})).await;
    assert!(r["lines"].as_u64().unwrap() > 0);
    assert_eq!(r["lines"], r["shown"], "the replay shows every line again");
}

#[actix_web::test]
async fn the_token_page_draws_its_chart_and_passes_axe() {
    let shop = Shop::open_indexing().await;
    let (ledger, _) = crate::token::trade_over_hours(&shop).await;
    let site = site(&shop.app);
    let r = drive(json!({"scenario": "token", "root": site})).await;
    for p in r["pages"].as_array().unwrap() {
        let bad: Vec<&Value> = p["violations"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["impact"] == "serious" || v["impact"] == "critical")
            .collect();
        assert!(bad.is_empty(), "/token at {} px: {bad:?}", p["width"]);
        assert_eq!(
            p["overflow"], false,
            "/token is wider than {} px",
            p["width"]
        );
        let (chart, width) = (
            p["chartWidth"].as_f64().unwrap(),
            p["width"].as_f64().unwrap(),
        );
        assert!(
            chart > 0.0 && chart <= width,
            "the chart ({chart} px) fits {width} px"
        );
    }
    let label = r["label"].as_str().unwrap();
    assert!(
        label.starts_with("Price and volume of the token per ")
            && label.contains(&format!(": {} swaps, ", ledger["swaps"])),
        "{label}"
    );
    assert!(r["bars"].as_u64().unwrap() >= 3, "{r}");
    assert_eq!(r["line"], 1, "{r}");
    assert!(r["rows"].as_u64().unwrap() >= r["bars"].as_u64().unwrap());
    assert_eq!(r["tableVisible"], true, "the table opens");
    let price = r["price"].as_str().unwrap();
    assert!(
        price.ends_with(" USD") && price != "0 USD",
        "the price keeps its digits: {price}"
    );
    only_the_site(&r, &site);
}

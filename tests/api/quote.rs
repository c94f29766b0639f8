//! `GET /quote/{ticker}` and chain readiness.

use alloy::primitives::{I256, U256};
use journal_market_chain::bindings::IPriceFeed;
use reqwest::StatusCode;

use crate::devchain::{Mined, TestChain};
use crate::helpers::{TestApp, TestDb};
use crate::shape::{T, assert_shape};

#[actix_web::test]
async fn fresh_stale_unknown_and_bad_prices() {
    let chain = TestChain::start().await;
    let app = chain.app_with(|s| s.chain.quote_cache_secs = 0).await;
    let (status, body) = app.get("/quote/NVDA").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_shape("quote", &body, &[("ticker", T::Str), ("mid", T::Num)]);
    assert_eq!(body["ticker"], "NVDA");
    assert_eq!(body["mid"], 181.42);
    assert_eq!(app.client.quote("TSLA").await.unwrap().mid, 352.10);

    app.expect_error("/quote/ZZZZ", StatusCode::NOT_FOUND).await;
    app.expect_error("/quote/nvda", StatusCode::NOT_FOUND).await;

    let deployer = chain.provider(chain.account("deployer", 0));
    let feed = IPriceFeed::new(
        chain.devnet.contracts.stock_tokens["NVDA"].price_feed,
        &deployer,
    );
    let five_days_ago = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        - 5 * 86400;
    feed.setRound(
        I256::try_from(18_000_000_000i64).unwrap(),
        U256::from(five_days_ago),
    )
    .mined()
    .await;
    let err = app
        .expect_error("/quote/NVDA", StatusCode::SERVICE_UNAVAILABLE)
        .await;
    assert!(err.contains("stale"), "{err}");

    feed.setAnswer(I256::ZERO).mined().await;
    let err = app
        .expect_error("/quote/NVDA", StatusCode::SERVICE_UNAVAILABLE)
        .await;
    assert!(err.contains("no usable price"), "{err}");
    feed.setAnswer(I256::try_from(19_000_000_000i64).unwrap())
        .mined()
        .await;
    assert_eq!(app.client.quote("NVDA").await.unwrap().mid, 190.0);
}

#[actix_web::test]
async fn quotes_are_cached_briefly() {
    let chain = TestChain::start().await;
    let app = chain.app_with(|s| s.chain.quote_cache_secs = 60).await;
    assert_eq!(app.client.quote("AMD").await.unwrap().mid, 162.33);
    let deployer = chain.provider(chain.account("deployer", 0));
    IPriceFeed::new(
        chain.devnet.contracts.stock_tokens["AMD"].price_feed,
        &deployer,
    )
    .setAnswer(I256::try_from(17_000_000_000i64).unwrap())
    .mined()
    .await;
    assert_eq!(
        app.client.quote("AMD").await.unwrap().mid,
        162.33,
        "served from the cache"
    );
}

#[actix_web::test]
async fn chain_down_then_back() {
    // Deploy once to learn the (deterministic) addresses, then stop the chain.
    let first = TestChain::start().await;
    let port = first.anvil.port;
    let devnet = first.devnet.clone();
    first.anvil.stop().await;

    let db = TestDb::new().await;
    let mut s = crate::helpers::test_settings(&db.url);
    journal_market::chain::apply_devnet(&mut s, &devnet).unwrap();
    s.chain.check_interval_secs = 1;
    s.chain.rpc_timeout_ms = 500;
    s.chain.quote_cache_secs = 0;
    let app = TestApp::start(s, db).await;

    // The archive is served while the chain is down; chain-bound reads are 503.
    let (status, body) = app.get("/journals").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body["journals"].as_array().unwrap().is_empty());
    app.wait_chain(false).await;
    let (_, config) = app.get("/config").await;
    assert_eq!(config["paymentsOpen"], false);
    let (status, ready) = app.get("/health/ready").await;
    assert_eq!(status, StatusCode::OK, "the archive still serves: {ready}");
    assert_ne!(ready["chain"], "ok");
    app.expect_error("/quote/NVDA", StatusCode::SERVICE_UNAVAILABLE)
        .await;

    // The chain comes back at the same place with the same contracts: no restart needed.
    let anvil = journal_market_devnet::anvil::spawn(Some(port), 4663)
        .await
        .unwrap();
    let again = journal_market_devnet::deploy::deploy(&anvil.url)
        .await
        .unwrap();
    assert_eq!(again.contracts, devnet.contracts);
    app.wait_chain(true).await;
    let (_, config) = app.get("/config").await;
    assert_eq!(config["paymentsOpen"], true);
    assert_eq!(config["usdg"], devnet.contracts.usdg.to_string());
    assert_eq!(app.client.quote("NVDA").await.unwrap().mid, 181.42);

    // Payments stay closed when disabled, chain or not.
    let closed = TestChain::start().await;
    let app = closed.app_with(|s| s.payments.enabled = false).await;
    assert!(!app.client.config().await.unwrap().payments_open);
}

//! Votes: reported with `POST /votes/record`, or picked up by the indexer; replaced by a newer
//! vote of the same wallet, removed by a revocation or by a reorg that orphans them.

use std::time::Duration;

use alloy::primitives::{B256, U256};
use alloy::providers::Provider;
use alloy::sol_types::SolCall;
use journal_market_chain::bindings::{IERC20, IMintable, IReputationRegistry, ISmartWallet};
use journal_market_chain::devnet_file::Account;
use journal_market_client::ClientError;
use journal_market_client::payer::sign_payment_as_wallet;
use reqwest::StatusCode;

use crate::devchain::{Mined, mine, revert, snapshot};
use crate::pay::{Shop, now};

fn status(e: &ClientError) -> StatusCode {
    match e {
        ClientError::Api { status, .. } => *status,
        other => panic!("expected an API error, got {other}"),
    }
}

impl Shop {
    /// `giveFeedback(token, value, 0, tag, "", page, "", 0)` from `who`; the mined tx hash.
    async fn vote(&self, who: &Account, token: u64, value: i128, tag: &str) -> String {
        let r = IReputationRegistry::new(
            self.chain.devnet.contracts.reputation_registry,
            self.chain.provider(who),
        )
        .giveFeedback(
            U256::from(token),
            value,
            0,
            tag.into(),
            String::new(),
            "http://127.0.0.1/journal".into(),
            String::new(),
            B256::ZERO,
        )
        .mined()
        .await;
        assert!(r.status());
        format!("{:#x}", r.transaction_hash)
    }

    /// A live person journal bought by buyer `n`: (slug, token id).
    async fn bought(&self, n: usize) -> (String, u64) {
        let (_, slug) = self.person_journal(0, "1").await;
        let buyer = self.buyer(n).signer().unwrap();
        self.client().buy(&slug, &buyer).await.unwrap();
        let token = self.token_of(&slug).await;
        (slug, token)
    }

    /// The identity token of a live journal.
    async fn token_of(&self, slug: &str) -> u64 {
        self.app
            .client
            .journal(slug)
            .await
            .unwrap()
            .token_id
            .unwrap()
    }

    async fn votes_of(&self, slug: &str) -> (i64, i64) {
        let v = self.app.client.journal(slug).await.unwrap().item.votes;
        (v.up, v.down)
    }

    /// Waits until the journal's counts are `want` (the indexer's work).
    async fn wait_votes(&self, slug: &str, want: (i64, i64)) {
        // Up to 30 s: the whole suite shares two cores.
        for _ in 0..600 {
            if self.votes_of(slug).await == want {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "votes of {slug} stayed {:?}, not {want:?}",
            self.votes_of(slug).await
        );
    }
}

#[actix_web::test]
async fn votes_are_recorded_replaced_and_revoked() {
    let shop = Shop::open_with(|s| s.indexer.poll_ms = 100).await;
    let (slug, token) = shop.bought(0).await;
    let voter = shop.buyer(0);

    let up = shop.vote(voter, token, 1, "accurate").await;
    let r = shop.app.client.record_vote(&up).await.unwrap();
    assert!(r.ok && r.counted);
    assert_eq!(
        (r.slug.as_str(), r.value, r.tag.as_str()),
        (slug.as_str(), 1, "accurate")
    );
    assert_eq!((r.votes.up, r.votes.down), (1, 0));
    // Reporting it again changes nothing.
    let again = shop.app.client.record_vote(&up).await.unwrap();
    assert_eq!(
        (again.votes.up, again.votes.down, again.counted),
        (1, 0, true)
    );

    // A later vote replaces it; the older one reported late does not come back.
    let down = shop.vote(voter, token, -1, "misleading").await;
    let r = shop.app.client.record_vote(&down).await.unwrap();
    assert_eq!((r.votes.up, r.votes.down), (0, 1));
    let late = shop.app.client.record_vote(&up).await.unwrap();
    assert!(!late.counted);
    assert_eq!((late.votes.up, late.votes.down), (0, 1));

    // The wallet's history shows its standing vote.
    let me = shop.client();
    me.login(&voter.signer().unwrap()).await.unwrap();
    let h = me.history().await.unwrap();
    assert_eq!(h.votes.len(), 1);
    assert_eq!(
        (
            h.votes[0].value,
            h.votes[0].tag.as_str(),
            h.votes[0].tx.as_str()
        ),
        (-1, "misleading", down.as_str())
    );

    // A revocation (read by the indexer) removes it.
    IReputationRegistry::new(
        shop.chain.devnet.contracts.reputation_registry,
        shop.chain.provider(voter),
    )
    .revokeFeedback(U256::from(token), 2)
    .mined()
    .await;
    shop.wait_votes(&slug, (0, 0)).await;
    assert!(me.history().await.unwrap().votes.is_empty());
}

#[actix_web::test]
async fn votes_the_rules_refuse() {
    let shop = Shop::open().await;
    let (slug, token) = shop.bought(0).await;
    let c = &shop.app.client;
    // Not a reader.
    let stranger = shop.vote(shop.buyer(1), token, 1, "").await;
    assert_eq!(
        status(&c.record_vote(&stranger).await.unwrap_err()),
        StatusCode::FORBIDDEN
    );
    // A disallowed tag, a value out of range.
    let voter = shop.buyer(0);
    let tag = shop.vote(voter, token, 1, "great").await;
    assert_eq!(
        status(&c.record_vote(&tag).await.unwrap_err()),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let five = shop.vote(voter, token, 5, "").await;
    assert_eq!(
        status(&c.record_vote(&five).await.unwrap_err()),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // Not a vote.
    let approve = IERC20::new(shop.chain.devnet.contracts.usdg, shop.chain.provider(voter))
        .approve(shop.buyback(), U256::from(1))
        .mined()
        .await;
    let approve = format!("{:#x}", approve.transaction_hash);
    assert_eq!(
        status(&c.record_vote(&approve).await.unwrap_err()),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A token that is no journal's.
    let author = shop.chain.account("author", 1).signer().unwrap();
    let other = journal_market_client::publisher::register(
        &shop.chain.devnet.rpc_url,
        shop.chain.devnet.contracts.identity_registry,
        &author,
        "https://example.com/agent.json",
    )
    .await
    .unwrap();
    let receipt = shop
        .chain
        .provider(voter)
        .get_transaction_receipt(other)
        .await
        .unwrap()
        .unwrap();
    let foreign = receipt
        .inner
        .logs()
        .iter()
        .find_map(|l| {
            l.log_decode::<journal_market_chain::bindings::IIdentityRegistry::Transfer>()
                .ok()
        })
        .unwrap()
        .inner
        .data
        .tokenId;
    let unknown = shop.vote(voter, foreign.to::<u64>(), 1, "").await;
    assert_eq!(
        status(&c.record_vote(&unknown).await.unwrap_err()),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // A reverted transaction: the journal's owner may not vote on it.
    let owner = shop.chain.account("author", 0);
    let reverted = IReputationRegistry::new(
        shop.chain.devnet.contracts.reputation_registry,
        shop.chain.provider(owner),
    )
    .giveFeedback(
        U256::from(token),
        1,
        0,
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        B256::ZERO,
    )
    .gas(300_000)
    .reverted()
    .await;
    assert_eq!(
        status(&c.record_vote(&reverted).await.unwrap_err()),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    // Malformed and unknown hashes.
    assert_eq!(
        status(&c.record_vote("0x12").await.unwrap_err()),
        StatusCode::BAD_REQUEST
    );
    // A hash the node has not seen may be seconds from it: 409 with Retry-After, not 404.
    let report = |tx: String| {
        shop.app
            .http
            .post(format!("{}/votes/record", shop.app.base))
            .json(&serde_json::json!({ "tx": tx }))
            .send()
    };
    let resp = report(format!("0x{}", "cd".repeat(32))).await.unwrap();
    assert_eq!(resp.status(), StatusCode::CONFLICT);
    assert!(resp.headers().contains_key("retry-after"));
    let body: serde_json::Value = resp.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("not seen"),
        "{body}"
    );
    // A transaction that is not a vote is 422 without `problems` (only draft validation
    // lists problems).
    let resp = report(reverted).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert!(body.get("problems").is_none(), "{body}");
    // None of them counted.
    assert_eq!(shop.votes_of(&slug).await, (0, 0));
}

#[actix_web::test]
async fn a_vote_nobody_reports_is_indexed_and_a_reorg_removes_it() {
    let shop = Shop::open_indexing().await;
    let (slug, token) = shop.bought(0).await;
    let provider = shop.chain.provider(shop.buyer(0));
    let snap = snapshot(&provider).await;
    shop.vote(shop.buyer(0), token, 1, "insightful").await;
    // A swap in the same stretch of blocks: the ledger's rows go with the reorg too.
    let c = &shop.chain.devnet.contracts;
    IERC20::new(c.weth, &provider)
        .approve(c.pool, U256::MAX)
        .mined()
        .await;
    let pool = journal_market_chain::bindings::IPool::new(c.pool, &provider);
    let weth_is_0 = pool.token0().call().await.unwrap() == c.weth;
    pool.swap(
        shop.buyer(0).address,
        weth_is_0,
        U256::from(10u64.pow(17)),
        U256::ZERO,
    )
    .mined()
    .await;
    shop.wait_votes(&slug, (1, 0)).await;
    let swaps = || async {
        let (_, l) = shop.app.get("/token.json").await;
        l["swaps"].as_u64().unwrap()
    };
    for _ in 0..100 {
        if swaps().await == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(swaps().await, 1);

    // The vote's block is orphaned: the chain goes back and grows past it without the vote.
    revert(&provider, snap).await;
    mine(&provider, 5).await;
    shop.wait_votes(&slug, (0, 0)).await;
    assert_eq!(swaps().await, 0, "the orphaned swap is gone");
    // The index reads on: a vote on the new chain is counted.
    shop.vote(shop.buyer(0), token, -1, "thin").await;
    shop.wait_votes(&slug, (0, 1)).await;
    let (_, health) = shop.app.get("/health/actors").await;
    let indexer = crate::helpers::actor(&health, "indexer");
    assert!(
        indexer["progress"]["reorgs"].as_u64().unwrap() >= 1,
        "{indexer}"
    );
}

#[actix_web::test]
async fn the_indexer_adapts_to_a_provider_that_refuses_large_ranges() {
    let shop = Shop::open().await;
    let (slug, token) = shop.bought(0).await;
    shop.vote(shop.buyer(0), token, 1, "well-sourced").await;
    let provider = shop.chain.provider(shop.buyer(0));
    mine(&provider, 4000).await;
    let head = provider.get_block_number().await.unwrap();

    // A second instance, indexing from scratch through a provider that takes 50 blocks at most:
    // more than the 64 ranges of one tick. The poll is a minute: the cursor reaches the head in
    // time only if a tick that stopped behind starts the next at once.
    let limited =
        crate::devchain::CountingUpstream::start_limited(&shop.chain.devnet.rpc_url, 50).await;
    let mut s = shop.app.settings.clone();
    s.demo.load_on_first_start = false;
    s.chain.rpc_urls = vec![journal_market::config::Secret::new(limited.url.clone())];
    s.indexer.poll_ms = 60_000;
    s.indexer.max_range = 1000;
    let db = crate::helpers::TestDb::new().await;
    s.database.url = journal_market::config::Secret::new(db.url.clone());
    // On a database of its own, the index itself is checked: the cursor reaches the head
    // although every range over 50 blocks is refused.
    let app = crate::helpers::TestApp::start(s, db).await;
    let mut progress = serde_json::Value::Null;
    for _ in 0..300 {
        let (_, health) = app.get("/health/actors").await;
        progress = indexer_progress(&health);
        if progress["cursor"].as_u64().is_some_and(|c| c >= head) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(progress["cursor"].as_u64().unwrap() >= head, "{progress}");
    // The range halves on each refusal and grows after successes: it stays near the limit.
    assert!(progress["range"].as_u64().unwrap() < 100, "{progress}");
    assert!(limited.count("eth_getLogs (refused)") >= 1);
    // The shop's own index (same chain, no limit) counted the vote.
    shop.wait_votes(&slug, (1, 0)).await;
    // Catching up, the next range is fetched while the current one is written: every log is
    // stored once all the same, as in the shop's own index. (Votes are not compared: that
    // database has no journals, so the vote is not its own.)
    use journal_market_entity::{token_holders, token_transfers};
    use sea_orm::{EntityTrait, PaginatorTrait};
    let (ours, theirs) = (shop.app.db.connect().await, app.db.connect().await);
    let transfers = token_transfers::Entity::find()
        .count(&theirs)
        .await
        .unwrap();
    assert!(transfers > 0, "the devnet's token moved before the vote");
    assert_eq!(
        transfers,
        token_transfers::Entity::find().count(&ours).await.unwrap()
    );
    let holders = |db| async move {
        let mut h: Vec<(String, String)> = token_holders::Entity::find()
            .all(db)
            .await
            .unwrap()
            .into_iter()
            .map(|h| (h.address, h.balance))
            .collect();
        h.sort();
        h
    };
    assert_eq!(holders(&theirs).await, holders(&ours).await);
}

fn indexer_progress(health: &serde_json::Value) -> serde_json::Value {
    crate::helpers::find_actor(health, "indexer")
        .map(|a| a["progress"].clone())
        .unwrap_or_default()
}

/// On PostgreSQL: two instances, one indexes; the leader is killed and the other goes on from
/// the cursor. On SQLite: the instance is stopped and a new one goes on from the cursor.
#[actix_web::test]
async fn the_index_goes_on_from_its_cursor_on_another_instance() {
    use journal_market_entity::{indexer_cursors, vote_events};
    use sea_orm::{EntityTrait, PaginatorTrait};

    let shop = Shop::open_with(|s| s.indexer.poll_ms = 100).await;
    let (slug, token) = shop.bought(0).await;
    shop.vote(shop.buyer(0), token, 1, "").await;
    shop.wait_votes(&slug, (1, 0)).await;
    let db = shop.app.db.connect().await;
    let before = indexer_cursors::Entity::find_by_id("chain")
        .one(&db)
        .await
        .unwrap()
        .unwrap()
        .block;

    let postgres = matches!(
        crate::helpers::backend(),
        crate::helpers::Backend::Postgres { .. }
    );
    let other = if postgres {
        let other = shop.app.sibling().await;
        // Exactly one of the two leads.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (_, a) = shop.app.get("/health/actors").await;
        let (_, b) = other.get("/health/actors").await;
        assert_eq!(indexer_progress(&a)["leader"], true, "{a}");
        assert_eq!(indexer_progress(&b)["leader"], false, "{b}");
        // A SIGKILL ends the process and, with it, its database sessions; in this process the
        // instance's actors stop and its session holding the lock is ended the same way.
        shop.app.kill();
        use sea_orm::ConnectionTrait;
        db.execute_unprepared(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .await
        .unwrap();
        other
    } else {
        shop.app.stop().await;
        shop.app.sibling().await
    };
    // A second reader votes; the remaining instance indexes it (once its first chain check
    // opened payments: buying before that was this test's old flake).
    other.wait_chain(true).await;
    let buyer = shop.buyer(1);
    journal_market_client::Client::new(other.base.clone())
        .unwrap()
        .buy(&slug, &buyer.signer().unwrap())
        .await
        .unwrap();
    shop.vote(buyer, token, -1, "outdated").await;
    let mut votes = (0, 0);
    for _ in 0..600 {
        let v = other.client.journal(&slug).await.unwrap().item.votes;
        votes = (v.up, v.down);
        if votes == (1, 1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(votes, (1, 1));
    let (_, health) = other.get("/health/actors").await;
    let p = indexer_progress(&health);
    assert_eq!(p["leader"], true, "{p}");
    assert!(p["cursor"].as_i64().unwrap() > before);
    // Each vote once: nothing was read twice into the table.
    assert_eq!(vote_events::Entity::find().count(&db).await.unwrap(), 2);
}

/// A provider that answers a block's logs from a fork (a log of another block in the
/// answer): the indexer reads the blocks near the head as one chain of headers and each
/// block's logs by its hash, so the forged answer is refused and read again; only canonical
/// rows are stored.
#[actix_web::test]
async fn an_answer_from_a_fork_is_read_again_and_never_stored() {
    use journal_market_entity::{token_transfers, vote_events};
    use sea_orm::EntityTrait;
    let shop = Shop::open_with(|s| s.indexer.enabled = false).await;
    let (slug, token) = shop.bought(0).await;
    let tx = shop.vote(shop.buyer(0), token, 1, "insightful").await;

    // The only indexer reads through the forging provider, every block within its reorg
    // distance (so each block's logs are asked for by hash).
    let forging =
        crate::devchain::CountingUpstream::start_forging(&shop.chain.devnet.rpc_url, 3).await;
    let mut s = shop.app.settings.clone();
    s.indexer.enabled = true;
    s.indexer.poll_ms = 100;
    s.indexer.reorg_depth = 100_000;
    s.chain.rpc_urls = vec![journal_market::config::Secret::new(forging.url.clone())];
    let indexer = crate::helpers::TestApp::start_on(s, shop.app.db.clone()).await;
    shop.wait_votes(&slug, (1, 0)).await;
    assert!(
        forging.forged.load(std::sync::atomic::Ordering::SeqCst) >= 1,
        "the provider forged an answer"
    );
    let db = indexer.db.connect().await;
    let votes = vote_events::Entity::find().all(&db).await.unwrap();
    assert_eq!(votes.len(), 1, "{votes:?}");
    assert_eq!(votes[0].tx, tx);
    let forged_tx = crate::devchain::FORGED_TX;
    assert!(
        token_transfers::Entity::find()
            .all(&db)
            .await
            .unwrap()
            .iter()
            .all(|t| t.tx != forged_tx),
        "no row of the forged log"
    );
}

/// A vote reported through the API ahead of the index, whose transaction a reorg then drops:
/// when the index reaches that height on the new chain, the reported vote goes.
#[actix_web::test]
async fn a_reported_vote_that_a_reorg_drops_is_removed() {
    // No index yet: the report is the only record of the vote.
    let shop = Shop::open_with(|s| s.indexer.enabled = false).await;
    let (slug, token) = shop.bought(0).await;
    let provider = shop.chain.provider(shop.buyer(0));
    let snap = snapshot(&provider).await;
    let tx = shop.vote(shop.buyer(0), token, 1, "insightful").await;
    let recorded = shop.client().record_vote(&tx).await.unwrap();
    assert!(recorded.counted);
    assert_eq!(shop.votes_of(&slug).await, (1, 0));

    // The vote's block is orphaned; the chain grows past it without the vote.
    revert(&provider, snap).await;
    mine(&provider, 10).await;
    assert_eq!(shop.votes_of(&slug).await, (1, 0), "nothing has looked yet");
    // The index starts and reads those blocks on the new chain.
    let mut s = shop.app.settings.clone();
    s.indexer.enabled = true;
    s.indexer.poll_ms = 100;
    let _indexer = crate::helpers::TestApp::start_on(s, shop.app.db.clone()).await;
    shop.wait_votes(&slug, (0, 0)).await;
}

/// A contract wallet (the devnet's `SmartWallet`) buys a journal with ERC-1271 permits and votes
/// through its own contract: the owner's key sends `execute(registry, giveFeedback(..))`, so
/// the transaction goes to the wallet, not to the registry. The registry's `NewFeedback` log
/// names the wallet as the voter; that is what counts.
#[actix_web::test]
async fn a_contract_wallet_votes_through_its_contract() {
    let shop = Shop::open().await;
    let (id, slug) = shop.person_journal(0, "1").await;
    let owner = shop.buyer(3);
    let owner_key = owner.signer().unwrap();
    let wallet = shop
        .chain
        .smart_wallet(owner, B256::with_last_byte(43), true)
        .await;
    let c = &shop.chain.devnet.contracts;
    let deployer = shop.chain.provider(shop.chain.account("deployer", 0));
    IMintable::new(c.usdg, &deployer)
        .mint(wallet, U256::from(5_000_000u64))
        .mined()
        .await;
    let contract = ISmartWallet::new(wallet, shop.chain.provider(owner));
    let approve = IERC20::approveCall {
        spender: journal_market_x402::canonical::PERMIT2,
        amount: U256::MAX,
    }
    .abi_encode();
    assert!(
        contract
            .execute(c.usdg, U256::ZERO, approve.into())
            .mined()
            .await
            .status()
    );
    // Both steps, each permit signed by the owner's key for the wallet (ERC-1271).
    for path in ["pay/burn", "pay/author"] {
        let offer = shop.offer(path, id).await;
        let p = sign_payment_as_wallet(&offer.accepts[0], None, &owner_key, wallet, now()).unwrap();
        let (status, body, _) = shop.raw_pay(path, id, Some(&p)).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    let token = shop.token_of(&slug).await;

    let feedback = IReputationRegistry::giveFeedbackCall {
        agentId: U256::from(token),
        value: 1,
        valueDecimals: 0,
        tag1: String::new(),
        tag2: String::new(),
        endpoint: "http://127.0.0.1/journal".into(),
        feedbackURI: String::new(),
        feedbackHash: B256::ZERO,
    }
    .abi_encode();
    let receipt = contract
        .execute(c.reputation_registry, U256::ZERO, feedback.into())
        .mined()
        .await;
    assert!(receipt.status());
    assert_eq!(
        receipt.to,
        Some(wallet),
        "sent to the wallet, not the registry"
    );
    let recorded = shop
        .app
        .client
        .record_vote(&format!("{:#x}", receipt.transaction_hash))
        .await
        .unwrap();
    assert!(recorded.counted && recorded.value == 1, "{recorded:?}");
    assert_eq!(shop.votes_of(&slug).await, (1, 0));
}

#[actix_web::test]
async fn a_vote_reported_again_empties_no_cache_and_counts_against_the_limit() {
    // Public reads cached for a minute: only an invalidation shows a change made behind them.
    let shop = Shop::open_with(|s| {
        s.cache.public_ttl_ms = 60_000;
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.publish = journal_market::config::ClassLimit {
            per_minute: 1,
            burst: 10,
        };
    })
    .await;
    let (slug, token) = shop.bought(0).await;
    let voter = shop.buyer(0);
    let up = shop.vote(voter, token, 1, "accurate").await;
    let report = || {
        shop.app
            .http
            .post(format!("{}/votes/record", shop.app.base))
            .header("x-forwarded-for", "203.0.113.50")
            .json(&serde_json::json!({ "tx": up }))
            .send()
    };
    let first = report().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let title = |list: &journal_market_client::api::JournalList| {
        list.journals
            .iter()
            .find(|j| j.slug == slug)
            .map(|j| j.title.clone())
            .unwrap()
    };
    let before = title(&shop.app.client.journals(None).await.unwrap());
    // A change the cache does not know of: it shows only once something empties the cache.
    use sea_orm::ConnectionTrait;
    shop.app
        .db
        .connect()
        .await
        .execute_unprepared(&format!(
            "UPDATE journals SET title = 'Changed behind the cache' WHERE slug = '{slug}'"
        ))
        .await
        .unwrap();
    // The same vote again: the same answer, until the reporter's quota is used up.
    let mut limited = None;
    for n in 1..=12 {
        let r = report().await.unwrap();
        if r.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some((n, crate::helpers::assert_429(r).await));
            break;
        }
        assert_eq!(r.status(), StatusCode::OK);
        let v: serde_json::Value = r.json().await.unwrap();
        assert_eq!(
            (v["counted"].as_bool(), v["votes"]["up"].as_i64()),
            (Some(true), Some(1))
        );
    }
    let (n, message) = limited.expect("re-reports are limited");
    assert_eq!(n, 10, "the first report and 9 more fill a burst of 10");
    assert!(message.contains("publish"), "{message}");
    assert_eq!(
        title(&shop.app.client.journals(None).await.unwrap()),
        before,
        "nothing emptied the cache"
    );
}

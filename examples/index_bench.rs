//! The indexer's catch-up against a plain `eth_getLogs` sweep of the same range (bench
//! index.sh): a fresh anvil with the dev contracts, EVENTS burns of the community token (one
//! `Transfer` each) spread over at least BLOCKS blocks, then (1) a sweep of the indexer's filter
//! in 2,000-block ranges, (2) the service indexing the same range from block 0 on a fresh
//! SQLite file; three rounds of both. Prints "blocks events sweep_secs index_secs" (medians).
//! With INDEX_BENCH_ANVIL=<url> it uses that anvil instead of its own, making the burns only
//! when <work-dir>/devnet.json is absent (to measure again without waiting for them).
//! `index_bench <work-dir> <events> <blocks>`

use std::time::{Duration, Instant};

use alloy::network::TransactionBuilder;
use alloy::primitives::{U256, address};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, TransactionRequest};
use alloy::sol_types::{SolCall, SolEvent};
use jm_chain::bindings::{IERC20, IPool, IReputationRegistry};
use jm_chain::devnet::{self, wallet_provider};
use journal_market::app::Application;
use journal_market::config::{Secret, Settings};

/// The service's allocator: the indexer is measured as it runs in `journal-market`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, work, events, blocks] = args.as_slice() else {
        anyhow::bail!("usage: index_bench <work-dir> <events> <blocks>");
    };
    let (events, blocks): (u64, u64) = (events.parse()?, blocks.parse()?);
    // INDEX_BENCH_ANVIL=<url>: an anvil the caller runs, prepared once (the chain is kept in
    // <work-dir>/devnet.json) and measured again on later runs: the burns take minutes.
    let mut own = None;
    let url = match std::env::var("INDEX_BENCH_ANVIL") {
        Ok(u) => u,
        Err(_) => {
            let a = jm_chain::anvil::spawn(None, 4663).await?;
            let u = a.url.clone();
            own = Some(a);
            u
        }
    };
    let kept = std::path::Path::new(work).join("devnet.json");
    let plain = alloy::providers::ProviderBuilder::new().connect_http(url.parse()?);
    let d = if own.is_none() && kept.exists() {
        serde_json::from_str(&std::fs::read_to_string(&kept)?)?
    } else {
        let d = devnet::deploy(&url).await?;
        burns(&plain, &url, &d, events, blocks).await?;
        std::fs::write(&kept, serde_json::to_string(&d)?)?;
        d
    };
    let c = d.contracts.clone();
    let head = plain.get_block_number().await?;

    // Three rounds of (1) and (2); the medians are printed (2 cores shared with anvil: one
    // round can be slowed by something else on the machine).
    let mut sweeps = Vec::new();
    let mut indexes = Vec::new();
    for round in 0..3 {
        let (seen, sweep) = sweep_once(&plain, &c, head).await?;
        let (stored, index) = index_once(work, round, &d, head).await?;
        eprintln!(
            "round {round}: sweep {sweep:.3} s saw {seen} logs; index {index:.3} s stored {stored} transfers"
        );
        sweeps.push(sweep);
        indexes.push(index);
    }
    let (seen, _) = sweep_once(&plain, &c, head).await?;
    println!("{head} {seen} {:.2} {:.2}", median(sweeps), median(indexes));
    if let Some(a) = own {
        a.stop().await;
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// (1) The plain sweep: the indexer's filter, 2,000 blocks at a time, one call after another.
async fn sweep_once(
    plain: &impl Provider,
    c: &jm_chain::devnet::Contracts,
    head: u64,
) -> anyhow::Result<(usize, f64)> {
    let filter = Filter::new()
        .address(vec![c.reputation_registry, c.token, c.pool])
        .event_signature(vec![
            IReputationRegistry::NewFeedback::SIGNATURE_HASH,
            IReputationRegistry::FeedbackRevoked::SIGNATURE_HASH,
            IPool::Swap::SIGNATURE_HASH,
            IERC20::Transfer::SIGNATURE_HASH,
        ]);
    let started = Instant::now();
    let mut seen = 0usize;
    let mut from = 0u64;
    while from <= head {
        let to = (from + 1999).min(head);
        seen += plain
            .get_logs(&filter.clone().from_block(from).to_block(to))
            .await?
            .len();
        from = to + 1;
    }
    Ok((seen, started.elapsed().as_secs_f64()))
}

/// (2) The service, indexing from block 0 into a fresh SQLite file whose migrations ran before
/// the clock starts (an instance started with the indexer off, then stopped).
async fn index_once(
    work: &str,
    round: usize,
    d: &jm_chain::devnet::Devnet,
    head: u64,
) -> anyhow::Result<(u64, f64)> {
    let mut s = Settings::load(None)?;
    journal_market::chain::apply_devnet(&mut s, d);
    s.server.listen = "127.0.0.1:0".into();
    let file = format!("{work}/index-{round}.db");
    for leftover in [file.clone(), format!("{file}-wal"), format!("{file}-shm")] {
        let _ = std::fs::remove_file(leftover);
    }
    s.database.url = Secret::new(format!("sqlite://{file}"));
    s.demo.load_on_first_start = false;
    s.indexer.poll_ms = 50;
    s.indexer.max_range = 2000;
    s.log.filter = "warn".into();
    let mut prepare = s.clone();
    prepare.indexer.enabled = false;
    // (A server that never ran would wait for ever on stop: run it, then stop it.)
    let prepared = Application::build(prepare).await?;
    let stop = prepared.handle();
    actix_web::rt::spawn(prepared.run_until_stopped());
    stop.stop(true).await;
    let started = Instant::now();
    let app = Application::build(s).await?;
    let built = started.elapsed().as_secs_f64();
    let db = app.db().clone();
    let handle = app.handle();
    actix_web::rt::spawn(app.run_until_stopped());
    loop {
        let cursor = journal_market_entity::indexer_cursors::Entity::find_by_id("chain")
            .one(&db)
            .await?;
        if cursor.is_some_and(|c| c.block as u64 >= head) {
            break;
        }
        // Read every 2 ms: the figure is this close to when the cursor reached the head.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let index = started.elapsed().as_secs_f64();
    eprintln!("  (the service was built in {built:.3} s of it)");
    use sea_orm::{EntityTrait, PaginatorTrait};
    let stored = journal_market_entity::token_transfers::Entity::find()
        .count(&db)
        .await?;
    handle.stop(true).await;
    Ok((stored, index))
}

/// EVENTS burns from the buyers, in blocks of about 500, with empty blocks between them.
async fn burns(
    plain: &impl Provider,
    url: &str,
    d: &jm_chain::devnet::Devnet,
    events: u64,
    blocks: u64,
) -> anyhow::Result<()> {
    let c = &d.contracts;
    let dead = address!("0x000000000000000000000000000000000000dEaD");
    let _: serde_json::Value = plain
        .raw_request("evm_setAutomine".into(), (false,))
        .await?;
    let senders: Vec<_> = d
        .accounts("buyer")
        .into_iter()
        .map(|a| Ok((a.address, wallet_provider(url, a.signer()?)?)))
        .collect::<anyhow::Result<_>>()?;
    let mut nonces = Vec::new();
    for (a, _) in &senders {
        nonces.push(plain.get_transaction_count(*a).await?);
    }
    let per_block = 500u64;
    let rounds = events.div_ceil(per_block);
    let gap = (blocks / rounds.max(1)).max(1);
    let input = IERC20::transferCall {
        to: dead,
        amount: U256::from(1u64),
    }
    .abi_encode();
    let started = Instant::now();
    for r in 0..rounds {
        let n = per_block.min(events - r * per_block);
        let mut sends = Vec::new();
        for i in 0..n {
            let k = (i as usize) % senders.len();
            let tx = TransactionRequest::default()
                .with_to(c.token)
                .with_input(input.clone())
                .with_nonce(nonces[k])
                .with_chain_id(d.chain_id)
                .with_gas_limit(60_000)
                .with_max_fee_per_gas(20_000_000_000)
                .with_max_priority_fee_per_gas(1_000_000_000);
            nonces[k] += 1;
            let p = senders[k].1.clone();
            sends.push(async move { p.send_transaction(tx).await.map(|_| ()) });
        }
        for chunk in futures::future::join_all(sends).await {
            chunk?;
        }
        let _: serde_json::Value = plain
            .raw_request("anvil_mine".into(), (U256::from(1),))
            .await?;
        let _: serde_json::Value = plain
            .raw_request("anvil_mine".into(), (U256::from(gap - 1),))
            .await?;
    }
    let _: serde_json::Value = plain.raw_request("evm_setAutomine".into(), (true,)).await?;
    let head = plain.get_block_number().await?;
    eprintln!(
        "{events} burns over {head} blocks made in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

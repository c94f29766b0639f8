//! The indexer's catch-up against a plain `eth_getLogs` sweep of the same range (bench
//! index.sh): a fresh anvil with the dev contracts, EVENTS burns of the community token (one
//! `Transfer` each) spread over at least BLOCKS blocks, then (1) a sweep of the indexer's filter
//! in 2,000-block ranges, (2) the service indexing the same range from block 0 on a fresh
//! SQLite file; three rounds of both. Prints "blocks events sweep_secs index_secs" (medians).
//! With INDEX_BENCH_ANVIL=<url> it uses that anvil instead of its own, making the burns only
//! when <work-dir>/devnet.json is absent (to measure again without waiting for them).
//! INDEX_BENCH_ROUNDS sets the number of rounds; INDEX_BENCH_LOG turns the service's log on with
//! that filter (`journal_market_actors::indexer=debug` shows each range's times);
//! INDEX_BENCH_ANVIL_PID adds that anvil's CPU to the CPU each phase used (printed per round).
//! `index_bench <work-dir> <events> <blocks>`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use alloy::network::TransactionBuilder;
use alloy::primitives::{U256, address};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, TransactionRequest};
use alloy::sol_types::{SolCall, SolEvent};
use journal_market::app::Application;
use journal_market::config::{Secret, Settings};
use journal_market_chain::bindings::{IERC20, IPool, IReputationRegistry};
use journal_market_chain::devnet_file::wallet_provider;
use journal_market_devnet::deploy;

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
            let a = journal_market_devnet::anvil::spawn(None, 4663).await?;
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
        let d = deploy::deploy(&url).await?;
        burns(&plain, &url, &d, events, blocks).await?;
        std::fs::write(&kept, serde_json::to_string(&d)?)?;
        d
    };
    let c = d.contracts.clone();
    let head = plain.get_block_number().await?;

    // Three rounds (or INDEX_BENCH_ROUNDS) of (1) and (2); the medians are printed (2 cores
    // shared with anvil: one round can be slowed by something else on the machine).
    let mut sweeps = Vec::new();
    let mut indexes = Vec::new();
    let anvil_pid = std::env::var("INDEX_BENCH_ANVIL_PID").ok();
    let rounds: usize = std::env::var("INDEX_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    for round in 0..rounds {
        let before = Cpu::read(anvil_pid.as_deref());
        let (seen, sweep) = sweep_once(&plain, &c, head).await?;
        let swept = Cpu::read(anvil_pid.as_deref());
        let (stored, index, used) = index_once(work, round, &d, head, anvil_pid.as_deref()).await?;
        eprintln!(
            "round {round}: sweep {sweep:.3} s saw {seen} logs; index {index:.3} s stored {stored} transfers"
        );
        eprintln!("  CPU s, sweep: {}", swept.since(&before));
        eprintln!("  CPU s, index: {used}");
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

/// CPU seconds used so far by this process's threads (by name) and by anvil when its pid is
/// known (INDEX_BENCH_ANVIL_PID), from /proc: where each phase's time went.
struct Cpu(std::collections::BTreeMap<String, f64>);

impl Cpu {
    fn read(anvil: Option<&str>) -> Cpu {
        let ticks = |stat: &str| -> Option<(String, f64)> {
            let open = stat.find('(')?;
            let close = stat.rfind(')')?;
            let name = stat[open + 1..close].trim().to_string();
            let f: Vec<&str> = stat[close + 2..].split(' ').collect();
            let t = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some((name, t / 100.0))
        };
        let mut m = std::collections::BTreeMap::new();
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat")
            && let Some((_, s)) = ticks(&stat)
        {
            m.insert("(all)".into(), s);
        }
        if let Ok(dir) = std::fs::read_dir("/proc/self/task") {
            for t in dir.flatten() {
                if let Ok(stat) = std::fs::read_to_string(t.path().join("stat"))
                    && let Some((name, s)) = ticks(&stat)
                {
                    *m.entry(name).or_insert(0.0) += s;
                }
            }
        }
        if let Some(pid) = anvil
            && let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            && let Some((_, s)) = ticks(&stat)
        {
            m.insert("anvil".into(), s);
        }
        Cpu(m)
    }

    fn since(&self, before: &Cpu) -> String {
        self.0
            .iter()
            .map(|(k, v)| (k, v - before.0.get(k).copied().unwrap_or(0.0)))
            .filter(|(_, d)| *d > 0.0)
            .map(|(k, d)| format!("{k} {d:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// (1) The plain sweep: the indexer's filter, 2,000 blocks at a time, one call after another.
async fn sweep_once(
    plain: &impl Provider,
    c: &journal_market_chain::devnet_file::Contracts,
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
    d: &journal_market_chain::devnet_file::Devnet,
    head: u64,
    anvil_pid: Option<&str>,
) -> anyhow::Result<(u64, f64, String)> {
    let mut s = Settings::load(None)?;
    journal_market::chain::apply_devnet(&mut s, d)?;
    s.server.listen = "127.0.0.1:0".into();
    let file = format!("{work}/index-{round}.db");
    for leftover in [file.clone(), format!("{file}-wal"), format!("{file}-shm")] {
        let _ = std::fs::remove_file(leftover);
    }
    s.database.url = Secret::new(format!("sqlite://{file}"));
    s.demo.load_on_first_start = false;
    s.indexer.poll_ms = 50;
    s.indexer.max_range = 2000;
    if let Ok(filter) = std::env::var("INDEX_BENCH_LOG") {
        s.log.filter = filter;
        journal_market::telemetry::init(&s.log);
    }
    let mut prepare = s.clone();
    prepare.indexer.enabled = false;
    // (A server that never ran would wait for ever on stop: run it, then stop it.)
    let prepared = Application::build(prepare).await?;
    let stop = prepared.handle();
    actix_web::rt::spawn(prepared.run_until_stopped());
    stop.stop(true).await;
    let cpu = Cpu::read(anvil_pid);
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
    let used = Cpu::read(anvil_pid).since(&cpu);
    eprintln!("  (the service was built in {built:.3} s of it)");
    use sea_orm::{EntityTrait, PaginatorTrait};
    let stored = journal_market_entity::token_transfers::Entity::find()
        .count(&db)
        .await?;
    handle.stop(true).await;
    Ok((stored, index, used))
}

/// EVENTS burns from the buyers, in blocks of about 500, with empty blocks between them.
async fn burns(
    plain: &impl Provider,
    url: &str,
    d: &journal_market_chain::devnet_file::Devnet,
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

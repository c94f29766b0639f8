//! What a `/token.json` refresh costs against the size of the index (bench/ledger.sh): for each
//! COUNT, a fresh database filled with COUNT swaps, each with the token's transfer between the
//! pool and the trader as on the chain, and one burn per 100 swaps, through the indexer's own
//! write path (`indexer::ledger::apply`, 10,000 events a transaction, as a catch-up writes
//! them); then the refresh's database work (`queries::token::ledger`, what `GET /token.json`
//! runs when its answer is older than `indexer.ledger_max_age_ms`) timed on each database in
//! turn, ROUNDS rounds, so that a busy moment of the machine falls on every size alike. The
//! newest 500 swaps are two minutes apart, all within the last 24 hours; the others 12 s
//! apart, all older than a day: every count has the same day of trading.
//! Prints one line per count: "count fill_secs refresh_median_ms refresh_min_ms runs".
//! On SQLite (a file in <work-dir>), or on PostgreSQL with LEDGER_BENCH_PG=<admin-url> (a
//! database made per count, dropped at the end).
//! `ledger_scale <work-dir> <count>...`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use alloy::primitives::{Address, B256, I256, U256, address};
use journal_market::config::{Secret, Settings};
use journal_market::queries::token::{self, Now, PoolSettings};
use journal_market_actors::indexer::ledger::{self, LedgerEvent};
use journal_market_actors::indexer::votes::At;
use sea_orm::{ConnectionTrait, Database, DatabaseConnection};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const TOKEN: Address = address!("0x1000000000000000000000000000000000000001");
const POOL: Address = address!("0x2000000000000000000000000000000000000002");
const HOLDER: Address = address!("0x3000000000000000000000000000000000000003");
const TRADER: Address = address!("0x4000000000000000000000000000000000000004");
const DEAD: Address = address!("0x000000000000000000000000000000000000dEaD");
/// Events written per transaction.
const BATCH: u64 = 10_000;
/// Swaps within the last 24 hours, whatever the count.
const RECENT: u64 = 500;
const ROUNDS: usize = 5;
/// Refreshes timed a round on one database: at least one, at most MAX_RUNS, while BUDGET lasts.
const MAX_RUNS: usize = 40;
const BUDGET: Duration = Duration::from_millis(600);

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, work, counts @ ..] = args.as_slice() else {
        anyhow::bail!("usage: ledger_scale <work-dir> <count>...");
    };
    std::fs::create_dir_all(work)?;
    let admin = match std::env::var("LEDGER_BENCH_PG") {
        Ok(url) => Some((Database::connect(&url).await?, url)),
        Err(_) => None,
    };
    let drop_db = |name: &str| format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)");
    let mut filled = Vec::new();
    for count in counts {
        let count: u64 = count.replace(['_', ','], "").parse()?;
        let name = format!("jm_ledger_bench_{count}");
        let url = match &admin {
            Some((a, url)) => {
                a.execute_unprepared(&drop_db(&name)).await?;
                a.execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                    .await?;
                let base = url.rsplit_once('/').map_or(url.as_str(), |(b, _)| b);
                format!("{base}/{name}")
            }
            None => {
                let path = format!("{work}/{name}.db");
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{path}{suffix}"));
                }
                format!("sqlite://{path}")
            }
        };
        let mut s = Settings::load(None)?;
        s.database.url = Secret::new(url);
        let db = journal_market::db::connect(&s.database).await?;
        journal_market::db::migrate(&db).await?;
        let started = Instant::now();
        fill(&db, count).await?;
        filled.push((count, started.elapsed().as_secs_f64(), name, db, Vec::new()));
    }
    for _ in 0..ROUNDS {
        for (_, _, _, db, times) in &mut filled {
            times.extend(measure(db).await?);
        }
    }
    for (count, fill_secs, name, db, mut times) in filled {
        times.sort_by(f64::total_cmp);
        let (median, min) = (times[times.len() / 2], times[0]);
        println!(
            "{count} {fill_secs:.1} {median:.3} {min:.3} {}",
            times.len()
        );
        db.close().await?;
        if let Some((a, _)) = &admin {
            a.execute_unprepared(&drop_db(&name)).await?;
        }
    }
    Ok(())
}

fn e18(x: u64) -> U256 {
    U256::from(x) * U256::from(10u64).pow(U256::from(18))
}

/// COUNT swaps, alternately buys and sells around 0.00001 WETH per token (the token is
/// token0), two a block, each with its transfer of tokens, and a burn every 100 swaps from a
/// holder given tokens at the start.
async fn fill(db: &DatabaseConnection, count: u64) -> anyhow::Result<()> {
    let now = chrono::Utc::now().timestamp() as u64;
    let time = |i: u64| {
        let newer = count - 1 - i;
        if newer < RECENT {
            now - 60 - newer * 120
        } else {
            now - 25 * 3600 - (newer - RECENT) * 12
        }
    };
    let at = |block: u64, log_index: u64, block_time: Option<u64>| At {
        tx: B256::from(U256::from(block * 1_000 + log_index)),
        log_index,
        block,
        block_time,
    };
    let mut events: Vec<LedgerEvent> = [(HOLDER, 100_000_000), (POOL, 500_000_000)]
        .into_iter()
        .enumerate()
        .map(|(i, (to, tokens))| LedgerEvent::Transfer {
            at: at(1, i as u64, None),
            from: Address::ZERO,
            to,
            amount: e18(tokens),
        })
        .collect();
    let base = (1e-5f64.sqrt() * 2f64.powi(96)) as u128;
    for i in 0..count {
        let block = 2 + i / 2;
        let wiggle = 1.0 + ((i % 97) as f64 - 48.0) / 1e4;
        let sqrt = U256::from((base as f64 * wiggle) as u128);
        let tokens = I256::try_from(e18(1_000 + i % 5_000)).unwrap_or_default();
        let weth = tokens / I256::try_from(100_000).unwrap_or(I256::ONE);
        let (amount0, amount1, from, to) = if i % 2 == 0 {
            (-tokens, weth, POOL, TRADER)
        } else {
            (tokens, -weth, TRADER, POOL)
        };
        let first = 4 * (i % 2);
        events.push(LedgerEvent::Swap {
            at: at(block, first, Some(time(i))),
            amount0,
            amount1,
            sqrt_price_x96: sqrt,
        });
        events.push(LedgerEvent::Transfer {
            at: at(block, first + 1, None),
            from,
            to,
            amount: tokens.unsigned_abs(),
        });
        if i % 100 == 99 {
            events.push(LedgerEvent::Transfer {
                at: at(block, first + 2, None),
                from: HOLDER,
                to: DEAD,
                amount: e18(1 + i % 7),
            });
        }
        if events.len() as u64 >= BATCH || i + 1 == count {
            let txn = journal_market::db::begin_write(db).await?;
            ledger::apply(&txn, &events, &HashMap::new()).await?;
            txn.commit().await?;
            events.clear();
        }
    }
    Ok(())
}

/// The refresh's database work, timed (ms) after one unmeasured run.
async fn measure(db: &DatabaseConnection) -> anyhow::Result<Vec<f64>> {
    let settings = PoolSettings {
        token_is_token0: true,
        fee_pips: 10_000,
        creator_bps: 8_000,
    };
    let now = Now {
        head: Some(1),
        price_weth: None,
        eth_usd: Some(3_000.0),
    };
    let once = || token::ledger(db, (TOKEN, POOL), settings, now);
    once().await?;
    let started = Instant::now();
    let mut times = Vec::new();
    while times.is_empty() || (times.len() < MAX_RUNS && started.elapsed() < BUDGET) {
        let t = Instant::now();
        let l = once().await?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(l);
    }
    Ok(times)
}

//! The kill-and-restart run of bench/killrestart.sh, in four modes:
//! - `deploy <rpc-url> <devnet.json>`: the dev contracts on a running node, and the devnet file;
//! - `seed <api> <devnet.json>`: publishes the demo's person-written journals through the
//!   running service's API (save, audit, register on the identity registry, minted);
//! - `run <api[,api…]> <devnet.json> <purchases> <buyers>`: funds BUYERS new wallets and makes
//!   PURCHASES purchases across them, each step retried as a careful client would while the
//!   service is killed under it: the same signed payment (with its payment-identifier) is sent
//!   again after a connection error, a 5xx or 409 "still settling", to the next instance when
//!   there are several; a new one is signed only after a 402. Then every buyer signs in and
//!   reads the text of every journal it bought (the run fails on one it cannot read). Buyers
//!   are added to `buyers.json`, so several runs are verified together;
//! - `verify <db-url> <devnet.json>`: compares the chain's USDG transfers from the buyers with
//!   the payments and unlocks the service recorded, and fails on a lost unlock or a double
//!   charge.
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use alloy::primitives::Address;
use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolEvent;
use journal_market_chain::bindings::IERC20;
use journal_market_chain::devnet_file::Devnet;
use journal_market_client::payer::{new_payment_id, sign_payment, with_payment_id};
use journal_market_devnet::deploy::Buyers;
use journal_market_entity::{PaymentState, TxHash, Wallet};
use journal_market_entity::{payments, unlocks};
use journal_market_x402::{self as x402, PaymentRequired};
use sea_orm::{ColumnTrait, Database, EntityTrait, QueryFilter};

const BUYERS_FILE: &str = "buyers.json";
/// A purchase is given up after this long (a node paused for a minute is waited out).
const GIVE_UP: Duration = Duration::from_secs(300);

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| {
        args.get(i).cloned().ok_or_else(|| {
            anyhow::anyhow!("usage: see the header of loadgen/examples/kill_restart.rs")
        })
    };
    match arg(0)?.as_str() {
        "deploy" => {
            let devnet = journal_market_devnet::deploy::deploy(&arg(1)?).await?;
            std::fs::write(arg(2)?, serde_json::to_string_pretty(&devnet)?)?;
            Ok(())
        }
        "seed" => seed(&arg(1)?, &arg(2)?).await,
        "run" => run(&arg(1)?, &arg(2)?, arg(3)?.parse()?, arg(4)?.parse()?).await,
        "verify" => verify(&arg(1)?, &arg(2)?).await,
        m => anyhow::bail!("unknown mode {m}"),
    }
}

async fn seed(api: &str, devnet: &str) -> anyhow::Result<()> {
    let devnet = Devnet::load(std::path::Path::new(devnet))?;
    let authors = devnet.accounts("author");
    for spec in journal_market_devnet::seed::demo_person_journals()? {
        let author = authors[spec.author % authors.len()].signer()?;
        journal_market_devnet::seed::publish(api, &devnet.rpc_url, &author, &spec).await?;
    }
    Ok(())
}

/// The outcome of one purchase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Bought,
    GaveUp,
}

struct Counts {
    sent: usize,
    retried_same: usize,
    resigned: usize,
}

async fn post(
    client: &journal_market_client::Client,
    path: &str,
    id: i64,
    payment: Option<&x402::PaymentPayload>,
) -> Option<(u16, serde_json::Value, Option<String>)> {
    let resp = client.pay_request(path, id, payment).await.ok()?;
    let status = resp.status().as_u16();
    let header = resp
        .headers()
        .get("payment-required")
        .and_then(|h| h.to_str().ok())
        .map(str::to_string);
    let body = resp.json().await.unwrap_or(serde_json::Value::Null);
    Some((status, body, header))
}

/// One purchase, retried through kills: every step until it is paid.
async fn purchase(
    bases: &[String],
    buyer: &PrivateKeySigner,
    id: i64,
    swarm: bool,
    c: &mut Counts,
) -> Outcome {
    let started = Instant::now();
    let Ok(clients) = bases
        .iter()
        .map(|b| journal_market_client::Client::new(b.clone()))
        .collect::<Result<Vec<_>, _>>()
    else {
        return Outcome::GaveUp;
    };
    // Each try goes to the next instance: a retry lands on another one half the time.
    let mut tries = 0usize;
    let mut next = || {
        tries += 1;
        &clients[tries % clients.len()]
    };
    let steps: &[&str] = if swarm {
        &["pay/burn"]
    } else {
        &["pay/burn", "pay/author"]
    };
    let pause = |d: Duration| tokio::time::sleep(d.min(Duration::from_secs(1)));
    'steps: for step in steps {
        loop {
            if started.elapsed() > GIVE_UP {
                return Outcome::GaveUp;
            }
            // The challenge.
            let Some((status, body, header)) = post(next(), step, id, None).await else {
                pause(Duration::from_millis(200)).await;
                continue;
            };
            let offer: PaymentRequired = match (status, header) {
                (402, Some(h)) => match x402::decode_header(&h) {
                    Ok(o) => o,
                    Err(_) => return Outcome::GaveUp,
                },
                (200, _) if body["already"] == true => continue 'steps,
                (409, _) => return Outcome::Bought,
                _ => {
                    pause(Duration::from_millis(200)).await;
                    continue;
                }
            };
            // With a payment-identifier, so a retry of the same payment gets its answer.
            let (Ok(payment), Ok(pid)) = (
                sign_payment(&offer.accepts[0], None, buyer, now()),
                new_payment_id(),
            ) else {
                return Outcome::GaveUp;
            };
            let payment = with_payment_id(payment, &pid);
            // The same payment until it is settled or provably refused.
            loop {
                if started.elapsed() > GIVE_UP {
                    return Outcome::GaveUp;
                }
                c.sent += 1;
                match post(next(), step, id, Some(&payment)).await {
                    Some((200, _, _)) => continue 'steps,
                    Some((402, _, _)) => {
                        c.resigned += 1;
                        break;
                    }
                    Some((409, b, _))
                        if b["error"].as_str().unwrap_or("").contains("still settling") => {}
                    Some((409, _, _)) => return Outcome::Bought,
                    _ => {}
                }
                c.retried_same += 1;
                pause(Duration::from_millis(300)).await;
            }
        }
    }
    Outcome::Bought
}

async fn run(
    bases: &str,
    devnet_path: &str,
    purchases: usize,
    buyers: usize,
) -> anyhow::Result<()> {
    let bases: Vec<String> = bases.split(',').map(str::to_string).collect();
    let devnet = Devnet::load(std::path::Path::new(devnet_path))?;
    let mut wallets = Vec::new();
    for _ in 0..buyers {
        wallets.push(devnet.funded_buyer(1_000_000_000).await?);
    }
    let mut addresses: Vec<Address> = std::fs::read_to_string(BUYERS_FILE)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_default();
    addresses.extend(wallets.iter().map(|w| w.address()));
    std::fs::write(BUYERS_FILE, serde_json::to_string(&addresses)?)?;
    let journals = 'listed: loop {
        // The services may be down at this moment.
        for base in &bases {
            if let Ok(l) = journal_market_client::Client::new(base.clone())?
                .journals(None)
                .await
            {
                break 'listed l.journals;
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    let per_buyer = purchases.div_ceil(buyers.max(1));
    anyhow::ensure!(
        per_buyer <= journals.len(),
        "{per_buyer} purchases per buyer, but only {} journals",
        journals.len()
    );
    let started = Instant::now();
    let tasks: Vec<_> = wallets
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let mine: Vec<(i64, bool, String)> = (0..per_buyer)
                .map(|k| &journals[(i + k) % journals.len()])
                .map(|j| (j.journal_id, j.author.swarm, j.slug.clone()))
                .take(purchases.saturating_sub(i * per_buyer).min(per_buyer))
                .collect();
            let bases = bases.clone();
            tokio::spawn(async move {
                let mut c = Counts {
                    sent: 0,
                    retried_same: 0,
                    resigned: 0,
                };
                let mut outcomes = Vec::new();
                let mut bought = Vec::new();
                // PACE_MS spreads a buyer's purchases over time (bench/faults.sh), starting at
                // an offset of its own so the buyers do not move in step.
                let pace = Duration::from_millis(
                    std::env::var("PACE_MS")
                        .ok()
                        .and_then(|p| p.parse().ok())
                        .unwrap_or(0),
                );
                tokio::time::sleep(pace * i as u32 / buyers.max(1) as u32).await;
                for (k, (id, swarm, slug)) in mine.into_iter().enumerate() {
                    if k > 0 {
                        tokio::time::sleep(pace).await;
                    }
                    let o = purchase(&bases, &w, id, swarm, &mut c).await;
                    if o == Outcome::Bought {
                        bought.push(slug);
                    }
                    outcomes.push(o);
                }
                let unread = unreadable(&bases, &w, &bought).await;
                (outcomes, c, unread)
            })
        })
        .collect();
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let (mut sent, mut retried, mut resigned, mut unread) = (0, 0, 0, Vec::new());
    for t in tasks {
        let (o, c, u) = t.await?;
        for x in o {
            *outcomes.entry(format!("{x:?}")).or_default() += 1;
        }
        sent += c.sent;
        retried += c.retried_same;
        resigned += c.resigned;
        unread.extend(u);
    }
    println!(
        "purchases: {outcomes:?}; payment requests sent {sent}, same payment sent again {retried}, signed again after a 402 {resigned}; bought but not readable: {}; {:.0} s",
        unread.len(),
        started.elapsed().as_secs_f64()
    );
    anyhow::ensure!(unread.is_empty(), "bought but not readable: {unread:?}");
    Ok(())
}

/// The bought journals `buyer` cannot read after signing in (tried for a while on every
/// instance: the services may be down or restarting).
async fn unreadable(bases: &[String], buyer: &PrivateKeySigner, bought: &[String]) -> Vec<String> {
    let mut unread = Vec::new();
    'journals: for slug in bought {
        let until = Instant::now() + Duration::from_secs(120);
        while Instant::now() < until {
            for base in bases {
                let Ok(client) = journal_market_client::Client::new(base.clone()) else {
                    continue;
                };
                if client.login(buyer).await.is_err() {
                    continue;
                }
                if let Ok(j) = client.journal(slug).await
                    && j.unlocked
                    && j.body.is_some()
                {
                    continue 'journals;
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        unread.push(format!("{} {slug}", buyer.address()));
    }
    unread
}

async fn verify(db_url: &str, devnet_path: &str) -> anyhow::Result<()> {
    let devnet = Devnet::load(std::path::Path::new(devnet_path))?;
    let buyers: Vec<Address> = serde_json::from_str(&std::fs::read_to_string(BUYERS_FILE)?)?;
    let db = Database::connect(db_url).await?;
    let provider = devnet.provider_for(devnet.account("deployer")?)?;
    let journals: HashMap<i32, bool> = journal_market_entity::journals::Entity::find()
        .all(&db)
        .await?
        .into_iter()
        .map(|j| (j.id, j.swarm))
        .collect();
    let (mut transfers, mut unaccounted, mut lost, mut double, mut pending) = (0, 0, 0, 0, 0);
    for b in &buyers {
        let wallet = Wallet(*b);
        let filter = Filter::new()
            .address(devnet.contracts.usdg)
            .event_signature(IERC20::Transfer::SIGNATURE_HASH)
            .topic1(b.into_word())
            .from_block(0);
        let logs = provider.get_logs(&filter).await?;
        transfers += logs.len();
        let rows = payments::Entity::find()
            .filter(payments::Column::Wallet.eq(wallet))
            .all(&db)
            .await?;
        pending += rows
            .iter()
            .filter(|r| r.state == PaymentState::Pending)
            .count();
        let settled: HashMap<TxHash, &payments::Model> = rows
            .iter()
            .filter(|r| r.state == PaymentState::Settled)
            .filter_map(|r| r.tx.map(|t| (t, r)))
            .collect();
        // Every transfer is one settled payment's transaction; one per (journal, step).
        let mut steps: HashMap<(i32, String), usize> = HashMap::new();
        for l in &logs {
            match l.transaction_hash.and_then(|t| settled.get(&TxHash(t))) {
                Some(r) => *steps.entry((r.journal_id, r.step.clone())).or_default() += 1,
                None => unaccounted += 1,
            }
        }
        double += steps
            .values()
            .filter(|n| **n > 1)
            .map(|n| n - 1)
            .sum::<usize>();
        // A journal whose every step is paid is unlocked.
        let unlocked: HashSet<i32> = unlocks::Entity::find()
            .filter(unlocks::Column::Wallet.eq(wallet))
            .all(&db)
            .await?
            .into_iter()
            .map(|u| u.journal_id)
            .collect();
        let paid: HashSet<i32> = steps.keys().map(|k| k.0).collect();
        for j in paid {
            let needs = if journals.get(&j).copied().unwrap_or(true) {
                1
            } else {
                2
            };
            let have = steps.keys().filter(|k| k.0 == j).count();
            if have == needs && !unlocked.contains(&j) {
                lost += 1;
            }
        }
    }
    println!(
        "| transfers on the chain | transfers without a settled payment | double charges | lost unlocks | rows still pending |"
    );
    println!("|---|---|---|---|---|");
    println!("| {transfers} | {unaccounted} | {double} | {lost} | {pending} |");
    anyhow::ensure!(
        unaccounted == 0 && double == 0 && lost == 0,
        "money and unlocks disagree"
    );
    Ok(())
}

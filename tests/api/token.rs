//! The token ledger: its figures against what the test adds up from the swaps and burns it
//! made, read from their receipts.

use std::time::Duration;

use alloy::primitives::{Address, I256, U256, U512, address};
use alloy::providers::Provider;
use journal_market_chain::bindings::{IERC20, IPool};

use crate::devchain::{Mined, mine, revert, snapshot};
use crate::pay::Shop;

const DEAD: Address = address!("0x000000000000000000000000000000000000dEaD");

fn whole(v: U256) -> f64 {
    v.to_string().parse::<f64>().unwrap() / 1e18
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-9)
}

#[actix_web::test]
async fn the_ledger_adds_up_the_swaps_and_burns_on_the_chain() {
    let shop = Shop::open_indexing().await;
    let c = shop.chain.devnet.contracts.clone();
    let trader = shop.buyer(0);
    let p = shop.chain.provider(trader);
    IERC20::new(c.weth, &p)
        .approve(c.pool, U256::MAX)
        .mined()
        .await;
    IERC20::new(c.token, &p)
        .approve(c.pool, U256::MAX)
        .mined()
        .await;
    let pool = IPool::new(c.pool, &p);
    let token_is_token0 = pool.token0().call().await.unwrap() == c.token;
    let e18 = U256::from(10u64).pow(U256::from(18));

    // A buy (WETH in), a sell (tokens in), a burn.
    let buy = pool
        .swap(
            trader.address,
            !token_is_token0,
            U256::from(2) * e18,
            U256::ZERO,
        )
        .mined()
        .await;
    let sell = pool
        .swap(
            trader.address,
            token_is_token0,
            U256::from(5000) * e18,
            U256::ZERO,
        )
        .mined()
        .await;
    let burn = IERC20::new(c.token, &p)
        .transfer(DEAD, U256::from(12_345) * e18)
        .mined()
        .await;

    // What the receipts say, added up here: fee 1% from the pool, creator share 80% from the
    // fee locker, 20% of that pledged; each sell's fee valued at the price its swap left.
    let (mut volume, mut fees_weth, mut fees_dove, mut value) = (0.0, 0.0, 0.0, 0.0);
    let mut last_price = 0.0;
    for r in [&buy, &sell] {
        let s = r
            .inner
            .logs()
            .iter()
            .find_map(|l| l.log_decode::<IPool::Swap>().ok())
            .unwrap()
            .inner
            .data;
        let signed = |v: alloy::primitives::I256| {
            let m = whole(v.unsigned_abs());
            if v.is_negative() { -m } else { m }
        };
        let (tok, weth) = if token_is_token0 {
            (signed(s.amount0), signed(s.amount1))
        } else {
            (signed(s.amount1), signed(s.amount0))
        };
        let sqrt = whole(U256::from(s.sqrtPriceX96)) * 1e18 / 2f64.powi(96);
        let price = if token_is_token0 {
            sqrt * sqrt
        } else {
            1.0 / (sqrt * sqrt)
        };
        volume += weth.abs();
        if weth > 0.0 {
            fees_weth += weth * 0.01 * 0.8;
            value += weth * 0.01 * 0.8;
        } else {
            fees_dove += tok * 0.01 * 0.8;
            value += tok * 0.01 * 0.8 * price;
        }
        last_price = price;
    }

    let mut ledger = serde_json::Value::Null;
    for _ in 0..200 {
        let (_, body) = shop.app.get("/token.json").await;
        ledger = body;
        // Until the index holds both swaps and the burn and has reached the head (a block
        // mined between the indexer's tick and this answer leaves it behind for a moment).
        if ledger["swaps"] == 2
            && ledger["burns"].as_array().is_some_and(|b| !b.is_empty())
            && ledger["caughtUp"] == true
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let f = |k: &str| {
        ledger[k]
            .as_f64()
            .unwrap_or_else(|| panic!("{k}: {ledger}"))
    };
    assert_eq!(ledger["swaps"], 2, "{ledger}");
    assert_eq!(ledger["ca"], c.token.to_checksum(None));
    assert_eq!(ledger["pool"], c.pool.to_checksum(None));
    assert_eq!(
        (f("poolFeePct"), f("creatorSharePct"), f("buybackPct")),
        (1.0, 80.0, 20.0)
    );
    assert!(close(f("volumeWeth"), volume), "{ledger}");
    assert!(close(f("feesWeth"), fees_weth), "{ledger}");
    assert!(close(f("feesDove"), fees_dove), "{ledger}");
    assert!(close(f("feesValueWeth"), value), "{ledger}");
    assert!(close(f("committedWeth"), fees_weth * 0.2));
    assert!(close(f("committedDove"), fees_dove * 0.2));
    assert!(close(f("committedValueWeth"), value * 0.2));
    // The devnet's ETH / USD feed answers 3,000.
    assert!(close(f("feesUsd"), value * 3000.0), "{ledger}");
    assert!(close(f("committedUsd"), value * 0.2 * 3000.0));
    assert!(close(f("priceUsd"), last_price * 3000.0), "{ledger}");
    assert!(close(f("volume24hUsd"), volume * 3000.0), "{ledger}");
    // Burns.
    assert!(close(f("burned"), 12_345.0));
    assert!(close(f("burnedPct"), 12_345.0 / 1e9 * 100.0));
    assert_eq!(
        ledger["burns"][0]["tx"],
        format!("{:#x}", burn.transaction_hash)
    );
    assert!(close(
        ledger["burns"][0]["amount"].as_f64().unwrap(),
        12_345.0
    ));
    assert!(close(
        f("marketCapUsd"),
        last_price * 3000.0 * (1e9 - 12_345.0)
    ));
    // Holders: every address with a balance, read from the chain.
    let token = IERC20::new(c.token, &p);
    let mut holders = 0;
    for a in shop
        .chain
        .devnet
        .accounts
        .iter()
        .map(|a| a.address)
        .chain([c.pool, c.fee_locker])
    {
        if token.balanceOf(a).call().await.unwrap() > U256::ZERO {
            holders += 1;
        }
    }
    assert_eq!(ledger["holdersTotal"], holders, "{ledger}");
    assert_eq!(ledger["caughtUp"], true);
}

#[actix_web::test]
async fn the_ledger_is_null_without_a_token() {
    let shop = Shop::open_with(|s| s.chain.token = None).await;
    let (status, body) = shop.app.get("/token.json").await;
    assert_eq!((status.as_u16(), body), (200, serde_json::Value::Null));
}

/// The ledger's rows are re-keyed in chain order, (block, log_index), by a migration that
/// copies them: rows written under the old key survive it and its way back, and the new key
/// refuses a second row at the same place in the chain.
#[actix_web::test]
async fn the_ledger_rows_survive_their_new_key_and_its_way_back() {
    use journal_market_migration::{Migrator, MigratorTrait};
    use sea_orm::{ConnectionTrait, EntityTrait, PaginatorTrait};

    let db = crate::helpers::TestDb::new().await;
    let conn = db.connect_creating().await;
    let before = Migrator::migrations().len() as u32 - 1;
    Migrator::up(&conn, Some(before)).await.unwrap();
    let rows = [
        (
            "0xaa",
            0,
            7,
            "0x01",
            "0x000000000000000000000000000000000000dead",
            "5",
        ),
        ("0xbb", 1, 7, "0x01", "0x02", "6"),
        ("0xcc", 0, 9, "0x02", "0x03", "7"),
    ];
    for (tx, li, block, from, to, amount) in rows {
        conn.execute_unprepared(&format!(
            "INSERT INTO token_transfers (tx, log_index, block, sender, recipient, amount) \
             VALUES ('{tx}', {li}, {block}, '{from}', '{to}', '{amount}')"
        ))
        .await
        .unwrap();
    }
    conn.execute_unprepared(
        "INSERT INTO swaps (tx, log_index, block, amount0, amount1, sqrt_price_x96) \
         VALUES ('0xdd', 2, 7, '-1', '2', '3')",
    )
    .await
    .unwrap();

    Migrator::up(&conn, None).await.unwrap();
    let kept = journal_market_entity::token_transfers::Entity::find_by_id((7, 1))
        .one(&conn)
        .await
        .unwrap()
        .expect("the row under its new key");
    assert_eq!((kept.tx.as_str(), kept.amount.as_str()), ("0xbb", "6"));
    let swap = journal_market_entity::swaps::Entity::find_by_id((7, 2))
        .one(&conn)
        .await
        .unwrap()
        .expect("the swap under its new key");
    assert_eq!(swap.amount1, "2");
    let again = conn
        .execute_unprepared(
            "INSERT INTO token_transfers (tx, log_index, block, sender, recipient, amount) \
             VALUES ('0xee', 0, 9, '0x02', '0x03', '1')",
        )
        .await;
    assert!(again.is_err(), "one row per place in the chain");

    Migrator::down(&conn, Some(1)).await.unwrap();
    Migrator::up(&conn, None).await.unwrap();
    let n = journal_market_entity::token_transfers::Entity::find()
        .count(&conn)
        .await
        .unwrap();
    assert_eq!(n, 3, "down and up again keep every row");
}

/// The ledger as a refresh computed it before the running totals: every swap and burn row read
/// and folded (fee 1%, creator share 80%, as the devnet's pool and locker say), the holders
/// counted.
#[derive(Debug, Clone, PartialEq)]
struct Folded {
    swaps: u64,
    volume: f64,
    fees_weth: f64,
    fees_dove: f64,
    value: f64,
    burned: f64,
    holders: u64,
}

async fn fold(db: &sea_orm::DatabaseConnection, token_is_token0: bool) -> Folded {
    use journal_market::domain::ledger::price_weth;
    use journal_market_entity::{swaps, token_holders, token_transfers};
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};

    let signed = |s: &str| {
        let v: I256 = s.parse().unwrap();
        let m = whole(v.unsigned_abs());
        if v.is_negative() { -m } else { m }
    };
    let mut f = Folded {
        swaps: 0,
        volume: 0.0,
        fees_weth: 0.0,
        fees_dove: 0.0,
        value: 0.0,
        burned: 0.0,
        holders: 0,
    };
    let rows = swaps::Entity::find()
        .order_by_asc(swaps::Column::Block)
        .order_by_asc(swaps::Column::LogIndex)
        .all(db)
        .await
        .unwrap();
    for s in rows {
        let (a0, a1) = (signed(&s.amount0), signed(&s.amount1));
        let (tok, weth) = if token_is_token0 { (a0, a1) } else { (a1, a0) };
        let price = price_weth(s.sqrt_price_x96.parse().unwrap(), token_is_token0);
        f.swaps += 1;
        f.volume += weth.abs();
        if weth > 0.0 {
            f.fees_weth += weth * 0.01 * 0.8;
            f.value += weth * 0.01 * 0.8;
        } else if tok > 0.0 {
            f.fees_dove += tok * 0.01 * 0.8;
            f.value += tok * 0.01 * 0.8 * price.unwrap_or(0.0);
        }
    }
    let targets = [format!("{:#x}", Address::ZERO), format!("{DEAD:#x}")];
    for t in token_transfers::Entity::find()
        .filter(token_transfers::Column::Recipient.is_in(targets.clone()))
        .all(db)
        .await
        .unwrap()
    {
        f.burned += whole(t.amount.parse().unwrap());
    }
    f.holders = token_holders::Entity::find()
        .filter(token_holders::Column::Balance.ne("0"))
        .filter(token_holders::Column::Address.is_not_in(targets))
        .count(db)
        .await
        .unwrap();
    f
}

/// What `/token.json` says of the same figures.
fn answered(ledger: &serde_json::Value) -> Folded {
    let f = |k: &str| {
        ledger[k]
            .as_f64()
            .unwrap_or_else(|| panic!("{k}: {ledger}"))
    };
    Folded {
        swaps: ledger["swaps"].as_u64().unwrap(),
        volume: f("volumeWeth"),
        fees_weth: f("feesWeth"),
        fees_dove: f("feesDove"),
        value: f("feesValueWeth"),
        burned: f("burned"),
        holders: ledger["holdersTotal"].as_u64().unwrap(),
    }
}

fn same(a: &Folded, b: &Folded) -> bool {
    a.swaps == b.swaps
        && a.holders == b.holders
        && [
            (a.volume, b.volume),
            (a.fees_weth, b.fees_weth),
            (a.fees_dove, b.fees_dove),
            (a.value, b.value),
            (a.burned, b.burned),
        ]
        .iter()
        .all(|(x, y)| close(*x, *y))
}

/// The totals' row, which must be the exact sum of the rows it stands for.
async fn kept(db: &sea_orm::DatabaseConnection) -> journal_market_actors::indexer::ledger::Summary {
    use journal_market::domain::ledger::{Swap, Totals, is_burn};
    use journal_market_actors::indexer::ledger::summary;
    use journal_market_entity::{swaps, token_transfers};
    use sea_orm::EntityTrait;

    let kept = summary(db).await.unwrap();
    let mut sum = Totals::default();
    for s in swaps::Entity::find().all(db).await.unwrap() {
        sum += &Totals::swap(&Swap {
            amount0: s.amount0.parse().unwrap(),
            amount1: s.amount1.parse().unwrap(),
            sqrt_price_x96: s.sqrt_price_x96.parse().unwrap(),
        });
    }
    for t in token_transfers::Entity::find().all(db).await.unwrap() {
        if is_burn(&t.recipient.parse().unwrap()) {
            sum += &Totals::burn(t.amount.parse().unwrap());
        }
    }
    assert_eq!(kept.totals, sum, "the totals are the sum of the rows");
    kept
}

/// `/token.json` once the index has read block `n` and holds `swaps` swaps.
pub(crate) async fn ledger_with(shop: &Shop, n: u64, swaps: u64) -> serde_json::Value {
    let mut ledger = serde_json::Value::Null;
    for _ in 0..200 {
        (_, ledger) = shop.app.get("/token.json").await;
        if ledger["block"].as_u64().is_some_and(|b| b >= n) && ledger["swaps"] == swaps {
            return ledger;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the index did not reach block {n} with {swaps} swaps: {ledger}");
}

/// Buyer 0 trading on the devnet's pool, both tokens approved.
pub(crate) struct Trader {
    p: alloy::providers::DynProvider,
    me: Address,
    c: journal_market_chain::devnet_file::Contracts,
    token_is_token0: bool,
}

impl Trader {
    pub(crate) async fn new(shop: &Shop) -> Trader {
        let c = shop.chain.devnet.contracts.clone();
        let p = shop.chain.provider(shop.buyer(0));
        for t in [c.weth, c.token] {
            IERC20::new(t, &p).approve(c.pool, U256::MAX).mined().await;
        }
        let token_is_token0 = IPool::new(c.pool, &p).token0().call().await.unwrap() == c.token;
        Trader {
            me: shop.buyer(0).address,
            p,
            c,
            token_is_token0,
        }
    }

    /// `amount` in: WETH on a buy, tokens on a sell. Returns the block it was mined in.
    pub(crate) async fn swap(&self, buy: bool, amount: U256) -> u64 {
        IPool::new(self.c.pool, &self.p)
            .swap(self.me, buy != self.token_is_token0, amount, U256::ZERO)
            .mined()
            .await
            .block_number
            .unwrap()
    }

    /// Moves the chain's clock: the next block is `secs` later.
    pub(crate) async fn wait(&self, secs: u64) {
        let _: serde_json::Value = self
            .p
            .raw_request("evm_increaseTime".into(), (secs,))
            .await
            .unwrap();
    }

    async fn send(&self, to: Address, tokens: U256) -> u64 {
        IERC20::new(self.c.token, &self.p)
            .transfer(to, tokens)
            .mined()
            .await
            .block_number
            .unwrap()
    }
}

/// The indexer keeps the totals as it writes: after swaps, burns and a new holder they are the
/// exact sum of the rows, and give what folding every row gave; a reorg that orphans some
/// subtracts exactly those, back to the totals before them.
#[actix_web::test]
async fn the_running_totals_follow_the_rows_through_a_reorg() {
    let shop = Shop::open_indexing().await;
    let t = Trader::new(&shop).await;
    let db = shop.app.db.connect().await;
    let e18 = U256::from(10u64).pow(U256::from(18));
    // The figures against the fold, the totals against the rows; the totals and burns listed.
    let check = async |ledger: serde_json::Value| {
        let folded = fold(&db, t.token_is_token0).await;
        assert!(
            same(&answered(&ledger), &folded),
            "{ledger} against {folded:?}"
        );
        let kept = kept(&db).await;
        assert_eq!(kept.holders, folded.holders);
        (kept, ledger["burns"].clone())
    };

    let (_, start) = shop.app.get("/token.json").await;
    let n = start["swaps"].as_u64().unwrap();
    t.swap(true, U256::from(2) * e18).await;
    t.swap(false, U256::from(3000) * e18).await;
    t.send(DEAD, U256::from(777) * e18).await;
    let last = t.send(Address::ZERO, U256::from(3) * e18).await;
    let before = check(ledger_with(&shop, last, n + 2).await).await;
    // The latest burns of both burn addresses, newest first.
    let amounts = |burns: &serde_json::Value| -> Vec<f64> {
        burns
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["amount"].as_f64().unwrap())
            .collect()
    };
    assert_eq!(amounts(&before.1)[..2], [3.0, 777.0], "{}", before.1);

    // On a stretch of chain that a reorg takes back: two more swaps, a burn, and a transfer to
    // an address that held nothing.
    let snap = snapshot(&t.p).await;
    t.swap(true, U256::from(1) * e18).await;
    t.swap(false, U256::from(1500) * e18).await;
    t.send(DEAD, U256::from(5) * e18).await;
    let last = t.send(Address::repeat_byte(0x77), e18).await;
    let during = check(ledger_with(&shop, last, n + 4).await).await;
    assert_eq!(during.0.holders, before.0.holders + 1, "a new holder");
    assert!(during.0.totals.burned > before.0.totals.burned);
    assert_eq!(amounts(&during.1)[..3], [5.0, 3.0, 777.0]);

    revert(&t.p, snap).await;
    mine(&t.p, 5).await;
    let head = t.p.get_block_number().await.unwrap();
    let after = check(ledger_with(&shop, head, n + 2).await).await;
    assert_eq!(
        after, before,
        "the orphaned rows' totals and burns are taken out, exactly"
    );
    let (_, health) = shop.app.get("/health/actors").await;
    let reorgs = crate::helpers::find_actor(&health, "indexer")
        .map(|a| a["progress"]["reorgs"].as_u64().unwrap_or(0));
    assert!(reorgs >= Some(1), "{health}");
}

/// The migration that adds the totals makes them from the rows an existing deployment indexed
/// before it: the row is the exact sum, and the holders those with a balance.
#[actix_web::test]
async fn the_totals_are_made_from_the_rows_indexed_before_them() {
    use journal_market_actors::indexer::ledger::summary;
    use journal_market_migration::{Migrator, MigratorTrait};
    use sea_orm::ConnectionTrait;

    let db = crate::helpers::TestDb::new().await;
    let conn = db.connect_creating().await;
    let at = Migrator::migrations()
        .iter()
        .position(|m| m.name() == "m20261126_000001_ledger_totals")
        .unwrap();
    Migrator::up(&conn, Some(at as u32)).await.unwrap();
    let e18 = "000000000000000000";
    // sqrtPriceX96 = 2⁹⁷: 4 token1 per token0. A token1-in swap (2 in, 4,000 token0 out), a
    // token0-in swap (1,000 in, 3 out).
    let sqrt = (U256::from(1) << 97usize).to_string();
    for (block, amount0, amount1) in [
        (5, format!("-4000{e18}"), format!("2{e18}")),
        (6, format!("1000{e18}"), format!("-3{e18}")),
    ] {
        conn.execute_unprepared(&format!(
            "INSERT INTO swaps (tx, log_index, block, amount0, amount1, sqrt_price_x96) \
             VALUES ('0x{block:02}', 0, {block}, '{amount0}', '{amount1}', '{sqrt}')"
        ))
        .await
        .unwrap();
    }
    let dead = format!("{DEAD:#x}");
    let zero = format!("{:#x}", Address::ZERO);
    for (li, to, amount) in [
        (1, dead.as_str(), "5"),
        (2, zero.as_str(), "7"),
        (3, "0x02", "6"),
    ] {
        conn.execute_unprepared(&format!(
            "INSERT INTO token_transfers (tx, log_index, block, sender, recipient, amount) \
             VALUES ('0xaa', {li}, 7, '0x01', '{to}', '{amount}')"
        ))
        .await
        .unwrap();
    }
    for (address, balance) in [
        ("0x01", "10"),
        ("0x02", "0"),
        (dead.as_str(), "5"),
        ("0x03", "1"),
    ] {
        conn.execute_unprepared(&format!(
            "INSERT INTO token_holders (address, balance) VALUES ('{address}', '{balance}')"
        ))
        .await
        .unwrap();
    }

    Migrator::up(&conn, None).await.unwrap();
    let s = summary(&conn).await.unwrap();
    let n = |v: &str| v.parse::<alloy::primitives::U512>().unwrap();
    let [s0, s1] = &s.totals.sides;
    assert_eq!(s.totals.swaps, 2);
    assert_eq!(
        (s0.volume, s1.volume),
        (n(&format!("5000{e18}")), n(&format!("5{e18}")))
    );
    assert_eq!(
        (s0.paid_in, s1.paid_in),
        (n(&format!("1000{e18}")), n(&format!("2{e18}")))
    );
    assert_eq!(
        (s0.sold, s1.sold),
        (n(&format!("1000{e18}")), n(&format!("2{e18}")))
    );
    // 1,000 token0 at 4 token1 each; 2 token1 at a quarter of a token0 each.
    assert_eq!(
        (s0.sold_value, s1.sold_value),
        (n(&format!("4000{e18}")), n("500000000000000000"))
    );
    assert_eq!(s.totals.burned, n("12"));
    assert_eq!(
        s.holders, 2,
        "0x01 and 0x03: not the empty one, not the dead address"
    );

    // Down and up again: the same totals.
    Migrator::down(&conn, Some(1)).await.unwrap();
    Migrator::up(&conn, None).await.unwrap();
    assert_eq!(summary(&conn).await.unwrap(), s);
}

/// A swap written again (the same log, in a range written before) is stored and counted once;
/// a rollback takes it out once.
#[actix_web::test]
async fn a_swap_written_twice_counts_once() {
    use alloy::primitives::B256;
    use journal_market_actors::indexer::ledger::{LedgerEvent, apply, roll_back_above, summary};
    use journal_market_actors::indexer::votes::At;
    use journal_market_migration::{Migrator, MigratorTrait};
    use std::collections::HashMap;

    let db = crate::helpers::TestDb::new().await;
    let conn = db.connect_creating().await;
    Migrator::up(&conn, None).await.unwrap();
    let swap = |block: u64| LedgerEvent::Swap {
        at: At {
            tx: B256::repeat_byte(block as u8),
            log_index: 3,
            block,
            block_time: Some(1_700_000_000),
        },
        amount0: I256::try_from(-5).unwrap(),
        amount1: I256::try_from(7).unwrap(),
        sqrt_price_x96: U256::from(1) << 96usize,
    };
    let write = async |events: &[LedgerEvent]| {
        let txn = journal_market::db::begin_write(&conn).await.unwrap();
        apply(&txn, events, &HashMap::new()).await.unwrap();
        txn.commit().await.unwrap();
    };
    write(&[swap(10)]).await;
    let once = summary(&conn).await.unwrap();
    write(&[swap(10), swap(11)]).await;
    let twice = summary(&conn).await.unwrap();
    assert_eq!((once.totals.swaps, twice.totals.swaps), (1, 2));
    assert_eq!(
        twice.totals.sides[1].volume,
        once.totals.sides[1].volume * U512::from(2)
    );
    let txn = journal_market::db::begin_write(&conn).await.unwrap();
    roll_back_above(&txn, 10).await.unwrap();
    txn.commit().await.unwrap();
    assert_eq!(summary(&conn).await.unwrap(), once);
}

/// Three swaps an hour or more apart, then the token page once it shows them.
pub(crate) async fn trade_over_hours(shop: &Shop) -> (serde_json::Value, String) {
    let t = Trader::new(shop).await;
    let (_, start) = shop.app.get("/token.json").await;
    let n = start["swaps"].as_u64().unwrap();
    let e18 = U256::from(10u64).pow(U256::from(18));
    t.swap(true, U256::from(2) * e18).await;
    t.wait(2 * 3_600).await;
    t.swap(false, U256::from(3000) * e18).await;
    t.wait(3_600).await;
    let last = t.swap(true, e18).await;
    let ledger = ledger_with(shop, last, n + 3).await;
    let said = format!(": {} swaps, ", n + 3);
    for _ in 0..100 {
        let page = shop
            .app
            .http
            .get(format!("{}/token", shop.app.base.trim_end_matches("/api")))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200);
        let page = page.text().await.unwrap();
        // The page cache keeps a page for its time-to-live.
        if page.contains(&said) {
            return (ledger, page);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the token page never said {said:?}");
}

/// The token page draws the indexed swaps: the chart is an image named by what it shows, the
/// table lists the same swaps, and a price below a cent keeps its significant digits.
#[actix_web::test]
async fn the_token_page_draws_the_swaps_over_time() {
    let shop = Shop::open_indexing().await;
    let (ledger, page) = trade_over_hours(&shop).await;
    let swaps = ledger["swaps"].as_u64().unwrap();
    assert!(page.contains("<svg class=\"chart\""), "{page}");
    assert!(page.contains("role=\"img\" aria-label=\"Price and volume of the token per "));
    // Swaps an hour apart fall into buckets of their own.
    assert!(page.matches("<rect class=\"bar\"").count() >= 3, "{page}");
    assert!(page.contains("<polyline class=\"price\""));
    // The table's swaps column adds up to the ledger's count.
    let table = &page[page
        .find("<table><caption>Price and volume per")
        .expect("the table")..];
    let counted: u64 = table
        .split("</th><td>")
        .skip(1)
        .map(|r| r.split("</td>").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, swaps, "{table}");
    // The price as the page says it, significant digits and all.
    let price = ledger["priceUsd"].as_f64().unwrap();
    let shown = journal_market::pages::layout::money(price);
    assert!(
        page.contains(&format!("<dt>Price</dt><dd>{shown} USD</dd>")),
        "{price}: {page}"
    );
    // Below 1, four significant digits: within a thousandth of the price, however small.
    let read: f64 = shown.parse().unwrap();
    let within = if price < 1.0 { price * 1e-3 } else { 0.005 };
    assert!((read - price).abs() <= within, "{shown} for {price}");
}

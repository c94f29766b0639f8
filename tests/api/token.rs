//! The token ledger: its figures against what the test adds up from the swaps and burns it
//! made, read from their receipts.

use std::time::Duration;

use alloy::primitives::{Address, U256, address};
use jm_chain::bindings::{IERC20, IPool};

use crate::devchain::Mined;
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
    let shop = Shop::open_with(|s| {
        s.indexer.poll_ms = 100;
        s.indexer.ledger_max_age_ms = 0;
    })
    .await;
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
    let shop = Shop::open_with(|s| s.chain.token = String::new()).await;
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
    let url = match db.url.starts_with("sqlite:") {
        true => format!("{}?mode=rwc", db.url),
        false => db.url.clone(),
    };
    let conn = sea_orm::Database::connect(&url).await.unwrap();
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

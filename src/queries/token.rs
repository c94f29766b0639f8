//! The token ledger read from the index (swaps, transfers, holders, the cursor) and the pool's
//! settings; figures in `domain::ledger`.

use alloy::primitives::{Address, U256};
use chrono::{Duration, Utc};
use jm_client::api::{Burn, TokenLedger};
use journal_market_entity::{indexer_cursors, swaps, token_holders, token_transfers};
use sea_orm::{
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::domain::ledger::{self, BUYBACK_PCT, DEAD, Inputs, SUPPLY, Swap, Totals, units};
use crate::domain::time::ts;

/// Burns listed.
const LATEST_BURNS: usize = 12;

/// What the pool's contracts say, read once (they do not change).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolSettings {
    pub token_is_token0: bool,
    pub fee_pips: u32,
    pub creator_bps: u32,
}

/// What the chain says now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Now {
    pub head: Option<u64>,
    /// WETH per token at the pool's current price.
    pub price_weth: Option<f64>,
    pub eth_usd: Option<f64>,
}

fn burn_targets() -> [String; 2] {
    [format!("{:#x}", Address::ZERO), format!("{DEAD:#x}")]
}

pub async fn ledger(
    db: &DatabaseConnection,
    (token, pool): (Address, Address),
    settings: PoolSettings,
    now: Now,
) -> Result<TokenLedger, DbErr> {
    let cursor = indexer_cursors::Entity::find_by_id(journal_market_actors::indexer::store::CURSOR)
        .one(db)
        .await?;
    let rows = swaps::Entity::find()
        .order_by_asc(swaps::Column::Block)
        .order_by_asc(swaps::Column::LogIndex)
        .all(db)
        .await?;
    let day_ago = Utc::now() - Duration::hours(24);
    let mut totals = Totals::default();
    let (mut volume_24h_weth, mut last_price_weth) = (0.0, None);
    for s in &rows {
        let swap = Swap {
            amount0: s.amount0.parse().unwrap_or_default(),
            amount1: s.amount1.parse().unwrap_or_default(),
            sqrt_price_x96: s.sqrt_price_x96.parse().unwrap_or_default(),
        };
        totals += &Totals::swap(&swap);
        if s.block_time.is_some_and(|t| t > day_ago) {
            volume_24h_weth +=
                ledger::volume_weth([(swap.amount0, swap.amount1)], settings.token_is_token0);
        }
        last_price_weth =
            ledger::price_weth(swap.sqrt_price_x96, settings.token_is_token0).or(last_price_weth);
    }
    let burn_rows = || {
        token_transfers::Entity::find()
            .filter(token_transfers::Column::Recipient.is_in(burn_targets()))
            .order_by_desc(token_transfers::Column::Block)
            .order_by_desc(token_transfers::Column::LogIndex)
    };
    // Every burn's amount (only that column), and whole rows for the latest few.
    let amounts: Vec<String> = burn_rows()
        .select_only()
        .column(token_transfers::Column::Amount)
        .into_tuple()
        .all(db)
        .await?;
    for a in &amounts {
        totals += &Totals::burn(a.parse().unwrap_or_default());
    }
    let f = ledger::figures(&Inputs {
        token_is_token0: settings.token_is_token0,
        fee_pips: settings.fee_pips,
        creator_bps: settings.creator_bps,
        totals,
    });
    let burned = f.burned;
    let burns = burn_rows().limit(LATEST_BURNS as u64).all(db).await?;
    let holders = token_holders::Entity::find()
        .filter(token_holders::Column::Balance.ne("0"))
        .filter(token_holders::Column::Address.is_not_in(burn_targets()))
        .count(db)
        .await?;
    let usd = |weth: f64| now.eth_usd.map(|p| weth * p);
    let price_weth = now.price_weth.or(last_price_weth);
    let price_usd = price_weth.and_then(usd);
    let block = cursor.as_ref().map(|c| c.block.max(0) as u64);
    let pct = BUYBACK_PCT / 100.0;
    Ok(TokenLedger {
        ca: token.to_checksum(None),
        pool: pool.to_checksum(None),
        block,
        caught_up: matches!((block, now.head), (Some(b), Some(h)) if b + 2 >= h),
        updated_at: cursor.map(|c| ts(&c.updated_at)),
        pool_fee_pct: f64::from(settings.fee_pips) / 1e4,
        creator_share_pct: f64::from(settings.creator_bps) / 100.0,
        buyback_pct: BUYBACK_PCT,
        swaps: f.swaps,
        volume_weth: f.volume_weth,
        fees_value_weth: f.fees_value_weth,
        fees_weth: f.fees_weth,
        fees_dove: f.fees_dove,
        committed_value_weth: f.fees_value_weth * pct,
        committed_weth: f.fees_weth * pct,
        committed_dove: f.fees_dove * pct,
        fees_usd: usd(f.fees_value_weth),
        committed_usd: usd(f.fees_value_weth * pct),
        burned,
        burned_pct: burned / SUPPLY * 100.0,
        burns: burns
            .iter()
            .map(|b| Burn {
                tx: b.tx.clone(),
                amount: units(b.amount.parse::<U256>().unwrap_or_default()),
                block: b.block.max(0) as u64,
            })
            .collect(),
        price_usd,
        market_cap_usd: price_usd.map(|p| p * (SUPPLY - burned)),
        volume24h_usd: usd(volume_24h_weth),
        holders_total: holders,
    })
}

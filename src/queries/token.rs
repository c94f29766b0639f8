//! The token ledger read from the index (the running totals, the last day's swaps, the latest
//! swap and burns, the cursor) and the pool's settings; figures in `domain::ledger`. The token
//! page's chart: the newest swaps in buckets (`domain::swap_buckets`).

use alloy::primitives::{Address, U256};
use chrono::{DateTime, Utc};
use journal_market_actors::indexer::ledger::summary;
use journal_market_api::{Burn, TokenLedger};
use journal_market_entity::{indexer_cursors, swaps, token_transfers};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::domain::ledger::{self, BURN_TARGETS, BUYBACK_PCT, Inputs, SUPPLY, units};
use crate::domain::swap_buckets::{self, SwapBuckets, Trade};
use crate::domain::time::ts;

/// Burns listed.
const LATEST_BURNS: usize = 12;
/// Swaps the chart reads at most, newest first: the read stays bounded however long the index.
pub const CHART_SWAPS: u64 = 5_000;

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

/// Reads that do not grow with the index: the totals the indexer keeps, the last day's swaps
/// (by their time's index), the latest swap (by the key) and the latest burns. One snapshot,
/// so the totals and the burns listed beside them count the same blocks.
pub async fn ledger(
    db: &DatabaseConnection,
    (token, pool): (Address, Address),
    settings: PoolSettings,
    now: Now,
) -> Result<TokenLedger, DbErr> {
    let tx = crate::db::snapshot(db).await?;
    let db = &tx;
    let cursor = indexer_cursors::Entity::find_by_id(journal_market_actors::indexer::store::CURSOR)
        .one(db)
        .await?;
    let kept = summary(db).await?;
    let f = ledger::figures(&Inputs {
        token_is_token0: settings.token_is_token0,
        fee_pips: settings.fee_pips,
        creator_bps: settings.creator_bps,
        totals: kept.totals,
    });
    // Whole seconds, as block times are: the comparison is the same, and on SQLite (times as
    // text) both sides have the same form.
    let day_ago = DateTime::from_timestamp(Utc::now().timestamp() - 24 * 3600, 0);
    let day: Vec<(String, String)> = swaps::Entity::find()
        .filter(swaps::Column::BlockTime.gt(day_ago))
        .select_only()
        .column(swaps::Column::Amount0)
        .column(swaps::Column::Amount1)
        .into_tuple()
        .all(db)
        .await?;
    let volume_24h_weth = ledger::volume_weth(
        day.iter().map(|(a0, a1)| {
            (
                a0.parse().unwrap_or_default(),
                a1.parse().unwrap_or_default(),
            )
        }),
        settings.token_is_token0,
    );
    let price_weth = match now.price_weth {
        Some(p) => Some(p),
        None => last_price(db, settings.token_is_token0).await?,
    };
    let burns = latest_burns(db).await?;
    tx.commit().await?;
    let usd = |weth: f64| now.eth_usd.map(|p| weth * p);
    let price_usd = price_weth.and_then(usd);
    let block = cursor.as_ref().map(|c| c.block.max(0) as u64);
    let pct = BUYBACK_PCT / 100.0;
    let burned = f.burned;
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
        holders_total: kept.holders,
    })
}

/// The latest burns, newest first: each burn address's latest, read newest first from the
/// (recipient, block, log_index) index, merged.
async fn latest_burns(db: &impl ConnectionTrait) -> Result<Vec<token_transfers::Model>, DbErr> {
    let mut burns = Vec::new();
    for a in BURN_TARGETS {
        burns.extend(
            token_transfers::Entity::find()
                .filter(token_transfers::Column::Recipient.eq(format!("{a:#x}")))
                .order_by_desc(token_transfers::Column::Block)
                .order_by_desc(token_transfers::Column::LogIndex)
                .limit(LATEST_BURNS as u64)
                .all(db)
                .await?,
        );
    }
    burns.sort_by_key(|b| std::cmp::Reverse((b.block, b.log_index)));
    burns.truncate(LATEST_BURNS);
    Ok(burns)
}

/// WETH per token after the latest swap that has a price.
async fn last_price(
    db: &impl ConnectionTrait,
    token_is_token0: bool,
) -> Result<Option<f64>, DbErr> {
    let sqrt: Option<String> = swaps::Entity::find()
        .filter(swaps::Column::SqrtPriceX96.ne("0"))
        .order_by_desc(swaps::Column::Block)
        .order_by_desc(swaps::Column::LogIndex)
        .select_only()
        .column(swaps::Column::SqrtPriceX96)
        .into_tuple()
        .one(db)
        .await?;
    Ok(sqrt.and_then(|s| ledger::price_weth(s.parse().unwrap_or_default(), token_is_token0)))
}

/// The newest swaps up to `block` (the ledger answer's cursor, so the chart and the figures
/// beside it count the same swaps) in buckets; swaps without a block time are left out.
pub async fn swap_buckets(
    db: &DatabaseConnection,
    token_is_token0: bool,
    block: Option<u64>,
) -> Result<SwapBuckets, DbErr> {
    let mut q = swaps::Entity::find();
    if let Some(b) = block {
        q = q.filter(swaps::Column::Block.lte(i64::try_from(b).unwrap_or(i64::MAX)));
    }
    let rows: Vec<(Option<DateTime<Utc>>, String, String, String)> = q
        .order_by_desc(swaps::Column::Block)
        .order_by_desc(swaps::Column::LogIndex)
        .limit(CHART_SWAPS)
        .select_only()
        .column(swaps::Column::BlockTime)
        .column(swaps::Column::Amount0)
        .column(swaps::Column::Amount1)
        .column(swaps::Column::SqrtPriceX96)
        .into_tuple()
        .all(db)
        .await?;
    let capped = rows.len() as u64 == CHART_SWAPS;
    let trades: Vec<Trade> = rows
        .iter()
        .rev()
        .filter_map(|(at, a0, a1, sqrt)| {
            Some(Trade::from_swap(
                at.as_ref()?.timestamp(),
                (
                    a0.parse().unwrap_or_default(),
                    a1.parse().unwrap_or_default(),
                ),
                sqrt.parse().unwrap_or_default(),
                token_is_token0,
            ))
        })
        .collect();
    Ok(SwapBuckets {
        capped,
        ..swap_buckets::bucket(&trades)
    })
}

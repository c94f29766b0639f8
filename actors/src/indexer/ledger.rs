//! The token ledger's events: the pool's `Swap`s and the community token's `Transfer`s, stored
//! as rows, with the holders' balances kept from the transfers (and reversed on a rollback).

use std::collections::HashMap;

use alloy::primitives::{Address, I256, U256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;
use chrono::{TimeZone, Utc};
use jm_chain::bindings::{IERC20, IPool};
use journal_market_entity::{swaps, token_holders, token_transfers};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Value};

use super::rows;
use super::votes::At;

/// The contracts whose events make the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerAddresses {
    pub token: Address,
    pub pool: Address,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerEvent {
    Swap {
        at: At,
        amount0: I256,
        amount1: I256,
        sqrt_price_x96: U256,
    },
    Transfer {
        at: At,
        from: Address,
        to: Address,
        amount: U256,
    },
}

pub fn decode(log: &Log, a: &LedgerAddresses) -> Option<LedgerEvent> {
    let at = At {
        tx: log.transaction_hash?,
        log_index: log.log_index?,
        block: log.block_number?,
        block_time: log.block_timestamp,
    };
    if log.address() == a.pool {
        let s = IPool::Swap::decode_log(&log.inner).ok()?;
        return Some(LedgerEvent::Swap {
            at,
            amount0: s.amount0,
            amount1: s.amount1,
            sqrt_price_x96: U256::from(s.sqrtPriceX96),
        });
    }
    if log.address() == a.token {
        let t = IERC20::Transfer::decode_log(&log.inner).ok()?;
        return Some(LedgerEvent::Transfer {
            at,
            from: t.from,
            to: t.to,
            amount: t.value,
        });
    }
    None
}

fn parse_units(s: &str) -> U256 {
    s.parse().unwrap_or(U256::ZERO)
}

/// A hash or address as stored: lower-case hex with 0x (what `{:#x}` gives, made faster).
fn hex(bytes: &[u8]) -> String {
    alloy::hex::encode_prefixed(bytes)
}

const HOLDERS: rows::Table = rows::Table {
    name: "token_holders",
    columns: &["address", "balance"],
    then: "ON CONFLICT (\"address\") DO UPDATE SET \"balance\" = excluded.\"balance\"",
};

const SWAPS: rows::Table = rows::Table {
    name: "swaps",
    columns: &[
        "block",
        "log_index",
        "tx",
        "amount0",
        "amount1",
        "sqrt_price_x96",
        "block_time",
    ],
    then: "ON CONFLICT (\"block\", \"log_index\") DO NOTHING",
};

const TRANSFERS: rows::Table = rows::Table {
    name: "token_transfers",
    columns: &["block", "log_index", "tx", "sender", "recipient", "amount"],
    then: "",
};

/// Adds signed deltas to holders' balances (never below zero).
async fn adjust(db: &impl ConnectionTrait, deltas: HashMap<Address, I256>) -> Result<(), DbErr> {
    if deltas.is_empty() {
        return Ok(());
    }
    let deltas: Vec<(String, I256)> = deltas.into_iter().map(|(a, d)| (hex(&a[..]), d)).collect();
    let mut balances: HashMap<String, U256> = token_holders::Entity::find()
        .filter(token_holders::Column::Address.is_in(deltas.iter().map(|(a, _)| a.as_str())))
        .all(db)
        .await?
        .into_iter()
        .map(|h| (h.address, parse_units(&h.balance)))
        .collect();
    let mut values = Vec::with_capacity(deltas.len() * HOLDERS.columns.len());
    for (address, d) in deltas {
        let b = balances.remove(&address).unwrap_or_default();
        let next = if d.is_negative() {
            b.saturating_sub(d.unsigned_abs())
        } else {
            b.saturating_add(d.unsigned_abs())
        };
        values.extend([address.into(), next.to_string().into()]);
    }
    rows::insert(db, &HOLDERS, values).await
}

fn add(deltas: &mut HashMap<Address, I256>, who: &Address, amount: U256, sign: i8) {
    if who.is_zero() {
        return;
    }
    let v = I256::try_from(amount).unwrap_or(I256::MAX);
    let e = deltas.entry(*who).or_insert(I256::ZERO);
    *e = if sign < 0 {
        e.saturating_sub(v)
    } else {
        e.saturating_add(v)
    };
}

/// Stores a range's ledger events. `times` gives block times for swaps whose log has none.
pub async fn apply(
    db: &impl ConnectionTrait,
    events: &[LedgerEvent],
    times: &HashMap<u64, u64>,
) -> Result<(), DbErr> {
    let mut swaps: Vec<Value> = Vec::new();
    let mut transfers: Vec<Value> = Vec::new();
    // No transfer is stored twice: (block, log_index) is the key, so a range another instance
    // wrote already fails its whole transaction, balances included, and the next tick goes on
    // from the cursor that instance stored.
    let mut deltas = HashMap::new();
    for e in events {
        match e {
            LedgerEvent::Swap {
                at,
                amount0,
                amount1,
                sqrt_price_x96,
            } => {
                let time = at
                    .block_time
                    .or_else(|| times.get(&at.block).copied())
                    .and_then(|t| Utc.timestamp_opt(t as i64, 0).single());
                swaps.extend([
                    (at.block as i64).into(),
                    (at.log_index as i32).into(),
                    hex(&at.tx[..]).into(),
                    amount0.to_string().into(),
                    amount1.to_string().into(),
                    sqrt_price_x96.to_string().into(),
                    time.into(),
                ]);
            }
            LedgerEvent::Transfer {
                at,
                from,
                to,
                amount,
            } => {
                add(&mut deltas, from, *amount, -1);
                add(&mut deltas, to, *amount, 1);
                transfers.extend([
                    (at.block as i64).into(),
                    (at.log_index as i32).into(),
                    hex(&at.tx[..]).into(),
                    hex(&from[..]).into(),
                    hex(&to[..]).into(),
                    amount.to_string().into(),
                ]);
            }
        }
    }
    rows::insert(db, &SWAPS, swaps).await?;
    rows::insert(db, &TRANSFERS, transfers).await?;
    adjust(db, deltas).await
}

/// Removes the ledger's rows above `block`, reversing the balances their transfers moved.
pub async fn roll_back_above(db: &impl ConnectionTrait, block: u64) -> Result<(), DbErr> {
    let above = block as i64;
    let orphaned = token_transfers::Entity::find()
        .filter(token_transfers::Column::Block.gt(above))
        .all(db)
        .await?;
    let mut deltas = HashMap::new();
    for t in &orphaned {
        let amount = parse_units(&t.amount);
        if let (Ok(from), Ok(to)) = (t.sender.parse::<Address>(), t.recipient.parse::<Address>()) {
            add(&mut deltas, &from, amount, 1);
            add(&mut deltas, &to, amount, -1);
        }
    }
    adjust(db, deltas).await?;
    token_transfers::Entity::delete_many()
        .filter(token_transfers::Column::Block.gt(above))
        .exec(db)
        .await?;
    swaps::Entity::delete_many()
        .filter(swaps::Column::Block.gt(above))
        .exec(db)
        .await?;
    Ok(())
}

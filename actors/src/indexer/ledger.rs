//! The token ledger's events: the pool's `Swap`s and the community token's `Transfer`s, stored
//! as rows, with the holders' balances kept from the transfers (and reversed on a rollback).

use std::collections::HashMap;

use alloy::primitives::{Address, I256, U256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;
use chrono::{TimeZone, Utc};
use jm_chain::bindings::{IERC20, IPool};
use journal_market_entity::{swaps, token_holders, token_transfers};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter};

use super::votes::At;

/// The most rows in one INSERT: fewer, larger statements cost less to build and run than many
/// small ones (1,024 rows of 7 values stay far under SQLite's 32,766 and PostgreSQL's 65,535
/// parameters).
const ROWS_PER_INSERT: usize = 1024;

/// Splits `rows` into INSERTs of power-of-two sizes up to [`ROWS_PER_INSERT`]: at most eleven
/// statement shapes a table, so the driver's prepared statements are reused instead of a new
/// one parsed (and cached) for every range's row count.
fn inserts<T>(mut rows: &[T]) -> impl Iterator<Item = &[T]> {
    std::iter::from_fn(move || {
        if rows.is_empty() {
            return None;
        }
        let size = ROWS_PER_INSERT.min(1 << rows.len().ilog2());
        let (head, tail) = rows.split_at(size);
        rows = tail;
        Some(head)
    })
}

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

fn lower(a: &Address) -> String {
    format!("{a:#x}")
}

fn parse_units(s: &str) -> U256 {
    s.parse().unwrap_or(U256::ZERO)
}

/// Adds signed deltas to holders' balances (never below zero).
async fn adjust(db: &impl ConnectionTrait, deltas: HashMap<String, I256>) -> Result<(), DbErr> {
    if deltas.is_empty() {
        return Ok(());
    }
    let keys: Vec<String> = deltas.keys().cloned().collect();
    let mut balances: HashMap<String, U256> = token_holders::Entity::find()
        .filter(token_holders::Column::Address.is_in(keys))
        .all(db)
        .await?
        .into_iter()
        .map(|h| (h.address, parse_units(&h.balance)))
        .collect();
    let rows: Vec<token_holders::ActiveModel> = deltas
        .into_iter()
        .map(|(address, d)| {
            let b = balances.remove(&address).unwrap_or_default();
            let next = if d.is_negative() {
                b.saturating_sub(d.unsigned_abs())
            } else {
                b.saturating_add(d.unsigned_abs())
            };
            token_holders::ActiveModel {
                address: Set(address),
                balance: Set(next.to_string()),
            }
        })
        .collect();
    for chunk in inserts(&rows) {
        token_holders::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::column(token_holders::Column::Address)
                    .update_column(token_holders::Column::Balance)
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await?;
    }
    Ok(())
}

fn add(deltas: &mut HashMap<String, I256>, who: &Address, amount: U256, sign: i8) {
    if who.is_zero() {
        return;
    }
    let v = I256::try_from(amount).unwrap_or(I256::MAX);
    let e = deltas.entry(lower(who)).or_insert(I256::ZERO);
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
    let mut swap_rows = Vec::new();
    let mut transfers = Vec::new();
    for e in events {
        match e {
            LedgerEvent::Swap {
                at,
                amount0,
                amount1,
                sqrt_price_x96,
            } => swap_rows.push(swaps::ActiveModel {
                tx: Set(format!("{:#x}", at.tx)),
                log_index: Set(at.log_index as i32),
                block: Set(at.block as i64),
                amount0: Set(amount0.to_string()),
                amount1: Set(amount1.to_string()),
                sqrt_price_x96: Set(sqrt_price_x96.to_string()),
                block_time: Set(at
                    .block_time
                    .or_else(|| times.get(&at.block).copied())
                    .and_then(|t| Utc.timestamp_opt(t as i64, 0).single())),
            }),
            LedgerEvent::Transfer {
                at,
                from,
                to,
                amount,
            } => transfers.push((at, from, to, amount)),
        }
    }
    for chunk in inserts(&swap_rows) {
        swaps::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::columns([swaps::Column::Block, swaps::Column::LogIndex])
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await?;
    }
    if transfers.is_empty() {
        return Ok(());
    }
    // No transfer is stored twice: (block, log_index) is the key, so a range another instance
    // wrote already fails its whole transaction, balances included, and the next tick goes on
    // from the cursor that instance stored.
    let mut deltas = HashMap::new();
    let mut rows = Vec::new();
    for (at, from, to, amount) in transfers {
        add(&mut deltas, from, *amount, -1);
        add(&mut deltas, to, *amount, 1);
        rows.push(token_transfers::ActiveModel {
            tx: Set(format!("{:#x}", at.tx)),
            log_index: Set(at.log_index as i32),
            block: Set(at.block as i64),
            sender: Set(lower(from)),
            recipient: Set(lower(to)),
            amount: Set(amount.to_string()),
        });
    }
    for chunk in inserts(&rows) {
        token_transfers::Entity::insert_many(chunk.to_vec())
            .exec_without_returning(db)
            .await?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_have_power_of_two_sizes() {
        let sizes = |n: usize| {
            let rows = vec![0u8; n];
            inserts(&rows).map(<[u8]>::len).collect::<Vec<_>>()
        };
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(1), vec![1]);
        assert_eq!(sizes(800), vec![512, 256, 32]);
        assert_eq!(sizes(1024), vec![1024]);
        assert_eq!(sizes(2500), vec![1024, 1024, 256, 128, 64, 4]);
        for n in 0..3000 {
            let s = sizes(n);
            assert_eq!(s.iter().sum::<usize>(), n);
            assert!(
                s.iter()
                    .all(|k| k.is_power_of_two() && *k <= ROWS_PER_INSERT)
            );
        }
    }
}

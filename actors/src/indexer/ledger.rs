//! The token ledger's events: the pool's `Swap`s and the community token's `Transfer`s, stored
//! as rows, with the holders' balances kept from the transfers, and the running totals of the
//! swaps, burns and holders (`ledger_totals`) kept in the same transaction; a rollback reverses
//! the balances and subtracts the totals of the rows it removes.

use std::collections::{HashMap, HashSet};

use alloy::primitives::{Address, I256, U256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;
use chrono::{TimeZone, Utc};
use journal_market_chain::bindings::{IERC20, IPool};
use journal_market_domain::ledger::{Swap, Totals, is_burn};
use journal_market_entity::{ledger_totals, swaps, token_holders, token_transfers};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect,
    Value,
};

use super::rows;
use super::store::CURSOR;
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

/// A stored decimal string (an unreadable one counts as zero, as it always did).
fn big<T: std::str::FromStr + Default>(s: &str) -> T {
    s.parse().unwrap_or_default()
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

/// Adds signed deltas to holders' balances (never below zero). Returns the change in the number
/// of holders (addresses with a balance, the burn addresses left out).
async fn adjust(db: &impl ConnectionTrait, deltas: HashMap<Address, I256>) -> Result<i64, DbErr> {
    if deltas.is_empty() {
        return Ok(0);
    }
    let deltas: Vec<(String, I256, bool)> = deltas
        .into_iter()
        .map(|(a, d)| (hex(&a[..]), d, !is_burn(&a)))
        .collect();
    let mut balances: HashMap<String, U256> = token_holders::Entity::find()
        .filter(token_holders::Column::Address.is_in(deltas.iter().map(|(a, _, _)| a.as_str())))
        .all(db)
        .await?
        .into_iter()
        .map(|h| (h.address, big(&h.balance)))
        .collect();
    let mut values = Vec::with_capacity(deltas.len() * HOLDERS.columns.len());
    let mut holders = 0;
    for (address, d, counts) in deltas {
        let b = balances.remove(&address).unwrap_or_default();
        let next = if d.is_negative() {
            b.saturating_sub(d.unsigned_abs())
        } else {
            b.saturating_add(d.unsigned_abs())
        };
        if counts {
            holders += i64::from(!next.is_zero()) - i64::from(!b.is_zero());
        }
        values.extend([address.into(), next.to_string().into()]);
    }
    rows::insert(db, &HOLDERS, values).await?;
    Ok(holders)
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

/// What the ledger keeps beside its rows, for `GET /token.json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// The totals of the swaps and burns indexed.
    pub totals: Totals,
    /// Addresses with a balance, the burn addresses left out.
    pub holders: u64,
}

impl From<ledger_totals::Model> for Summary {
    fn from(m: ledger_totals::Model) -> Summary {
        let mut t = Totals {
            swaps: m.swaps.max(0) as u64,
            burned: big(&m.burned),
            ..Totals::default()
        };
        let [s0, s1] = &mut t.sides;
        (s0.volume, s1.volume) = (big(&m.volume0), big(&m.volume1));
        (s0.paid_in, s1.paid_in) = (big(&m.paid_in0), big(&m.paid_in1));
        (s0.sold, s1.sold) = (big(&m.sold0), big(&m.sold1));
        (s0.sold_value, s1.sold_value) = (big(&m.sold_value0), big(&m.sold_value1));
        Summary {
            totals: t,
            holders: m.holders.max(0) as u64,
        }
    }
}

/// The summary as last committed (zeros without a row; the migration that made the table wrote
/// one).
pub async fn summary(db: &impl ConnectionTrait) -> Result<Summary, DbErr> {
    Ok(ledger_totals::Entity::find_by_id(CURSOR)
        .one(db)
        .await?
        .map(Summary::from)
        .unwrap_or_default())
}

/// The summary, its row locked until the transaction ends (PostgreSQL; SQLite's write
/// transaction holds the database): a writer that waited reads what the other committed.
async fn summary_for_update(db: &impl ConnectionTrait) -> Result<Summary, DbErr> {
    Ok(ledger_totals::Entity::find_by_id(CURSOR)
        .lock_exclusive()
        .one(db)
        .await?
        .map(Summary::from)
        .unwrap_or_default())
}

async fn save(db: &impl ConnectionTrait, s: &Summary) -> Result<(), DbErr> {
    let [s0, s1] = &s.totals.sides;
    let text = |v: &alloy::primitives::U512| Set(v.to_string());
    let row = ledger_totals::ActiveModel {
        name: Set(CURSOR.into()),
        swaps: Set(i64::try_from(s.totals.swaps).unwrap_or(i64::MAX)),
        volume0: text(&s0.volume),
        volume1: text(&s1.volume),
        paid_in0: text(&s0.paid_in),
        paid_in1: text(&s1.paid_in),
        sold0: text(&s0.sold),
        sold1: text(&s1.sold),
        sold_value0: text(&s0.sold_value),
        sold_value1: text(&s1.sold_value),
        burned: text(&s.totals.burned),
        holders: Set(i64::try_from(s.holders).unwrap_or(i64::MAX)),
    };
    use ledger_totals::Column as C;
    ledger_totals::Entity::insert(row)
        .on_conflict(
            OnConflict::column(C::Name)
                .update_columns([
                    C::Swaps,
                    C::Volume0,
                    C::Volume1,
                    C::PaidIn0,
                    C::PaidIn1,
                    C::Sold0,
                    C::Sold1,
                    C::SoldValue0,
                    C::SoldValue1,
                    C::Burned,
                    C::Holders,
                ])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Stores a range's ledger events, and adds them to the summary. `times` gives block times for
/// swaps whose log has none.
pub async fn apply(
    db: &impl ConnectionTrait,
    events: &[LedgerEvent],
    times: &HashMap<u64, u64>,
) -> Result<(), DbErr> {
    if events.is_empty() {
        return Ok(());
    }
    let mut summary = summary_for_update(db).await?;
    let mut swaps = Vec::new();
    let mut transfers: Vec<Value> = Vec::new();
    // No transfer is stored twice: (block, log_index) is the key, so a range another instance
    // wrote already fails its whole transaction, balances and totals included, and the next
    // tick goes on from the cursor that instance stored.
    let mut deltas = HashMap::new();
    for e in events {
        match e {
            LedgerEvent::Swap {
                at,
                amount0,
                amount1,
                sqrt_price_x96,
            } => swaps.push((
                at,
                Swap {
                    amount0: *amount0,
                    amount1: *amount1,
                    sqrt_price_x96: *sqrt_price_x96,
                },
            )),
            LedgerEvent::Transfer {
                at,
                from,
                to,
                amount,
            } => {
                add(&mut deltas, from, *amount, -1);
                add(&mut deltas, to, *amount, 1);
                if is_burn(to) {
                    summary.totals += &Totals::burn(*amount);
                }
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
    // A swap stored already (the same log written before) is neither stored nor counted again.
    // Looked up, not returned by the insert: each RETURNING row costs the SQLite driver a
    // message between threads (a catch-up of a million swaps wrote 12 s instead of 7).
    let stored = stored_swaps(db, swaps.iter().map(|(at, _)| at.block as i64)).await?;
    let mut values: Vec<Value> = Vec::with_capacity(swaps.len() * SWAPS.columns.len());
    for (at, s) in &swaps {
        let key = (at.block as i64, at.log_index as i32);
        if stored.contains(&key) {
            continue;
        }
        summary.totals += &Totals::swap(s);
        let time = at
            .block_time
            .or_else(|| times.get(&at.block).copied())
            .and_then(|t| Utc.timestamp_opt(t as i64, 0).single());
        values.extend([
            key.0.into(),
            key.1.into(),
            hex(&at.tx[..]).into(),
            s.amount0.to_string().into(),
            s.amount1.to_string().into(),
            s.sqrt_price_x96.to_string().into(),
            time.into(),
        ]);
    }
    rows::insert(db, &SWAPS, values).await?;
    rows::insert(db, &TRANSFERS, transfers).await?;
    let holders = adjust(db, deltas).await?;
    summary.holders = summary.holders.saturating_add_signed(holders);
    save(db, &summary).await
}

/// The keys of the swaps stored in the blocks `blocks` span (none while the index moves on).
async fn stored_swaps(
    db: &impl ConnectionTrait,
    blocks: impl Iterator<Item = i64> + Clone,
) -> Result<HashSet<(i64, i32)>, DbErr> {
    let (Some(first), Some(last)) = (blocks.clone().min(), blocks.max()) else {
        return Ok(HashSet::new());
    };
    let stored = swaps::Entity::find().filter(swaps::Column::Block.between(first, last));
    crate::db::pairs(db, stored, (swaps::Column::Block, swaps::Column::LogIndex)).await
}

/// Removes the ledger's rows above `block`, reversing the balances their transfers moved and
/// subtracting them from the summary (only those rows are read).
pub async fn roll_back_above(db: &impl ConnectionTrait, block: u64) -> Result<(), DbErr> {
    let above = block as i64;
    let mut summary = summary_for_update(db).await?;
    let orphaned = token_transfers::Entity::find()
        .filter(token_transfers::Column::Block.gt(above))
        .all(db)
        .await?;
    let orphaned_swaps: Vec<(String, String, String)> = swaps::Entity::find()
        .filter(swaps::Column::Block.gt(above))
        .select_only()
        .column(swaps::Column::Amount0)
        .column(swaps::Column::Amount1)
        .column(swaps::Column::SqrtPriceX96)
        .into_tuple()
        .all(db)
        .await?;
    if orphaned.is_empty() && orphaned_swaps.is_empty() {
        return Ok(());
    }
    for (amount0, amount1, sqrt_price_x96) in &orphaned_swaps {
        summary.totals -= &Totals::swap(&Swap {
            amount0: big(amount0),
            amount1: big(amount1),
            sqrt_price_x96: big(sqrt_price_x96),
        });
    }
    let mut deltas = HashMap::new();
    for t in &orphaned {
        let amount = big(&t.amount);
        if let (Ok(from), Ok(to)) = (t.sender.parse::<Address>(), t.recipient.parse::<Address>()) {
            add(&mut deltas, &from, amount, 1);
            add(&mut deltas, &to, amount, -1);
            if is_burn(&to) {
                summary.totals -= &Totals::burn(amount);
            }
        }
    }
    let holders = adjust(db, deltas).await?;
    summary.holders = summary.holders.saturating_add_signed(holders);
    token_transfers::Entity::delete_many()
        .filter(token_transfers::Column::Block.gt(above))
        .exec(db)
        .await?;
    swaps::Entity::delete_many()
        .filter(swaps::Column::Block.gt(above))
        .exec(db)
        .await?;
    save(db, &summary).await
}

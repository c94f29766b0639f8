//! What the indexer writes: vote events and the votes derived from them, and its cursor. A
//! range's rows and the cursor after it are written in one transaction by the caller; a
//! rollback removes the rows of orphaned blocks and recomputes the votes they touched.

use std::collections::BTreeSet;

use chrono::{DateTime, TimeZone, Utc};
use journal_market_domain::status::JournalStatus;
use journal_market_domain::wallet::lower;
use journal_market_entity::{indexer_cursors, journals, unlocks, vote_events, votes};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder,
};

use super::votes::{Event, rules};

pub const CURSOR: &str = "chain";

/// What applying a vote event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// No journal has the token (a feedback needs a live one): not a vote of ours.
    NotOurs,
    Stored {
        journal_id: i32,
        /// Whether the feedback kept the vote rules (always true for a revocation).
        valid: bool,
        reason: Option<String>,
    },
}

/// Stores a vote event (once: a second report of the same log changes nothing) and recomputes
/// the wallet's vote on the journal.
pub async fn apply_vote(
    db: &impl ConnectionTrait,
    e: &Event,
    now: DateTime<Utc>,
) -> Result<Applied, DbErr> {
    let token = e.token().to_string();
    let mut find = journals::Entity::find().filter(journals::Column::TokenId.eq(token));
    if matches!(e, Event::Feedback(_)) {
        find = find.filter(journals::Column::Status.eq(JournalStatus::Live));
    }
    let Some(journal) = find.one(db).await? else {
        return Ok(Applied::NotOurs);
    };
    let at = e.at();
    let created_at = at
        .block_time
        .and_then(|t| Utc.timestamp_opt(t as i64, 0).single())
        .unwrap_or(now);
    let (kind, wallet, feedback_index, value, tag, valid, reason) = match e {
        Event::Feedback(f) => {
            let wallet = lower(&f.wallet);
            let verdict = match rules(f) {
                Ok(v) => {
                    let unlocked = unlocks::Entity::find()
                        .filter(unlocks::Column::Wallet.eq(wallet.clone()))
                        .filter(unlocks::Column::JournalId.eq(journal.id))
                        .one(db)
                        .await?
                        .is_some();
                    if unlocked {
                        Ok(v)
                    } else {
                        Err("the voting wallet has not unlocked the journal".to_string())
                    }
                }
                Err(why) => Err(why),
            };
            let (value, valid, reason) = match verdict {
                Ok(v) => (v, true, None),
                Err(why) => (0, false, Some(why)),
            };
            (
                "feedback",
                wallet,
                f.feedback_index,
                value,
                f.tag1.clone(),
                valid,
                reason,
            )
        }
        Event::Revoke(r) => (
            "revoke",
            lower(&r.wallet),
            r.feedback_index,
            0,
            String::new(),
            true,
            None,
        ),
    };
    // One writer per wallet and journal at a time: the indexer (a range's votes in chain order,
    // one transaction) and a report of one vote would otherwise take the event's row and the
    // standing vote's row in opposite orders, and PostgreSQL would end one of them as a
    // deadlock (a report answered 500).
    crate::db::lock_key(db, &format!("vote:{wallet}:{}", journal.id)).await?;
    vote_events::Entity::insert(vote_events::ActiveModel {
        tx: Set(format!("{:#x}", at.tx)),
        log_index: Set(at.log_index as i32),
        block: Set(at.block as i64),
        kind: Set(kind.into()),
        wallet: Set(wallet.clone()),
        journal_id: Set(journal.id),
        feedback_index: Set(feedback_index as i64),
        value: Set(value),
        tag: Set(tag),
        valid: Set(valid),
        reason: Set(reason.clone()),
        created_at: Set(created_at),
    })
    .on_conflict(
        OnConflict::columns([vote_events::Column::Tx, vote_events::Column::LogIndex])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    recompute(db, &wallet, journal.id).await?;
    Ok(Applied::Stored {
        journal_id: journal.id,
        valid,
        reason,
    })
}

/// The vote that stands for a wallet on a journal: its latest valid feedback in chain order,
/// unless that feedback was revoked since.
pub async fn recompute(
    db: &impl ConnectionTrait,
    wallet: &str,
    journal_id: i32,
) -> Result<(), DbErr> {
    let events = vote_events::Entity::find()
        .filter(vote_events::Column::Wallet.eq(wallet))
        .filter(vote_events::Column::JournalId.eq(journal_id))
        .order_by_asc(vote_events::Column::Block)
        .order_by_asc(vote_events::Column::LogIndex)
        .all(db)
        .await?;
    let mut standing: Option<&vote_events::Model> = None;
    for e in &events {
        match e.kind.as_str() {
            "feedback" if e.valid => standing = Some(e),
            "revoke" if standing.is_some_and(|s| s.feedback_index == e.feedback_index) => {
                standing = None
            }
            _ => {}
        }
    }
    // An upsert, not a delete and an insert: the indexer and a report of the same vote may
    // recompute one pair at the same time.
    match standing {
        Some(s) => {
            votes::Entity::insert(votes::ActiveModel {
                wallet: Set(wallet.to_string()),
                journal_id: Set(journal_id),
                value: Set(s.value),
                tag: Set(s.tag.clone()),
                tx: Set(s.tx.clone()),
                block: Set(s.block),
                log_index: Set(s.log_index),
                feedback_index: Set(s.feedback_index),
                created_at: Set(s.created_at),
            })
            .on_conflict(
                OnConflict::columns([votes::Column::Wallet, votes::Column::JournalId])
                    .update_columns([
                        votes::Column::Value,
                        votes::Column::Tag,
                        votes::Column::Tx,
                        votes::Column::Block,
                        votes::Column::LogIndex,
                        votes::Column::FeedbackIndex,
                        votes::Column::CreatedAt,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await?;
        }
        None => {
            votes::Entity::delete_many()
                .filter(votes::Column::Wallet.eq(wallet))
                .filter(votes::Column::JournalId.eq(journal_id))
                .exec(db)
                .await?;
        }
    }
    Ok(())
}

/// Removes what the index holds above `block` (blocks a reorg orphaned) and recomputes the
/// votes it touched.
pub async fn roll_back_above(db: &impl ConnectionTrait, block: u64) -> Result<(), DbErr> {
    let above = vote_events::Entity::find().filter(vote_events::Column::Block.gt(block as i64));
    let keys = (vote_events::Column::Wallet, vote_events::Column::JournalId);
    let touched: BTreeSet<(String, i32)> = crate::db::pairs(db, above, keys).await?;
    vote_events::Entity::delete_many()
        .filter(vote_events::Column::Block.gt(block as i64))
        .exec(db)
        .await?;
    for (wallet, journal) in touched {
        recompute(db, &wallet, journal).await?;
    }
    Ok(())
}

/// Removes the vote events of blocks `from..=to` that the canonical logs of those blocks
/// (`kept`: transaction hash and log index) do not hold: votes reported through the API ahead
/// of the index whose transaction a reorg dropped. Recomputes the votes it touched.
pub async fn drop_unconfirmed(
    db: &impl ConnectionTrait,
    from: u64,
    to: u64,
    kept: &BTreeSet<(String, i32)>,
) -> Result<(), DbErr> {
    let in_range = vote_events::Entity::find()
        .filter(vote_events::Column::Block.gte(from as i64))
        .filter(vote_events::Column::Block.lte(to as i64))
        .all(db)
        .await?;
    let mut touched = BTreeSet::new();
    for e in in_range {
        if kept.contains(&(e.tx.clone(), e.log_index)) {
            continue;
        }
        tracing::warn!(tx = %e.tx, block = e.block, "a reported vote is not on the canonical chain; removed");
        vote_events::Entity::delete_by_id((e.tx.clone(), e.log_index))
            .exec(db)
            .await?;
        touched.insert((e.wallet, e.journal_id));
    }
    for (wallet, journal) in touched {
        recompute(db, &wallet, journal).await?;
    }
    Ok(())
}

/// The last block indexed and its hash.
pub async fn cursor(db: &impl ConnectionTrait) -> Result<Option<(u64, Option<String>)>, DbErr> {
    Ok(indexer_cursors::Entity::find_by_id(CURSOR)
        .one(db)
        .await?
        .map(|c| (c.block.max(0) as u64, c.block_hash)))
}

pub async fn set_cursor(
    db: &impl ConnectionTrait,
    block: u64,
    hash: Option<String>,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    indexer_cursors::Entity::insert(indexer_cursors::ActiveModel {
        name: Set(CURSOR.into()),
        block: Set(block as i64),
        block_hash: Set(hash),
        updated_at: Set(now),
    })
    .on_conflict(
        OnConflict::column(indexer_cursors::Column::Name)
            .update_columns([
                indexer_cursors::Column::Block,
                indexer_cursors::Column::BlockHash,
                indexer_cursors::Column::UpdatedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}

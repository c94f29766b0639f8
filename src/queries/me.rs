//! The signed-in wallet's own views: the writing desk and the reading history.

use std::collections::{HashMap, HashSet};

use alloy::primitives::Address;
use journal_market_api::{
    Desk, DeskItem, DeskTotals, History, UnlockItem, VoteItem, WithdrawnItem,
};
use journal_market_entity::{PaymentState, Wallet, journals, payments, unlocks, votes};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};

use crate::domain::money::split;
use crate::domain::status::JournalStatus;
use crate::domain::time::ts;

/// Journals the wallet wrote, with reads, the author's 90% earned, and votes.
pub async fn desk(db: &DatabaseConnection, who: Address) -> Result<Desk, DbErr> {
    let mine = journals::Entity::find()
        .filter(journals::Column::AuthorWallet.eq(Wallet(who)))
        .order_by_desc(journals::Column::UpdatedAt)
        .order_by_desc(journals::Column::Id)
        .all(db)
        .await?;
    let ids: Vec<i32> = mine.iter().map(|j| j.id).collect();
    let paid = unlocks::Entity::find()
        .filter(unlocks::Column::JournalId.is_in(ids.clone()))
        .all(db)
        .await?;
    let cast = votes::Entity::find()
        .filter(votes::Column::JournalId.is_in(ids))
        .all(db)
        .await?;
    let mut reads: HashMap<i32, (i64, i64)> = HashMap::new();
    for u in &paid {
        let e = reads.entry(u.journal_id).or_default();
        e.0 += 1;
        e.1 += split(u.paid_units).1;
    }
    let mut tally: HashMap<i32, (i64, i64)> = HashMap::new();
    for v in &cast {
        let e = tally.entry(v.journal_id).or_default();
        if v.value > 0 {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    let written: Vec<DeskItem> = mine
        .iter()
        .map(|j| {
            let (r, earned) = reads.get(&j.id).copied().unwrap_or_default();
            let (up, down) = tally.get(&j.id).copied().unwrap_or_default();
            DeskItem {
                id: i64::from(j.id),
                slug: j.slug.clone(),
                ticker: j.ticker.clone(),
                title: j.title.clone(),
                status: j.status.to_string(),
                reads: r,
                earned,
                up,
                down,
            }
        })
        .collect();
    Ok(Desk {
        address: who.to_checksum(None),
        totals: DeskTotals {
            earned_units: written.iter().map(|w| w.earned).sum(),
            live: mine
                .iter()
                .filter(|j| j.status == JournalStatus::Live)
                .count() as i64,
            reads: written.iter().map(|w| w.reads).sum(),
        },
        written,
    })
}

/// Where the chain stands for `final` flags: the head as last seen, and the reorg-safe distance.
#[derive(Debug, Clone, Copy)]
pub struct Depth {
    pub head: Option<u64>,
    pub distance: u64,
}

impl Depth {
    fn is_final(&self, block: i64) -> bool {
        self.head.is_some_and(|h| {
            u64::try_from(block).is_ok_and(|b| b.saturating_add(self.distance) <= h)
        })
    }
}

/// What the wallet bought, what a reorg took back, and how it voted, newest first.
pub async fn history(
    db: &DatabaseConnection,
    who: Address,
    depth: Depth,
) -> Result<History, DbErr> {
    let wallet = Wallet(who);
    let bought = unlocks::Entity::find()
        .filter(unlocks::Column::Wallet.eq(wallet))
        .order_by_desc(unlocks::Column::PaidAt)
        .all(db)
        .await?;
    let cast = votes::Entity::find()
        .filter(votes::Column::Wallet.eq(wallet))
        .order_by_desc(votes::Column::CreatedAt)
        .all(db)
        .await?;
    let paid = payments::Entity::find()
        .filter(payments::Column::Wallet.eq(wallet))
        .order_by_desc(payments::Column::UpdatedAt)
        .all(db)
        .await?;
    // A purchase is final once none of its settled or re-settling payments is unconfirmed.
    let mut unconfirmed: HashSet<i32> = HashSet::new();
    for p in &paid {
        if p.state != PaymentState::Failed && p.final_at.is_none() {
            unconfirmed.insert(p.journal_id);
        }
    }
    let taken_back: Vec<&payments::Model> = paid
        .iter()
        .filter(|p| p.state == PaymentState::Failed && p.reorged_at.is_some())
        .collect();
    let ids: Vec<i32> = bought
        .iter()
        .map(|u| u.journal_id)
        .chain(cast.iter().map(|v| v.journal_id))
        .chain(taken_back.iter().map(|p| p.journal_id))
        .collect();
    let js: HashMap<i32, journals::Model> = journals::Entity::find()
        .filter(journals::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|j| (j.id, j))
        .collect();
    let unlocks = bought
        .iter()
        .filter_map(|u| {
            js.get(&u.journal_id).map(|j| UnlockItem {
                slug: j.slug.clone().unwrap_or_default(),
                title: j.title.clone(),
                ticker: j.ticker.clone(),
                author_name: j.author_name.clone(),
                paid_units: u.paid_units,
                paid_at: ts(&u.paid_at),
                receipt: None,
                is_final: !unconfirmed.contains(&u.journal_id),
            })
        })
        .collect();
    let withdrawn = taken_back
        .iter()
        .filter_map(|p| {
            js.get(&p.journal_id).map(|j| WithdrawnItem {
                slug: j.slug.clone().unwrap_or_default(),
                title: j.title.clone(),
                ticker: j.ticker.clone(),
                step: p.step.clone(),
                paid_units: p.amount_units,
                withdrawn_at: ts(&p.updated_at),
                reason: format!(
                    "a chain reorganisation dropped the payment's transaction and it could not be \
                     settled again: {}",
                    p.error.as_deref().unwrap_or("no reason recorded")
                ),
            })
        })
        .collect();
    let votes = cast
        .iter()
        .filter_map(|v| {
            js.get(&v.journal_id).map(|j| VoteItem {
                slug: j.slug.clone().unwrap_or_default(),
                title: j.title.clone(),
                ticker: j.ticker.clone(),
                value: i64::from(v.value),
                tag: v.tag.clone(),
                tx: v.tx.clone(),
                created_at: ts(&v.created_at),
                is_final: depth.is_final(v.block),
            })
        })
        .collect();
    Ok(History {
        address: who.to_checksum(None),
        unlocks,
        votes,
        withdrawn,
    })
}

//! Payment rows, their transactions, and unlocks. A payment step is a row before any money
//! moves. Open rows (pending or settled) are unique per (wallet, journal, step), every row per
//! (wallet, permit nonce) and per permit signature, and a transaction hash belongs to one row; the purchase rules are
//! checked in the statement that inserts the row (`claim.rs`), and the last step's unlock is
//! written in the command that settles it (`settle.rs`). Failed rows stay as history.

use chrono::{DateTime, Utc};
use journal_market_domain::purchase::{Step, Verdict};
use journal_market_domain::state::PaymentState;
use journal_market_domain::tx::TxHash;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::{journals, payment_txs, payments, relayer_leases, unlocks};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DbErr,
    EntityTrait, QueryFilter, QueryOrder, QuerySelect, SqlErr,
};

use crate::db::Lease;

mod claim;
mod seen;
mod settle;

pub use claim::{claim, settled_fee};
pub use seen::*;
pub use settle::{settle, sqlite_statements};

fn unique_violation(e: &DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

pub struct NewPayment<'a> {
    pub wallet: Wallet,
    pub journal_id: i32,
    pub author_wallet: Option<Wallet>,
    pub swarm: bool,
    pub step: Step,
    pub amount_units: i64,
    pub pay_to: Wallet,
    pub permit_nonce: &'a str,
    /// The permit's signature, normalized (`signature::key`).
    pub signature_key: &'a str,
    pub permit_deadline: DateTime<Utc>,
    pub payload: &'a str,
    /// The client's `payment-identifier`, and the fingerprint of the payment it is bound to.
    pub payment_id: Option<&'a str>,
    pub fingerprint: &'a str,
    pub now: DateTime<Utc>,
    /// The instance that works on the row and until when; `None` leaves it to reconciliation.
    pub lease: Option<(&'a str, DateTime<Utc>)>,
}

impl NewPayment<'_> {
    pub fn permit(&self) -> PermitKey<'_> {
        PermitKey {
            wallet: self.wallet,
            nonce: self.permit_nonce,
            signature: self.signature_key,
        }
    }
}

/// Which row a write is about: its id, and the wallet and journal its unlock is for.
#[derive(Debug, Clone, Copy)]
pub struct RowKey {
    pub id: i32,
    pub wallet: Wallet,
    pub journal_id: i32,
}

impl RowKey {
    pub fn of(row: &payments::Model) -> Self {
        RowKey {
            id: row.id,
            wallet: row.wallet,
            journal_id: row.journal_id,
        }
    }
}

/// The outcome of claiming a step for settlement.
#[derive(Debug)]
pub enum Claim {
    /// The row is new and pending.
    Claimed(i32),
    /// The rules refuse the wallet, or the fee is paid already.
    Rules(Verdict),
    /// This permit, or this payment-identifier, has a row already (a retry, or a replay).
    Known(Box<payments::Model>),
    /// Another permit's row holds the step (pending or settled).
    StepHeld(Box<payments::Model>),
}

pub async fn find(db: &impl ConnectionTrait, id: i32) -> Result<payments::Model, DbErr> {
    payments::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound(format!("payment {id}")))
}

/// Whether a payment's journal is written by the swarm (its one step is the last).
pub async fn journal_is_swarm(db: &impl ConnectionTrait, journal_id: i32) -> Result<bool, DbErr> {
    Ok(journals::Entity::find_by_id(journal_id)
        .one(db)
        .await?
        .is_some_and(|j| j.swarm))
}

/// Keeps a transaction hash learned for a payment. `false` when the hash belongs to another
/// payment (it can settle only one).
pub async fn record_tx(
    db: &impl ConnectionTrait,
    id: i32,
    tx: TxHash,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let row = payment_txs::ActiveModel {
        tx: Set(tx),
        payment_id: Set(id),
        created_at: Set(now),
    };
    let inserted = payment_txs::Entity::insert(row)
        .on_conflict(
            OnConflict::column(payment_txs::Column::Tx)
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    // Known already: whose is it?
    Ok(inserted == 1 || owns_tx(db, id, tx).await? == Some(true))
}

/// Whether a recorded hash is payment `id`'s; `None` when it is not recorded.
async fn owns_tx(db: &impl ConnectionTrait, id: i32, tx: TxHash) -> Result<Option<bool>, DbErr> {
    Ok(payment_txs::Entity::find_by_id(tx)
        .one(db)
        .await?
        .map(|t| t.payment_id == id))
}

/// Every transaction hash learned for a payment, oldest first.
pub async fn txs(db: &impl ConnectionTrait, id: i32) -> Result<Vec<TxHash>, DbErr> {
    Ok(payment_txs::Entity::find()
        .filter(payment_txs::Column::PaymentId.eq(id))
        .order_by_asc(payment_txs::Column::CreatedAt)
        .all(db)
        .await?
        .into_iter()
        .map(|t| t.tx)
        .collect())
}

/// An update of payment rows that also gives up their lease.
fn update_releasing() -> sea_orm::UpdateMany<payments::Entity> {
    payments::Entity::update_many()
        .col_expr(
            payments::Column::LeaseOwner,
            Expr::value(Option::<String>::None),
        )
        .col_expr(
            payments::Column::LeaseUntil,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
}

/// Ends pending row `id` in `state` at `now`, giving up its lease (a no-op on a row that is not
/// pending any more).
fn end_pending(
    id: i32,
    state: PaymentState,
    now: DateTime<Utc>,
) -> sea_orm::UpdateMany<payments::Entity> {
    update_releasing()
        .col_expr(payments::Column::State, Expr::value(state))
        .col_expr(payments::Column::UpdatedAt, Expr::value(now))
        .filter(payments::Column::Id.eq(id))
        .filter(payments::Column::State.eq(PaymentState::Pending))
}

/// Fails a pending row (only on proof that the permit did not and cannot pay). A row that had
/// settled until a reorg dropped its transaction takes the wallet's unlock of the journal with
/// it, in the same transaction: the purchase is not paid any more.
pub async fn fail(
    db: &DatabaseConnection,
    id: i32,
    error: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let failed = end_pending(id, PaymentState::Failed, now)
        .col_expr(payments::Column::Error, Expr::value(error))
        .exec(&txn)
        .await?
        .rows_affected;
    if failed == 1 {
        let row = find(&txn, id).await?;
        if row.reorged_at.is_some() {
            let gone = unlocks::Entity::delete_by_id((row.wallet, row.journal_id))
                .exec(&txn)
                .await?
                .rows_affected;
            if gone > 0 {
                tracing::warn!(payment = id, wallet = %row.wallet, journal = row.journal_id,
                    "a reorg dropped the payment and it could not be paid again: unlock withdrawn");
            }
        }
    }
    txn.commit().await
}

/// A settled row not final yet: where its transaction was last seen mined.
#[derive(Debug, sea_orm::FromQueryResult)]
pub struct Unconfirmed {
    pub id: i32,
    pub tx: TxHash,
    block_number: Option<i64>,
}

impl Unconfirmed {
    pub fn block(&self) -> Option<u64> {
        self.block_number.map(|b| u64::try_from(b).unwrap_or(0))
    }
}

/// Settled rows not final yet, oldest first (only what a confirmation pass reads).
pub async fn unconfirmed(db: &DatabaseConnection, limit: u64) -> Result<Vec<Unconfirmed>, DbErr> {
    payments::Entity::find()
        .select_only()
        .columns([
            payments::Column::Id,
            payments::Column::Tx,
            payments::Column::BlockNumber,
        ])
        .filter(payments::Column::FinalAt.is_null())
        .filter(payments::Column::State.eq(PaymentState::Settled))
        .filter(payments::Column::Tx.is_not_null())
        .order_by_asc(payments::Column::Id)
        .limit(limit)
        .into_model::<Unconfirmed>()
        .all(db)
        .await
}

/// Where a settled row's transaction was seen mined.
pub struct Sighted {
    id: i32,
    block: i64,
    hash: String,
}

impl Sighted {
    pub fn new(id: i32, block: u64, hash: alloy::primitives::B256) -> Sighted {
        Sighted {
            id,
            block: i64::try_from(block).unwrap_or(i64::MAX),
            hash: format!("{hash:#x}"),
        }
    }
}

/// Records where settled rows' transactions were seen mined, and `final_at` once they are
/// deep enough: one statement for all of them (a `CASE` on the id per column), and only rows
/// still settled and not final are touched.
pub async fn seen_at(
    db: &DatabaseConnection,
    rows: &[Sighted],
    final_at: Option<DateTime<Utc>>,
) -> Result<(), DbErr> {
    let Some((first, rest)) = rows.split_first() else {
        return Ok(());
    };
    let is = |r: &Sighted| payments::Column::Id.eq(r.id);
    let (mut block, mut hash) = (
        Expr::case(is(first), first.block),
        Expr::case(is(first), first.hash.clone()),
    );
    for r in rest {
        block = block.case(is(r), r.block);
        hash = hash.case(is(r), r.hash.clone());
    }
    payments::Entity::update_many()
        .col_expr(
            payments::Column::BlockNumber,
            block
                .finally(Expr::col(payments::Column::BlockNumber))
                .into(),
        )
        .col_expr(
            payments::Column::BlockHash,
            hash.finally(Expr::col(payments::Column::BlockHash)).into(),
        )
        .col_expr(payments::Column::FinalAt, Expr::value(final_at))
        .filter(payments::Column::Id.is_in(rows.iter().map(|r| r.id)))
        .filter(payments::Column::State.eq(PaymentState::Settled))
        .filter(payments::Column::FinalAt.is_null())
        .exec(db)
        .await
        .map(|_| ())
}

/// A settled row whose transaction a reorg dropped goes back to pending, due at once: the
/// settlement actor settles it again from its permit (the transaction, re-mined or sent
/// again) or fails it, withdrawing the unlock. The unlock stays meanwhile. `false` when the
/// row was not settled-and-unconfirmed any more.
pub async fn reorged(db: &DatabaseConnection, id: i32, now: DateTime<Utc>) -> Result<bool, DbErr> {
    Ok(update_releasing()
        .col_expr(payments::Column::State, Expr::value(PaymentState::Pending))
        .col_expr(payments::Column::Tx, Expr::value(Option::<String>::None))
        .col_expr(
            payments::Column::BlockNumber,
            Expr::value(Option::<i64>::None),
        )
        .col_expr(
            payments::Column::BlockHash,
            Expr::value(Option::<String>::None),
        )
        .col_expr(payments::Column::ReorgedAt, Expr::value(now))
        .col_expr(
            payments::Column::NextCheckAt,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .col_expr(payments::Column::Attempts, Expr::value(0))
        .col_expr(payments::Column::UpdatedAt, Expr::value(now))
        .filter(payments::Column::Id.eq(id))
        .filter(payments::Column::State.eq(PaymentState::Settled))
        .filter(payments::Column::FinalAt.is_null())
        .exec(db)
        .await?
        .rows_affected
        == 1)
}

/// Takes the lease of a pending row for `owner` when nobody else holds a live one.
pub async fn take_lease(
    db: &impl ConnectionTrait,
    id: i32,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let pending = payments::Entity::update_many()
        .filter(payments::Column::Id.eq(id))
        .filter(payments::Column::State.eq(PaymentState::Pending));
    let lease = (payments::Column::LeaseOwner, payments::Column::LeaseUntil);
    Lease { owner, now, until }.take(db, pending, lease).await
}

/// Gives a row back to reconciliation, to be looked at again at `next_check_at`.
pub async fn release(
    db: &impl ConnectionTrait,
    id: i32,
    owner: &str,
    next_check_at: DateTime<Utc>,
    counted: bool,
) -> Result<(), DbErr> {
    let mut q =
        update_releasing().col_expr(payments::Column::NextCheckAt, Expr::value(next_check_at));
    if counted {
        q = q.col_expr(
            payments::Column::Attempts,
            Expr::col(payments::Column::Attempts).add(1),
        );
    }
    q.filter(payments::Column::Id.eq(id))
        .filter(payments::Column::LeaseOwner.eq(owner))
        .exec(db)
        .await
        .map(|_| ())
}

/// Frees the leases a predecessor under the same name held (rows it touched before `started`):
/// that process is gone, so its rows need not wait for their leases to end.
pub async fn free_predecessor(
    db: &impl ConnectionTrait,
    owner: &str,
    started: DateTime<Utc>,
) -> Result<u64, DbErr> {
    Ok(update_releasing()
        .filter(payments::Column::LeaseOwner.eq(owner))
        .filter(payments::Column::State.eq(PaymentState::Pending))
        .filter(payments::Column::UpdatedAt.lt(started))
        .exec(db)
        .await?
        .rows_affected)
}

/// Pending rows nobody holds a live lease on and whose backoff has passed, oldest first.
pub async fn due(
    db: &impl ConnectionTrait,
    now: DateTime<Utc>,
    limit: u64,
) -> Result<Vec<payments::Model>, DbErr> {
    payments::Entity::find()
        .filter(payments::Column::State.eq(PaymentState::Pending))
        .filter(
            Condition::any()
                .add(payments::Column::LeaseUntil.is_null())
                .add(payments::Column::LeaseUntil.lt(now)),
        )
        .filter(
            Condition::any()
                .add(payments::Column::NextCheckAt.is_null())
                .add(payments::Column::NextCheckAt.lte(now)),
        )
        .order_by_asc(payments::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

/// Holds the lease of a relayer key for `owner` (taking it when free or expired); whether
/// `owner` holds it now.
pub async fn hold_relayer(
    db: &DatabaseConnection,
    address: &str,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let inserted = relayer_leases::Entity::insert(relayer_leases::ActiveModel {
        address: Set(address.to_string()),
        owner: Set(owner.to_string()),
        lease_until: Set(until),
    })
    .on_conflict(
        OnConflict::column(relayer_leases::Column::Address)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    let held = inserted == 1
        || relayer_leases::Entity::update_many()
            .col_expr(relayer_leases::Column::Owner, Expr::value(owner))
            .col_expr(relayer_leases::Column::LeaseUntil, Expr::value(until))
            .filter(relayer_leases::Column::Address.eq(address))
            .filter(
                Condition::any()
                    .add(relayer_leases::Column::Owner.eq(owner))
                    .add(relayer_leases::Column::LeaseUntil.lt(now)),
            )
            .exec(&txn)
            .await?
            .rows_affected
            == 1;
    txn.commit().await?;
    Ok(held)
}

/// Gives a relayer key up (a clean shutdown), so another instance takes it at once.
pub async fn drop_relayer(
    db: &impl ConnectionTrait,
    address: &str,
    owner: &str,
) -> Result<(), DbErr> {
    relayer_leases::Entity::delete_many()
        .filter(relayer_leases::Column::Address.eq(address))
        .filter(relayer_leases::Column::Owner.eq(owner))
        .exec(db)
        .await
        .map(|_| ())
}

/// All pending rows (tests and operators).
pub async fn pending(db: &impl ConnectionTrait) -> Result<Vec<payments::Model>, DbErr> {
    payments::Entity::find()
        .filter(payments::Column::State.eq(PaymentState::Pending))
        .all(db)
        .await
}

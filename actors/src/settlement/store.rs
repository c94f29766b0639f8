//! Payment and unlock rows. A payment step is a row before any money moves, keyed by
//! (wallet, journal, step) and by (wallet, permit nonce), so a retry or a race can never settle
//! twice; the last step's unlock is written in the transaction that settles it.

use chrono::{DateTime, Utc};
use journal_market_entity::{payments, unlocks};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter, SqlErr,
};

pub const PENDING: &str = "pending";
pub const SETTLED: &str = "settled";
pub const FAILED: &str = "failed";

pub struct NewPayment<'a> {
    pub wallet: &'a str,
    pub journal_id: i32,
    pub step: &'a str,
    pub amount_units: i64,
    pub pay_to: &'a str,
    pub permit_nonce: &'a str,
    pub permit_deadline: DateTime<Utc>,
    pub payload: &'a str,
    pub now: DateTime<Utc>,
}

/// The outcome of claiming a step for settlement.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// This request owns the pending row and settles it.
    Claimed(i32),
    /// Another request holds the step (pending), it is settled already, or the permit's nonce
    /// belongs to another payment (`nonce`).
    Taken { state: String },
}

/// Inserts the pending row, or takes over a failed one; reports who holds the step otherwise.
pub async fn claim(db: &DatabaseConnection, p: &NewPayment<'_>) -> Result<Claim, DbErr> {
    let row = payments::ActiveModel {
        wallet: Set(p.wallet.to_string()),
        journal_id: Set(p.journal_id),
        step: Set(p.step.to_string()),
        amount_units: Set(p.amount_units),
        pay_to: Set(p.pay_to.to_string()),
        permit_nonce: Set(p.permit_nonce.to_string()),
        permit_deadline: Set(p.permit_deadline),
        payload: Set(p.payload.to_string()),
        state: Set(PENDING.to_string()),
        tx: Set(None),
        error: Set(None),
        created_at: Set(p.now),
        updated_at: Set(p.now),
        ..Default::default()
    };
    match payments::Entity::insert(row).exec(db).await {
        Ok(res) => return Ok(Claim::Claimed(res.last_insert_id)),
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {}
        Err(e) => return Err(e),
    }
    // The step (or the permit) is known: a failed attempt may be taken over by one request.
    let taken = payments::Entity::update_many()
        .col_expr(payments::Column::State, Expr::value(PENDING))
        .col_expr(payments::Column::AmountUnits, Expr::value(p.amount_units))
        .col_expr(payments::Column::PayTo, Expr::value(p.pay_to))
        .col_expr(payments::Column::PermitNonce, Expr::value(p.permit_nonce))
        .col_expr(
            payments::Column::PermitDeadline,
            Expr::value(p.permit_deadline),
        )
        .col_expr(payments::Column::Payload, Expr::value(p.payload))
        .col_expr(payments::Column::Tx, Expr::value(Option::<String>::None))
        .col_expr(payments::Column::Error, Expr::value(Option::<String>::None))
        .col_expr(payments::Column::UpdatedAt, Expr::value(p.now))
        .filter(payments::Column::Wallet.eq(p.wallet))
        .filter(payments::Column::JournalId.eq(p.journal_id))
        .filter(payments::Column::Step.eq(p.step))
        .filter(payments::Column::State.eq(FAILED))
        .exec(db)
        .await;
    match taken {
        Ok(r) if r.rows_affected == 1 => {
            let row = find_step(db, p.wallet, p.journal_id, p.step).await?;
            Ok(row.map_or(
                Claim::Taken {
                    state: PENDING.into(),
                },
                |r| Claim::Claimed(r.id),
            ))
        }
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Ok(Claim::Taken {
                state: "nonce".into(),
            })
        }
        Err(e) => Err(e),
        Ok(_) => {
            let state = match find_step(db, p.wallet, p.journal_id, p.step).await? {
                Some(r) => r.state,
                None => "nonce".into(),
            };
            Ok(Claim::Taken { state })
        }
    }
}

pub async fn find_step(
    db: &impl ConnectionTrait,
    wallet: &str,
    journal_id: i32,
    step: &str,
) -> Result<Option<payments::Model>, DbErr> {
    payments::Entity::find()
        .filter(payments::Column::Wallet.eq(wallet))
        .filter(payments::Column::JournalId.eq(journal_id))
        .filter(payments::Column::Step.eq(step))
        .one(db)
        .await
}

pub async fn record_tx(
    db: &DatabaseConnection,
    id: i32,
    tx: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    payments::Entity::update_many()
        .col_expr(payments::Column::Tx, Expr::value(tx))
        .col_expr(payments::Column::UpdatedAt, Expr::value(now))
        .filter(payments::Column::Id.eq(id))
        .exec(db)
        .await
        .map(|_| ())
}

pub async fn fail(
    db: &DatabaseConnection,
    id: i32,
    error: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    payments::Entity::update_many()
        .col_expr(payments::Column::State, Expr::value(FAILED))
        .col_expr(payments::Column::Error, Expr::value(error))
        .col_expr(payments::Column::UpdatedAt, Expr::value(now))
        .filter(payments::Column::Id.eq(id))
        .filter(payments::Column::State.eq(PENDING))
        .exec(db)
        .await
        .map(|_| ())
}

/// Marks the row settled and, on the last step, records the unlock, in one transaction.
/// Returns false when the row was not pending any more (someone else finished it).
pub async fn settle(
    db: &DatabaseConnection,
    id: i32,
    tx: &str,
    unlock: bool,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let done = payments::Entity::update_many()
        .col_expr(payments::Column::State, Expr::value(SETTLED))
        .col_expr(payments::Column::Tx, Expr::value(tx))
        .col_expr(payments::Column::UpdatedAt, Expr::value(now))
        .filter(payments::Column::Id.eq(id))
        .filter(payments::Column::State.eq(PENDING))
        .exec(&txn)
        .await?
        .rows_affected;
    if done != 1 {
        txn.rollback().await?;
        return Ok(false);
    }
    if unlock {
        let row = payments::Entity::find_by_id(id)
            .one(&txn)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("payment".into()))?;
        let paid: i64 = payments::Entity::find()
            .filter(payments::Column::Wallet.eq(row.wallet.clone()))
            .filter(payments::Column::JournalId.eq(row.journal_id))
            .filter(payments::Column::State.eq(SETTLED))
            .all(&txn)
            .await?
            .iter()
            .map(|p| p.amount_units)
            .sum();
        unlocks::Entity::insert(unlocks::ActiveModel {
            wallet: Set(row.wallet),
            journal_id: Set(row.journal_id),
            paid_units: Set(paid),
            paid_at: Set(now),
        })
        .on_conflict(
            OnConflict::columns([unlocks::Column::Wallet, unlocks::Column::JournalId])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(true)
}

pub async fn pending(db: &DatabaseConnection) -> Result<Vec<payments::Model>, DbErr> {
    payments::Entity::find()
        .filter(payments::Column::State.eq(PENDING))
        .all(db)
        .await
}

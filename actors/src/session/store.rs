//! The nonce and session rows: the source of truth that every instance shares.

use chrono::{DateTime, Utc};
use journal_market_entity::{nonces, sessions};
use sea_orm::ExprTrait;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter,
};

/// Why a nonce cannot be used, as the client is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonceProblem {
    Unknown,
    Used,
    /// Used up by failed signatures.
    UsedUp,
    Expired,
    OtherAddress,
}

pub async fn insert_nonce(
    db: &DatabaseConnection,
    nonce: &str,
    address: &str,
    message: &str,
    expires_at: DateTime<Utc>,
) -> Result<(), DbErr> {
    nonces::Entity::insert(nonces::ActiveModel {
        nonce: Set(nonce.to_string()),
        address: Set(address.to_string()),
        message: Set(message.to_string()),
        expires_at: Set(expires_at),
        used_at: Set(None),
        failures: Set(0),
    })
    .exec_without_returning(db)
    .await
    .map(|_| ())
}

/// The message issued for `nonce`, or why it cannot be used now; `max_failures` failed
/// signatures use a nonce up.
pub async fn usable_nonce(
    db: &DatabaseConnection,
    nonce: &str,
    address: &str,
    now: DateTime<Utc>,
    max_failures: u32,
) -> Result<Result<String, NonceProblem>, DbErr> {
    let Some(row) = nonces::Entity::find_by_id(nonce.to_string())
        .one(db)
        .await?
    else {
        return Ok(Err(NonceProblem::Unknown));
    };
    Ok(
        if row.used_at.is_some() && row.failures as i64 >= max_failures as i64 {
            Err(NonceProblem::UsedUp)
        } else if row.used_at.is_some() {
            Err(NonceProblem::Used)
        } else if row.expires_at <= now {
            Err(NonceProblem::Expired)
        } else if row.address != address {
            Err(NonceProblem::OtherAddress)
        } else {
            Ok(row.message)
        },
    )
}

/// Counts a failed signature for an unused nonce of `address`, and uses the nonce up at the
/// `max_failures`th (in the same transaction, so concurrent failures cannot overshoot unseen).
pub async fn record_failure(
    db: &DatabaseConnection,
    nonce: &str,
    address: &str,
    now: DateTime<Utc>,
    max_failures: u32,
) -> Result<(), DbErr> {
    let txn = crate::db::begin_write(db).await?;
    nonces::Entity::update_many()
        .col_expr(
            nonces::Column::Failures,
            Expr::col(nonces::Column::Failures).add(1),
        )
        .filter(nonces::Column::Nonce.eq(nonce))
        .filter(nonces::Column::Address.eq(address))
        .filter(nonces::Column::UsedAt.is_null())
        .exec(&txn)
        .await?;
    nonces::Entity::update_many()
        .col_expr(nonces::Column::UsedAt, Expr::value(now))
        .filter(nonces::Column::Nonce.eq(nonce))
        .filter(nonces::Column::UsedAt.is_null())
        .filter(nonces::Column::Failures.gte(max_failures as i32))
        .exec(&txn)
        .await?;
    txn.commit().await
}

/// Consumes the nonce with one conditional UPDATE and creates the session in the same
/// transaction. Under any number of concurrent calls, on any number of instances, exactly one
/// sees the UPDATE touch a row; the others get `Ok(false)` and nothing is written.
pub async fn consume_and_open(
    db: &DatabaseConnection,
    nonce: &str,
    address: &str,
    token_hash: &str,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let consumed = nonces::Entity::update_many()
        .col_expr(nonces::Column::UsedAt, Expr::value(now))
        .filter(nonces::Column::Nonce.eq(nonce))
        .filter(nonces::Column::Address.eq(address))
        .filter(nonces::Column::UsedAt.is_null())
        .filter(nonces::Column::ExpiresAt.gt(now))
        .exec(&txn)
        .await?
        .rows_affected;
    if consumed != 1 {
        txn.rollback().await?;
        return Ok(false);
    }
    open(&txn, token_hash, address, now, expires_at).await?;
    txn.commit().await?;
    Ok(true)
}

/// Creates a session without a nonce (a settled final payment proves the wallet).
pub async fn open(
    db: &impl ConnectionTrait,
    token_hash: &str,
    address: &str,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<(), DbErr> {
    sessions::Entity::insert(sessions::ActiveModel {
        token_hash: Set(token_hash.to_string()),
        address: Set(address.to_string()),
        created_at: Set(now),
        expires_at: Set(expires_at),
    })
    .exec_without_returning(db)
    .await
    .map(|_| ())
}

/// The address and expiry of a live session.
pub async fn find_session(
    db: &DatabaseConnection,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<Option<(String, DateTime<Utc>)>, DbErr> {
    Ok(sessions::Entity::find_by_id(token_hash.to_string())
        .one(db)
        .await?
        .filter(|s| s.expires_at > now)
        .map(|s| (s.address, s.expires_at)))
}

pub async fn delete_session(db: &DatabaseConnection, token_hash: &str) -> Result<(), DbErr> {
    sessions::Entity::delete_by_id(token_hash.to_string())
        .exec(db)
        .await
        .map(|_| ())
}

/// Deletes expired sessions and nonces that expired more than a day ago.
pub async fn purge(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<u64, DbErr> {
    let s = sessions::Entity::delete_many()
        .filter(sessions::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?
        .rows_affected;
    let n = nonces::Entity::delete_many()
        .filter(nonces::Column::ExpiresAt.lte(now - chrono::Duration::days(1)))
        .exec(db)
        .await?
        .rows_affected;
    Ok(s + n)
}

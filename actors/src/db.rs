//! Database helpers the actors and the server share.

mod lanes;

pub use lanes::Lanes;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend,
    DbErr, EntityTrait, QueryFilter, QuerySelect, Select, SqliteTransactionMode, Statement,
    TransactionOptions, TransactionTrait, TryGetableMany, UpdateMany,
};

/// A write transaction. On SQLite it takes the write lock at BEGIN (IMMEDIATE), so two writers
/// queue on the busy timeout instead of failing halfway with SQLITE_BUSY.
pub async fn begin_write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    if db.get_database_backend() == DbBackend::Sqlite {
        db.begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..Default::default()
        })
        .await
    } else {
        db.begin().await
    }
}

/// On PostgreSQL, serialises the transactions that name `key` until they end (an advisory
/// transaction lock), so a rule over several rows (a wallet's quota or bound) holds with two
/// writers at once. SQLite's write transactions are serial already.
pub async fn lock_key(txn: &impl ConnectionTrait, key: &str) -> Result<(), DbErr> {
    if txn.get_database_backend() == DbBackend::Postgres {
        txn.query_one_raw(Statement::from_sql_and_values(
            DbBackend::Postgres,
            "SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked",
            [key.into()],
        ))
        .await?;
    }
    Ok(())
}

/// The `(a, b)` of the rows `rows` picks, and no other column, collected (into a set, say).
pub async fn pairs<E, A, B, C>(
    db: &impl ConnectionTrait,
    rows: Select<E>,
    (a, b): (E::Column, E::Column),
) -> Result<C, DbErr>
where
    E: EntityTrait,
    (A, B): TryGetableMany,
    C: FromIterator<(A, B)>,
{
    let pairs = rows
        .select_only()
        .column(a)
        .column(b)
        .into_tuple::<(A, B)>()
        .all(db)
        .await?;
    Ok(pairs.into_iter().collect())
}

/// The lease `owner` takes on a row at `now`, until `until`. A table keeps a row's lease in two
/// columns, its holder and its end, written and cleared together.
#[derive(Debug, Clone, Copy)]
pub struct Lease<'a> {
    pub owner: &'a str,
    pub now: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

impl Lease<'_> {
    /// The rows whose lease `owner` may take at `now`: nobody holds it, it has run out, or
    /// `owner` holds it already (a restart under the same name).
    pub fn free<C: ColumnTrait>(
        owner: &str,
        now: DateTime<Utc>,
        (holder, end): (C, C),
    ) -> Condition {
        Condition::any()
            .add(end.is_null())
            .add(end.lt(now))
            .add(holder.eq(owner))
    }

    /// Takes the lease of the row `update` picks, in its columns `(holder, end)`, unless
    /// another holds a live one; whether it was taken.
    pub async fn take<E: EntityTrait>(
        self,
        db: &impl ConnectionTrait,
        update: UpdateMany<E>,
        (holder, end): (E::Column, E::Column),
    ) -> Result<bool, DbErr> {
        let taken = update
            .col_expr(holder, Expr::value(self.owner))
            .col_expr(end, Expr::value(self.until))
            .filter(Self::free(self.owner, self.now, (holder, end)))
            .exec(db)
            .await?;
        Ok(taken.rows_affected == 1)
    }
}

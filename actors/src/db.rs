//! Database helpers the actors and the server share.

use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr,
    SqliteTransactionMode, Statement, TransactionOptions, TransactionTrait,
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
pub async fn lock_key(txn: &DatabaseTransaction, key: &str) -> Result<(), DbErr> {
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

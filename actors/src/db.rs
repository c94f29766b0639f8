//! Database helpers the actors and the server share.

use sea_orm::{
    DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, SqliteTransactionMode,
    TransactionOptions, TransactionTrait,
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

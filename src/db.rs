//! Connecting to SQLite or PostgreSQL, running migrations, and write transactions.

use std::time::Duration;

use journal_market_migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbErr, Statement};

use crate::config::DatabaseSettings;

/// Opens the pool. A SQLite file (and its folder) is created when missing and runs in WAL mode
/// with a busy timeout, so readers never wait for the writer.
pub async fn connect(settings: &DatabaseSettings) -> anyhow::Result<DatabaseConnection> {
    let url = settings.url.expose();
    if let Some(path) = sqlite_path(url)
        && let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let mut opts = ConnectOptions::new(url.to_string());
    opts.max_connections(settings.max_connections)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(settings.acquire_timeout_secs))
        .sqlx_logging(false)
        .map_sqlx_sqlite_opts(|o| {
            o.create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
        });
    Database::connect(opts)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))
}

/// The file path of a `sqlite://` URL, if it names a file.
fn sqlite_path(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && path != ":memory:").then_some(path)
}

pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await
}

/// Number of migrations not yet applied.
pub async fn pending_migrations(db: &DatabaseConnection) -> Result<usize, DbErr> {
    Ok(Migrator::get_pending_migrations(db).await?.len())
}

pub async fn ping(db: &DatabaseConnection) -> Result<(), DbErr> {
    db.execute_raw(Statement::from_string(
        db.get_database_backend(),
        "SELECT 1",
    ))
    .await
    .map(|_| ())
}

pub use journal_market_actors::db::begin_write;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_paths() {
        assert_eq!(sqlite_path("sqlite://data/x.db"), Some("data/x.db"));
        assert_eq!(
            sqlite_path("sqlite:///tmp/x.db?mode=rwc"),
            Some("/tmp/x.db")
        );
        assert_eq!(sqlite_path("sqlite::memory:"), None);
        assert_eq!(sqlite_path("postgres://h/db"), None);
    }
}

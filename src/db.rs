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
    opts.max_connections(settings.pool_size())
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(settings.acquire_timeout_secs))
        .sqlx_logging(false)
        .map_sqlx_sqlite_opts(|o| {
            o.create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(BUSY_WAIT)
                .foreign_keys(true)
        })
        .map_sqlx_sqlite_pool_opts(|o| {
            o.after_connect(|conn, _| {
                Box::pin(async move {
                    let mut handle = conn.lock_handle().await?;
                    set_busy_handler(handle.as_raw_handle());
                    Ok(())
                })
            })
        });
    Database::connect(opts)
        .await
        .map_err(|e| anyhow::anyhow!("cannot open the database: {e}"))
}

/// How long a statement waits for another connection's write lock before SQLITE_BUSY (the
/// handler below enforces it; the pragma says the same to anything that reads it).
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// Replaces SQLite's default busy handler, which sleeps 1, 2, 5, … up to 100 ms between tries
/// (so a writer may wait 100 ms for a lock freed a millisecond after it asked), with tries
/// 50 µs apart doubling to 1 ms, until BUSY_WAIT is used up.
fn set_busy_handler(db: std::ptr::NonNull<libsqlite3_sys::sqlite3>) {
    extern "C" fn busy(_: *mut std::ffi::c_void, tries: std::ffi::c_int) -> std::ffi::c_int {
        let tries = tries.max(0) as u32;
        let pause = busy_pause(tries);
        if pause.is_zero() {
            return 0;
        }
        std::thread::sleep(pause);
        1
    }
    // SAFETY: `db` is the open connection sqlx hands to after_connect and holds locked; the
    // handler keeps no pointer and takes no user data.
    unsafe {
        libsqlite3_sys::sqlite3_busy_handler(db.as_ptr(), Some(busy), std::ptr::null_mut());
    }
}

/// The pause before try `tries + 1`; zero once BUSY_WAIT is used up.
fn busy_pause(tries: u32) -> Duration {
    const MAX: Duration = Duration::from_millis(1);
    // 50, 100, 200, 400, 800 µs, then 1 ms each: the first five take 1.55 ms.
    let waited = if tries <= 5 {
        Duration::from_micros(50 * ((1u64 << tries) - 1))
    } else {
        Duration::from_micros(1550) + MAX * (tries - 5)
    };
    if waited >= BUSY_WAIT {
        return Duration::ZERO;
    }
    Duration::from_micros(50 << tries.min(5)).min(MAX)
}

/// The file path of a `sqlite://` URL, if it names a file.
pub fn sqlite_path(url: &str) -> Option<&str> {
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

/// Drops every table and migrates again: an empty database (the devnet's fresh start).
pub async fn reset(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::fresh(db).await
}

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

    #[test]
    fn busy_pauses_grow_to_a_millisecond_and_end_after_the_busy_wait() {
        let first: Vec<u128> = (0..7).map(|t| busy_pause(t).as_micros()).collect();
        assert_eq!(first, [50, 100, 200, 400, 800, 1000, 1000]);
        let mut waited = Duration::ZERO;
        let mut tries = 0;
        while !busy_pause(tries).is_zero() {
            waited += busy_pause(tries);
            tries += 1;
        }
        // The last pause starts before BUSY_WAIT is used up and lasts at most a millisecond.
        assert!(waited >= BUSY_WAIT, "{waited:?}");
        assert!(waited <= BUSY_WAIT + Duration::from_millis(1), "{waited:?}");
    }
}

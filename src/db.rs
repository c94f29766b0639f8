//! Connecting to SQLite or PostgreSQL, running migrations, and write transactions.

use std::time::Duration;

use journal_market_actors::metrics::{describe, family, gauge};
use journal_market_migration::{Migrator, MigratorTrait};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    AccessMode, ConnectOptions, ConnectionTrait, Database, DatabaseConnection,
    DatabaseConnectionType, DatabaseTransaction, DbBackend, DbErr, IsolationLevel, Statement,
    TransactionTrait,
};

use crate::config::DatabaseSettings;

/// Opens the pool. A SQLite file (and its folder) is created when missing and runs in WAL mode
/// with a busy timeout, so readers never wait for the writer.
pub async fn connect(settings: &DatabaseSettings) -> anyhow::Result<DatabaseConnection> {
    open(settings, settings.pool_size()).await
}

/// The pool that purchases and sign-ins write through. On a SQLite file, a pool of one
/// connection of its own: SQLite takes one writer at a time anyway, and every commit of another
/// connection empties a connection's page cache, so writers spread over the pool re-read their
/// pages (and wait in the busy handler for each other) at every statement. The settlement's
/// statements run on one lane taken out of it (`Lanes`); its transactions and the sign-ins on
/// the pool's connection. On PostgreSQL, or an in-memory SQLite database (which a second pool
/// would not see), the pool itself.
pub async fn writer(
    settings: &DatabaseSettings,
    pool: &DatabaseConnection,
) -> anyhow::Result<DatabaseConnection> {
    match sqlite_path(settings.url.expose()) {
        Some(_) => open(settings, 1).await,
        None => Ok(pool.clone()),
    }
}

async fn open(settings: &DatabaseSettings, size: u32) -> anyhow::Result<DatabaseConnection> {
    let url = settings.url.expose();
    if let Some(path) = sqlite_path(url)
        && let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let mut opts = ConnectOptions::new(url.to_string());
    if url.starts_with("sqlite:") {
        // A SQLite connection is a file in this process: nothing at the other end can hang up,
        // so the ping sqlx sends before handing out each connection (a round trip to the
        // connection's thread, as many as the statements themselves) finds nothing.
        opts.test_before_acquire(false);
    }
    opts.max_connections(size)
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
                    plan_without_values(handle.as_raw_handle());
                    Ok(())
                })
            })
            .after_release(|conn, _| Box::pin(async move { Ok(!in_transaction(conn)) }))
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

/// Turns on SQLite's query planner stability guarantee, so a statement is planned without the
/// values bound to it. Without it, SQLite 3.51 plans `LIMIT ?` (every `.one()` of sea-orm) with
/// the bound value and marks the statement to be prepared again whenever that parameter is bound:
/// each run of a cached statement was parsed and planned anew (a tenth of the SQLite threads'
/// time in a purchase). The plans of this schema's lookups do not depend on the values.
fn plan_without_values(db: std::ptr::NonNull<libsqlite3_sys::sqlite3>) {
    // SAFETY: as in set_busy_handler; the option takes an int and a null out-pointer.
    let rc = unsafe {
        libsqlite3_sys::sqlite3_db_config(
            db.as_ptr(),
            libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as std::ffi::c_int,
            std::ptr::null_mut::<std::ffi::c_int>(),
        )
    };
    if rc != libsqlite3_sys::SQLITE_OK {
        tracing::warn!(
            rc,
            "SQLite refused its planner stability option; statements with a bound LIMIT are prepared again at each run"
        );
    }
}

/// Whether a connection is inside a transaction. One that comes back to the pool inside one
/// had its COMMIT fail (a full disk, an I/O error) in a way its driver's rollback did not
/// undo: it would hold the write lock and every other writer would wait and fail with "database
/// is locked" until a restart. Such a connection is closed instead (SQLite rolls back and
/// frees the lock), so the service recovers once the disk has room again. The driver's count
/// of open transactions is read without a round trip to the connection's thread (every
/// statement returns a connection); it falls to zero only when a COMMIT or ROLLBACK succeeded.
fn in_transaction(conn: &mut sea_orm::sqlx::SqliteConnection) -> bool {
    let open = sea_orm::sqlx::Connection::is_in_transaction(conn);
    if open {
        tracing::warn!("a database connection came back inside a transaction; closing it");
    }
    open
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

/// How the pool is used right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PoolUse {
    /// Connections open (idle or lent out).
    open: u32,
    idle: u32,
    max: u32,
}

/// The sqlx pool's use, for the backends this service runs on.
fn pool_use(db: &DatabaseConnection) -> Option<PoolUse> {
    let (open, idle, max) = match &db.inner {
        DatabaseConnectionType::SqlxSqlitePoolConnection(_) => {
            let p = db.get_sqlite_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        DatabaseConnectionType::SqlxPostgresPoolConnection(_) => {
            let p = db.get_postgres_connection_pool();
            (p.size(), p.num_idle(), p.options().get_max_connections())
        }
        _ => return None,
    };
    Some(PoolUse {
        open,
        idle: u32::try_from(idle).unwrap_or(u32::MAX),
        max,
    })
}

/// Registers `jm_db_pool_connections` and `jm_db_pool_max_connections`, read from the pool at
/// each scrape.
pub fn register_pool_metrics(db: &DatabaseConnection, registry: &mut Registry) {
    registry.register_collector(Box::new(PoolMetrics(db.clone())));
}

struct PoolMetrics(DatabaseConnection);

impl std::fmt::Debug for PoolMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PoolMetrics")
    }
}

impl Collector for PoolMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(p) = pool_use(&self.0) else {
            return Ok(());
        };
        family(
            &mut e,
            "jm_db_pool_connections",
            "Database pool connections, idle or in use",
            MetricType::Gauge,
            [
                ([("state", "idle")], gauge(p.idle.into())),
                (
                    [("state", "in_use")],
                    gauge(p.open.saturating_sub(p.idle).into()),
                ),
            ],
        )?;
        describe(
            &mut e,
            "jm_db_pool_max_connections",
            "The database pool's size limit",
            &gauge(p.max.into()),
        )
    }
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

/// A read-only transaction whose statements all see the database as it was at its first read:
/// an answer made of several reads adds up while the indexer writes. PostgreSQL needs
/// `REPEATABLE READ` for that; a SQLite read transaction is one snapshot already (WAL mode).
pub async fn snapshot(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    match db.get_database_backend() {
        DbBackend::Postgres => {
            db.begin_with_config(
                Some(IsolationLevel::RepeatableRead),
                Some(AccessMode::ReadOnly),
            )
            .await
        }
        _ => db.begin().await,
    }
}

/// Drops every table and migrates again: an empty database (the devnet's fresh start).
pub async fn reset(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::fresh(db).await
}

/// Whether a database error is an outage that goes away by itself: the server gone,
/// restarting or refusing connections, the pool exhausted, a full disk, a lock held too long.
/// Not a bad statement or a broken rule: those are bugs or conflicts, never retried.
pub fn is_outage(e: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    use sea_orm::sqlx::Error as Sqlx;
    let rt = match e {
        DbErr::ConnectionAcquire(_) => return true,
        DbErr::Conn(rt) | DbErr::Exec(rt) | DbErr::Query(rt) => rt,
        _ => return false,
    };
    let RuntimeErr::SqlxError(e) = rt else {
        return false;
    };
    match e.as_ref() {
        Sqlx::Io(_)
        | Sqlx::Tls(_)
        | Sqlx::Protocol(_)
        | Sqlx::PoolTimedOut
        | Sqlx::PoolClosed
        | Sqlx::WorkerCrashed => true,
        Sqlx::Database(d) => match d.try_downcast_ref::<sea_orm::sqlx::postgres::PgDatabaseError>()
        {
            Some(pg) => pg_outage(pg.code()),
            None => d.code().is_some_and(|c| sqlite_outage(&c)),
        },
        _ => false,
    }
}

/// SQLite result codes that mean "unavailable for now" (the primary code is the low byte of an
/// extended one): BUSY, LOCKED, READONLY (the file or its disk), IOERR, FULL, CANTOPEN.
fn sqlite_outage(code: &str) -> bool {
    code.parse::<i64>()
        .is_ok_and(|n| matches!(n & 0xff, 5 | 6 | 8 | 10 | 13 | 14))
}

/// PostgreSQL SQLSTATEs that mean "unavailable for now": connection exceptions, insufficient
/// resources (disk full, out of memory, too many connections), shutdowns and "cannot connect
/// now" (starting or recovering).
fn pg_outage(sqlstate: &str) -> bool {
    sqlstate.starts_with("08") || sqlstate.starts_with("53") || sqlstate.starts_with("57P")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite(url: String) -> DatabaseSettings {
        DatabaseSettings {
            url: crate::config::Secret::new(url),
            max_connections: None,
            acquire_timeout_secs: 5,
        }
    }

    async fn exec(db: &DatabaseConnection, sql: &str) -> Result<(), DbErr> {
        let stmt = Statement::from_string(db.get_database_backend(), sql.to_string());
        db.execute_raw(stmt).await.map(|_| ())
    }

    #[tokio::test]
    async fn a_sqlite_file_is_written_through_one_connection_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let file = sqlite(format!("sqlite://{}/w.db", dir.path().display()));
        let pool = connect(&file).await.unwrap();
        let writer = super::writer(&file, &pool).await.unwrap();
        assert_eq!(
            writer
                .get_sqlite_connection_pool()
                .options()
                .get_max_connections(),
            1
        );
        assert_eq!(
            pool.get_sqlite_connection_pool()
                .options()
                .get_max_connections(),
            4
        );
        // No ping before each statement: nothing can hang up a file.
        assert!(
            !pool
                .get_sqlite_connection_pool()
                .options()
                .get_test_before_acquire()
        );
        assert!(
            !writer
                .get_sqlite_connection_pool()
                .options()
                .get_test_before_acquire()
        );
        // The same file: what the writer commits, the pool reads.
        exec(&writer, "CREATE TABLE t (x INTEGER)").await.unwrap();
        exec(&writer, "INSERT INTO t VALUES (7)").await.unwrap();
        let row = pool
            .query_one_raw(Statement::from_string(
                pool.get_database_backend(),
                "SELECT x FROM t",
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.try_get::<i32>("", "x").unwrap(), 7);
        // In memory, a second pool would be another database: the writer is the pool.
        let memory = sqlite("sqlite::memory:".into());
        let pool = connect(&memory).await.unwrap();
        let writer = super::writer(&memory, &pool).await.unwrap();
        exec(&writer, "CREATE TABLE m (x INTEGER)").await.unwrap();
        exec(&pool, "INSERT INTO m VALUES (1)").await.unwrap();
    }

    /// How often a cached `SELECT … LIMIT ?` is prepared again over three runs, on a raw
    /// connection with or without the planner option.
    fn reprepares(stable: bool) -> i32 {
        use libsqlite3_sys as ffi;
        use std::ffi::CString;
        let mut db = std::ptr::null_mut();
        let name = CString::new(":memory:").unwrap();
        // SAFETY: a private in-memory connection, its statement finalized and itself closed here.
        unsafe {
            assert_eq!(ffi::sqlite3_open(name.as_ptr(), &mut db), ffi::SQLITE_OK);
            if stable {
                plan_without_values(std::ptr::NonNull::new(db).unwrap());
            }
            let ddl = CString::new("CREATE TABLE t (x INTEGER PRIMARY KEY)").unwrap();
            let no_callback = None;
            let made = ffi::sqlite3_exec(
                db,
                ddl.as_ptr(),
                no_callback,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            assert_eq!(made, ffi::SQLITE_OK);
            let sql = CString::new("SELECT x FROM t WHERE x = ? LIMIT ?").unwrap();
            let mut stmt = std::ptr::null_mut();
            let prepared =
                ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut());
            assert_eq!(prepared, ffi::SQLITE_OK);
            for x in 0..3 {
                ffi::sqlite3_reset(stmt);
                ffi::sqlite3_bind_int64(stmt, 1, x);
                ffi::sqlite3_bind_int64(stmt, 2, 1);
                assert_eq!(ffi::sqlite3_step(stmt), ffi::SQLITE_DONE);
            }
            let n = ffi::sqlite3_stmt_status(stmt, ffi::SQLITE_STMTSTATUS_REPREPARE, 0);
            ffi::sqlite3_finalize(stmt);
            ffi::sqlite3_close(db);
            n
        }
    }

    #[test]
    fn a_bound_limit_does_not_prepare_a_statement_again() {
        // What the option is for: without it, SQLite prepares the statement at every run.
        assert!(reprepares(false) >= 2);
        assert_eq!(reprepares(true), 0);
    }

    #[tokio::test]
    async fn every_sqlite_connection_plans_without_values() {
        let dir = tempfile::tempdir().unwrap();
        let file = sqlite(format!("sqlite://{}/q.db", dir.path().display()));
        let pool = connect(&file).await.unwrap();
        let mut conn = pool.get_sqlite_connection_pool().acquire().await.unwrap();
        let mut handle = conn.lock_handle().await.unwrap();
        let mut on: std::ffi::c_int = -1;
        // SAFETY: the connection is held locked; -1 reads the option without changing it.
        let rc = unsafe {
            libsqlite3_sys::sqlite3_db_config(
                handle.as_raw_handle().as_ptr(),
                libsqlite3_sys::SQLITE_DBCONFIG_ENABLE_QPSG,
                -1 as std::ffi::c_int,
                &mut on as *mut std::ffi::c_int,
            )
        };
        assert_eq!(rc, libsqlite3_sys::SQLITE_OK);
        assert_eq!(on, 1);
    }

    #[test]
    fn outages_are_told_from_bugs() {
        use sea_orm::sqlx::Error as Sqlx;
        use sea_orm::{ConnAcquireErr, RuntimeErr};
        let sqlx = |e: Sqlx| DbErr::Exec(RuntimeErr::SqlxError(std::sync::Arc::new(e)));
        assert!(is_outage(&DbErr::ConnectionAcquire(
            ConnAcquireErr::Timeout
        )));
        assert!(is_outage(&sqlx(Sqlx::PoolTimedOut)));
        assert!(is_outage(&sqlx(Sqlx::Io(std::io::Error::from(
            std::io::ErrorKind::ConnectionRefused
        )))));
        assert!(!is_outage(&sqlx(Sqlx::RowNotFound)));
        assert!(!is_outage(&DbErr::Custom("a bug".into())));
        assert!(!is_outage(&DbErr::RecordNotFound("x".into())));
        // SQLite: FULL, IOERR_WRITE (778), BUSY; not CONSTRAINT_UNIQUE (2067) or ERROR (1).
        for c in ["13", "778", "5", "6", "14"] {
            assert!(sqlite_outage(c), "{c}");
        }
        for c in ["2067", "1", "19"] {
            assert!(!sqlite_outage(c), "{c}");
        }
        // PostgreSQL: admin shutdown, cannot connect now, connection failure, disk full; not a
        // unique violation or a syntax error.
        for c in ["57P01", "57P03", "08006", "53100"] {
            assert!(pg_outage(c), "{c}");
        }
        for c in ["23505", "42601", "40001"] {
            assert!(!pg_outage(c), "{c}");
        }
    }

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

//! Connections for the statements of the purchase path, handed over without sqlx's ping.
//!
//! sqlx pings every connection that goes back to its pool, and spawns a task to do it: on
//! SQLite a second trip to the connection's thread after each statement, as many trips as the
//! statements themselves. A lane is a connection taken out of the pool for good (with the
//! pool's connect options and set-up) and handed from statement to statement directly. A
//! lane whose caller stopped waiting, or whose transaction failed midway, is closed (which
//! rolls back what it left open) and replaced from the pool on the next use, which is what the
//! ping was for. On PostgreSQL the statements go to the pool as before.

use std::sync::{Arc, Mutex, PoisonError};

use sea_orm::sqlx::AssertSqlSafe;
use sea_orm::sqlx::query::Query;
use sea_orm::sqlx::sqlite::{Sqlite, SqliteArguments, SqliteConnection, SqlitePool, SqliteRow};
use sea_orm::{
    ConnAcquireErr, ConnectionTrait, DatabaseConnection, DbBackend, DbErr, ExecResult, QueryResult,
    RuntimeErr, Statement,
};
use sea_query_sqlx::SqlxValues;
use tokio::sync::Semaphore;

/// The statements of one writer (or reader) on a few lanes of its own, on SQLite; on
/// PostgreSQL, its pool. Transactions (sea-orm's `begin`) still take a connection of
/// [`Lanes::pool`].
#[derive(Clone)]
pub struct Lanes {
    pool: DatabaseConnection,
    sqlite: Option<Arc<Idle>>,
}

/// The lanes of a SQLite pool: the connections not in use, and a permit per lane.
struct Idle {
    pool: SqlitePool,
    conns: Mutex<Vec<SqliteConnection>>,
    permits: Semaphore,
}

impl Lanes {
    /// `lanes` lanes over `pool` on SQLite (at least one), taken from it when first used; on
    /// PostgreSQL, the pool itself.
    pub fn new(pool: DatabaseConnection, lanes: usize) -> Self {
        let sqlite = (pool.get_database_backend() == DbBackend::Sqlite).then(|| {
            Arc::new(Idle {
                pool: pool.get_sqlite_connection_pool().clone(),
                conns: Mutex::new(Vec::new()),
                permits: Semaphore::new(lanes.max(1)),
            })
        });
        Self { pool, sqlite }
    }

    /// The pool, for transactions and for what a lane does not run.
    pub fn pool(&self) -> &DatabaseConnection {
        &self.pool
    }

    /// Runs `query`, several statements of which the first is `BEGIN IMMEDIATE` and the last
    /// `COMMIT`, on one SQLite connection as one command: one trip to the connection's thread
    /// for the whole transaction, where a transaction of sea-orm takes one per statement and
    /// two more for BEGIN and COMMIT. A statement that fails stops the command inside its
    /// transaction, so that lane is closed (which rolls the transaction back) instead of
    /// handed on; so is one whose caller stopped waiting for the answer.
    pub async fn sqlite_transaction(
        &self,
        query: Query<'_, Sqlite, SqliteArguments>,
    ) -> Result<Vec<SqliteRow>, DbErr> {
        let Some(idle) = &self.sqlite else {
            return Err(DbErr::Custom(
                "a SQLite transaction was sent to another database".into(),
            ));
        };
        let mut lane = idle.take().await?;
        let rows = query.fetch_all(lane.conn()).await.map_err(query_err)?;
        // Committed: the lane is handed on.
        lane.done();
        Ok(rows)
    }
}

impl Idle {
    /// A lane: an idle connection, or a new one taken out of the pool, once a permit is free
    /// (waiting no longer than the pool would).
    async fn take(&self) -> Result<Lane<'_>, DbErr> {
        let wait = self.pool.options().get_acquire_timeout();
        let permit = match tokio::time::timeout(wait, self.permits.acquire()).await {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) => return Err(DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed)),
            Err(_) => return Err(DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)),
        };
        let idle = self
            .conns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let conn = match idle {
            Some(conn) => conn,
            None => self
                .pool
                .acquire()
                .await
                .map_err(|e| match e {
                    sea_orm::sqlx::Error::PoolTimedOut => {
                        DbErr::ConnectionAcquire(ConnAcquireErr::Timeout)
                    }
                    e => DbErr::Conn(RuntimeErr::SqlxError(e.into())),
                })?
                .detach(),
        };
        Ok(Lane {
            idle: self,
            conn: Some(conn),
            _permit: permit,
        })
    }
}

/// A connection in use: back among the idle ones by [`Lane::done`]; dropped without it, the
/// connection is dropped too, which closes it.
struct Lane<'a> {
    idle: &'a Idle,
    conn: Option<SqliteConnection>,
    _permit: tokio::sync::SemaphorePermit<'a>,
}

impl Lane<'_> {
    fn conn(&mut self) -> &mut SqliteConnection {
        self.conn
            .as_mut()
            .unwrap_or_else(|| unreachable!("a lane holds its connection until done"))
    }

    /// The command has finished: the connection may serve the next one.
    fn done(mut self) {
        if let Some(conn) = self.conn.take() {
            self.idle
                .conns
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(conn);
        }
    }
}

fn query_err(e: sea_orm::sqlx::Error) -> DbErr {
    DbErr::Query(RuntimeErr::SqlxError(e.into()))
}

fn exec_err(e: sea_orm::sqlx::Error) -> DbErr {
    DbErr::Exec(RuntimeErr::SqlxError(e.into()))
}

/// A statement of sea-orm as a query of sqlx, as sea-orm's SQLite driver binds it.
fn bound(stmt: &Statement) -> Query<'_, Sqlite, SqlxValues> {
    let values = stmt
        .values
        .clone()
        .unwrap_or_else(|| sea_orm::Values(Vec::new()));
    sea_orm::sqlx::query_with(AssertSqlSafe(stmt.sql.as_str()), SqlxValues(values))
}

#[async_trait::async_trait]
impl ConnectionTrait for Lanes {
    fn get_database_backend(&self) -> DbBackend {
        self.pool.get_database_backend()
    }

    async fn execute_raw(&self, stmt: Statement) -> Result<ExecResult, DbErr> {
        let Some(idle) = &self.sqlite else {
            return self.pool.execute_raw(stmt).await;
        };
        let mut lane = idle.take().await?;
        // A statement that fails has ended (SQLite undoes it): the lane stays usable.
        let done = bound(&stmt).execute(lane.conn()).await;
        lane.done();
        Ok(done.map_err(exec_err)?.into())
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        // Text that may hold a transaction of its own goes to the pool, whose ping and
        // check on release (`after_release`) catch one left open.
        self.pool.execute_unprepared(sql).await
    }

    async fn query_one_raw(&self, stmt: Statement) -> Result<Option<QueryResult>, DbErr> {
        let Some(idle) = &self.sqlite else {
            return self.pool.query_one_raw(stmt).await;
        };
        let mut lane = idle.take().await?;
        let row = bound(&stmt).fetch_optional(lane.conn()).await;
        lane.done();
        Ok(row.map_err(query_err)?.map(QueryResult::from))
    }

    async fn query_all_raw(&self, stmt: Statement) -> Result<Vec<QueryResult>, DbErr> {
        let Some(idle) = &self.sqlite else {
            return self.pool.query_all_raw(stmt).await;
        };
        let mut lane = idle.take().await?;
        let rows = bound(&stmt).fetch_all(lane.conn()).await;
        lane.done();
        Ok(rows
            .map_err(query_err)?
            .into_iter()
            .map(QueryResult::from)
            .collect())
    }

    fn support_returning(&self) -> bool {
        self.pool.support_returning()
    }
}

//! One indexer per deployment. On PostgreSQL the leader holds a session-level advisory lock on
//! a connection of its own (a pool of one that never recycles it); when its process dies the
//! server drops the session and the lock, and another instance's next try takes it. On SQLite
//! the single instance leads.

use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr, Statement,
};

/// "JMINDEX" as a bigint key.
const KEY: i64 = 0x004a_4d49_4e44_4558;

pub enum Leader {
    Alone,
    Postgres {
        conn: DatabaseConnection,
        held: bool,
    },
}

impl Leader {
    pub async fn new(db: &DatabaseConnection, url: &str) -> Result<Leader, DbErr> {
        if db.get_database_backend() != DbBackend::Postgres {
            return Ok(Leader::Alone);
        }
        let mut opts = ConnectOptions::new(url.to_string());
        opts.max_connections(1)
            .min_connections(1)
            .idle_timeout(None::<Duration>)
            .max_lifetime(None::<Duration>)
            .acquire_timeout(Duration::from_secs(5))
            .sqlx_logging(false);
        Ok(Leader::Postgres {
            conn: Database::connect(opts).await?,
            held: false,
        })
    }

    /// Whether this instance leads now: takes the lock if it is free. A lock taken again on the
    /// same session is released once, so the session holds it exactly once.
    pub async fn hold(&mut self) -> Result<bool, DbErr> {
        let Leader::Postgres { conn, held } = self else {
            return Ok(true);
        };
        let got = conn
            .query_one_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT pg_try_advisory_lock($1) AS got",
                [KEY.into()],
            ))
            .await?
            .map(|r| r.try_get::<bool>("", "got"))
            .transpose()?
            .unwrap_or(false);
        if got && *held {
            conn.execute_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT pg_advisory_unlock($1)",
                [KEY.into()],
            ))
            .await?;
        }
        *held = got;
        Ok(got)
    }

    pub fn lost(&mut self) {
        if let Leader::Postgres { held, .. } = self {
            *held = false;
        }
    }
}

//! Settling a payment row: the hash kept as the row's, the row marked settled, and on the last
//! step the wallet's unlock, all or nothing, and sent to the database as one command: on
//! PostgreSQL one statement (its parts are common table expressions), on SQLite the three
//! statements between `BEGIN IMMEDIATE` and `COMMIT` (SQLite has no writes inside a `WITH`),
//! run as one command on one connection (`Lanes::sqlite_transaction`).

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use journal_market_domain::state::PaymentState;
use journal_market_domain::tx::TxHash;
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};

use crate::db::Lanes;

use super::{RowKey, unique_violation};

// Spelled into the statements' text as stored.
const PENDING: &str = PaymentState::Pending.as_str();
const SETTLED: &str = PaymentState::Settled.as_str();
const FAILED: &str = PaymentState::Failed.as_str();

/// Marks the row settled by `tx` and, when `unlock` (the last step), records the wallet's
/// unlock with what it paid for the journal. `false` when the row was not pending any more, or
/// when `tx` is another payment's (a hash settles one payment).
pub async fn settle(
    db: &Lanes,
    row: RowKey,
    tx: TxHash,
    unlock: bool,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let settled = match db.get_database_backend() {
        DbBackend::Sqlite => {
            // The text is a constant of this module: no input is in it.
            let query = sea_orm::sqlx::query(sea_orm::sqlx::AssertSqlSafe(SQLITE.as_str()))
                .bind(tx.to_string())
                .bind(row.id)
                .bind(now)
                .bind(unlock)
                .bind(row.wallet.to_string())
                .bind(row.journal_id);
            db.sqlite_transaction(query)
                .await
                .map(|rows| !rows.is_empty())
        }
        backend => {
            let values: [Value; 6] = [
                tx.into(),
                row.id.into(),
                now.into(),
                unlock.into(),
                row.wallet.into(),
                row.journal_id.into(),
            ];
            let stmt = Statement::from_sql_and_values(backend, &*POSTGRES, values);
            db.query_all_raw(stmt).await.map(|rows| !rows.is_empty())
        }
    };
    match settled {
        Ok(settled) => Ok(settled),
        // The row's `tx` is unique: another row holds this hash.
        Err(e) if unique_violation(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The statements of the SQLite settle between its `BEGIN IMMEDIATE` and `COMMIT`, one by one
/// (a test reads their query plans).
pub fn sqlite_statements() -> impl Iterator<Item = &'static str> {
    SQLITE
        .split(";\n")
        .filter(|s| !matches!(*s, "BEGIN IMMEDIATE" | "COMMIT"))
}

// Parameters: 1 the hash, 2 the row's id, 3 now, 4 whether to unlock, 5 the wallet, 6 the
// journal. The sum of the wallet's settled payments reads the open rows of the
// `ux_payments_open_step` index: its condition `state <> 'failed'` is repeated literally,
// or SQLite walks `ix_payments_state`, every settled payment.

static SQLITE: LazyLock<String> = LazyLock::new(|| {
    format!(
        r#"BEGIN IMMEDIATE;
INSERT INTO "payment_txs" ("tx", "payment_id", "created_at") VALUES (?1, ?2, ?3)
  ON CONFLICT ("tx") DO NOTHING;
UPDATE "payments" SET "state" = '{SETTLED}', "tx" = ?1, "updated_at" = ?3,
  "lease_owner" = NULL, "lease_until" = NULL
  WHERE "id" = ?2 AND "state" = '{PENDING}'
    AND EXISTS (SELECT 1 FROM "payment_txs" WHERE "tx" = ?1 AND "payment_id" = ?2)
  RETURNING "id";
INSERT INTO "unlocks" ("wallet", "journal_id", "paid_units", "paid_at")
  SELECT "wallet", "journal_id", SUM("amount_units"), ?3 FROM "payments"
  WHERE ?4 AND changes() = 1 AND "wallet" = ?5 AND "journal_id" = ?6
    AND "state" <> '{FAILED}' AND "state" = '{SETTLED}'
  GROUP BY "wallet", "journal_id"
  ON CONFLICT ("wallet", "journal_id") DO NOTHING;
COMMIT"#
    )
});

// One snapshot for the whole statement: the update does not see the hash inserted beside it
// (hence `rec`), and the sum does not see this row settled (hence its amount added).
static POSTGRES: LazyLock<String> = LazyLock::new(|| {
    format!(
        r#"WITH rec AS (
  INSERT INTO "payment_txs" ("tx", "payment_id", "created_at") VALUES ($1, $2, $3)
  ON CONFLICT ("tx") DO NOTHING RETURNING "payment_id"
), done AS (
  UPDATE "payments" SET "state" = '{SETTLED}', "tx" = $1, "updated_at" = $3,
    "lease_owner" = NULL, "lease_until" = NULL
  WHERE "id" = $2 AND "state" = '{PENDING}'
    AND (EXISTS (SELECT 1 FROM rec)
      OR EXISTS (SELECT 1 FROM "payment_txs" WHERE "tx" = $1 AND "payment_id" = $2))
  RETURNING "id", "wallet", "journal_id", "amount_units"
), paid AS (
  INSERT INTO "unlocks" ("wallet", "journal_id", "paid_units", "paid_at")
  SELECT d."wallet", d."journal_id", d."amount_units" + COALESCE((
      SELECT SUM(p."amount_units") FROM "payments" p
      WHERE p."wallet" = $5 AND p."journal_id" = $6
        AND p."state" <> '{FAILED}' AND p."state" = '{SETTLED}'), 0), $3
  FROM done d WHERE $4
  ON CONFLICT ("wallet", "journal_id") DO NOTHING
)
SELECT "id" FROM done"#
    )
});

//! The schema the migrations make, pinned. Deployed databases were made by these migrations, so
//! a change to their code must leave what they create as it was: every migration goes up one at
//! a time and down again, each step down must restore the schema the step up started from, and
//! the final SQLite schema must be `SQLITE` below. On PostgreSQL (when `TEST_DATABASE_URL` names
//! a server, as for the API tests) the same walk runs in a scratch database, and the names and
//! definitions of the keys must be `POSTGRES_CONSTRAINTS`.
//!
//! `up_on_url` (ignored) runs every migration on `MIGRATION_URL` and leaves the result there, to
//! compare dumps by hand: `sqlite3 FILE .schema`, `pg_dump --schema-only`.
// Tests may unwrap: a failure there is the test failing (the lint is for the product).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use journal_market_migration::{Migrator, MigratorTrait};
use sea_orm_migration::sea_orm::{
    ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement, sqlx,
};

// sqlx's own runner for its tests (Tokio, which sea-orm already runs on): no dev-dependency.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    sqlx::test_block_on(f)
}

/// The schema as the database states it, one line per object, without the migrations' own
/// table.
async fn schema(db: &DatabaseConnection) -> String {
    let queries = match db.get_database_backend() {
        // An automatic index (of a key or a UNIQUE column) has no SQL: its table's says it.
        DbBackend::Sqlite => vec![format!(
            "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master \
             WHERE tbl_name NOT IN {NOT_SCHEMA} AND sql IS NOT NULL ORDER BY name"
        )],
        DbBackend::Postgres => vec![
            PG_COLUMNS.into(),
            pg_constraints("conname"),
            pg_indexes(""),
            PG_SEQUENCES.into(),
        ],
        other => panic!("no schema query for {other:?}"),
    };
    lines(db, &queries).await
}

/// What the schema holds, without the names of primary keys or the text they were created
/// with: a table rebuilt to change its key and back (`m20261123_000006_ledger_order`) is the
/// same table under another key name.
async fn shape(db: &DatabaseConnection) -> String {
    let queries = match db.get_database_backend() {
        DbBackend::Sqlite => [
            (
                "'column %s.%s %s notnull=%s default=%s pk=%s', \
                 m.name, c.name, c.type, c.\"notnull\", c.dflt_value, c.pk",
                "pragma_table_info(m.name) c",
                "m.name, c.cid",
            ),
            (
                "'foreign key %s.%s -> %s.%s on delete %s', \
                 m.name, f.\"from\", f.\"table\", f.\"to\", f.on_delete",
                "pragma_foreign_key_list(m.name) f",
                "1",
            ),
            (
                "'index %s %s unique=%s partial=%s (%s)', m.name, i.name, i.\"unique\", i.partial, \
                 (SELECT group_concat(name, ', ') FROM pragma_index_info(i.name))",
                "pragma_index_list(m.name) i",
                "1",
            ),
        ]
        .map(|(line, of, order)| {
            format!(
                "SELECT format({line}) FROM sqlite_master m, {of} \
                 WHERE m.type = 'table' AND m.name NOT IN {NOT_SCHEMA} ORDER BY {order}"
            )
        })
        .to_vec(),
        DbBackend::Postgres => vec![
            PG_COLUMNS.into(),
            pg_constraints("CASE contype WHEN 'p' THEN '' ELSE conname END"),
            // Not the indexes of keys: the constraints say them.
            pg_indexes(
                "AND NOT EXISTS (SELECT 1 FROM pg_constraint \
                     WHERE conindid = format('%I.%I', schemaname, indexname)::regclass)",
            ),
            PG_SEQUENCES.into(),
        ],
        other => panic!("no schema query for {other:?}"),
    };
    lines(db, &queries).await
}

/// The migrations' own table, and SQLite's counters of AUTOINCREMENT keys (which stay once
/// such a table existed).
const NOT_SCHEMA: &str = "('seaql_migrations', 'sqlite_sequence')";

/// Columns in their order but without their number: a dropped column leaves a gap.
const PG_COLUMNS: &str = "SELECT format('column %s.%s %s %s null=%s default=%s', table_name, \
         column_name, data_type, character_maximum_length, is_nullable, column_default) \
     FROM information_schema.columns \
     WHERE table_schema = current_schema() AND table_name <> 'seaql_migrations' \
     ORDER BY table_name, ordinal_position";

/// PostgreSQL 18 lists NOT NULL as constraints too; the columns say it already.
fn pg_constraints(name: &str) -> String {
    format!(
        "SELECT format('constraint %s %s %s', conrelid::regclass, {name}, \
             pg_get_constraintdef(oid)) \
         FROM pg_constraint \
         WHERE connamespace = current_schema()::regnamespace AND contype <> 'n' \
             AND conrelid::regclass::text <> 'seaql_migrations' \
         ORDER BY 1"
    )
}

fn pg_indexes(and: &str) -> String {
    format!(
        "SELECT format('index %s', indexdef) FROM pg_indexes \
         WHERE schemaname = current_schema() AND tablename <> 'seaql_migrations' {and} \
         ORDER BY indexname"
    )
}

const PG_SEQUENCES: &str = "SELECT format('sequence %s %s', sequencename, data_type) \
     FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1";

/// The first column of every row of `queries`, one row a line.
async fn lines(db: &DatabaseConnection, queries: &[String]) -> String {
    let mut lines = Vec::new();
    for q in queries {
        let rows = db
            .query_all_raw(Statement::from_string(db.get_database_backend(), q))
            .await
            .expect("read the schema");
        for r in rows {
            lines.push(r.try_get_by_index::<String>(0).expect("a text column"));
        }
    }
    lines.join("\n")
}

/// Panics at the first line where `got` and `want` differ.
fn same(got: &str, want: &str, what: &str) {
    if got == want {
        return;
    }
    let (mut g, mut w) = (got.lines(), want.lines());
    for n in 1.. {
        match (g.next(), w.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => {
                panic!("{what}: line {n} is\n  {a:?}\ninstead of\n  {b:?}\nwhole:\n{got}")
            }
        }
    }
}

/// Every migration up one at a time, then down one at a time (each must leave the shape its up
/// started from), then all up again (the same schema as the first time). The final schema.
/// With `SCHEMA_WALK` set to a file, every schema along the way is written there too, to diff
/// the walk of two versions of the migrations.
async fn up_down_up(db: &DatabaseConnection) -> String {
    let steps = Migrator::migrations().len();
    let mut walk = vec![schema(db).await];
    let mut shapes = vec![shape(db).await];
    for i in 1..=steps {
        Migrator::up(db, Some(1)).await.expect("up");
        walk.push(format!("-- up {i}\n{}", schema(db).await));
        shapes.push(shape(db).await);
    }
    let top = schema(db).await;
    for i in (0..steps).rev() {
        Migrator::down(db, Some(1)).await.expect("down");
        walk.push(format!("-- down to {i}\n{}", schema(db).await));
        same(
            &shape(db).await,
            &shapes[i],
            &format!("down to migration {i}"),
        );
    }
    Migrator::up(db, None).await.expect("up again");
    let last = schema(db).await;
    walk.push(format!("-- up again\n{last}"));
    if let Ok(path) = std::env::var("SCHEMA_WALK") {
        std::fs::write(path, walk.join("\n")).expect("write SCHEMA_WALK");
    }
    same(&last, &top, "up again");
    last
}

#[test]
fn sqlite() {
    block_on(async {
        let db = Database::connect("sqlite::memory:").await.expect("open");
        let last = up_down_up(&db).await;
        same(&last, SQLITE.trim(), "the SQLite schema");
    })
}

#[test]
fn postgres() {
    let Ok(admin_url) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("TEST_DATABASE_URL is not set: PostgreSQL not checked");
        return;
    };
    block_on(async {
        let name = format!("migration_schema_{}", std::process::id());
        let admin = Database::connect(&admin_url).await.expect("connect");
        let create = format!("CREATE DATABASE {name}");
        admin.execute_unprepared(&create).await.expect("create");
        let (server, _) = admin_url.rsplit_once('/').expect("a URL with a database");
        let db = Database::connect(format!("{server}/{name}"))
            .await
            .expect("open");
        let last = up_down_up(&db).await;
        db.close().await.expect("close");
        let drop = format!("DROP DATABASE {name}");
        admin.execute_unprepared(&drop).await.expect("drop");
        let constraints: Vec<_> = last
            .lines()
            .filter(|l| l.starts_with("constraint "))
            .collect();
        same(
            &constraints.join("\n"),
            POSTGRES_CONSTRAINTS.trim(),
            "the constraints",
        );
    })
}

#[test]
#[ignore = "needs MIGRATION_URL; leaves the schema there"]
fn up_on_url() {
    let url = std::env::var("MIGRATION_URL").expect("MIGRATION_URL");
    block_on(async {
        let db = Database::connect(url).await.expect("connect");
        Migrator::up(&db, None).await.expect("up");
    })
}

/// What every migration up makes on SQLite, as `sqlite_master` states it.
const SQLITE: &str = r#"
table audit_jobs: CREATE TABLE "audit_jobs" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "journal_id" integer NOT NULL, "revision" integer NOT NULL, "state" varchar NOT NULL, "lease_owner" varchar NULL, "lease_until" timestamp_with_timezone_text NULL, "attempts" integer NOT NULL DEFAULT 0, "report_id" integer NULL, "error" text NULL, "created_at" timestamp_with_timezone_text NOT NULL, "updated_at" timestamp_with_timezone_text NOT NULL, FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") )
table audit_reports: CREATE TABLE "audit_reports" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "journal_id" integer NOT NULL, "verdict" varchar NOT NULL, "score" double NOT NULL, "summary" text NOT NULL, "issues" json_text NOT NULL, "engine" varchar NOT NULL, "audited_at" timestamp_with_timezone_text NOT NULL, FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") ON DELETE CASCADE )
table burns: CREATE TABLE "burns" ( "tx" varchar NOT NULL, "log_index" integer NOT NULL, "block" integer NOT NULL, "amount" varchar NOT NULL, PRIMARY KEY ("tx", "log_index") )
table companies: CREATE TABLE "companies" ( "ticker" varchar NOT NULL PRIMARY KEY, "name" varchar NOT NULL )
table entries: CREATE TABLE "entries" ( "accession" varchar NOT NULL PRIMARY KEY, "ticker" varchar NOT NULL, "date_of_record" date_text NOT NULL, "kind" varchar NOT NULL, "title" text NOT NULL, "summary" text NOT NULL, "source_name" varchar NOT NULL, "canonical_url" text NOT NULL, "says" text NOT NULL, "verified" boolean NOT NULL, "merged" boolean NOT NULL, "story_id" integer NULL, "story_seq" integer NULL, "sitting_id" integer NULL, "filed_at" timestamp_with_timezone_text NOT NULL, FOREIGN KEY ("ticker") REFERENCES "companies" ("ticker") ON DELETE CASCADE, FOREIGN KEY ("story_id") REFERENCES "stories" ("id") ON DELETE CASCADE, FOREIGN KEY ("sitting_id") REFERENCES "sittings" ("id") ON DELETE CASCADE )
table indexer_cursors: CREATE TABLE "indexer_cursors" ( "name" varchar NOT NULL PRIMARY KEY, "block" integer NOT NULL, "block_hash" varchar NULL, "updated_at" timestamp_with_timezone_text NOT NULL )
index ix_audit_jobs_state: CREATE INDEX ix_audit_jobs_state ON audit_jobs (state, lease_until)
index ix_audit_reports_journal_id_audited_at: CREATE INDEX "ix_audit_reports_journal_id_audited_at" ON "audit_reports" ("journal_id", "audited_at")
index ix_burns_block: CREATE INDEX "ix_burns_block" ON "burns" ("block")
index ix_entries_date_of_record: CREATE INDEX "ix_entries_date_of_record" ON "entries" ("date_of_record")
index ix_entries_ticker_date_of_record: CREATE INDEX "ix_entries_ticker_date_of_record" ON "entries" ("ticker", "date_of_record")
index ix_journals_author_wallet: CREATE INDEX "ix_journals_author_wallet" ON "journals" ("author_wallet")
index ix_journals_status_published_at: CREATE INDEX "ix_journals_status_published_at" ON "journals" ("status", "published_at")
index ix_journals_ticker: CREATE INDEX "ix_journals_ticker" ON "journals" ("ticker")
index ix_journals_token_id: CREATE INDEX "ix_journals_token_id" ON "journals" ("token_id")
index ix_nonces_expires_at: CREATE INDEX "ix_nonces_expires_at" ON "nonces" ("expires_at")
index ix_payment_txs_payment_id: CREATE INDEX "ix_payment_txs_payment_id" ON "payment_txs" ("payment_id")
index ix_payments_final_at: CREATE INDEX "ix_payments_final_at" ON "payments" ("final_at")
index ix_payments_state: CREATE INDEX "ix_payments_state" ON "payments" ("state")
index ix_payments_wallet_permit_nonce: CREATE UNIQUE INDEX "ix_payments_wallet_permit_nonce" ON "payments" ("wallet", "permit_nonce")
index ix_sessions_expires_at: CREATE INDEX "ix_sessions_expires_at" ON "sessions" ("expires_at")
index ix_sitting_logs_sitting_id_ts: CREATE INDEX "ix_sitting_logs_sitting_id_ts" ON "sitting_logs" ("sitting_id", "ts")
index ix_sittings_finished_at: CREATE INDEX "ix_sittings_finished_at" ON "sittings" ("finished_at")
index ix_sponsorships_created_at: CREATE INDEX "ix_sponsorships_created_at" ON "sponsorships" ("created_at")
index ix_sponsorships_wallet: CREATE INDEX "ix_sponsorships_wallet" ON "sponsorships" ("wallet")
index ix_swaps_block_time: CREATE INDEX "ix_swaps_block_time" ON "swaps" ("block_time")
index ix_token_transfers_recipient_block: CREATE INDEX "ix_token_transfers_recipient_block" ON "token_transfers" ("recipient", "block", "log_index")
index ix_unlocks_journal_id: CREATE INDEX "ix_unlocks_journal_id" ON "unlocks" ("journal_id")
index ix_vote_events_block: CREATE INDEX "ix_vote_events_block" ON "vote_events" ("block")
index ix_vote_events_wallet_journal: CREATE INDEX "ix_vote_events_wallet_journal" ON "vote_events" ("wallet", "journal_id")
index ix_votes_journal_id: CREATE INDEX "ix_votes_journal_id" ON "votes" ("journal_id")
table journal_citations: CREATE TABLE "journal_citations" ( "journal_id" integer NOT NULL, "position" integer NOT NULL, "accession" varchar NOT NULL, PRIMARY KEY ("journal_id", "position"), FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") ON DELETE CASCADE, FOREIGN KEY ("accession") REFERENCES "entries" ("accession") ON DELETE CASCADE )
table journals: CREATE TABLE "journals" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "slug" varchar NULL UNIQUE, "ticker" varchar NOT NULL, "swarm" boolean NOT NULL, "author_wallet" varchar NULL, "author_name" varchar NOT NULL, "title" text NOT NULL, "dek" text NOT NULL, "body" text NOT NULL, "price_units" integer NOT NULL, "status" varchar NOT NULL, "content_hash" varchar NULL, "meta_url" varchar NULL, "token_id" varchar NULL, "mint_tx" varchar NULL, "stock_price_at_publication" double NULL, "author_holds_stock" boolean NULL, "audit_count" integer NOT NULL DEFAULT 0, "published_at" timestamp_with_timezone_text NULL, "created_at" timestamp_with_timezone_text NOT NULL, "updated_at" timestamp_with_timezone_text NOT NULL, "revision" integer NOT NULL DEFAULT 1, "mint_block" integer NULL, "mint_final_at" timestamp_with_timezone_text NULL, FOREIGN KEY ("ticker") REFERENCES "companies" ("ticker") ON DELETE CASCADE )
table ledger_totals: CREATE TABLE "ledger_totals" ( "name" varchar NOT NULL PRIMARY KEY, "swaps" integer NOT NULL, "volume0" varchar NOT NULL, "volume1" varchar NOT NULL, "paid_in0" varchar NOT NULL, "paid_in1" varchar NOT NULL, "sold0" varchar NOT NULL, "sold1" varchar NOT NULL, "sold_value0" varchar NOT NULL, "sold_value1" varchar NOT NULL, "burned" varchar NOT NULL, "holders" integer NOT NULL )
table nonces: CREATE TABLE "nonces" ( "nonce" varchar NOT NULL PRIMARY KEY, "address" varchar NOT NULL, "message" text NOT NULL, "expires_at" timestamp_with_timezone_text NOT NULL, "used_at" timestamp_with_timezone_text NULL , "failures" integer NOT NULL DEFAULT 0)
table payment_txs: CREATE TABLE "payment_txs" ( "tx" varchar NOT NULL PRIMARY KEY, "payment_id" integer NOT NULL, "created_at" timestamp_with_timezone_text NOT NULL, FOREIGN KEY ("payment_id") REFERENCES "payments" ("id") ON DELETE CASCADE )
table payments: CREATE TABLE "payments" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "wallet" varchar NOT NULL, "journal_id" integer NOT NULL, "step" varchar NOT NULL, "amount_units" integer NOT NULL, "pay_to" varchar NOT NULL, "permit_nonce" varchar NOT NULL, "permit_deadline" timestamp_with_timezone_text NOT NULL, "payload" text NOT NULL, "state" varchar NOT NULL, "tx" varchar NULL, "error" text NULL, "created_at" timestamp_with_timezone_text NOT NULL, "updated_at" timestamp_with_timezone_text NOT NULL, "lease_owner" varchar NULL, "lease_until" timestamp_with_timezone_text NULL, "next_check_at" timestamp_with_timezone_text NULL, "attempts" integer NOT NULL DEFAULT 0, "payment_id" varchar NULL, "fingerprint" varchar NULL, "block_number" integer NULL, "block_hash" varchar NULL, "final_at" timestamp_with_timezone_text NULL, "reorged_at" timestamp_with_timezone_text NULL, "signature_key" varchar NULL, FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") ON DELETE CASCADE )
table quotes: CREATE TABLE "quotes" ( "ticker" varchar NOT NULL PRIMARY KEY, "mid" double NOT NULL, "feed_updated_at" timestamp_with_timezone_text NOT NULL, "fetched_at" timestamp_with_timezone_text NOT NULL )
table relayer_leases: CREATE TABLE "relayer_leases" ( "address" varchar NOT NULL PRIMARY KEY, "owner" varchar NOT NULL, "lease_until" timestamp_with_timezone_text NOT NULL )
table sessions: CREATE TABLE "sessions" ( "token_hash" varchar NOT NULL PRIMARY KEY, "address" varchar NOT NULL, "created_at" timestamp_with_timezone_text NOT NULL, "expires_at" timestamp_with_timezone_text NOT NULL )
table sitting_logs: CREATE TABLE "sitting_logs" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "sitting_id" integer NOT NULL, "ts" timestamp_with_timezone_text NOT NULL, "desk" varchar NOT NULL, "level" varchar NOT NULL, "message" text NOT NULL, FOREIGN KEY ("sitting_id") REFERENCES "sittings" ("id") ON DELETE CASCADE )
table sittings: CREATE TABLE "sittings" ( "id" integer NOT NULL PRIMARY KEY, "date" date_text NOT NULL, "started_at" timestamp_with_timezone_text NOT NULL, "finished_at" timestamp_with_timezone_text NULL, "note" text NOT NULL, "leads" integer NOT NULL, "filed" integer NOT NULL, "spend_usd" double NOT NULL )
table sponsorships: CREATE TABLE "sponsorships" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "payment_id" integer NOT NULL UNIQUE, "wallet" varchar NOT NULL, "approval_tx" varchar NOT NULL UNIQUE, "funding_tx" varchar NULL, "funded_wei" integer NOT NULL, "state" varchar NOT NULL, "error" varchar NULL, "created_at" timestamp_with_timezone_text NOT NULL, "updated_at" timestamp_with_timezone_text NOT NULL, FOREIGN KEY ("payment_id") REFERENCES "payments" ("id") ON DELETE CASCADE )
table stories: CREATE TABLE "stories" ( "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "slug" varchar NOT NULL UNIQUE, "ticker" varchar NOT NULL, "title" varchar NOT NULL, FOREIGN KEY ("ticker") REFERENCES "companies" ("ticker") ON DELETE CASCADE )
table swaps: CREATE TABLE "swaps" ( "tx" varchar NOT NULL, "log_index" integer NOT NULL, "block" integer NOT NULL, "amount0" varchar NOT NULL, "amount1" varchar NOT NULL, "sqrt_price_x96" varchar NOT NULL, "block_time" timestamp_with_timezone_text NULL, CONSTRAINT "pk_swaps_block_log_index" PRIMARY KEY ("block", "log_index") )
table token_holders: CREATE TABLE "token_holders" ( "address" varchar NOT NULL PRIMARY KEY, "balance" varchar NOT NULL )
table token_transfers: CREATE TABLE "token_transfers" ( "tx" varchar NOT NULL, "log_index" integer NOT NULL, "block" integer NOT NULL, "sender" varchar NOT NULL, "recipient" varchar NOT NULL, "amount" varchar NOT NULL, CONSTRAINT "pk_token_transfers_block_log_index" PRIMARY KEY ("block", "log_index") )
table unlocks: CREATE TABLE "unlocks" ( "wallet" varchar NOT NULL, "journal_id" integer NOT NULL, "paid_units" integer NOT NULL, "paid_at" timestamp_with_timezone_text NOT NULL, PRIMARY KEY ("wallet", "journal_id"), FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") ON DELETE CASCADE )
index ux_audit_jobs_open: CREATE UNIQUE INDEX ux_audit_jobs_open ON audit_jobs (journal_id) WHERE state IN ('queued', 'running')
index ux_journals_mint_tx: CREATE UNIQUE INDEX ux_journals_mint_tx ON journals (mint_tx)
index ux_journals_token_id: CREATE UNIQUE INDEX ux_journals_token_id ON journals (token_id)
index ux_payments_open_step: CREATE UNIQUE INDEX ux_payments_open_step ON payments (wallet, journal_id, step) WHERE state <> 'failed'
index ux_payments_payment_id: CREATE UNIQUE INDEX "ux_payments_payment_id" ON "payments" ("payment_id")
index ux_payments_signature_key: CREATE UNIQUE INDEX "ux_payments_signature_key" ON "payments" ("signature_key")
index ux_payments_tx: CREATE UNIQUE INDEX ux_payments_tx ON payments (tx)
table vote_events: CREATE TABLE "vote_events" ( "tx" varchar NOT NULL, "log_index" integer NOT NULL, "block" integer NOT NULL, "kind" varchar NOT NULL, "wallet" varchar NOT NULL, "journal_id" integer NOT NULL, "feedback_index" integer NOT NULL, "value" smallint NOT NULL, "tag" varchar NOT NULL, "valid" boolean NOT NULL, "reason" text NULL, "created_at" timestamp_with_timezone_text NOT NULL, PRIMARY KEY ("tx", "log_index"), FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") )
table votes: CREATE TABLE "votes" ( "wallet" varchar NOT NULL, "journal_id" integer NOT NULL, "value" smallint NOT NULL, "tag" varchar NOT NULL, "tx" varchar NOT NULL, "block" integer NOT NULL, "created_at" timestamp_with_timezone_text NOT NULL, "log_index" integer NOT NULL DEFAULT 0, "feedback_index" integer NOT NULL DEFAULT 0, PRIMARY KEY ("wallet", "journal_id"), FOREIGN KEY ("journal_id") REFERENCES "journals" ("id") ON DELETE CASCADE )
"#;

/// The constraints every migration up makes on PostgreSQL: their names are in no SQLite schema.
const POSTGRES_CONSTRAINTS: &str = r#"
constraint audit_jobs audit_jobs_pkey PRIMARY KEY (id)
constraint audit_jobs fk_audit_jobs_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id)
constraint audit_reports audit_reports_pkey PRIMARY KEY (id)
constraint audit_reports fk_audit_reports_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE
constraint burns burns_pkey PRIMARY KEY (tx, log_index)
constraint companies companies_pkey PRIMARY KEY (ticker)
constraint entries entries_pkey PRIMARY KEY (accession)
constraint entries fk_entries_sitting_id FOREIGN KEY (sitting_id) REFERENCES sittings(id) ON DELETE CASCADE
constraint entries fk_entries_story_id FOREIGN KEY (story_id) REFERENCES stories(id) ON DELETE CASCADE
constraint entries fk_entries_ticker FOREIGN KEY (ticker) REFERENCES companies(ticker) ON DELETE CASCADE
constraint indexer_cursors indexer_cursors_pkey PRIMARY KEY (name)
constraint journal_citations fk_journal_citations_accession FOREIGN KEY (accession) REFERENCES entries(accession) ON DELETE CASCADE
constraint journal_citations fk_journal_citations_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE
constraint journal_citations journal_citations_pkey PRIMARY KEY (journal_id, "position")
constraint journals fk_journals_ticker FOREIGN KEY (ticker) REFERENCES companies(ticker) ON DELETE CASCADE
constraint journals journals_pkey PRIMARY KEY (id)
constraint journals journals_slug_key UNIQUE (slug)
constraint ledger_totals ledger_totals_pkey PRIMARY KEY (name)
constraint nonces nonces_pkey PRIMARY KEY (nonce)
constraint payment_txs fk_payment_txs_payment_id FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE CASCADE
constraint payment_txs payment_txs_pkey PRIMARY KEY (tx)
constraint payments fk_payments_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE
constraint payments payments_pkey PRIMARY KEY (id)
constraint quotes quotes_pkey PRIMARY KEY (ticker)
constraint relayer_leases relayer_leases_pkey PRIMARY KEY (address)
constraint sessions sessions_pkey PRIMARY KEY (token_hash)
constraint sitting_logs fk_sitting_logs_sitting_id FOREIGN KEY (sitting_id) REFERENCES sittings(id) ON DELETE CASCADE
constraint sitting_logs sitting_logs_pkey PRIMARY KEY (id)
constraint sittings sittings_pkey PRIMARY KEY (id)
constraint sponsorships fk_sponsorships_payment_id FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE CASCADE
constraint sponsorships sponsorships_approval_tx_key UNIQUE (approval_tx)
constraint sponsorships sponsorships_payment_id_key UNIQUE (payment_id)
constraint sponsorships sponsorships_pkey PRIMARY KEY (id)
constraint stories fk_stories_ticker FOREIGN KEY (ticker) REFERENCES companies(ticker) ON DELETE CASCADE
constraint stories stories_pkey PRIMARY KEY (id)
constraint stories stories_slug_key UNIQUE (slug)
constraint swaps pk_swaps_block_log_index PRIMARY KEY (block, log_index)
constraint token_holders token_holders_pkey PRIMARY KEY (address)
constraint token_transfers pk_token_transfers_block_log_index PRIMARY KEY (block, log_index)
constraint unlocks fk_unlocks_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE
constraint unlocks unlocks_pkey PRIMARY KEY (wallet, journal_id)
constraint vote_events fk_vote_events_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id)
constraint vote_events vote_events_pkey PRIMARY KEY (tx, log_index)
constraint votes fk_votes_journal_id FOREIGN KEY (journal_id) REFERENCES journals(id) ON DELETE CASCADE
constraint votes votes_pkey PRIMARY KEY (wallet, journal_id)
"#;

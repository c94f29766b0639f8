//! Settlement you can trust: a new attempt after a proven failure gets a new row (the unique
//! step key covers only rows that are not failed), every transaction hash learned for a payment
//! is kept (`payment_txs`, one payment per hash), pending rows carry a lease and a backoff for
//! reconciliation by several instances, and a relayer key is sent with by one instance at a
//! time (`relayer_leases`).

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{add_columns, cascade, create, drop_columns, drop_tables, index, table};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        db.execute_unprepared("DROP INDEX ix_payments_wallet_journal_id_step")
            .await?;
        // Partial unique indexes: the same SQL on SQLite and PostgreSQL.
        db.execute_unprepared(
            "CREATE UNIQUE INDEX ux_payments_open_step ON payments (wallet, journal_id, step) \
             WHERE state <> 'failed'",
        )
        .await?;
        db.execute_unprepared("CREATE UNIQUE INDEX ux_payments_tx ON payments (tx)")
            .await?;
        add_columns(
            m,
            "payments",
            [
                string_null("lease_owner"),
                timestamp_with_time_zone_null("lease_until"),
                timestamp_with_time_zone_null("next_check_at"),
                integer("attempts").default(0).take(),
            ],
        )
        .await?;

        create(
            m,
            table("payment_txs")
                .col(string("tx").primary_key())
                .col(integer("payment_id"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(&mut cascade("payment_txs", "payment_id", "payments", "id")),
        )
        .await?;
        m.create_index(index("payment_txs", &["payment_id"]))
            .await?;

        create(
            m,
            table("relayer_leases")
                .col(string("address").primary_key())
                .col(string("owner"))
                .col(timestamp_with_time_zone("lease_until")),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, &["relayer_leases", "payment_txs"]).await?;
        let db = m.get_connection();
        db.execute_unprepared("DROP INDEX ux_payments_tx").await?;
        db.execute_unprepared("DROP INDEX ux_payments_open_step")
            .await?;
        drop_columns(
            m,
            "payments",
            &["lease_owner", "lease_until", "next_check_at", "attempts"],
        )
        .await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX ix_payments_wallet_journal_id_step ON payments (wallet, journal_id, step)",
        )
        .await?;
        Ok(())
    }
}

//! Settlement you can trust: a new attempt after a proven failure gets a new row (the unique
//! step key covers only rows that are not failed), every transaction hash learned for a payment
//! is kept (`payment_txs`, one payment per hash), pending rows carry a lease and a backoff for
//! reconciliation by several instances, and a relayer key is sent with by one instance at a
//! time (`relayer_leases`).

use sea_orm_migration::{prelude::*, schema::*};

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
        // SQLite takes one column per ALTER TABLE.
        for col in [
            ColumnDef::new("lease_owner").string().null().to_owned(),
            ColumnDef::new("lease_until")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new("next_check_at")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new("attempts")
                .integer()
                .not_null()
                .default(0)
                .to_owned(),
        ] {
            m.alter_table(Table::alter().table("payments").add_column(col).to_owned())
                .await?;
        }

        m.create_table(
            Table::create()
                .table("payment_txs")
                .col(string("tx").primary_key())
                .col(integer("payment_id"))
                .col(timestamp_with_time_zone("created_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_payment_txs_payment_id")
                        .from("payment_txs", "payment_id")
                        .to("payments", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_payment_txs_payment_id")
                .table("payment_txs")
                .col("payment_id")
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("relayer_leases")
                .col(string("address").primary_key())
                .col(string("owner"))
                .col(timestamp_with_time_zone("lease_until"))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("relayer_leases").to_owned())
            .await?;
        m.drop_table(Table::drop().table("payment_txs").to_owned())
            .await?;
        let db = m.get_connection();
        db.execute_unprepared("DROP INDEX ux_payments_tx").await?;
        db.execute_unprepared("DROP INDEX ux_payments_open_step")
            .await?;
        for col in ["lease_owner", "lease_until", "next_check_at", "attempts"] {
            m.alter_table(Table::alter().table("payments").drop_column(col).to_owned())
                .await?;
        }
        db.execute_unprepared(
            "CREATE UNIQUE INDEX ix_payments_wallet_journal_id_step ON payments (wallet, journal_id, step)",
        )
        .await?;
        Ok(())
    }
}

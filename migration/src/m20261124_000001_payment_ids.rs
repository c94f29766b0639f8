//! x402 `payment-identifier`: a client's idempotency key is kept with the payment row it
//! first came with, bound to a fingerprint of that payment, so a retry with the same id (on any
//! instance, after any restart) finds the first answer and a reuse with another payment is told
//! apart. One row per id.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one column per ALTER TABLE.
        for col in [
            ColumnDef::new("payment_id").string().null().to_owned(),
            ColumnDef::new("fingerprint").string().null().to_owned(),
        ] {
            m.alter_table(Table::alter().table("payments").add_column(col).to_owned())
                .await?;
        }
        // NULLs are distinct in a unique index on both backends: rows without an id coexist.
        m.create_index(
            Index::create()
                .name("ux_payments_payment_id")
                .table("payments")
                .col("payment_id")
                .unique()
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("ux_payments_payment_id")
                .table("payments")
                .to_owned(),
        )
        .await?;
        for col in ["fingerprint", "payment_id"] {
            m.alter_table(Table::alter().table("payments").drop_column(col).to_owned())
                .await?;
        }
        Ok(())
    }
}

//! x402 `payment-identifier`: a client's idempotency key is kept with the payment row it
//! first came with, bound to a fingerprint of that payment, so a retry with the same id (on any
//! instance, after any restart) finds the first answer and a reuse with another payment is told
//! apart. One row per id.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{add_columns, drop_columns, drop_index, named_index};

#[derive(DeriveMigrationName)]
pub struct Migration;

const UNIQUE_ID: &str = "ux_payments_payment_id";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            m,
            "payments",
            [string_null("payment_id"), string_null("fingerprint")],
        )
        .await?;
        // NULLs are distinct in a unique index on both backends: rows without an id coexist.
        m.create_index(
            named_index(UNIQUE_ID, "payments", &["payment_id"])
                .unique()
                .take(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(drop_index(UNIQUE_ID, "payments")).await?;
        drop_columns(m, "payments", &["fingerprint", "payment_id"]).await
    }
}

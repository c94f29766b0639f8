//! `erc20ApprovalGasSponsoring`: one row per sponsored approval, written before the sponsor
//! sends anything, so every wei it funds is on record (for the budgets, which sum it) and each
//! approval stays tied to the payment it was for (to count approvals no settle followed).

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{Columns, cascade, create, drop_tables, index, table};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create(
            m,
            table("sponsorships")
                .col(pk_auto("id"))
                .col(integer("payment_id").unique_key())
                .col(string("wallet"))
                .col(string("approval_tx").unique_key())
                .col(string_null("funding_tx"))
                .col(big_integer("funded_wei"))
                .col(string("state"))
                .col(string_null("error"))
                .created_updated()
                .foreign_key(&mut cascade("sponsorships", "payment_id", "payments", "id")),
        )
        .await?;
        for col in ["wallet", "created_at"] {
            m.create_index(index("sponsorships", &[col])).await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, &["sponsorships"]).await
    }
}

//! `erc20ApprovalGasSponsoring`: one row per sponsored approval, written before the sponsor
//! sends anything, so every wei it funds is on record (for the budgets, which sum it) and each
//! approval stays tied to the payment it was for (to count approvals no settle followed).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("sponsorships")
                .col(pk_auto("id"))
                .col(integer("payment_id").unique_key())
                .col(string("wallet"))
                .col(string("approval_tx").unique_key())
                .col(string_null("funding_tx"))
                .col(big_integer("funded_wei"))
                .col(string("state"))
                .col(string_null("error"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_sponsorships_payment_id")
                        .from("sponsorships", "payment_id")
                        .to("payments", "id")
                        .on_delete(ForeignKeyAction::Cascade),
                )
                .to_owned(),
        )
        .await?;
        for (name, col) in [
            ("ix_sponsorships_wallet", "wallet"),
            ("ix_sponsorships_created_at", "created_at"),
        ] {
            m.create_index(
                Index::create()
                    .name(name)
                    .table("sponsorships")
                    .col(col)
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("sponsorships").to_owned())
            .await
    }
}

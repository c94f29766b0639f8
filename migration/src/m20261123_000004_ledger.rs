//! The token ledger's rows: every transfer of the community token (burns are those to the zero
//! or dead address) and the holders' balances they add up to, as decimal strings of base units
//! (beyond any SQL integer type). A rollback reverses the transfers it removes.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("token_transfers")
                .col(string("tx"))
                .col(integer("log_index"))
                .col(big_integer("block"))
                .col(string("sender"))
                .col(string("recipient"))
                .col(string("amount"))
                .primary_key(Index::create().col("tx").col("log_index"))
                .to_owned(),
        )
        .await?;
        for (name, col) in [
            ("ix_token_transfers_block", "block"),
            ("ix_token_transfers_recipient", "recipient"),
        ] {
            m.create_index(
                Index::create()
                    .name(name)
                    .table("token_transfers")
                    .col(col)
                    .to_owned(),
            )
            .await?;
        }
        m.create_table(
            Table::create()
                .table("token_holders")
                .col(string("address").primary_key())
                .col(string("balance"))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("token_holders").to_owned())
            .await?;
        m.drop_table(Table::drop().table("token_transfers").to_owned())
            .await?;
        Ok(())
    }
}

//! The token ledger's rows: every transfer of the community token (burns are those to the zero
//! or dead address) and the holders' balances they add up to, as decimal strings of base units
//! (beyond any SQL integer type). A rollback reverses the transfers it removes.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{Columns, create, drop_tables, index, table, tx_log_key};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create(
            m,
            table("token_transfers")
                .chain_log()
                .col(string("sender"))
                .col(string("recipient"))
                .col(string("amount"))
                .primary_key(&mut tx_log_key()),
        )
        .await?;
        for col in ["block", "recipient"] {
            m.create_index(index("token_transfers", &[col])).await?;
        }
        create(
            m,
            table("token_holders")
                .col(string("address").primary_key())
                .col(string("balance")),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(m, &["token_holders", "token_transfers"]).await
    }
}

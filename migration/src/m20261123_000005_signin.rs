//! Failed signatures per sign-in nonce: after a few the nonce is used up, so one nonce cannot
//! be tried without end.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("nonces")
                .add_column(integer("failures").default(0))
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table("nonces")
                .drop_column("failures")
                .to_owned(),
        )
        .await
    }
}

//! Failed signatures per sign-in nonce: after a few the nonce is used up, so one nonce cannot
//! be tried without end.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{add_columns, drop_columns};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_columns(m, "nonces", [integer("failures").default(0).take()]).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(m, "nonces", &["failures"]).await
    }
}

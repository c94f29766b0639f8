//! Confirmations: what the chain can still take back is *seen* until it is `reorg_safe_distance`
//! blocks deep, then *final*. A settled payment keeps the block its transaction was mined in
//! and when it became final; one that a reorg dropped keeps when that happened (its history
//! says why if it then fails). A live journal keeps its registration's block and when that
//! became final.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const PAYMENTS: [&str; 4] = ["block_number", "block_hash", "final_at", "reorged_at"];
const JOURNALS: [&str; 2] = ["mint_block", "mint_final_at"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one column per ALTER TABLE.
        for col in [
            ColumnDef::new("block_number")
                .big_integer()
                .null()
                .to_owned(),
            ColumnDef::new("block_hash").string().null().to_owned(),
            ColumnDef::new("final_at")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new("reorged_at")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ] {
            m.alter_table(Table::alter().table("payments").add_column(col).to_owned())
                .await?;
        }
        for col in [
            ColumnDef::new("mint_block").big_integer().null().to_owned(),
            ColumnDef::new("mint_final_at")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ] {
            m.alter_table(Table::alter().table("journals").add_column(col).to_owned())
                .await?;
        }
        // Rows settled before this migration were mined long ago: final.
        let db = m.get_connection();
        db.execute_unprepared(
            "UPDATE payments SET final_at = updated_at WHERE state = 'settled' AND final_at IS NULL",
        )
        .await?;
        db.execute_unprepared(
            "UPDATE journals SET mint_final_at = published_at WHERE mint_tx IS NOT NULL",
        )
        .await?;
        // The confirmation pass looks for settled rows not final yet: few, found by this index.
        m.create_index(
            Index::create()
                .name("ix_payments_final_at")
                .table("payments")
                .col("final_at")
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("ix_payments_final_at")
                .table("payments")
                .to_owned(),
        )
        .await?;
        for col in PAYMENTS {
            m.alter_table(Table::alter().table("payments").drop_column(col).to_owned())
                .await?;
        }
        for col in JOURNALS {
            m.alter_table(Table::alter().table("journals").drop_column(col).to_owned())
                .await?;
        }
        Ok(())
    }
}

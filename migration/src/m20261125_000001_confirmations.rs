//! Confirmations: what the chain can still take back is *seen* until it is `reorg_safe_distance`
//! blocks deep, then *final*. A settled payment keeps the block its transaction was mined in
//! and when it became final; one that a reorg dropped keeps when that happened (its history
//! says why if it then fails). A live journal keeps its registration's block and when that
//! became final.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{add_columns, drop_columns, drop_index, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

const PAYMENTS: [&str; 4] = ["block_number", "block_hash", "final_at", "reorged_at"];
const JOURNALS: [&str; 2] = ["mint_block", "mint_final_at"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            m,
            "payments",
            [
                big_integer_null("block_number"),
                string_null("block_hash"),
                timestamp_with_time_zone_null("final_at"),
                timestamp_with_time_zone_null("reorged_at"),
            ],
        )
        .await?;
        add_columns(
            m,
            "journals",
            [
                big_integer_null("mint_block"),
                timestamp_with_time_zone_null("mint_final_at"),
            ],
        )
        .await?;
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
        m.create_index(index("payments", &["final_at"])).await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(drop_index("ix_payments_final_at", "payments"))
            .await?;
        drop_columns(m, "payments", &PAYMENTS).await?;
        drop_columns(m, "journals", &JOURNALS).await
    }
}

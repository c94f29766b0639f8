//! Votes from the chain: every `NewFeedback` and `FeedbackRevoked` of the reputation registry
//! that concerns a journal is kept as an event (reported by `POST /votes/record` or read by the
//! indexer, whichever comes first); the `votes` table is derived from them, so a reorg that
//! removes events can recompute what stands.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("vote_events")
                .col(string("tx"))
                .col(integer("log_index"))
                .col(big_integer("block"))
                .col(string("kind"))
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(big_integer("feedback_index"))
                .col(small_integer("value"))
                .col(string("tag"))
                .col(boolean("valid"))
                .col(text_null("reason"))
                .col(timestamp_with_time_zone("created_at"))
                .primary_key(Index::create().col("tx").col("log_index"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_vote_events_journal_id")
                        .from("vote_events", "journal_id")
                        .to("journals", "id"),
                )
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_vote_events_wallet_journal")
                .table("vote_events")
                .col("wallet")
                .col("journal_id")
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("ix_vote_events_block")
                .table("vote_events")
                .col("block")
                .to_owned(),
        )
        .await?;
        for col in [
            ColumnDef::new("log_index")
                .integer()
                .not_null()
                .default(0)
                .to_owned(),
            ColumnDef::new("feedback_index")
                .big_integer()
                .not_null()
                .default(0)
                .to_owned(),
        ] {
            m.alter_table(Table::alter().table("votes").add_column(col).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for col in ["feedback_index", "log_index"] {
            m.alter_table(Table::alter().table("votes").drop_column(col).to_owned())
                .await?;
        }
        m.drop_table(Table::drop().table("vote_events").to_owned())
            .await?;
        Ok(())
    }
}

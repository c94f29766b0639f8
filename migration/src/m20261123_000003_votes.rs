//! Votes from the chain: every `NewFeedback` and `FeedbackRevoked` of the reputation registry
//! that concerns a journal is kept as an event (reported by `POST /votes/record` or read by the
//! indexer, whichever comes first); the `votes` table is derived from them, so a reorg that
//! removes events can recompute what stands.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{
    Columns, add_columns, create, drop_columns, drop_tables, foreign_key, index, named_index,
    table, tx_log_key,
};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create(
            m,
            table("vote_events")
                .chain_log()
                .col(string("kind"))
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(big_integer("feedback_index"))
                .col(small_integer("value"))
                .col(string("tag"))
                .col(boolean("valid"))
                .col(text_null("reason"))
                .col(timestamp_with_time_zone("created_at"))
                .primary_key(&mut tx_log_key())
                .foreign_key(&mut foreign_key(
                    "vote_events",
                    "journal_id",
                    "journals",
                    "id",
                )),
        )
        .await?;
        m.create_index(named_index(
            "ix_vote_events_wallet_journal",
            "vote_events",
            &["wallet", "journal_id"],
        ))
        .await?;
        m.create_index(index("vote_events", &["block"])).await?;
        add_columns(
            m,
            "votes",
            [
                integer("log_index").default(0).take(),
                big_integer("feedback_index").default(0).take(),
            ],
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(m, "votes", &["feedback_index", "log_index"]).await?;
        drop_tables(m, &["vote_events"]).await
    }
}

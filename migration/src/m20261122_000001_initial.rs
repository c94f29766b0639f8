//! The whole schema of the interface. Amounts of USDG are integers in base units; amounts of
//! 18-decimal tokens, which overflow 64 bits, are decimal strings.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{Columns, cascade, create, index, table, tx_log_key};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        create(
            m,
            table("companies")
                .col(string("ticker").primary_key())
                .col(string("name")),
        )
        .await?;

        create(
            m,
            table("stories")
                .col(pk_auto("id"))
                .col(string_uniq("slug"))
                .col(string("ticker"))
                .col(string("title"))
                .foreign_key(&mut cascade("stories", "ticker", "companies", "ticker")),
        )
        .await?;

        create(
            m,
            table("sittings")
                .col(big_integer("id").primary_key())
                .col(date("date"))
                .col(timestamp_with_time_zone("started_at"))
                .col(timestamp_with_time_zone_null("finished_at"))
                .col(text("note"))
                .col(integer("leads"))
                .col(integer("filed"))
                .col(double("spend_usd")),
        )
        .await?;
        m.create_index(index("sittings", &["finished_at"])).await?;

        create(
            m,
            table("sitting_logs")
                .col(pk_auto("id"))
                .col(big_integer("sitting_id"))
                .col(timestamp_with_time_zone("ts"))
                .col(string("desk"))
                .col(string("level"))
                .col(text("message"))
                .foreign_key(&mut cascade("sitting_logs", "sitting_id", "sittings", "id")),
        )
        .await?;
        m.create_index(index("sitting_logs", &["sitting_id", "ts"]))
            .await?;

        create(
            m,
            table("entries")
                .col(string("accession").primary_key())
                .col(string("ticker"))
                .col(date("date_of_record"))
                .col(string("kind"))
                .col(text("title"))
                .col(text("summary"))
                .col(string("source_name"))
                .col(text("canonical_url"))
                .col(text("says"))
                .col(boolean("verified"))
                .col(boolean("merged"))
                .col(integer_null("story_id"))
                .col(integer_null("story_seq"))
                .col(big_integer_null("sitting_id"))
                .col(timestamp_with_time_zone("filed_at"))
                .foreign_key(&mut cascade("entries", "ticker", "companies", "ticker"))
                .foreign_key(&mut cascade("entries", "story_id", "stories", "id"))
                .foreign_key(&mut cascade("entries", "sitting_id", "sittings", "id")),
        )
        .await?;
        m.create_index(index("entries", &["date_of_record"]))
            .await?;
        m.create_index(index("entries", &["ticker", "date_of_record"]))
            .await?;

        create(
            m,
            table("journals")
                .col(pk_auto("id"))
                .col(string_null("slug").unique_key())
                .col(string("ticker"))
                .col(boolean("swarm"))
                .col(string_null("author_wallet"))
                .col(string("author_name"))
                .col(text("title"))
                .col(text("dek"))
                .col(text("body"))
                .col(big_integer("price_units"))
                .col(string("status"))
                .col(string_null("content_hash"))
                .col(string_null("meta_url"))
                .col(string_null("token_id"))
                .col(string_null("mint_tx"))
                .col(double_null("stock_price_at_publication"))
                .col(boolean_null("author_holds_stock"))
                .col(integer("audit_count").default(0))
                .col(timestamp_with_time_zone_null("published_at"))
                .created_updated()
                .foreign_key(&mut cascade("journals", "ticker", "companies", "ticker")),
        )
        .await?;
        m.create_index(index("journals", &["status", "published_at"]))
            .await?;
        m.create_index(index("journals", &["ticker"])).await?;
        m.create_index(index("journals", &["author_wallet"]))
            .await?;
        m.create_index(index("journals", &["token_id"])).await?;

        create(
            m,
            table("journal_citations")
                .col(integer("journal_id"))
                .col(integer("position"))
                .col(string("accession"))
                .primary_key(Index::create().col("journal_id").col("position"))
                .foreign_key(&mut cascade(
                    "journal_citations",
                    "journal_id",
                    "journals",
                    "id",
                ))
                .foreign_key(&mut cascade(
                    "journal_citations",
                    "accession",
                    "entries",
                    "accession",
                )),
        )
        .await?;

        create(
            m,
            table("audit_reports")
                .col(pk_auto("id"))
                .col(integer("journal_id"))
                .col(string("verdict"))
                .col(double("score"))
                .col(text("summary"))
                .col(json("issues"))
                .col(string("engine"))
                .col(timestamp_with_time_zone("audited_at"))
                .foreign_key(&mut cascade(
                    "audit_reports",
                    "journal_id",
                    "journals",
                    "id",
                )),
        )
        .await?;
        m.create_index(index("audit_reports", &["journal_id", "audited_at"]))
            .await?;

        // One row per payment step of a purchase; the unique keys make settlement idempotent.
        create(
            m,
            table("payments")
                .col(pk_auto("id"))
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(string("step"))
                .col(big_integer("amount_units"))
                .col(string("pay_to"))
                .col(string("permit_nonce"))
                .col(timestamp_with_time_zone("permit_deadline"))
                .col(text("payload"))
                .col(string("state"))
                .col(string_null("tx"))
                .col(text_null("error"))
                .created_updated()
                .foreign_key(&mut cascade("payments", "journal_id", "journals", "id")),
        )
        .await?;
        m.create_index(
            index("payments", &["wallet", "journal_id", "step"])
                .unique()
                .take(),
        )
        .await?;
        m.create_index(
            index("payments", &["wallet", "permit_nonce"])
                .unique()
                .take(),
        )
        .await?;
        m.create_index(index("payments", &["state"])).await?;

        create(
            m,
            table("unlocks")
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(big_integer("paid_units"))
                .col(timestamp_with_time_zone("paid_at"))
                .primary_key(Index::create().col("wallet").col("journal_id"))
                .foreign_key(&mut cascade("unlocks", "journal_id", "journals", "id")),
        )
        .await?;
        m.create_index(index("unlocks", &["journal_id"])).await?;

        create(
            m,
            table("votes")
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(small_integer("value"))
                .col(string("tag"))
                .col(string("tx"))
                .col(big_integer("block"))
                .col(timestamp_with_time_zone("created_at"))
                .primary_key(Index::create().col("wallet").col("journal_id"))
                .foreign_key(&mut cascade("votes", "journal_id", "journals", "id")),
        )
        .await?;
        m.create_index(index("votes", &["journal_id"])).await?;

        create(
            m,
            table("sessions")
                .col(string("token_hash").primary_key())
                .col(string("address"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("expires_at")),
        )
        .await?;
        m.create_index(index("sessions", &["expires_at"])).await?;

        create(
            m,
            table("nonces")
                .col(string("nonce").primary_key())
                .col(string("address"))
                .col(text("message"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("used_at")),
        )
        .await?;
        m.create_index(index("nonces", &["expires_at"])).await?;

        create(
            m,
            table("indexer_cursors")
                .col(string("name").primary_key())
                .col(big_integer("block"))
                .col(string_null("block_hash"))
                .col(timestamp_with_time_zone("updated_at")),
        )
        .await?;

        create(
            m,
            table("swaps")
                .chain_log()
                .col(string("amount0"))
                .col(string("amount1"))
                .col(string("sqrt_price_x96"))
                .col(timestamp_with_time_zone_null("block_time"))
                .primary_key(&mut tx_log_key()),
        )
        .await?;
        m.create_index(index("swaps", &["block"])).await?;

        create(
            m,
            table("burns")
                .chain_log()
                .col(string("amount"))
                .primary_key(&mut tx_log_key()),
        )
        .await?;
        m.create_index(index("burns", &["block"])).await?;

        create(
            m,
            table("quotes")
                .col(string("ticker").primary_key())
                .col(double("mid"))
                .col(timestamp_with_time_zone("feed_updated_at"))
                .col(timestamp_with_time_zone("fetched_at")),
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        for t in [
            "quotes",
            "burns",
            "swaps",
            "indexer_cursors",
            "nonces",
            "sessions",
            "votes",
            "unlocks",
            "payments",
            "audit_reports",
            "journal_citations",
            "journals",
            "entries",
            "sitting_logs",
            "sittings",
            "stories",
            "companies",
        ] {
            m.drop_table(Table::drop().table(t).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

//! The whole schema of the interface. Amounts of USDG are integers in base units; amounts of
//! 18-decimal tokens, which overflow 64 bits, are decimal strings.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

fn fk(
    from: &'static str,
    col: &'static str,
    to: &'static str,
    to_col: &'static str,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(format!("fk_{from}_{col}"))
        .from(from, col)
        .to(to, to_col)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

fn index(table: &'static str, cols: &[&'static str], unique: bool) -> IndexCreateStatement {
    let mut stmt = Index::create();
    stmt.name(format!("ix_{table}_{}", cols.join("_")))
        .table(table);
    for c in cols {
        stmt.col(*c);
    }
    if unique {
        stmt.unique();
    }
    stmt.to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.create_table(
            Table::create()
                .table("companies")
                .col(string("ticker").primary_key())
                .col(string("name"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("stories")
                .col(pk_auto("id"))
                .col(string_uniq("slug"))
                .col(string("ticker"))
                .col(string("title"))
                .foreign_key(&mut fk("stories", "ticker", "companies", "ticker"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("sittings")
                .col(big_integer("id").primary_key())
                .col(date("date"))
                .col(timestamp_with_time_zone("started_at"))
                .col(timestamp_with_time_zone_null("finished_at"))
                .col(text("note"))
                .col(integer("leads"))
                .col(integer("filed"))
                .col(double("spend_usd"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("sittings", &["finished_at"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("sitting_logs")
                .col(pk_auto("id"))
                .col(big_integer("sitting_id"))
                .col(timestamp_with_time_zone("ts"))
                .col(string("desk"))
                .col(string("level"))
                .col(text("message"))
                .foreign_key(&mut fk("sitting_logs", "sitting_id", "sittings", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("sitting_logs", &["sitting_id", "ts"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("entries")
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
                .foreign_key(&mut fk("entries", "ticker", "companies", "ticker"))
                .foreign_key(&mut fk("entries", "story_id", "stories", "id"))
                .foreign_key(&mut fk("entries", "sitting_id", "sittings", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("entries", &["date_of_record"], false))
            .await?;
        m.create_index(index("entries", &["ticker", "date_of_record"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("journals")
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
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("journals", "ticker", "companies", "ticker"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("journals", &["status", "published_at"], false))
            .await?;
        m.create_index(index("journals", &["ticker"], false))
            .await?;
        m.create_index(index("journals", &["author_wallet"], false))
            .await?;
        m.create_index(index("journals", &["token_id"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("journal_citations")
                .col(integer("journal_id"))
                .col(integer("position"))
                .col(string("accession"))
                .primary_key(Index::create().col("journal_id").col("position"))
                .foreign_key(&mut fk("journal_citations", "journal_id", "journals", "id"))
                .foreign_key(&mut fk(
                    "journal_citations",
                    "accession",
                    "entries",
                    "accession",
                ))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("audit_reports")
                .col(pk_auto("id"))
                .col(integer("journal_id"))
                .col(string("verdict"))
                .col(double("score"))
                .col(text("summary"))
                .col(json("issues"))
                .col(string("engine"))
                .col(timestamp_with_time_zone("audited_at"))
                .foreign_key(&mut fk("audit_reports", "journal_id", "journals", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("audit_reports", &["journal_id", "audited_at"], false))
            .await?;

        // One row per payment step of a purchase; the unique keys make settlement idempotent.
        m.create_table(
            Table::create()
                .table("payments")
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
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(&mut fk("payments", "journal_id", "journals", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("payments", &["wallet", "journal_id", "step"], true))
            .await?;
        m.create_index(index("payments", &["wallet", "permit_nonce"], true))
            .await?;
        m.create_index(index("payments", &["state"], false)).await?;

        m.create_table(
            Table::create()
                .table("unlocks")
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(big_integer("paid_units"))
                .col(timestamp_with_time_zone("paid_at"))
                .primary_key(Index::create().col("wallet").col("journal_id"))
                .foreign_key(&mut fk("unlocks", "journal_id", "journals", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("unlocks", &["journal_id"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("votes")
                .col(string("wallet"))
                .col(integer("journal_id"))
                .col(small_integer("value"))
                .col(string("tag"))
                .col(string("tx"))
                .col(big_integer("block"))
                .col(timestamp_with_time_zone("created_at"))
                .primary_key(Index::create().col("wallet").col("journal_id"))
                .foreign_key(&mut fk("votes", "journal_id", "journals", "id"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("votes", &["journal_id"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("sessions")
                .col(string("token_hash").primary_key())
                .col(string("address"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("expires_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("sessions", &["expires_at"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("nonces")
                .col(string("nonce").primary_key())
                .col(string("address"))
                .col(text("message"))
                .col(timestamp_with_time_zone("expires_at"))
                .col(timestamp_with_time_zone_null("used_at"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("nonces", &["expires_at"], false))
            .await?;

        m.create_table(
            Table::create()
                .table("indexer_cursors")
                .col(string("name").primary_key())
                .col(big_integer("block"))
                .col(string_null("block_hash"))
                .col(timestamp_with_time_zone("updated_at"))
                .to_owned(),
        )
        .await?;

        m.create_table(
            Table::create()
                .table("swaps")
                .col(string("tx"))
                .col(integer("log_index"))
                .col(big_integer("block"))
                .col(string("amount0"))
                .col(string("amount1"))
                .col(string("sqrt_price_x96"))
                .col(timestamp_with_time_zone_null("block_time"))
                .primary_key(Index::create().col("tx").col("log_index"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("swaps", &["block"], false)).await?;

        m.create_table(
            Table::create()
                .table("burns")
                .col(string("tx"))
                .col(integer("log_index"))
                .col(big_integer("block"))
                .col(string("amount"))
                .primary_key(Index::create().col("tx").col("log_index"))
                .to_owned(),
        )
        .await?;
        m.create_index(index("burns", &["block"], false)).await?;

        m.create_table(
            Table::create()
                .table("quotes")
                .col(string("ticker").primary_key())
                .col(double("mid"))
                .col(timestamp_with_time_zone("feed_updated_at"))
                .col(timestamp_with_time_zone("fetched_at"))
                .to_owned(),
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

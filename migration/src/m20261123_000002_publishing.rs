//! Publishing: a draft's `revision` (every save bumps it, so an audit applies only to the text
//! it read), audit jobs written before the engine runs (one open job per journal, leased by the
//! instance that runs it), and one journal per onchain token and per mint transaction.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        m.alter_table(
            Table::alter()
                .table("journals")
                .add_column(
                    ColumnDef::new("revision")
                        .integer()
                        .not_null()
                        .default(1)
                        .to_owned(),
                )
                .to_owned(),
        )
        .await?;
        db.execute_unprepared("CREATE UNIQUE INDEX ux_journals_token_id ON journals (token_id)")
            .await?;
        db.execute_unprepared("CREATE UNIQUE INDEX ux_journals_mint_tx ON journals (mint_tx)")
            .await?;

        m.create_table(
            Table::create()
                .table("audit_jobs")
                .col(pk_auto("id"))
                .col(integer("journal_id"))
                .col(integer("revision"))
                .col(string("state"))
                .col(string_null("lease_owner"))
                .col(timestamp_with_time_zone_null("lease_until"))
                .col(integer("attempts").default(0))
                .col(integer_null("report_id"))
                .col(text_null("error"))
                .col(timestamp_with_time_zone("created_at"))
                .col(timestamp_with_time_zone("updated_at"))
                .foreign_key(
                    ForeignKey::create()
                        .name("fk_audit_jobs_journal_id")
                        .from("audit_jobs", "journal_id")
                        .to("journals", "id"),
                )
                .to_owned(),
        )
        .await?;
        // At most one queued or running job per journal: a second request joins the first.
        db.execute_unprepared(
            "CREATE UNIQUE INDEX ux_audit_jobs_open ON audit_jobs (journal_id) \
             WHERE state IN ('queued', 'running')",
        )
        .await?;
        db.execute_unprepared(
            "CREATE INDEX ix_audit_jobs_state ON audit_jobs (state, lease_until)",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_table(Table::drop().table("audit_jobs").to_owned())
            .await?;
        let db = m.get_connection();
        db.execute_unprepared("DROP INDEX ux_journals_mint_tx")
            .await?;
        db.execute_unprepared("DROP INDEX ux_journals_token_id")
            .await?;
        m.alter_table(
            Table::alter()
                .table("journals")
                .drop_column("revision")
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}

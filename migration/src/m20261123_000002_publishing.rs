//! Publishing: a draft's `revision` (every save bumps it, so an audit applies only to the text
//! it read), audit jobs written before the engine runs (one open job per journal, leased by the
//! instance that runs it), and one journal per onchain token and per mint transaction.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{Columns, add_columns, create, drop_columns, drop_tables, foreign_key, table};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let db = m.get_connection();
        add_columns(m, "journals", [integer("revision").default(1).take()]).await?;
        db.execute_unprepared("CREATE UNIQUE INDEX ux_journals_token_id ON journals (token_id)")
            .await?;
        db.execute_unprepared("CREATE UNIQUE INDEX ux_journals_mint_tx ON journals (mint_tx)")
            .await?;

        create(
            m,
            table("audit_jobs")
                .col(pk_auto("id"))
                .col(integer("journal_id"))
                .col(integer("revision"))
                .col(string("state"))
                .col(string_null("lease_owner"))
                .col(timestamp_with_time_zone_null("lease_until"))
                .col(integer("attempts").default(0))
                .col(integer_null("report_id"))
                .col(text_null("error"))
                .created_updated()
                .foreign_key(&mut foreign_key(
                    "audit_jobs",
                    "journal_id",
                    "journals",
                    "id",
                )),
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
        drop_tables(m, &["audit_jobs"]).await?;
        let db = m.get_connection();
        db.execute_unprepared("DROP INDEX ux_journals_mint_tx")
            .await?;
        db.execute_unprepared("DROP INDEX ux_journals_token_id")
            .await?;
        drop_columns(m, "journals", &["revision"]).await?;
        Ok(())
    }
}

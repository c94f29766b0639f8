//! What an audit's verdict makes of a journal: its status, the count of audits, and for an
//! approved one its slug, content hash and registration file's address. Written in the
//! AuditActor's transaction that ends the job.

use chrono::{DateTime, Utc};
use journal_market_domain::status::JournalStatus;
use journal_market_domain::text::slugify;
use journal_market_entity::journals;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter};

/// An audit's outcome as the journal row takes it.
pub struct Verdict<'a> {
    pub verdict: &'a str,
    pub holds_stock: Option<bool>,
    pub at: DateTime<Utc>,
    /// `{origin}{api prefix}`, where registration files are served.
    pub meta_base: &'a str,
}

/// A slug no other journal has: the title's, then with `-2`, `-3`, …
async fn free_slug(db: &impl ConnectionTrait, base: &str) -> Result<String, DbErr> {
    for n in 1..1000 {
        let candidate = if n == 1 {
            base.to_string()
        } else {
            format!("{base}-{n}")
        };
        let taken = journals::Entity::find()
            .filter(journals::Column::Slug.eq(candidate.clone()))
            .count(db)
            .await?;
        if taken == 0 {
            return Ok(candidate);
        }
    }
    Err(DbErr::Custom(format!("no free slug for {base}")))
}

/// The public address of a journal's registration file.
pub fn meta_url(meta_base: &str, id: i32) -> String {
    format!("{}/meta/{id}", meta_base.trim_end_matches('/'))
}

/// Moves `journal` (read in `txn`, at the revision the engine audited) by the verdict; only
/// while it is still that revision.
pub async fn record_verdict(
    txn: &impl ConnectionTrait,
    journal: &journals::Model,
    v: &Verdict<'_>,
) -> Result<(), DbErr> {
    let status = JournalStatus::after_verdict(v.verdict);
    let mut update = journals::Entity::update_many()
        .col_expr(journals::Column::Status, Expr::value(status.as_str()))
        .col_expr(
            journals::Column::AuditCount,
            Expr::col(journals::Column::AuditCount).add(1),
        )
        .col_expr(
            journals::Column::AuthorHoldsStock,
            Expr::value(v.holds_stock),
        )
        .col_expr(journals::Column::UpdatedAt, Expr::value(v.at));
    if status == JournalStatus::Approved {
        let slug = match journal.slug.clone() {
            Some(s) => s,
            None => free_slug(txn, &slugify(&journal.ticker, &journal.title)).await?,
        };
        let hash = format!(
            "{:#x}",
            alloy::primitives::keccak256(journal.body.as_bytes())
        );
        update = update
            .col_expr(journals::Column::Slug, Expr::value(slug))
            .col_expr(journals::Column::ContentHash, Expr::value(hash))
            .col_expr(
                journals::Column::MetaUrl,
                Expr::value(meta_url(v.meta_base, journal.id)),
            );
    }
    update
        .filter(journals::Column::Id.eq(journal.id))
        .filter(journals::Column::Revision.eq(journal.revision))
        .exec(txn)
        .await?;
    Ok(())
}

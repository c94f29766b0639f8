//! Audit jobs and what a finished audit writes. A job is a row before the engine runs; the
//! instance that runs it holds a lease on it; the report, the draft's new status (and on
//! approval its content hash, slug and metaUrl) and the job's end are one transaction, applied
//! only to the revision of the draft the engine read.

use chrono::{DateTime, Utc};
use journal_market_domain::status::{self, JournalStatus};
use journal_market_domain::text::slugify;
use journal_market_entity::{audit_jobs, audit_reports, journals};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait,
    DatabaseConnection, DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    SqlErr,
};

pub const QUEUED: &str = "queued";
pub const RUNNING: &str = "running";
pub const DONE: &str = "done";
pub const FAILED: &str = "failed";
/// The draft was saved again while the job waited or ran: its report would describe old text.
pub const SUPERSEDED: &str = "superseded";

fn unique_violation(e: &DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

#[derive(Debug, PartialEq, Eq)]
pub enum Opened {
    Job(i32),
    /// The draft has used up its audits.
    TooMany,
    NoJournal,
}

/// Opens (or joins) the job auditing `revision` of a journal. Audits that ended count against
/// `max_audits`; a job for an older revision is superseded.
pub async fn open(
    db: &DatabaseConnection,
    journal_id: i32,
    revision: i32,
    now: DateTime<Utc>,
    max_audits: i32,
) -> Result<Opened, DbErr> {
    for _ in 0..3 {
        let txn = crate::db::begin_write(db).await?;
        let Some(j) = journals::Entity::find_by_id(journal_id).one(&txn).await? else {
            return Ok(Opened::NoJournal);
        };
        if j.audit_count >= max_audits {
            return Ok(Opened::TooMany);
        }
        let open = audit_jobs::Entity::find()
            .filter(audit_jobs::Column::JournalId.eq(journal_id))
            .filter(audit_jobs::Column::State.is_in([QUEUED, RUNNING]))
            .one(&txn)
            .await?;
        if let Some(o) = open {
            if o.revision == revision {
                return Ok(Opened::Job(o.id));
            }
            let mut old: audit_jobs::ActiveModel = o.into();
            old.state = Set(SUPERSEDED.into());
            old.updated_at = Set(now);
            old.update(&txn).await?;
        }
        let inserted = audit_jobs::ActiveModel {
            journal_id: Set(journal_id),
            revision: Set(revision),
            state: Set(QUEUED.into()),
            attempts: Set(0),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await;
        match inserted {
            Ok(job) => {
                txn.commit().await?;
                return Ok(Opened::Job(job.id));
            }
            // Another request opened it first: join that one.
            Err(e) if unique_violation(&e) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(DbErr::Custom("the audit job could not be opened".into()))
}

/// Takes the job for `owner` until `until`, when nobody else holds a live lease on it.
pub async fn take(
    db: &DatabaseConnection,
    id: i32,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<bool, DbErr> {
    let res = audit_jobs::Entity::update_many()
        .col_expr(audit_jobs::Column::State, Expr::value(RUNNING))
        .col_expr(audit_jobs::Column::LeaseOwner, Expr::value(owner))
        .col_expr(audit_jobs::Column::LeaseUntil, Expr::value(until))
        .col_expr(
            audit_jobs::Column::Attempts,
            Expr::col(audit_jobs::Column::Attempts).add(1),
        )
        .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(now))
        .filter(audit_jobs::Column::Id.eq(id))
        .filter(audit_jobs::Column::State.is_in([QUEUED, RUNNING]))
        .filter(free_for(owner, now))
        .exec(db)
        .await?;
    Ok(res.rows_affected == 1)
}

fn free_for(owner: &str, now: DateTime<Utc>) -> Condition {
    Condition::any()
        .add(audit_jobs::Column::LeaseOwner.is_null())
        .add(audit_jobs::Column::LeaseOwner.eq(owner))
        .add(audit_jobs::Column::LeaseUntil.lt(now))
}

/// Open jobs this instance may run: never leased, leased by it (a restart under the same
/// name), or whose lease has expired.
pub async fn due(
    db: &DatabaseConnection,
    owner: &str,
    now: DateTime<Utc>,
    limit: u64,
) -> Result<Vec<audit_jobs::Model>, DbErr> {
    audit_jobs::Entity::find()
        .filter(audit_jobs::Column::State.is_in([QUEUED, RUNNING]))
        .filter(free_for(owner, now))
        .order_by_asc(audit_jobs::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

pub async fn get(db: &DatabaseConnection, id: i32) -> Result<Option<audit_jobs::Model>, DbErr> {
    audit_jobs::Entity::find_by_id(id).one(db).await
}

/// Ends a job the engine could not finish; the draft is untouched.
pub async fn fail(
    db: &DatabaseConnection,
    id: i32,
    owner: &str,
    error: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    audit_jobs::Entity::update_many()
        .col_expr(audit_jobs::Column::State, Expr::value(FAILED))
        .col_expr(audit_jobs::Column::Error, Expr::value(error))
        .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(now))
        .filter(audit_jobs::Column::Id.eq(id))
        .filter(audit_jobs::Column::State.eq(RUNNING))
        .filter(audit_jobs::Column::LeaseOwner.eq(owner))
        .exec(db)
        .await?;
    Ok(())
}

/// What the engine found, ready to store.
pub struct Finding {
    pub verdict: String,
    pub score: f64,
    pub summary: String,
    pub issues: serde_json::Value,
    pub engine: String,
    pub audited_at: DateTime<Utc>,
    pub holds_stock: Option<bool>,
}

/// How `finish` ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Finished {
    Done,
    /// The draft changed (or the job was taken over) while the engine ran; nothing applied.
    Superseded,
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

/// Stores the report and moves the draft, in one transaction, if the job is still this
/// owner's and the draft is still the revision the engine read.
pub async fn finish(
    db: &DatabaseConnection,
    job: &audit_jobs::Model,
    owner: &str,
    f: &Finding,
    meta_base: &str,
) -> Result<Finished, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let current = audit_jobs::Entity::find_by_id(job.id).one(&txn).await?;
    if !current.is_some_and(|c| c.state == RUNNING && c.lease_owner.as_deref() == Some(owner)) {
        return Ok(Finished::Superseded);
    }
    let journal = journals::Entity::find_by_id(job.journal_id)
        .one(&txn)
        .await?;
    let Some(journal) = journal
        .filter(|j| j.revision == job.revision && status::is(&j.status, JournalStatus::Draft))
    else {
        audit_jobs::Entity::update_many()
            .col_expr(audit_jobs::Column::State, Expr::value(SUPERSEDED))
            .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(f.audited_at))
            .filter(audit_jobs::Column::Id.eq(job.id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        return Ok(Finished::Superseded);
    };
    let report = audit_reports::ActiveModel {
        journal_id: Set(journal.id),
        verdict: Set(f.verdict.clone()),
        score: Set(f.score),
        summary: Set(f.summary.clone()),
        issues: Set(f.issues.clone()),
        engine: Set(f.engine.clone()),
        audited_at: Set(f.audited_at),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let status = JournalStatus::after_verdict(&f.verdict);
    let mut update = journals::Entity::update_many()
        .col_expr(journals::Column::Status, Expr::value(status.as_str()))
        .col_expr(
            journals::Column::AuditCount,
            Expr::col(journals::Column::AuditCount).add(1),
        )
        .col_expr(
            journals::Column::AuthorHoldsStock,
            Expr::value(f.holds_stock),
        )
        .col_expr(journals::Column::UpdatedAt, Expr::value(f.audited_at));
    if status == JournalStatus::Approved {
        let slug = match journal.slug.clone() {
            Some(s) => s,
            None => free_slug(&txn, &slugify(&journal.ticker, &journal.title)).await?,
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
                Expr::value(meta_url(meta_base, journal.id)),
            );
    }
    update
        .filter(journals::Column::Id.eq(journal.id))
        .filter(journals::Column::Revision.eq(job.revision))
        .exec(&txn)
        .await?;
    audit_jobs::Entity::update_many()
        .col_expr(audit_jobs::Column::State, Expr::value(DONE))
        .col_expr(audit_jobs::Column::ReportId, Expr::value(report.id))
        .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(f.audited_at))
        .filter(audit_jobs::Column::Id.eq(job.id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(Finished::Done)
}

/// The public address of a journal's registration file.
pub fn meta_url(meta_base: &str, id: i32) -> String {
    format!("{}/meta/{id}", meta_base.trim_end_matches('/'))
}

/// The newest finished job of a journal's revision, with its report.
pub async fn last_done(
    db: &DatabaseConnection,
    journal_id: i32,
    revision: i32,
) -> Result<Option<audit_reports::Model>, DbErr> {
    let job = audit_jobs::Entity::find()
        .filter(audit_jobs::Column::JournalId.eq(journal_id))
        .filter(audit_jobs::Column::Revision.eq(revision))
        .filter(audit_jobs::Column::State.eq(DONE))
        .order_by_desc(audit_jobs::Column::Id)
        .one(db)
        .await?;
    match job.and_then(|j| j.report_id) {
        Some(r) => audit_reports::Entity::find_by_id(r).one(db).await,
        None => Ok(None),
    }
}

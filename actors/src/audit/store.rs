//! Audit jobs and what a finished audit writes. A job is a row before the engine runs, for one
//! revision of its draft; a wallet has a bounded number of them open; the instance that runs
//! one holds a lease on it from its engine slot on, and drops it there, without the engine, when
//! the draft has moved on; the report, the draft's new status (and on approval its content hash,
//! slug and metaUrl) and the job's end are one transaction, applied only to the revision of the
//! draft the engine read.

use chrono::{DateTime, Utc};
use journal_market_domain::state::JobState;
use journal_market_domain::status::JournalStatus;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::{audit_jobs, audit_reports, journals};
use sea_orm::sea_query::{Expr, ExprTrait, Query};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, DatabaseTransaction,
    DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, SqlErr,
};

use crate::db::Lease;

fn unique_violation(e: &DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

#[derive(Debug, PartialEq, Eq)]
pub enum Opened {
    /// The job to wait for; `dropped`: a queued job of an older revision was ended for it,
    /// before any engine ran it.
    Job {
        id: i32,
        dropped: bool,
    },
    /// The draft has used up its audits.
    TooMany,
    NoJournal,
    /// The draft was saved again since the request read it.
    Stale,
    /// The author's other drafts hold `per_wallet` open jobs already.
    WalletFull,
}

/// Whether a wallet with `others` open jobs on its other drafts may open one more.
pub fn wallet_has_room(others: u64, per_wallet: usize) -> bool {
    others < u64::try_from(per_wallet.max(1)).unwrap_or(u64::MAX)
}

/// Open jobs of the wallet's drafts other than `journal_id`.
async fn open_elsewhere(
    txn: &DatabaseTransaction,
    wallet: Wallet,
    journal_id: i32,
) -> Result<u64, DbErr> {
    audit_jobs::Entity::find()
        .filter(audit_jobs::Column::State.is_in(JobState::OPEN))
        .filter(audit_jobs::Column::JournalId.ne(journal_id))
        .filter(
            audit_jobs::Column::JournalId.in_subquery(
                Query::select()
                    .column(journals::Column::Id)
                    .from(journals::Entity)
                    .and_where(journals::Column::AuthorWallet.eq(wallet))
                    .to_owned(),
            ),
        )
        .count(txn)
        .await
}

/// Opens (or joins) the job auditing `revision` of a journal. Audits that ended count against
/// `max_audits`; a job for an older revision is superseded (one open job per draft), and the
/// author's other drafts may hold at most `per_wallet` open jobs.
pub async fn open(
    db: &DatabaseConnection,
    journal_id: i32,
    revision: i32,
    now: DateTime<Utc>,
    max_audits: i32,
    per_wallet: usize,
) -> Result<Opened, DbErr> {
    for _ in 0..3 {
        let txn = crate::db::begin_write(db).await?;
        let Some(j) = journals::Entity::find_by_id(journal_id).one(&txn).await? else {
            return Ok(Opened::NoJournal);
        };
        if let Some(wallet) = j.author_wallet {
            // Two requests at once cannot both pass the per-wallet bound.
            crate::db::lock_key(&txn, &format!("audits:{wallet}")).await?;
        }
        // Read again under the lock: a save or an audit of this wallet may have come first.
        let Some(j) = journals::Entity::find_by_id(journal_id).one(&txn).await? else {
            return Ok(Opened::NoJournal);
        };
        // A request that read an older revision must not supersede the newer one's job.
        if j.revision != revision {
            return Ok(Opened::Stale);
        }
        if j.audit_count >= max_audits {
            return Ok(Opened::TooMany);
        }
        let open = audit_jobs::Entity::find()
            .filter(audit_jobs::Column::JournalId.eq(journal_id))
            .filter(audit_jobs::Column::State.is_in(JobState::OPEN))
            .one(&txn)
            .await?;
        if let Some(o) = &open
            && o.revision == revision
        {
            return Ok(Opened::Job {
                id: o.id,
                dropped: false,
            });
        }
        if let Some(wallet) = j.author_wallet
            && !wallet_has_room(open_elsewhere(&txn, wallet, journal_id).await?, per_wallet)
        {
            return Ok(Opened::WalletFull);
        }
        let mut dropped = false;
        if let Some(o) = open {
            // Queued: nobody took it, so no engine ever ran for it.
            dropped = o.state == JobState::Queued;
            let mut old: audit_jobs::ActiveModel = o.into();
            old.state = Set(JobState::Superseded);
            old.updated_at = Set(now);
            old.update(&txn).await?;
        }
        let inserted = audit_jobs::ActiveModel {
            journal_id: Set(journal_id),
            revision: Set(revision),
            state: Set(JobState::Queued),
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
                return Ok(Opened::Job {
                    id: job.id,
                    dropped,
                });
            }
            // Another request opened it first: join that one.
            Err(e) if unique_violation(&e) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(DbErr::Custom("the audit job could not be opened".into()))
}

/// Takes the job under `lease`, when nobody else holds a live lease on it.
pub async fn take(db: &DatabaseConnection, id: i32, lease: Lease<'_>) -> Result<bool, DbErr> {
    let open = audit_jobs::Entity::update_many()
        .col_expr(audit_jobs::Column::State, Expr::value(JobState::Running))
        .col_expr(
            audit_jobs::Column::Attempts,
            Expr::col(audit_jobs::Column::Attempts).add(1),
        )
        .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(lease.now))
        .filter(audit_jobs::Column::Id.eq(id))
        .filter(audit_jobs::Column::State.is_in(JobState::OPEN));
    lease.take(db, open, LEASE).await
}

/// Where a job's lease is kept.
const LEASE: (audit_jobs::Column, audit_jobs::Column) = (
    audit_jobs::Column::LeaseOwner,
    audit_jobs::Column::LeaseUntil,
);

/// Open jobs this instance may run: never leased, leased by it (a restart under the same
/// name), or whose lease has expired.
pub async fn due(
    db: &DatabaseConnection,
    owner: &str,
    now: DateTime<Utc>,
    limit: u64,
) -> Result<Vec<audit_jobs::Model>, DbErr> {
    audit_jobs::Entity::find()
        .filter(audit_jobs::Column::State.is_in(JobState::OPEN))
        .filter(Lease::free(owner, now, LEASE))
        .order_by_asc(audit_jobs::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

pub async fn get(db: &DatabaseConnection, id: i32) -> Result<Option<audit_jobs::Model>, DbErr> {
    audit_jobs::Entity::find_by_id(id).one(db).await
}

/// What a job does once it holds its engine slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    Run,
    /// The draft is gone, was saved again, or left the draft state: a report would describe
    /// text nobody asks about any more.
    Drop,
}

/// Whether the job of `job_revision` still stands for its draft, given the draft's current
/// `(revision, status)`, or `None` when the draft is gone.
pub fn go(job_revision: i32, draft: Option<(i32, JournalStatus)>) -> Go {
    match draft {
        Some((revision, status)) if revision == job_revision && status.auditable() => Go::Run,
        _ => Go::Drop,
    }
}

async fn draft_of(db: &DatabaseConnection, job: &audit_jobs::Model) -> Result<Go, DbErr> {
    let j = journals::Entity::find_by_id(job.journal_id).one(db).await?;
    Ok(go(job.revision, j.as_ref().map(|j| (j.revision, j.status))))
}

/// Ends `owner`'s running job as superseded (a no-op when it already ended).
pub async fn supersede(
    db: &DatabaseConnection,
    id: i32,
    owner: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    end_running(db, id, owner, JobState::Superseded, None, now).await
}

/// Run at the job's engine slot: ends it as superseded when its draft has moved on since it
/// was queued. Returns whether it was dropped.
pub async fn drop_if_stale(
    db: &DatabaseConnection,
    job: &audit_jobs::Model,
    owner: &str,
    now: DateTime<Utc>,
) -> Result<bool, DbErr> {
    if draft_of(db, job).await? == Go::Run {
        return Ok(false);
    }
    supersede(db, job.id, owner, now).await?;
    Ok(true)
}

/// While the engine runs: whether the job is still `owner`'s and its draft still the revision
/// it reads.
pub async fn still_current(
    db: &DatabaseConnection,
    job: &audit_jobs::Model,
    owner: &str,
) -> Result<bool, DbErr> {
    let held = get(db, job.id)
        .await?
        .is_some_and(|c| c.state == JobState::Running && c.lease_owner.as_deref() == Some(owner));
    Ok(held && draft_of(db, job).await? == Go::Run)
}

/// Ends a job the engine could not finish; the draft is untouched.
pub async fn fail(
    db: &DatabaseConnection,
    id: i32,
    owner: &str,
    error: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    end_running(db, id, owner, JobState::Failed, Some(error), now).await
}

/// Moves `owner`'s running job to `state` (with `error` when one is given); a job that already
/// ended, or is another instance's, is left as it is.
async fn end_running(
    db: &DatabaseConnection,
    id: i32,
    owner: &str,
    state: JobState,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    let mut end =
        audit_jobs::Entity::update_many().col_expr(audit_jobs::Column::State, Expr::value(state));
    if let Some(error) = error {
        end = end.col_expr(audit_jobs::Column::Error, Expr::value(error));
    }
    end.col_expr(audit_jobs::Column::UpdatedAt, Expr::value(now))
        .filter(audit_jobs::Column::Id.eq(id))
        .filter(audit_jobs::Column::State.eq(JobState::Running))
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
    if !current
        .is_some_and(|c| c.state == JobState::Running && c.lease_owner.as_deref() == Some(owner))
    {
        return Ok(Finished::Superseded);
    }
    let journal = journals::Entity::find_by_id(job.journal_id)
        .one(&txn)
        .await?;
    let Some(journal) =
        journal.filter(|j| j.revision == job.revision && j.status == JournalStatus::Draft)
    else {
        audit_jobs::Entity::update_many()
            .col_expr(audit_jobs::Column::State, Expr::value(JobState::Superseded))
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
    crate::journals::record_verdict(
        &txn,
        &journal,
        &crate::journals::Verdict {
            verdict: &f.verdict,
            holds_stock: f.holds_stock,
            at: f.audited_at,
            meta_base,
        },
    )
    .await?;
    audit_jobs::Entity::update_many()
        .col_expr(audit_jobs::Column::State, Expr::value(JobState::Done))
        .col_expr(audit_jobs::Column::ReportId, Expr::value(report.id))
        .col_expr(audit_jobs::Column::UpdatedAt, Expr::value(f.audited_at))
        .filter(audit_jobs::Column::Id.eq(job.id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(Finished::Done)
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
        .filter(audit_jobs::Column::State.eq(JobState::Done))
        .order_by_desc(audit_jobs::Column::Id)
        .one(db)
        .await?;
    match job.and_then(|j| j.report_id) {
        Some(r) => audit_reports::Entity::find_by_id(r).one(db).await,
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_runs_only_for_the_current_revision_of_a_draft() {
        assert_eq!(go(3, Some((3, JournalStatus::Draft))), Go::Run);
        // Saved again since it was queued.
        assert_eq!(go(3, Some((4, JournalStatus::Draft))), Go::Drop);
        // Audited already (another job of the same revision), or published.
        assert_eq!(go(3, Some((3, JournalStatus::Approved))), Go::Drop);
        assert_eq!(go(3, Some((3, JournalStatus::Live))), Go::Drop);
        assert_eq!(go(3, None), Go::Drop);
    }

    #[test]
    fn a_wallet_opens_at_most_its_bound() {
        assert!(wallet_has_room(0, 2));
        assert!(wallet_has_room(1, 2));
        assert!(!wallet_has_room(2, 2));
        assert!(!wallet_has_room(5, 2));
        // A bound of 0 would refuse every audit: it means 1.
        assert!(wallet_has_room(0, 0));
        assert!(!wallet_has_room(1, 0));
    }
}

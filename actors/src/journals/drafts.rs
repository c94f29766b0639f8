//! Imported swarm journals, person-written drafts, their edits and going live. Each rule that
//! must hold is checked in the transaction that writes: the daily draft quota, the author,
//! "live is final", one journal per token.

use chrono::{DateTime, Duration, Utc};
use journal_market_entity::{audit_reports, journal_citations, journals};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait,
    DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, SqlErr,
};

use journal_market_domain::status::JournalStatus;
use journal_market_domain::tx::TxHash;
use journal_market_domain::wallet::Wallet;

/// A validated draft, ready to store.
pub struct DraftRow<'a> {
    pub ticker: &'a str,
    pub title: &'a str,
    pub dek: &'a str,
    pub body: &'a str,
    pub price_units: i64,
    pub author_name: &'a str,
    /// Cited accession numbers in order of first citation.
    pub citations: &'a [String],
}

pub enum Created {
    Id(i32),
    /// The wallet created its quota of drafts in the last 24 hours; the next is possible then.
    Quota {
        retry_after_secs: u64,
    },
}

pub enum Updated {
    Saved,
    /// No such journal, or not the caller's.
    NotFound,
    Live,
}

pub enum WentLive {
    Live {
        slug: String,
    },
    /// The journal is no longer approved (edited, or live already).
    NotApproved,
    /// Another journal holds the token id or the transaction.
    TokenTaken,
}

fn unique_violation(e: &DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

async fn write_citations(
    txn: &impl ConnectionTrait,
    journal_id: i32,
    cited: &[String],
) -> Result<(), DbErr> {
    journal_citations::Entity::delete_many()
        .filter(journal_citations::Column::JournalId.eq(journal_id))
        .exec(txn)
        .await?;
    if cited.is_empty() {
        return Ok(());
    }
    journal_citations::Entity::insert_many(cited.iter().enumerate().map(|(i, a)| {
        journal_citations::ActiveModel {
            journal_id: Set(journal_id),
            position: Set(i as i32 + 1),
            accession: Set(a.clone()),
        }
    }))
    .exec(txn)
    .await?;
    Ok(())
}

/// An imported swarm journal's audit report.
pub struct Audit<'a> {
    pub verdict: &'a str,
    pub score: f64,
    pub summary: &'a str,
    pub issues: serde_json::Value,
    pub engine: &'a str,
    pub audited_at: DateTime<Utc>,
}

/// A swarm-written journal from an archive file: live at once, with its swarm audit.
pub struct SwarmJournal<'a> {
    pub slug: &'a str,
    pub ticker: &'a str,
    pub author_name: &'a str,
    pub title: &'a str,
    pub dek: &'a str,
    pub body: &'a str,
    pub price_units: i64,
    pub stock_price: Option<f64>,
    pub published_at: DateTime<Utc>,
    pub audit: Audit<'a>,
}

/// Inserts an imported swarm journal, its citations and its report (inside the import's
/// transaction).
pub async fn insert_swarm(db: &impl ConnectionTrait, j: &SwarmJournal<'_>) -> Result<i32, DbErr> {
    let hash = alloy::primitives::keccak256(j.body.as_bytes());
    let res = journals::Entity::insert(journals::ActiveModel {
        slug: Set(Some(j.slug.to_string())),
        ticker: Set(j.ticker.to_string()),
        swarm: Set(true),
        author_wallet: Set(None),
        author_name: Set(j.author_name.to_string()),
        title: Set(j.title.to_string()),
        dek: Set(j.dek.to_string()),
        body: Set(j.body.to_string()),
        price_units: Set(j.price_units),
        status: Set(JournalStatus::Live),
        content_hash: Set(Some(format!("{hash:#x}"))),
        stock_price_at_publication: Set(j.stock_price),
        audit_count: Set(0),
        published_at: Set(Some(j.published_at)),
        created_at: Set(std::cmp::min(j.audit.audited_at, j.published_at)),
        updated_at: Set(j.published_at),
        ..Default::default()
    })
    .exec(db)
    .await?;
    let id = res.last_insert_id;
    write_citations(db, id, &journal_market_domain::text::citations(j.body)).await?;
    audit_reports::Entity::insert(audit_reports::ActiveModel {
        journal_id: Set(id),
        verdict: Set(j.audit.verdict.to_string()),
        score: Set(j.audit.score),
        summary: Set(j.audit.summary.to_string()),
        issues: Set(j.audit.issues.clone()),
        engine: Set(j.audit.engine.to_string()),
        audited_at: Set(j.audit.audited_at),
        ..Default::default()
    })
    .exec_without_returning(db)
    .await?;
    Ok(id)
}

/// Seconds until the wallet may create a draft again, if its quota is used up.
pub fn quota_wait(created: &[DateTime<Utc>], per_day: usize, now: DateTime<Utc>) -> Option<u64> {
    let day = Duration::hours(24);
    let mut recent: Vec<DateTime<Utc>> =
        created.iter().copied().filter(|t| *t > now - day).collect();
    if recent.len() < per_day {
        return None;
    }
    recent.sort();
    // The draft whose 24 hours end first frees a place when they do.
    let frees = recent[recent.len() - per_day] + day;
    Some(std::cmp::max((frees - now).num_seconds(), 1) as u64)
}

pub async fn create_draft(
    db: &DatabaseConnection,
    wallet: Wallet,
    d: &DraftRow<'_>,
    now: DateTime<Utc>,
    per_day: u32,
) -> Result<Created, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    // Two saves at once cannot both pass the quota.
    crate::db::lock_key(&txn, &format!("drafts:{wallet}")).await?;
    let created: Vec<DateTime<Utc>> = journals::Entity::find()
        .filter(journals::Column::AuthorWallet.eq(wallet))
        .filter(journals::Column::Swarm.eq(false))
        .filter(journals::Column::CreatedAt.gt(now - Duration::hours(24)))
        .order_by_asc(journals::Column::CreatedAt)
        .all(&txn)
        .await?
        .into_iter()
        .map(|j| j.created_at)
        .collect();
    if let Some(retry_after_secs) = quota_wait(&created, per_day as usize, now) {
        return Ok(Created::Quota { retry_after_secs });
    }
    let row = journals::ActiveModel {
        ticker: Set(d.ticker.to_string()),
        swarm: Set(false),
        author_wallet: Set(Some(wallet)),
        author_name: Set(d.author_name.to_string()),
        title: Set(d.title.to_string()),
        dek: Set(d.dek.to_string()),
        body: Set(d.body.to_string()),
        price_units: Set(d.price_units),
        status: Set(JournalStatus::Draft),
        audit_count: Set(0),
        revision: Set(1),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    write_citations(&txn, row.id, d.citations).await?;
    txn.commit().await?;
    Ok(Created::Id(row.id))
}

/// Replaces the text of one of `wallet`'s journals that is not live, and resets it to `draft`
/// (a new revision: an audit of the old text no longer applies).
pub async fn update_draft(
    db: &DatabaseConnection,
    wallet: Wallet,
    id: i32,
    d: &DraftRow<'_>,
    now: DateTime<Utc>,
) -> Result<Updated, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    let Some(j) = journals::Entity::find_by_id(id).one(&txn).await? else {
        return Ok(Updated::NotFound);
    };
    if j.swarm || j.author_wallet != Some(wallet) {
        return Ok(Updated::NotFound);
    }
    if !j.status.editable() {
        return Ok(Updated::Live);
    }
    let res = journals::Entity::update_many()
        .col_expr(journals::Column::Ticker, Expr::value(d.ticker))
        .col_expr(journals::Column::Title, Expr::value(d.title))
        .col_expr(journals::Column::Dek, Expr::value(d.dek))
        .col_expr(journals::Column::Body, Expr::value(d.body))
        .col_expr(journals::Column::PriceUnits, Expr::value(d.price_units))
        .col_expr(journals::Column::AuthorName, Expr::value(d.author_name))
        .col_expr(journals::Column::Status, Expr::value(JournalStatus::Draft))
        .col_expr(journals::Column::ContentHash, Expr::value(None::<String>))
        .col_expr(
            journals::Column::Revision,
            Expr::col(journals::Column::Revision).add(1),
        )
        .col_expr(journals::Column::UpdatedAt, Expr::value(now))
        .filter(journals::Column::Id.eq(id))
        .filter(journals::Column::Status.ne(JournalStatus::Live))
        .exec(&txn)
        .await?;
    if res.rows_affected != 1 {
        return Ok(Updated::Live);
    }
    write_citations(&txn, id, d.citations).await?;
    txn.commit().await?;
    Ok(Updated::Saved)
}

/// What going live records.
pub struct Minted<'a> {
    pub token_id: &'a str,
    pub tx: TxHash,
    /// The block the registration was mined in (seen, not final yet).
    pub block: u64,
    pub stock_price: Option<f64>,
    pub now: DateTime<Utc>,
}

/// Moves an approved journal to `live` with its onchain identity, in one statement that
/// requires it still to be approved.
pub async fn go_live(db: &DatabaseConnection, id: i32, m: &Minted<'_>) -> Result<WentLive, DbErr> {
    let txn = crate::db::begin_write(db).await?;
    // A live journal taking a new registration keeps when it was published, and its price then.
    let before = journals::Entity::find_by_id(id).one(&txn).await?;
    let published_at = before
        .as_ref()
        .and_then(|j| j.published_at)
        .unwrap_or(m.now);
    let stock_price = before
        .and_then(|j| j.stock_price_at_publication)
        .or(m.stock_price);
    let res = journals::Entity::update_many()
        .col_expr(journals::Column::Status, Expr::value(JournalStatus::Live))
        .col_expr(journals::Column::TokenId, Expr::value(m.token_id))
        .col_expr(journals::Column::MintTx, Expr::value(m.tx))
        .col_expr(
            journals::Column::StockPriceAtPublication,
            Expr::value(stock_price),
        )
        .col_expr(journals::Column::MintBlock, Expr::value(m.block as i64))
        .col_expr(
            journals::Column::MintFinalAt,
            Expr::value(Option::<DateTime<Utc>>::None),
        )
        .col_expr(journals::Column::PublishedAt, Expr::value(published_at))
        .col_expr(journals::Column::UpdatedAt, Expr::value(m.now))
        .filter(journals::Column::Id.eq(id))
        // Approved, or live with the token a reorg took back (a new registration).
        .filter(
            Condition::any()
                .add(journals::Column::Status.eq(JournalStatus::Approved))
                .add(
                    Condition::all()
                        .add(journals::Column::Status.eq(JournalStatus::Live))
                        .add(journals::Column::TokenId.is_null()),
                ),
        )
        .exec(&txn)
        .await;
    match res {
        Ok(r) if r.rows_affected == 1 => {}
        Ok(_) => return Ok(WentLive::NotApproved),
        Err(e) if unique_violation(&e) => return Ok(WentLive::TokenTaken),
        Err(e) => return Err(e),
    }
    let slug = journals::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .and_then(|j| j.slug)
        .ok_or_else(|| DbErr::Custom(format!("journal {id} went live without a slug")))?;
    txn.commit().await?;
    Ok(WentLive::Live { slug })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quota_frees_a_place_when_the_oldest_draft_of_the_day_ages_out() {
        let now = Utc::now();
        let times: Vec<_> = (0..20)
            .map(|i| now - Duration::hours(23) + Duration::minutes(i))
            .collect();
        assert_eq!(quota_wait(&times[..19], 20, now), None);
        let wait = quota_wait(&times, 20, now).unwrap();
        assert_eq!(wait, 3600);
        // Drafts older than a day do not count.
        let old: Vec<_> = (0..20).map(|_| now - Duration::hours(25)).collect();
        assert_eq!(quota_wait(&old, 20, now), None);
    }
}

//! Journals as the public sees them. Derived figures (readers, votes, entries cited, covers,
//! reading time, signatures) are computed from the rows on every read, never stored.

use std::collections::HashMap;
use std::sync::Arc;

use journal_market_api::delivery;
use journal_market_api::{
    AuditIssue, AuditSummary, Author, Company, Covers, Evidence, JournalDetail, JournalListItem,
    Votes,
};
use journal_market_entity::Wallet;
use journal_market_entity::{
    audit_reports, companies, entries, journal_citations, journals, unlocks, votes,
};
use sea_orm::sea_query::{Asterisk, Expr, ExprTrait, Query, SelectStatement};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect,
};

use super::{entry_url, journal_url};
use crate::domain::money::{units_string, units_to_usdg};
use crate::domain::status::JournalStatus;
use crate::domain::text::{is_slug, read_minutes};
use crate::domain::time::{date, ts};

pub const LIST_LIMIT: u64 = 100;

#[derive(Default)]
struct Aggregates {
    cited: HashMap<i32, i64>,
    readers: HashMap<i32, i64>,
    votes: HashMap<i32, Votes>,
    audits: HashMap<i32, audit_reports::Model>,
    companies: HashMap<String, String>,
}

#[derive(FromQueryResult)]
struct CountRow {
    journal_id: i32,
    n: i64,
}

#[derive(FromQueryResult)]
struct VoteRow {
    journal_id: i32,
    up: i64,
    down: i64,
}

async fn aggregates(
    db: &impl ConnectionTrait,
    list: &[journals::Model],
) -> Result<Aggregates, DbErr> {
    let ids: Vec<i32> = list.iter().map(|j| j.id).collect();
    if ids.is_empty() {
        return Ok(Aggregates::default());
    }
    let mut tickers: Vec<&str> = list.iter().map(|j| j.ticker.as_str()).collect();
    tickers.sort_unstable();
    tickers.dedup();

    let cited = journal_citations::Entity::find()
        .select_only()
        .column(journal_citations::Column::JournalId)
        .column_as(Expr::col(journal_citations::Column::Position).count(), "n")
        .filter(journal_citations::Column::JournalId.is_in(ids.clone()))
        .group_by(journal_citations::Column::JournalId)
        .into_model::<CountRow>()
        .all(db)
        .await?;
    let (readers, votes) = tallies_of(db, &ids).await?;
    // The last report of each journal wins.
    let audits = audit_reports::Entity::find()
        .filter(audit_reports::Column::JournalId.is_in(ids))
        .order_by_asc(audit_reports::Column::AuditedAt)
        .order_by_asc(audit_reports::Column::Id)
        .all(db)
        .await?;
    let companies = companies::Entity::find()
        .filter(companies::Column::Ticker.is_in(tickers))
        .all(db)
        .await?;

    Ok(Aggregates {
        cited: cited.into_iter().map(|r| (r.journal_id, r.n)).collect(),
        readers,
        votes,
        audits: audits.into_iter().map(|a| (a.journal_id, a)).collect(),
        companies: companies.into_iter().map(|c| (c.ticker, c.name)).collect(),
    })
}

/// What purchases and votes change on a journal's public face.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tallies {
    pub readers: i64,
    pub votes: Votes,
}

/// The readers and votes of one journal now, in one statement of three counts (each over its
/// own index): every purchase empties a journal's tallies, so this is read about once per
/// purchase.
pub async fn tallies(db: &impl ConnectionTrait, id: i32) -> Result<Tallies, DbErr> {
    let count = |q: &mut SelectStatement| {
        let q = q.expr(Expr::col(Asterisk).count()).to_owned();
        Expr::SubQuery(None, Box::new(q.into()))
    };
    let votes = |sign: Expr| {
        count(
            Query::select()
                .from(votes::Entity)
                .and_where(votes::Column::JournalId.eq(id))
                .and_where(sign),
        )
    };
    let readers = count(
        Query::select()
            .from(unlocks::Entity)
            .and_where(unlocks::Column::JournalId.eq(id)),
    );
    let q = Query::select()
        .expr_as(readers, "readers")
        .expr_as(votes(Expr::col(votes::Column::Value).gt(0)), "up")
        .expr_as(votes(Expr::col(votes::Column::Value).lt(0)), "down")
        .to_owned();
    let row = db
        .query_one_raw(db.get_database_backend().build(&q))
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("the tallies' row".into()))?;
    Ok(Tallies {
        readers: row.try_get("", "readers")?,
        votes: Votes {
            up: row.try_get("", "up")?,
            down: row.try_get("", "down")?,
        },
    })
}

/// Readers and votes of each journal of `ids` that has any.
async fn tallies_of(
    db: &impl ConnectionTrait,
    ids: &[i32],
) -> Result<(HashMap<i32, i64>, HashMap<i32, Votes>), DbErr> {
    let readers = unlocks::Entity::find()
        .select_only()
        .column(unlocks::Column::JournalId)
        // COUNT(*): answered from `ix_unlocks_journal_id` alone, without reading each row.
        .column_as(Expr::col(Asterisk).count(), "n")
        .filter(unlocks::Column::JournalId.is_in(ids.iter().copied()))
        .group_by(unlocks::Column::JournalId)
        .into_model::<CountRow>()
        .all(db)
        .await?;
    let votes = votes::Entity::find()
        .select_only()
        .column(votes::Column::JournalId)
        .column_as(
            Expr::cust("SUM(CASE WHEN value > 0 THEN 1 ELSE 0 END)"),
            "up",
        )
        .column_as(
            Expr::cust("SUM(CASE WHEN value < 0 THEN 1 ELSE 0 END)"),
            "down",
        )
        .filter(votes::Column::JournalId.is_in(ids.iter().copied()))
        .group_by(votes::Column::JournalId)
        .into_model::<VoteRow>()
        .all(db)
        .await?;
    Ok((
        readers.into_iter().map(|r| (r.journal_id, r.n)).collect(),
        votes
            .into_iter()
            .map(|r| {
                (
                    r.journal_id,
                    Votes {
                        up: r.up,
                        down: r.down,
                    },
                )
            })
            .collect(),
    ))
}

fn list_item(j: &journals::Model, agg: &Aggregates, origin: &str) -> JournalListItem {
    let slug = j.slug.clone().unwrap_or_default();
    JournalListItem {
        journal_id: i64::from(j.id),
        url: journal_url(origin, &slug),
        slug,
        company: Company {
            ticker: j.ticker.clone(),
            name: agg.companies.get(&j.ticker).cloned().unwrap_or_default(),
        },
        title: j.title.clone(),
        preview: j.dek.clone(),
        author: Author {
            name: j.author_name.clone(),
            wallet: j.author_wallet.map(|w| w.checksum()),
            swarm: j.swarm,
        },
        price_usdg: units_to_usdg(j.price_units),
        price_units: units_string(j.price_units),
        signatures: if j.swarm { 1 } else { 2 },
        read_minutes: read_minutes(&j.body),
        entries_cited: agg.cited.get(&j.id).copied().unwrap_or(0),
        audit_score: agg.audits.get(&j.id).map(|a| a.score).unwrap_or(0.0),
        readers: agg.readers.get(&j.id).copied().unwrap_or(0),
        votes: agg.votes.get(&j.id).copied().unwrap_or_default(),
        published_at: j.published_at.as_ref().map(ts).unwrap_or_default(),
    }
}

/// Live journals, newest first, at most 100, optionally of one company.
pub async fn list_live(
    db: &impl ConnectionTrait,
    origin: &str,
    company: Option<&str>,
) -> Result<Vec<JournalListItem>, DbErr> {
    let mut q = journals::Entity::find().filter(journals::Column::Status.eq(JournalStatus::Live));
    if let Some(t) = company {
        q = q.filter(journals::Column::Ticker.eq(t));
    }
    let list = q
        .order_by_desc(journals::Column::PublishedAt)
        .order_by_desc(journals::Column::Id)
        .limit(LIST_LIMIT)
        .all(db)
        .await?;
    let agg = aggregates(db, &list).await?;
    Ok(list.iter().map(|j| list_item(j, &agg, origin)).collect())
}

/// A live journal's public detail (`unlocked` false, `body` null) and its text, which the caller
/// reveals only to owners.
#[derive(Clone)]
pub struct LiveJournal {
    pub detail: JournalDetail,
    pub id: i32,
    pub swarm: bool,
    pub price_units: i64,
    pub body: String,
    pub author_wallet: Option<Wallet>,
    pub token_id: Option<String>,
    /// The text as HTML, rendered once per cached journal rather than at each paid answer.
    pub html: String,
    /// Each sentence of record of the text, its judgement and the entry sentence it rests on:
    /// shown to those who may read the text.
    pub support: Arc<Vec<journal_market_audit::Support>>,
    /// What a delivery receipt binds besides the answer: the public audit summary's hash and
    /// the cited sources' (`journal_market_api::delivery`).
    pub audit_hash: String,
    pub sources_hash: String,
}

/// How the text rests on its entries: the audit's support map of `sub`, each sentence of record
/// with its judgement and the entry sentence it rests on (what the evidence's quotes are read
/// from). Pure, but a few ms on a long journal, so read off the worker thread and once per
/// content (a journal's detail is read again each time its cache entry expires; its text and
/// entries rarely change).
async fn support_of(
    sub: journal_market_audit::Submission,
) -> Arc<Vec<journal_market_audit::Support>> {
    use std::hash::{BuildHasher, RandomState};
    use std::sync::{LazyLock, Mutex};
    type Support = Arc<Vec<journal_market_audit::Support>>;
    /// Contents remembered at most (a few KB each): beyond, forgotten wholesale.
    const MAX: usize = 512;
    static READ: LazyLock<Mutex<HashMap<u64, Support>>> = LazyLock::new(Default::default);
    // Keyed by a hash with this process's secret keys, so no author can write a journal whose
    // key is another's.
    static KEYS: LazyLock<RandomState> = LazyLock::new(RandomState::new);
    let key = KEYS.hash_one(&sub);
    if let Some(found) = READ.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return found;
    }
    let found: Support =
        match tokio::task::spawn_blocking(move || journal_market_audit::builtin::support(&sub))
            .await
        {
            Ok(found) => Arc::new(found),
            Err(e) => {
                tracing::warn!(error = %e, "the text's support could not be read");
                return Arc::default();
            }
        };
    if let Ok(mut m) = READ.lock() {
        if m.len() >= MAX {
            m.clear();
        }
        m.insert(key, found.clone());
    }
    found
}

/// A live journal by slug, or by id when the key is all digits (slugs always hold a letter).
/// What a journal's key (`/journals/{key}`, `/journal/{key}`, `/journals/{key}/text`) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JournalKey<'a> {
    Id(i32),
    Slug(&'a str),
}

/// A key of digits is an id only as the id is written (`7`, never `07` or `0007`); any other
/// key is a slug or nothing. So each journal has one address per kind of key, and nothing a
/// client makes up (leading zeros) becomes another copy of it in a cache.
pub fn journal_key(key: &str) -> Option<JournalKey<'_>> {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
        return match key.parse::<i32>() {
            Ok(id) if id.to_string() == key => Some(JournalKey::Id(id)),
            _ => None,
        };
    }
    is_slug(key).then_some(JournalKey::Slug(key))
}

pub async fn find_live(
    db: &impl ConnectionTrait,
    origin: &str,
    key: &str,
) -> Result<Option<LiveJournal>, DbErr> {
    let mut q = journals::Entity::find().filter(journals::Column::Status.eq(JournalStatus::Live));
    // A key that is neither an id nor a slug cannot match; it never reaches the database.
    q = match journal_key(key) {
        Some(JournalKey::Id(id)) => q.filter(journals::Column::Id.eq(id)),
        Some(JournalKey::Slug(slug)) => q.filter(journals::Column::Slug.eq(slug)),
        None => return Ok(None),
    };
    let Some(j) = q.one(db).await? else {
        return Ok(None);
    };
    let agg = aggregates(db, std::slice::from_ref(&j)).await?;
    let item = list_item(&j, &agg, origin);

    let cites = journal_citations::Entity::find()
        .filter(journal_citations::Column::JournalId.eq(j.id))
        .order_by_asc(journal_citations::Column::Position)
        .all(db)
        .await?;
    let accessions: Vec<String> = cites.iter().map(|c| c.accession.clone()).collect();
    let cited: HashMap<String, entries::Model> = entries::Entity::find()
        .filter(entries::Column::Accession.is_in(accessions))
        .all(db)
        .await?
        .into_iter()
        .map(|e| (e.accession.clone(), e))
        .collect();
    // The lines of each entry the journal's claims restate (an extra field: if the reading
    // fails the detail goes without them).
    let mut sources: Vec<_> = cited
        .values()
        .cloned()
        .map(journal_market_actors::audit::source)
        .collect();
    sources.sort_by(|a, b| a.accession.cmp(&b.accession));
    let support = support_of(journal_market_audit::Submission {
        company: journal_market_actors::audit::company_name(db, &j.ticker).await?,
        ticker: j.ticker.clone(),
        title: j.title.clone(),
        dek: j.dek.clone(),
        body: j.body.clone(),
        sources,
    })
    .await;
    let mut quotes: HashMap<String, Vec<String>> =
        journal_market_audit::evidence::of_support(&j.body, &support)
            .into_iter()
            .map(|e| (e.accession, e.quotes))
            .collect();
    let evidence: Vec<Evidence> = cites
        .iter()
        .filter_map(|c| cited.get(&c.accession).map(|e| (c, e)))
        .map(|(c, e)| Evidence {
            n: i64::from(c.position),
            id: e.accession.clone(),
            date: date(&e.date_of_record),
            kind: e.kind.clone(),
            title: e.title.clone(),
            source: e.source_name.clone(),
            source_url: e.canonical_url.clone(),
            url: entry_url(origin, &e.accession),
            quotes: quotes.remove(&e.accession).unwrap_or_default(),
        })
        .collect();
    let covers = Covers {
        from: cited
            .values()
            .map(|e| e.date_of_record)
            .min()
            .map(|d| date(&d)),
        to: cited
            .values()
            .map(|e| e.date_of_record)
            .max()
            .map(|d| date(&d)),
    };
    let audit = match agg.audits.get(&j.id) {
        Some(a) => AuditSummary {
            verdict: a.verdict.clone(),
            score: a.score,
            summary: a.summary.clone(),
            issues: serde_json::from_value::<Vec<AuditIssue>>(a.issues.clone()).unwrap_or_default(),
        },
        None => AuditSummary {
            verdict: "none".into(),
            score: 0.0,
            summary: String::new(),
            issues: Vec::new(),
        },
    };
    let sources_hash = delivery::sources_hash(
        cites
            .iter()
            .filter_map(|c| cited.get(&c.accession))
            .map(|e| (e.accession.as_str(), e.says.as_str())),
    );
    let audit_hash = delivery::audit_hash(&audit);
    let detail = JournalDetail {
        item,
        audit,
        evidence,
        covers,
        stock_token_price_at_publication: j.stock_price_at_publication,
        author_holds_stock_token: if j.swarm { None } else { j.author_holds_stock },
        token_id: j.token_id.as_deref().and_then(|t| t.parse().ok()),
        mint_tx: j.mint_tx.map(|t| t.to_string()),
        token_final: j.token_id.is_some() && j.mint_final_at.is_some(),
        content_hash: j.content_hash.clone(),
        unlocked: false,
        body: None,
    };
    Ok(Some(LiveJournal {
        detail,
        id: j.id,
        swarm: j.swarm,
        price_units: j.price_units,
        html: crate::domain::render::to_html(&j.body, origin),
        body: j.body,
        author_wallet: j.author_wallet,
        token_id: j.token_id,
        support,
        audit_hash,
        sources_hash,
    }))
}

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn numeric_keys_are_canonical() {
        assert_eq!(journal_key("7"), Some(JournalKey::Id(7)));
        assert_eq!(journal_key("0007"), None);
        assert_eq!(journal_key("07"), None);
        assert_eq!(journal_key("0"), Some(JournalKey::Id(0)));
        assert_eq!(journal_key("99999999999"), None);
        assert_eq!(journal_key("nvda-x"), Some(JournalKey::Slug("nvda-x")));
        assert_eq!(journal_key("NVDA-x"), None);
        assert_eq!(journal_key(""), None);
    }
}

//! The records written in one transaction, in chunks, skipping keys that exist.

use std::collections::HashMap;

use indicatif::ProgressBar;
use journal_market_entity::{companies, entries, sitting_logs, sittings, stories};
use sea_orm::{ActiveValue::Set, ConnectionTrait, DbErr, EntityTrait};

use super::records::{ImportFile, ImportSummary, JournalRec};
use super::validate::Existing;
use crate::domain::money;
use journal_market_actors::journals as store;

/// Rows per INSERT statement (well under SQLite's and PostgreSQL's bind-variable limits).
const CHUNK: usize = 200;

pub(super) async fn write_all<C: ConnectionTrait>(
    db: &C,
    file: &ImportFile,
    have: &Existing,
    bar: &ProgressBar,
) -> Result<ImportSummary, DbErr> {
    let mut sum = ImportSummary::default();

    let new: Vec<companies::ActiveModel> = file
        .companies
        .iter()
        .filter(|c| !have.tickers.contains(&c.ticker))
        .map(|c| companies::ActiveModel {
            ticker: Set(c.ticker.clone()),
            name: Set(c.name.clone()),
        })
        .collect();
    sum.companies = new.len();
    insert_chunks(db, new, bar).await?;

    let new: Vec<stories::ActiveModel> = file
        .stories
        .iter()
        .filter(|s| !have.stories.contains_key(&s.slug))
        .map(|s| stories::ActiveModel {
            slug: Set(s.slug.clone()),
            ticker: Set(s.ticker.clone()),
            title: Set(s.title.clone()),
            ..Default::default()
        })
        .collect();
    sum.stories = new.len();
    insert_chunks(db, new, bar).await?;

    for s in file
        .sittings
        .iter()
        .filter(|s| !have.sittings.contains(&s.id))
    {
        sittings::Entity::insert(sittings::ActiveModel {
            id: Set(s.id),
            date: Set(s.date),
            started_at: Set(s.started_at),
            finished_at: Set(s.finished_at),
            note: Set(s.note.clone()),
            leads: Set(s.leads),
            filed: Set(s.filed),
            spend_usd: Set(s.spend_usd),
        })
        .exec_without_returning(db)
        .await?;
        let log: Vec<sitting_logs::ActiveModel> = s
            .log
            .iter()
            .map(|l| sitting_logs::ActiveModel {
                sitting_id: Set(s.id),
                ts: Set(l.ts),
                desk: Set(l.desk.clone()),
                level: Set(l.level.clone()),
                message: Set(l.message.clone()),
                ..Default::default()
            })
            .collect();
        insert_chunks(db, log, &ProgressBar::hidden()).await?;
        sum.sittings += 1;
        bar.inc(1);
    }

    let story_ids: HashMap<String, i32> = stories::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.slug, s.id))
        .collect();
    let new: Vec<entries::ActiveModel> = file
        .entries
        .iter()
        .filter(|e| !have.entries.contains(&e.id))
        .map(|e| entries::ActiveModel {
            accession: Set(e.id.clone()),
            ticker: Set(e.ticker.clone()),
            date_of_record: Set(e.date_of_record),
            kind: Set(e.kind.clone()),
            title: Set(e.title.clone()),
            summary: Set(e.summary.clone()),
            source_name: Set(e.source.name.clone()),
            canonical_url: Set(e.source.url.clone()),
            says: Set(e.source.says.clone()),
            verified: Set(e.verified),
            merged: Set(e.merged),
            story_id: Set(e.story.as_ref().and_then(|s| story_ids.get(s).copied())),
            story_seq: Set(e.story_seq),
            sitting_id: Set(e.sitting),
            filed_at: Set(e.filed_at),
        })
        .collect();
    sum.entries = new.len();
    insert_chunks(db, new, bar).await?;

    for j in file
        .journals
        .iter()
        .filter(|j| !have.journals.contains(&j.slug))
    {
        write_journal(db, j).await?;
        sum.journals += 1;
        bar.inc(1);
    }
    sum.skipped = file.companies.len()
        + file.stories.len()
        + file.sittings.len()
        + file.entries.len()
        + file.journals.len()
        - sum.written();
    Ok(sum)
}

async fn write_journal<C: ConnectionTrait>(db: &C, j: &JournalRec) -> Result<(), DbErr> {
    // Validated before the transaction began.
    let price_units = money::parse_usdg(&j.price).map_err(DbErr::Custom)?;
    let issues = serde_json::to_value(&j.audit.issues).map_err(|e| DbErr::Custom(e.to_string()))?;
    store::insert_swarm(
        db,
        &store::SwarmJournal {
            slug: &j.slug,
            ticker: &j.ticker,
            author_name: &j.author_name,
            title: &j.title,
            dek: &j.dek,
            body: &j.body,
            price_units,
            stock_price: j.stock_token_price_at_publication,
            published_at: j.published_at,
            audit: store::Audit {
                verdict: &j.audit.verdict,
                score: j.audit.score,
                summary: &j.audit.summary,
                issues,
                engine: &j.audit.engine,
                audited_at: j.audit.audited_at,
            },
        },
    )
    .await?;
    Ok(())
}

async fn insert_chunks<C, A>(db: &C, rows: Vec<A>, bar: &ProgressBar) -> Result<(), DbErr>
where
    C: ConnectionTrait,
    A: sea_orm::ActiveModelTrait + Send,
{
    let mut rows = rows.into_iter().peekable();
    while rows.peek().is_some() {
        let chunk: Vec<A> = rows.by_ref().take(CHUNK).collect();
        let n = chunk.len() as u64;
        <A::Entity as EntityTrait>::insert_many(chunk)
            .exec_without_returning(db)
            .await?;
        bar.inc(n);
    }
    Ok(())
}

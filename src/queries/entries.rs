//! Archive entries.

use std::collections::HashMap;

use journal_market_api::{Company, EntryDetail, EntryRow, EntrySearchRow, EntrySource};
use journal_market_entity::{companies, entries, stories};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::{desk_of, entry_url};
use crate::domain::accession::is_accession;
use crate::domain::time::{date, ts};

pub const NEWEST_LIMIT: u64 = 50;
pub const SEARCH_LIMIT: u64 = 80;

/// The 50 newest entries by date of record (ties: the later accession number first).
pub async fn newest(db: &impl ConnectionTrait) -> Result<Vec<EntryRow>, DbErr> {
    let rows = entries::Entity::find()
        .order_by_desc(entries::Column::DateOfRecord)
        .order_by_desc(entries::Column::Accession)
        .limit(NEWEST_LIMIT)
        .all(db)
        .await?;
    let story_ids: Vec<i32> = rows.iter().filter_map(|r| r.story_id).collect();
    let stories: HashMap<i32, stories::Model> = stories::Entity::find()
        .filter(stories::Column::Id.is_in(story_ids))
        .all(db)
        .await?
        .into_iter()
        .map(|s| (s.id, s))
        .collect();
    Ok(rows
        .into_iter()
        .map(|e| {
            let story = e.story_id.and_then(|id| stories.get(&id));
            EntryRow {
                desk: desk_of(&e.kind).to_string(),
                stamp: if e.verified { "verified" } else { "filed" }.to_string(),
                merged: u8::from(e.merged),
                story_title: story.map(|s| s.title.clone()),
                story_slug: story.map(|s| s.slug.clone()),
                story_seq: e.story_seq,
                sitting_id: e.sitting_id,
                date_of_record: date(&e.date_of_record),
                filed_at: ts(&e.filed_at),
                id: e.accession,
                ticker: e.ticker,
                kind: e.kind,
                title: e.title,
                summary: e.summary,
                source_name: e.source_name,
                canonical_url: e.canonical_url,
            }
        })
        .collect())
}

pub async fn detail(
    db: &impl ConnectionTrait,
    origin: &str,
    accession: &str,
) -> Result<Option<EntryDetail>, DbErr> {
    if !is_accession(accession) {
        return Ok(None);
    }
    let Some(e) = entries::Entity::find_by_id(accession.to_string())
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let company = companies::Entity::find_by_id(e.ticker.clone())
        .one(db)
        .await?;
    let story = match e.story_id {
        Some(id) => stories::Entity::find_by_id(id).one(db).await?,
        None => None,
    };
    Ok(Some(EntryDetail {
        url: entry_url(origin, &e.accession),
        company: Company {
            name: company.map(|c| c.name).unwrap_or_default(),
            ticker: e.ticker,
        },
        date_of_record: date(&e.date_of_record),
        desk: desk_of(&e.kind).to_string(),
        source: EntrySource {
            name: e.source_name,
            url: e.canonical_url,
            says: e.says,
        },
        verified: e.verified,
        story: story.map(|s| s.title),
        filed_at: ts(&e.filed_at),
        id: e.accession,
        kind: e.kind,
        title: e.title,
        summary: e.summary,
    }))
}

pub async fn company_exists(db: &impl ConnectionTrait, ticker: &str) -> Result<bool, DbErr> {
    Ok(companies::Entity::find_by_id(ticker.to_string())
        .one(db)
        .await?
        .is_some())
}

/// Up to 80 entries of one company, newest first.
pub async fn search(db: &impl ConnectionTrait, ticker: &str) -> Result<Vec<EntrySearchRow>, DbErr> {
    let rows = entries::Entity::find()
        .filter(entries::Column::Ticker.eq(ticker))
        .order_by_desc(entries::Column::DateOfRecord)
        .order_by_desc(entries::Column::Accession)
        .limit(SEARCH_LIMIT)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|e| EntrySearchRow {
            date_of_record: date(&e.date_of_record),
            id: e.accession,
            kind: e.kind,
            title: e.title,
            summary: e.summary,
            source_name: e.source_name,
        })
        .collect())
}

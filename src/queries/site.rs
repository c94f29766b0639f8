//! What only the site's pages read: the companies, and every public address for the sitemap.

use journal_market_api::Company;
use journal_market_entity::{companies, entries, journals};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use crate::domain::status::JournalStatus;
use crate::domain::time::{date, ts};

/// A sitemap holds at most 50,000 addresses (sitemaps.org); the rest would need an index.
pub const SITEMAP_LIMIT: u64 = 45_000;

/// Every company of the archive, by ticker.
pub async fn companies(db: &impl ConnectionTrait) -> Result<Vec<Company>, DbErr> {
    Ok(companies::Entity::find()
        .order_by_asc(companies::Column::Ticker)
        .all(db)
        .await?
        .into_iter()
        .map(|c| Company {
            ticker: c.ticker,
            name: c.name,
        })
        .collect())
}

/// The public pages' keys and when each last changed (RFC 3339 or a date).
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct SiteMap {
    pub tickers: Vec<String>,
    pub journals: Vec<(String, String)>,
    pub entries: Vec<(String, String)>,
}

pub async fn sitemap(db: &impl ConnectionTrait) -> Result<SiteMap, DbErr> {
    let tickers = companies::Entity::find()
        .select_only()
        .column(companies::Column::Ticker)
        .order_by_asc(companies::Column::Ticker)
        .into_tuple::<String>()
        .all(db)
        .await?;
    let journals = journals::Entity::find()
        .select_only()
        .column(journals::Column::Slug)
        .column(journals::Column::UpdatedAt)
        .filter(journals::Column::Status.eq(JournalStatus::Live))
        .order_by_desc(journals::Column::PublishedAt)
        .order_by_desc(journals::Column::Id)
        .limit(SITEMAP_LIMIT / 2)
        .into_tuple::<(Option<String>, chrono::DateTime<chrono::Utc>)>()
        .all(db)
        .await?
        .into_iter()
        .filter_map(|(slug, at)| slug.map(|s| (s, ts(&at))))
        .collect();
    let entries = entries::Entity::find()
        .select_only()
        .column(entries::Column::Accession)
        .column(entries::Column::DateOfRecord)
        .order_by_desc(entries::Column::DateOfRecord)
        .order_by_desc(entries::Column::Accession)
        .limit(SITEMAP_LIMIT / 2)
        .into_tuple::<(String, chrono::NaiveDate)>()
        .all(db)
        .await?
        .into_iter()
        .map(|(a, d)| (a, date(&d)))
        .collect();
    Ok(SiteMap {
        tickers,
        journals,
        entries,
    })
}

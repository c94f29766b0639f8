//! The public reads: journals on sale, the archive and the swarm's log, through the public
//! caches. Lists are kept serialized, as the bytes an answer sends.

use std::sync::Arc;

use actix_web::web::Bytes;
use journal_market_actors::db::Lanes;
use journal_market_api::{
    Company, EntryDetail, EntryRow, EntrySearchRow, JournalList, JournalListItem, SwarmRun,
};

use crate::cache::PublicCaches;
use crate::domain::accession::is_ticker;
use crate::error::{DomainError, DomainResult};
use crate::queries::journals::{JournalKey, LiveJournal};
use crate::queries::site::SiteMap;
use crate::queries::{entries, journals, site, swarm};
use crate::site::Site;

#[derive(Clone)]
pub struct Catalog {
    /// Reads on lanes of their own (on SQLite), as they are on every journal's page.
    db: Lanes,
    site: Site,
    caches: Arc<PublicCaches>,
}

fn bytes<T: serde::Serialize>(v: &T) -> DomainResult<Bytes> {
    Ok(Bytes::from(serde_json::to_vec(v)?))
}

impl Catalog {
    pub fn new(db: Lanes, site: Site, caches: Arc<PublicCaches>) -> Self {
        Catalog { db, site, caches }
    }

    /// A public JSON list by `key`: from the cache, or read once (`read`) and kept serialized.
    async fn list<T, E, Fut>(&self, key: &str, read: impl FnOnce() -> Fut) -> DomainResult<Bytes>
    where
        T: serde::Serialize,
        Fut: Future<Output = Result<T, E>>,
        DomainError: From<E>,
    {
        self.caches
            .lists
            .get_or_try(key, || async { bytes(&read().await?) })
            .await
    }

    /// A live journal by slug or id, through the public cache, which keeps one copy per
    /// journal (by id) and a slug's id: a key that is not canonical (`0007`) is not found.
    pub async fn live(&self, key: &str) -> DomainResult<Arc<LiveJournal>> {
        let not_found =
            || DomainError::NotFound(format!("no published journal has the slug or id {key:?}"));
        let id = match journals::journal_key(key).ok_or_else(not_found)? {
            JournalKey::Id(id) => id,
            JournalKey::Slug(slug) => {
                self.caches
                    .slugs
                    .get_or_try(slug, || async {
                        // The journal read for its id is kept too (if nothing was written since):
                        // the journals cache's miss.
                        let journals = &self.caches.journals;
                        journals.stats().miss();
                        let generation = journals.generation();
                        let j = journals::find_live(&self.db, self.site.origin(), slug)
                            .await?
                            .ok_or_else(not_found)?;
                        let id = j.id;
                        journals.put(id, generation, Arc::new(j));
                        Ok::<_, DomainError>(id)
                    })
                    .await?
            }
        };
        self.caches
            .journals
            .get_or_try(&id, || async {
                journals::find_live(&self.db, self.site.origin(), &id.to_string())
                    .await?
                    .map(Arc::new)
                    .ok_or_else(not_found)
            })
            .await
    }

    /// The live journal under `key` as readers see it: [`Catalog::live`] with its readers and
    /// votes as of the last purchase or vote (a cached journal keeps the counts it was built
    /// with; purchases empty only the counts).
    pub async fn shown(&self, key: &str) -> DomainResult<Arc<LiveJournal>> {
        self.with_tallies(self.live(key).await?).await
    }

    /// `live` with its readers and votes as of now (see [`Catalog::shown`]).
    pub async fn with_tallies(&self, live: Arc<LiveJournal>) -> DomainResult<Arc<LiveJournal>> {
        let id = live.id;
        let now = self
            .caches
            .tallies
            .get_or_try(&id, || async { journals::tallies(&self.db, id).await })
            .await?;
        let item = &live.detail.item;
        if item.readers == now.readers && item.votes == now.votes {
            return Ok(live);
        }
        let mut fresh = (*live).clone();
        fresh.detail.item.readers = now.readers;
        fresh.detail.item.votes = now.votes;
        Ok(Arc::new(fresh))
    }

    /// `j`'s detail as everyone gets it (no paid text).
    pub fn public_detail(&self, j: &LiveJournal) -> DomainResult<Bytes> {
        bytes(&j.detail)
    }

    /// `j`'s detail as a wallet that reads it gets it (the paid text in), serialized once per
    /// journal until its counts change.
    pub async fn unlocked_detail(&self, j: &LiveJournal) -> DomainResult<Bytes> {
        self.caches
            .unlocked
            .get_or_try(&j.id, || async {
                let mut detail = j.detail.clone();
                detail.unlocked = true;
                detail.body = Some(j.body.clone());
                bytes(&detail)
            })
            .await
    }

    /// A ticker filter as the lists take it: any case (tickers are stored upper-case), and a
    /// filter on a company the archive does not know is an empty list, not an error. Only a
    /// value that cannot be a ticker is refused.
    fn ticker_filter(name: &str, value: &str) -> DomainResult<String> {
        let upper = value.trim().to_ascii_uppercase();
        if !is_ticker(&upper) {
            return Err(DomainError::BadRequest(format!(
                "the query parameter {name} must be a ticker such as NVDA (1 to 10 letters or digits)"
            )));
        }
        Ok(upper)
    }

    /// `GET /journals`, optionally of one company.
    pub async fn journals(&self, company: Option<&str>) -> DomainResult<Bytes> {
        let company = match company {
            Some(c) => Some(Self::ticker_filter("company", c)?),
            None => None,
        };
        let key = format!("journals?{}", company.as_deref().unwrap_or(""));
        self.list(&key, || async {
            let journals =
                journals::list_live(&self.db, self.site.origin(), company.as_deref()).await?;
            Ok::<_, sea_orm::DbErr>(JournalList { journals })
        })
        .await
    }

    /// `GET /entries.json`: the newest entries.
    pub async fn newest_entries(&self) -> DomainResult<Bytes> {
        self.list("entries.json", || entries::newest(&self.db))
            .await
    }

    /// `GET /entries/search`: a company's entries.
    pub async fn search(&self, ticker: &str) -> DomainResult<Bytes> {
        let ticker = Self::ticker_filter("ticker", ticker)?;
        self.list(&format!("search?{ticker}"), || {
            entries::search(&self.db, &ticker)
        })
        .await
    }

    /// `GET /entries/{accession}`.
    pub async fn entry(&self, accession: &str) -> DomainResult<EntryDetail> {
        entries::detail(&self.db, self.site.origin(), accession)
            .await?
            .ok_or_else(|| {
                DomainError::NotFound(format!(
                    "no archive entry has the accession number {accession:?}"
                ))
            })
    }

    /// `GET /swarm.json`: the latest finished sitting and its log.
    pub async fn swarm(&self) -> DomainResult<Bytes> {
        self.list("swarm.json", || swarm::latest(&self.db)).await
    }

    /// The journals of [`Catalog::journals`], typed (the site's pages).
    pub async fn journal_items(&self, company: Option<&str>) -> DomainResult<Vec<JournalListItem>> {
        let list: JournalList = serde_json::from_slice(&self.journals(company).await?)?;
        Ok(list.journals)
    }

    /// The rows of [`Catalog::newest_entries`], typed.
    pub async fn newest_entry_rows(&self) -> DomainResult<Vec<EntryRow>> {
        Ok(serde_json::from_slice(&self.newest_entries().await?)?)
    }

    /// The rows of [`Catalog::search`], typed.
    pub async fn search_rows(&self, ticker: &str) -> DomainResult<Vec<EntrySearchRow>> {
        Ok(serde_json::from_slice(&self.search(ticker).await?)?)
    }

    /// The run of [`Catalog::swarm`], typed.
    pub async fn swarm_run(&self) -> DomainResult<SwarmRun> {
        Ok(serde_json::from_slice(&self.swarm().await?)?)
    }

    /// Every company of the archive, by ticker.
    pub async fn companies(&self) -> DomainResult<Vec<Company>> {
        let bytes = self.list("companies", || site::companies(&self.db)).await?;
        Ok(serde_json::from_slice(&bytes)?)
    }

    /// A company by ticker in any case.
    pub async fn company(&self, ticker: &str) -> DomainResult<Company> {
        let upper = ticker.to_ascii_uppercase();
        self.companies()
            .await?
            .into_iter()
            .find(|c| c.ticker == upper)
            .ok_or_else(|| DomainError::NotFound(format!("the archive has no company {ticker:?}")))
    }

    /// Every public page's key, for the sitemap.
    pub async fn sitemap(&self) -> DomainResult<SiteMap> {
        Ok(site::sitemap(&self.db).await?)
    }

    pub fn caches(&self) -> &PublicCaches {
        &self.caches
    }

    /// The public caches, for a service whose writes public reads show.
    pub fn caches_arc(&self) -> Arc<PublicCaches> {
        self.caches.clone()
    }
}

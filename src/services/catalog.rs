//! The public reads: journals on sale, the archive and the swarm's log, through the public
//! caches. Lists are kept serialized, as the bytes an answer sends.

use std::sync::Arc;

use actix_web::web::Bytes;
use alloy::primitives::Address;
use journal_market_api::{EntryDetail, JournalList};
use sea_orm::{DatabaseConnection, DbErr};

use crate::cache::PublicCaches;
use crate::domain::accession::is_ticker;
use crate::domain::wallet::lower;
use crate::queries::journals::LiveJournal;
use crate::queries::{entries, journals, swarm};
use crate::site::Site;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("{0}")]
    NotFound(String),
    /// A query parameter that is not what the route takes.
    #[error("{0}")]
    BadQuery(String),
    #[error("the catalogue could not be read")]
    Db(#[from] DbErr),
    #[error("an answer could not be serialized")]
    Encode(#[from] serde_json::Error),
}

pub type CatalogResult<T> = Result<T, CatalogError>;

#[derive(Clone)]
pub struct Catalog {
    db: DatabaseConnection,
    site: Site,
    caches: Arc<PublicCaches>,
}

fn bytes<T: serde::Serialize>(v: &T) -> CatalogResult<Bytes> {
    Ok(Bytes::from(serde_json::to_vec(v)?))
}

impl Catalog {
    pub fn new(db: DatabaseConnection, site: Site, caches: Arc<PublicCaches>) -> Self {
        Catalog { db, site, caches }
    }

    /// A live journal by slug or id, through the public cache.
    pub async fn live(&self, key: &str) -> CatalogResult<Arc<LiveJournal>> {
        self.caches
            .journals
            .get_or_try(key.to_string(), || async {
                journals::find_live(&self.db, self.site.origin(), key)
                    .await?
                    .map(Arc::new)
                    .ok_or_else(|| {
                        CatalogError::NotFound(format!(
                            "no published journal has the slug or id {key:?}"
                        ))
                    })
            })
            .await
    }

    /// Whether `wallet` reads the paid text of `j`: its author, or a wallet that unlocked it.
    pub async fn reads(&self, wallet: Address, j: &LiveJournal) -> CatalogResult<bool> {
        let w = lower(&wallet);
        Ok(j.author_wallet.as_deref() == Some(w.as_str())
            || journals::has_unlocked(&self.db, &w, j.id).await?)
    }

    /// A ticker filter as the lists take it: any case (tickers are stored upper-case), and a
    /// filter on a company the archive does not know is an empty list, not an error. Only a
    /// value that cannot be a ticker is refused.
    fn ticker_filter(name: &str, value: &str) -> CatalogResult<String> {
        let upper = value.trim().to_ascii_uppercase();
        if !is_ticker(&upper) {
            return Err(CatalogError::BadQuery(format!(
                "the query parameter {name} must be a ticker such as NVDA (1 to 10 letters or digits)"
            )));
        }
        Ok(upper)
    }

    /// `GET /journals`, optionally of one company.
    pub async fn journals(&self, company: Option<&str>) -> CatalogResult<Bytes> {
        let company = match company {
            Some(c) => Some(Self::ticker_filter("company", c)?),
            None => None,
        };
        let key = format!("journals?{}", company.as_deref().unwrap_or(""));
        self.caches
            .lists
            .get_or_try(key, || async {
                let journals =
                    journals::list_live(&self.db, self.site.origin(), company.as_deref()).await?;
                bytes(&JournalList { journals })
            })
            .await
    }

    /// `GET /entries.json`: the newest entries.
    pub async fn newest_entries(&self) -> CatalogResult<Bytes> {
        self.caches
            .lists
            .get_or_try("entries.json".to_string(), || async {
                bytes(&entries::newest(&self.db).await?)
            })
            .await
    }

    /// `GET /entries/search`: a company's entries.
    pub async fn search(&self, ticker: &str) -> CatalogResult<Bytes> {
        let ticker = Self::ticker_filter("ticker", ticker)?;
        self.caches
            .lists
            .get_or_try(format!("search?{ticker}"), || async {
                bytes(&entries::search(&self.db, &ticker).await?)
            })
            .await
    }

    /// `GET /entries/{accession}`.
    pub async fn entry(&self, accession: &str) -> CatalogResult<EntryDetail> {
        entries::detail(&self.db, self.site.origin(), accession)
            .await?
            .ok_or_else(|| {
                CatalogError::NotFound(format!(
                    "no archive entry has the accession number {accession:?}"
                ))
            })
    }

    /// `GET /swarm.json`: the latest finished sitting and its log.
    pub async fn swarm(&self) -> CatalogResult<Bytes> {
        self.caches
            .lists
            .get_or_try("swarm.json".to_string(), || async {
                bytes(&swarm::latest(&self.db).await?)
            })
            .await
    }

    pub fn caches(&self) -> &PublicCaches {
        &self.caches
    }

    /// The public caches, for a service whose writes public reads show.
    pub fn caches_arc(&self) -> Arc<PublicCaches> {
        self.caches.clone()
    }
}

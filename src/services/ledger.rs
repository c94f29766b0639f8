//! `GET /token.json`: the token ledger, computed from the index at most every
//! `indexer.ledger_max_age_ms` and served as bytes meanwhile. A reader that finds it older
//! pokes the indexer, starts one recomputation (one at a time), and waits for it at most a
//! short deadline before answering with what there is. The token page's chart is read when
//! the page is drawn (the page cache keeps it), never by `/token.json`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use journal_market_actors::indexer::IndexerHandle;
use journal_market_chain::bindings::{IFeeLocker, IPool};
use journal_market_chain::client::ChainClient;
use sea_orm::DatabaseConnection;

use crate::cache::LedgerCache;
use crate::chain::{ETH, LedgerContracts};
use crate::domain::swap_buckets::SwapBuckets;
use crate::error::{DomainError, DomainResult};
use crate::queries::token::{self, Now, PoolSettings};
use crate::quotes::Quotes;

/// How long a reader waits for a recomputation before taking the previous answer.
const WAIT: Duration = Duration::from_millis(500);

fn chain_err(e: alloy::contract::Error) -> DomainError {
    DomainError::unavailable(format!(
        "the pool cannot be read right now ({}); retry shortly",
        journal_market_chain::client::short(&e.to_string())
    ))
}

/// The token ledger's reads and its last answer; cheap to clone (the recomputation runs as a
/// task of its own, so a reader that gives up waiting does not cancel it).
#[derive(Clone)]
pub struct TokenLedger(Arc<Inner>);

struct Inner {
    db: DatabaseConnection,
    client: ChainClient,
    quotes: Arc<Quotes>,
    /// Poked when a reader finds the answer old: the indexer may be behind.
    indexer: Option<IndexerHandle>,
    contracts: Option<LedgerContracts>,
    cache: LedgerCache,
}

impl TokenLedger {
    pub fn new(
        db: DatabaseConnection,
        client: ChainClient,
        quotes: Arc<Quotes>,
        indexer: Option<IndexerHandle>,
        contracts: Option<LedgerContracts>,
        max_age: Duration,
    ) -> Self {
        TokenLedger(Arc::new(Inner {
            db,
            client,
            quotes,
            indexer,
            contracts,
            cache: LedgerCache::new(max_age),
        }))
    }

    async fn pool_settings(&self, c: LedgerContracts) -> DomainResult<PoolSettings> {
        let p = self.0.client.provider();
        let pool = IPool::new(c.pool, p);
        let fee_pips = pool.fee().call().await.map_err(chain_err)?;
        let token0 = pool.token0().call().await.map_err(chain_err)?;
        let creator_bps = match c.fee_locker {
            Some(l) => IFeeLocker::new(l, p)
                .creatorShareBps()
                .call()
                .await
                .map_err(chain_err)?
                .to::<u32>(),
            None => 0,
        };
        Ok(PoolSettings {
            token_is_token0: token0 == c.token,
            fee_pips: fee_pips.to::<u32>(),
            creator_bps,
        })
    }

    async fn compute(&self, c: LedgerContracts) -> DomainResult<Bytes> {
        let cache = &self.0.cache;
        let settings = *cache.pool.get_or_try_init(|| self.pool_settings(c)).await?;
        let p = self.0.client.provider();
        let sqrt = IPool::new(c.pool, p).slot0().call().await.ok();
        let now = Now {
            head: self.0.client.block_number().await.ok(),
            price_weth: sqrt.and_then(|s| {
                crate::domain::ledger::price_weth(
                    alloy::primitives::U256::from(s.sqrtPriceX96),
                    settings.token_is_token0,
                )
            }),
            eth_usd: self.0.quotes.mid(ETH).await.ok(),
        };
        let ledger = token::ledger(&self.0.db, (c.token, c.pool), settings, now).await?;
        let bytes = Bytes::from(serde_json::to_vec(&Some(ledger))?);
        if let Ok(mut slot) = cache.cached.lock() {
            *slot = Some((Instant::now(), bytes.clone()));
        }
        Ok(bytes)
    }

    /// One recomputation at a time; a reader that waited for another's finds it fresh.
    async fn refresh(self, c: LedgerContracts) -> DomainResult<Bytes> {
        let cache = &self.0.cache;
        let _one = cache.computing.lock().await;
        if let Some((at, bytes)) = cache.get()
            && at.elapsed() < cache.max_age
        {
            return Ok(bytes);
        }
        self.compute(c).await
    }

    /// The newest swaps up to `block` in buckets, for the token page; `None` without a token.
    pub async fn chart(&self, block: Option<u64>) -> DomainResult<Option<SwapBuckets>> {
        let Some(c) = self.0.contracts else {
            return Ok(None);
        };
        let settings = *self
            .0
            .cache
            .pool
            .get_or_try_init(|| self.pool_settings(c))
            .await?;
        let chart = token::swap_buckets(&self.0.db, settings.token_is_token0, block).await?;
        Ok(Some(chart))
    }

    /// `GET /token.json`'s body.
    pub async fn answer(&self) -> DomainResult<Bytes> {
        let Some(c) = self.0.contracts else {
            return Ok(Bytes::from_static(b"null"));
        };
        let cache = &self.0.cache;
        let previous = cache.get();
        if let Some((at, bytes)) = &previous
            && at.elapsed() < cache.max_age
        {
            return Ok(bytes.clone());
        }
        if let Some(i) = &self.0.indexer {
            i.poke();
        }
        let job = actix_web::rt::spawn(self.clone().refresh(c));
        match (tokio::time::timeout(WAIT, job).await, previous) {
            (Ok(Ok(r)), _) => r,
            (Ok(Err(_)), _) => Err(DomainError::internal_msg("the ledger task failed")),
            // Still computing: the previous answer, which says how old it is.
            (Err(_), Some((_, bytes))) => Ok(bytes),
            (Err(_), None) => Err(DomainError::unavailable(
                "the token ledger is being computed; retry shortly",
            )),
        }
    }
}

//! Stock-token quotes from their Chainlink-style price feeds, kept a few seconds in memory.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use alloy::primitives::Address;
use dashmap::DashMap;
use journal_market_chain::bindings::IPriceFeed;
use journal_market_chain::client::ChainClient;

use crate::error::{DomainError, DomainResult};

pub struct Quotes {
    feeds: HashMap<String, Address>,
    chain: ChainClient,
    max_age: Duration,
    ttl: Duration,
    cache: DashMap<String, (Instant, f64)>,
}

/// The mid price of a feed answer, or why there is none.
pub fn mid_from_round(
    answer: i128,
    decimals: u8,
    updated_at: u64,
    now: u64,
    max_age: u64,
) -> Result<f64, Option<u64>> {
    if answer <= 0 || updated_at == 0 {
        return Err(None);
    }
    let age = now.saturating_sub(updated_at);
    if age > max_age {
        return Err(Some(age));
    }
    Ok(answer as f64 / 10f64.powi(i32::from(decimals)))
}

impl Quotes {
    pub fn new(
        feeds: HashMap<String, Address>,
        chain: ChainClient,
        max_age: Duration,
        ttl: Duration,
    ) -> Self {
        Quotes {
            feeds,
            chain,
            max_age,
            ttl,
            cache: DashMap::new(),
        }
    }

    pub fn knows(&self, ticker: &str) -> bool {
        self.feeds.contains_key(ticker)
    }

    pub async fn mid(&self, ticker: &str) -> DomainResult<f64> {
        let feed = *self.feeds.get(ticker).ok_or_else(|| {
            DomainError::NotFound(format!("no stock token is known for the ticker {ticker}"))
        })?;
        if let Some(hit) = self.cache.get(ticker)
            && hit.0.elapsed() < self.ttl
        {
            return Ok(hit.1);
        }
        let (answer, decimals, updated_at) = self.read(feed, ticker).await?;
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        let mid = mid_from_round(answer, decimals, updated_at, now, self.max_age.as_secs())
            .map_err(|age| match age {
                Some(age_secs) => DomainError::unavailable(format!(
                    "the price feed of {ticker} is stale: its last answer is {age_secs} s old"
                )),
                None => DomainError::unavailable(format!(
                    "the price feed of {ticker} gave no usable price"
                )),
            })?;
        self.cache.insert(ticker.to_string(), (Instant::now(), mid));
        Ok(mid)
    }

    /// The feed's answer, through the chain client (upstreams in order, a time limit each).
    async fn read(&self, feed: Address, ticker: &str) -> DomainResult<(i128, u8, u64)> {
        let f = IPriceFeed::new(feed, self.chain.provider());
        let read = async {
            let decimals = f.decimals().call().await?;
            let round = f.latestRoundData().call().await?;
            Ok::<_, alloy::contract::Error>((round, decimals))
        };
        match read.await {
            Ok((round, decimals)) => {
                let answer = i128::try_from(round.answer).unwrap_or(0);
                let updated = u64::try_from(round.updatedAt).unwrap_or(0);
                Ok((answer, decimals, updated))
            }
            Err(e) => {
                tracing::warn!(ticker, error = %journal_market_chain::client::short(&e.to_string()), "price feed read failed");
                Err(DomainError::unavailable(format!(
                    "the chain cannot be reached to read the price of {ticker}; retry shortly"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds() {
        assert_eq!(mid_from_round(18_142_000_000, 8, 100, 150, 60), Ok(181.42));
        assert_eq!(
            mid_from_round(18_142_000_000, 8, 100, 200, 60),
            Err(Some(100))
        );
        assert_eq!(mid_from_round(0, 8, 100, 100, 60), Err(None));
        assert_eq!(mid_from_round(-5, 8, 100, 100, 60), Err(None));
        assert_eq!(mid_from_round(5, 8, 0, 100, 60), Err(None));
    }
}

//! `GET /token.json`: the token ledger, computed from the index at most every
//! `indexer.ledger_max_age_ms` and served as bytes meanwhile. A reader that finds it older
//! pokes the indexer, starts one recomputation (one at a time), and waits for it at most a
//! short deadline before answering with what there is.

use std::time::{Duration, Instant};

use actix_web::web::{self, Bytes};
use journal_market_chain::bindings::{IFeeLocker, IPool};

use crate::chain::{ETH, LedgerContracts};
use crate::error::{ApiError, ApiResult};
use crate::queries::token::{self, Now, PoolSettings};
use crate::state::AppState;

/// How long a reader waits for a recomputation before taking the previous answer.
const WAIT: Duration = Duration::from_millis(500);

fn chain_err(e: alloy::contract::Error) -> ApiError {
    ApiError::unavailable(format!(
        "the pool cannot be read right now ({}); retry shortly",
        journal_market_chain::client::short(&e.to_string())
    ))
}

async fn pool_settings(state: &AppState, c: LedgerContracts) -> ApiResult<PoolSettings> {
    let p = state.client.provider();
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

async fn compute(state: &AppState, c: LedgerContracts) -> ApiResult<Bytes> {
    let cache = &state.ledger;
    let settings = *cache
        .pool
        .get_or_try_init(|| pool_settings(state, c))
        .await?;
    let p = state.client.provider();
    let sqrt = IPool::new(c.pool, p).slot0().call().await.ok();
    let now = Now {
        head: state.client.block_number().await.ok(),
        price_weth: sqrt.and_then(|s| {
            crate::domain::ledger::price_weth(
                alloy::primitives::U256::from(s.sqrtPriceX96),
                settings.token_is_token0,
            )
        }),
        eth_usd: state.quotes.mid(ETH).await.ok(),
    };
    let ledger = token::ledger(&state.db, (c.token, c.pool), settings, now).await?;
    let bytes = crate::cache::to_bytes(&Some(ledger))?;
    if let Ok(mut slot) = cache.cached.lock() {
        *slot = Some((Instant::now(), bytes.clone()));
    }
    Ok(bytes)
}

/// One recomputation at a time; a reader that waited for another's finds it fresh.
async fn refresh(state: web::Data<AppState>, c: LedgerContracts) -> ApiResult<Bytes> {
    let _one = state.ledger.computing.lock().await;
    if let Some((at, bytes)) = state.ledger.get()
        && at.elapsed() < state.ledger.max_age
    {
        return Ok(bytes);
    }
    compute(&state, c).await
}

pub async fn token_json(state: web::Data<AppState>) -> ApiResult<Bytes> {
    let Some(c) = state.addresses.ledger else {
        return Ok(Bytes::from_static(b"null"));
    };
    let previous = state.ledger.get();
    if let Some((at, bytes)) = &previous
        && at.elapsed() < state.ledger.max_age
    {
        return Ok(bytes.clone());
    }
    if let Some(i) = &state.indexer {
        i.poke();
    }
    let job = actix_web::rt::spawn(refresh(state.clone(), c));
    match (tokio::time::timeout(WAIT, job).await, previous) {
        (Ok(Ok(r)), _) => r,
        (Ok(Err(_)), _) => Err(ApiError::internal(anyhow::anyhow!(
            "the ledger task failed"
        ))),
        // Still computing: the previous answer, which says how old it is.
        (Err(_), Some((_, bytes))) => Ok(bytes),
        (Err(_), None) => Err(ApiError::unavailable(
            "the token ledger is being computed; retry shortly",
        )),
    }
}

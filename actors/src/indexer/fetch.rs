//! Reading the chain ahead of the writes: a range's logs decoded with the block times its swaps
//! need, and the final ranges fetched in order by one task.

use std::collections::{BTreeSet, HashMap};

use alloy::eips::BlockNumberOrTag;
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, Log};
use journal_market_chain::client::{ChainClient, ChainError};
use journal_market_chain::logs::{self, RangeSize};

use super::ledger;

/// A range's logs, decoded, with the block times its swaps need.
pub(super) struct Fetched {
    pub(super) end: u64,
    pub(super) logs: Vec<Log>,
    pub(super) ledger: Vec<ledger::LedgerEvent>,
    pub(super) times: HashMap<u64, u64>,
    /// The range size after this fetch (it shrinks on refusals, grows on successes).
    pub(super) size: RangeSize,
}

/// Final ranges fetched ahead of the writes, in order, by one task: while a range is written
/// the node already answers the next, so a catch-up runs at the pace of the slower of the two
/// instead of their sum. Dropping it stops the task: a rollback, a failed write or another
/// instance's cursor makes what it fetched useless.
pub(super) struct Ahead {
    /// The first block of the range it yields next.
    pub(super) next: u64,
    ranges: tokio::sync::mpsc::Receiver<Result<Fetched, ChainError>>,
    task: tokio::task::JoinHandle<()>,
}

/// Ranges fetched and waiting to be written, beside the one being fetched: enough to keep the
/// node busy through a slow write, few enough to bound the memory they hold.
const AHEAD: usize = 2;

impl Ahead {
    /// Fetches the ranges from `from` up to `to` (inclusive), one after the other.
    pub(super) fn start(
        (chain, filter, addresses): (ChainClient, Filter, Option<ledger::LedgerAddresses>),
        from: u64,
        to: u64,
        size: RangeSize,
    ) -> Ahead {
        let (tx, ranges) = tokio::sync::mpsc::channel(AHEAD);
        let task = tokio::spawn(async move {
            let (mut from, mut size) = (from, size);
            while from <= to {
                let got = fetch(
                    chain.clone(),
                    filter.clone(),
                    addresses,
                    from,
                    to,
                    size.clone(),
                )
                .await;
                let next = match &got {
                    Ok(f) => {
                        size = f.size.clone();
                        f.end + 1
                    }
                    Err(_) => to + 1,
                };
                if tx.send(got).await.is_err() {
                    return;
                }
                from = next;
            }
        });
        Ahead {
            next: from,
            ranges,
            task,
        }
    }

    /// The next range; `None` once every range up to the end was handed out.
    pub(super) async fn recv(&mut self) -> Option<Result<Fetched, ChainError>> {
        match self.ranges.recv().await {
            Some(Ok(f)) => {
                self.next = f.end + 1;
                Some(Ok(f))
            }
            Some(Err(e)) => Some(Err(e)),
            None => match (&mut self.task).await {
                // A panic belongs to the actor's supervision, as if it had happened inline.
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                _ => None,
            },
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Logs of `filter` from `from` towards `head` in one adaptive range, decoded, with block times.
pub(super) async fn fetch(
    chain: ChainClient,
    filter: Filter,
    addresses: Option<ledger::LedgerAddresses>,
    from: u64,
    head: u64,
    mut size: RangeSize,
) -> Result<Fetched, ChainError> {
    let (end, logs) = logs::fetch(&chain, &filter, from, head, &mut size).await?;
    let ledger: Vec<ledger::LedgerEvent> = match &addresses {
        Some(a) => logs.iter().filter_map(|l| ledger::decode(l, a)).collect(),
        None => Vec::new(),
    };
    let times = block_times(&chain, &ledger).await?;
    Ok(Fetched {
        end,
        logs,
        ledger,
        times,
        size,
    })
}

/// Block times of the ledger events whose logs carry none.
async fn block_times(
    chain: &ChainClient,
    events: &[ledger::LedgerEvent],
) -> Result<HashMap<u64, u64>, ChainError> {
    let missing: BTreeSet<u64> = events
        .iter()
        .filter_map(|e| match e {
            ledger::LedgerEvent::Swap { at, .. } if at.block_time.is_none() => Some(at.block),
            _ => None,
        })
        .collect();
    let mut times = HashMap::new();
    for chunk in missing.into_iter().collect::<Vec<_>>().chunks(16) {
        let got = futures::future::join_all(chunk.iter().map(|n| async move {
            chain
                .provider()
                .get_block_by_number(BlockNumberOrTag::Number(*n))
                .await
        }))
        .await;
        for (n, b) in chunk.iter().zip(got) {
            if let Some(b) = b.map_err(chain_err)? {
                times.insert(*n, b.header.timestamp);
            }
        }
    }
    Ok(times)
}

pub(super) fn chain_err(e: alloy::transports::TransportError) -> ChainError {
    ChainError::of(&e)
}

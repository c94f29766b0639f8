//! Paged `eth_getLogs` with adaptive ranges: a range the provider refuses (too many results,
//! range too large, a timeout) is halved and tried again; after a few successes in a row the
//! range doubles again, up to its maximum.

use alloy::primitives::{Address, B256, Bytes, LogData, U64};
use alloy::rpc::types::{Filter, Log};
use serde::Deserialize;

use crate::client::{ChainClient, ChainError};

/// A log as `eth_getLogs` answers it, read field by field. alloy's `Log` flattens the consensus
/// log into itself, which makes serde buffer every log as generic content and read it twice:
/// about half of a page's parse time.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireLog {
    address: Address,
    topics: Vec<B256>,
    data: Bytes,
    block_hash: Option<B256>,
    block_number: Option<U64>,
    #[serde(default)]
    block_timestamp: Option<U64>,
    transaction_hash: Option<B256>,
    transaction_index: Option<U64>,
    log_index: Option<U64>,
    #[serde(default)]
    removed: bool,
}

impl From<WireLog> for Log {
    fn from(w: WireLog) -> Log {
        Log {
            inner: alloy::primitives::Log {
                address: w.address,
                data: LogData::new_unchecked(w.topics, w.data),
            },
            block_hash: w.block_hash,
            block_number: w.block_number.map(|n| n.to()),
            block_timestamp: w.block_timestamp.map(|n| n.to()),
            transaction_hash: w.transaction_hash,
            transaction_index: w.transaction_index.map(|n| n.to()),
            log_index: w.log_index.map(|n| n.to()),
            removed: w.removed,
        }
    }
}

/// Successes in a row before the range grows again.
const GROW_AFTER: u32 = 3;

/// The number of blocks asked for at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeSize {
    current: u64,
    max: u64,
    streak: u32,
}

impl RangeSize {
    pub fn new(max: u64) -> Self {
        let max = max.max(1);
        RangeSize {
            current: max,
            max,
            streak: 0,
        }
    }

    pub fn get(&self) -> u64 {
        self.current
    }

    /// Halves the range; false when it is one block already (nothing smaller to ask).
    pub fn refused(&mut self) -> bool {
        self.streak = 0;
        if self.current == 1 {
            return false;
        }
        self.current = (self.current / 2).max(1);
        true
    }

    pub fn succeeded(&mut self) {
        self.streak += 1;
        if self.streak >= GROW_AFTER && self.current < self.max {
            self.current = (self.current * 2).min(self.max);
            self.streak = 0;
        }
    }
}

/// Whether a provider's answer means "ask for less": the phrases providers use for oversized
/// ranges and result sets, and timeouts.
pub fn is_refusal(e: &ChainError) -> bool {
    let text = match e {
        ChainError::Rpc { code, message } => {
            if *code == -32005 {
                return true;
            }
            message.to_ascii_lowercase()
        }
        ChainError::Unreachable(m) => m.to_ascii_lowercase(),
    };
    [
        "range",
        "too many",
        "too large",
        "limit",
        "exceed",
        "more than",
        "response size",
        "timed out",
        "timeout",
    ]
    .iter()
    .any(|p| text.contains(p))
}

/// Logs of `filter` from `from` up to at most `to`, in one range of at most `size` blocks,
/// shrinking it while the provider refuses. Returns the last block covered and the logs.
pub async fn fetch(
    chain: &ChainClient,
    filter: &Filter,
    from: u64,
    to: u64,
    size: &mut RangeSize,
) -> Result<(u64, Vec<Log>), ChainError> {
    loop {
        let end = to.min(from.saturating_add(size.get() - 1));
        let f = filter.clone().from_block(from).to_block(end);
        match chain.get_logs(&f).await {
            Ok(logs) => {
                size.succeeded();
                return Ok((end, logs));
            }
            Err(e) => {
                if !(is_refusal(&e) && size.refused()) {
                    return Err(e);
                }
                tracing::debug!(from, end, next = size.get(), error = %e, "log range refused; halving");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wire_log_reads_as_alloys_log() {
        let text = r#"{"address":"0x5fbdb2315678afecb367f032d93f642f64180aa3","topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"],"data":"0x01","blockHash":"0x9b6d8a0b27f1c2ae3fcf9e0c8b1a8b0c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f60","blockNumber":"0x1f","blockTimestamp":"0x6553f100","transactionHash":"0x1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f609b6d8a0b27f1c2ae3fcf9e0c8b1a8b0c","transactionIndex":"0x2","logIndex":"0x7","removed":false}"#;
        let wire: WireLog = serde_json::from_str(text).unwrap();
        let ours: Log = wire.into();
        let theirs: Log = serde_json::from_str(text).unwrap();
        assert_eq!(ours, theirs);
        let bare = r#"{"address":"0x5fbdb2315678afecb367f032d93f642f64180aa3","topics":[],"data":"0x","blockHash":null,"blockNumber":null,"transactionHash":null,"transactionIndex":null,"logIndex":null}"#;
        let ours: Log = serde_json::from_str::<WireLog>(bare).unwrap().into();
        assert_eq!(ours, serde_json::from_str::<Log>(bare).unwrap());
    }

    #[test]
    fn halves_on_refusal_and_grows_after_successes() {
        let mut s = RangeSize::new(1000);
        assert!(s.refused());
        assert!(s.refused());
        assert_eq!(s.get(), 250);
        s.succeeded();
        s.succeeded();
        assert_eq!(s.get(), 250);
        s.succeeded();
        assert_eq!(s.get(), 500);
        for _ in 0..9 {
            s.succeeded();
        }
        assert_eq!(s.get(), 1000, "never above the maximum");
        let mut one = RangeSize::new(1);
        assert!(!one.refused());
    }

    #[test]
    fn refusals_are_told_from_other_errors() {
        let rpc = |code, m: &str| ChainError::Rpc {
            code,
            message: m.into(),
        };
        assert!(is_refusal(&rpc(-32005, "anything")));
        assert!(is_refusal(&rpc(
            -32602,
            "block range too large: 10000 > 2000"
        )));
        assert!(is_refusal(&rpc(
            -32000,
            "query returned more than 10000 results"
        )));
        assert!(is_refusal(&ChainError::Unreachable(
            "operation timed out".into()
        )));
        assert!(!is_refusal(&rpc(-32000, "invalid argument: hex string")));
        assert!(!is_refusal(&ChainError::Unreachable(
            "connection refused".into()
        )));
    }
}

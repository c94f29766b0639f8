//! Paged `eth_getLogs` with adaptive ranges: a range the provider refuses (too many results,
//! range too large, a timeout) is halved and tried again; after a few successes in a row the
//! range doubles again, up to its maximum.

use alloy::rpc::types::{Filter, Log};

use crate::client::{ChainClient, ChainError};

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

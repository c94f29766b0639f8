//! Votes as the reputation registry logs them, and the rules a vote must keep: value +1 or -1
//! with no decimals, an allowed `tag1`, an empty `tag2` (interface §4.3). Pure.

use alloy::primitives::{Address, B256, U256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;
use journal_market_chain::bindings::IReputationRegistry;

/// Allowed values of `tag1` (the empty tag included).
pub const TAGS: [&str; 7] = [
    "",
    "accurate",
    "well-sourced",
    "insightful",
    "misleading",
    "outdated",
    "thin",
];

/// Where an event sits in the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub tx: B256,
    pub log_index: u64,
    pub block: u64,
    pub block_time: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub at: At,
    pub token: U256,
    pub wallet: Address,
    pub feedback_index: u64,
    pub value: i128,
    pub value_decimals: u8,
    pub tag1: String,
    pub tag2: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revoke {
    pub at: At,
    pub token: U256,
    pub wallet: Address,
    pub feedback_index: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Feedback(Feedback),
    Revoke(Revoke),
}

impl Event {
    pub fn at(&self) -> At {
        match self {
            Event::Feedback(f) => f.at,
            Event::Revoke(r) => r.at,
        }
    }
    pub fn token(&self) -> U256 {
        match self {
            Event::Feedback(f) => f.token,
            Event::Revoke(r) => r.token,
        }
    }
}

/// The vote event of a log of the reputation registry, if it is one.
pub fn decode(log: &Log) -> Option<Event> {
    let at = At {
        tx: log.transaction_hash?,
        log_index: log.log_index?,
        block: log.block_number?,
        block_time: log.block_timestamp,
    };
    if let Ok(f) = IReputationRegistry::NewFeedback::decode_log(&log.inner) {
        return Some(Event::Feedback(Feedback {
            at,
            token: f.agentId,
            wallet: f.clientAddress,
            feedback_index: f.feedbackIndex,
            value: f.value,
            value_decimals: f.valueDecimals,
            tag1: f.tag1.clone(),
            tag2: f.tag2.clone(),
        }));
    }
    if let Ok(r) = IReputationRegistry::FeedbackRevoked::decode_log(&log.inner) {
        return Some(Event::Revoke(Revoke {
            at,
            token: r.agentId,
            wallet: r.clientAddress,
            feedback_index: r.feedbackIndex,
        }));
    }
    None
}

/// The vote's value (+1 or -1) when the feedback keeps the rules, else why not.
pub fn rules(f: &Feedback) -> Result<i16, String> {
    if f.value_decimals != 0 {
        return Err(format!("valueDecimals must be 0, not {}", f.value_decimals));
    }
    let value = match f.value {
        1 => 1,
        -1 => -1,
        v => return Err(format!("the value must be +1 or -1, not {v}")),
    };
    if !TAGS.contains(&f.tag1.as_str()) {
        return Err(format!(
            "the tag {:?} is not allowed; use one of accurate, well-sourced, insightful, misleading, outdated, thin, or none",
            f.tag1
        ));
    }
    if !f.tag2.is_empty() {
        return Err("tag2 must be empty".into());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feedback(value: i128, decimals: u8, tag1: &str, tag2: &str) -> Feedback {
        Feedback {
            at: At {
                tx: B256::ZERO,
                log_index: 0,
                block: 1,
                block_time: None,
            },
            token: U256::from(1),
            wallet: Address::ZERO,
            feedback_index: 1,
            value,
            value_decimals: decimals,
            tag1: tag1.into(),
            tag2: tag2.into(),
        }
    }

    #[test]
    fn the_vote_rules() {
        assert_eq!(rules(&feedback(1, 0, "", "")), Ok(1));
        assert_eq!(rules(&feedback(-1, 0, "misleading", "")), Ok(-1));
        let refused = |f| rules(&f).unwrap_err();
        assert!(refused(feedback(2, 0, "", "")).contains("+1 or -1"));
        assert!(refused(feedback(1, 1, "", "")).contains("valueDecimals"));
        assert!(refused(feedback(1, 0, "great", "")).contains("not allowed"));
        assert!(refused(feedback(1, 0, "thin", "x")).contains("tag2"));
    }
}

//! A log as `eth_getLogs` answers it, read field by field (the chain client parses log pages
//! with it; `logs` pages through ranges).

use alloy::primitives::{Address, B256, Bytes, LogData, U64};
use alloy::rpc::json_rpc::{ErrorPayload, Response, ResponsePayload};
use alloy::rpc::types::Log;
use serde::Deserialize;

/// An `eth_getLogs` answer: the logs, or the node's error; `None` when it is not a JSON-RPC
/// answer with a list of logs.
pub fn page(body: &[u8]) -> Option<Result<Vec<Log>, ErrorPayload>> {
    let r: Response<Vec<WireLog>> = serde_json::from_slice(body).ok()?;
    Some(match r.payload {
        ResponsePayload::Success(logs) => Ok(logs.into_iter().map(Log::from).collect()),
        ResponsePayload::Failure(e) => Err(e),
    })
}

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
}

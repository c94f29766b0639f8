//! Reading the blocks a reorg can still take back (within `reorg_depth` of the head) so that
//! only the canonical chain is stored: the headers first, each linked to its parent and the
//! first to the block under the cursor, then the logs of each header by its hash
//! (`eth_getLogs` with `blockHash`), each log checked to carry that hash. Every stored log is
//! then of the chain those headers make, as read in this pass; a reorg after the pass shows
//! as a changed hash under the cursor on the next one.

use std::collections::HashMap;

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::B256;
use alloy::rpc::types::{Block, Filter, Log};
use journal_market_chain::client::{ChainClient, ChainError};

/// Headers read at once.
const HEADERS_AT_ONCE: usize = 16;

/// What a header tells: its number, hash and parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub number: u64,
    pub hash: B256,
    pub parent: B256,
}

/// Why a segment was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// The first block does not build on the block under the cursor: the cursor's block is
    /// no longer canonical (roll back).
    Cursor,
    /// The chain changed while it was read (read it again).
    Changed(String),
}

/// A canonical stretch of blocks and its logs.
#[derive(Debug, Clone)]
pub struct Segment {
    pub end: u64,
    pub end_hash: B256,
    pub logs: Vec<Log>,
    /// Block timestamps, by number.
    pub times: HashMap<u64, u64>,
}

/// Whether the headers make one chain on top of `parent` (the hash under the cursor, when
/// known).
pub fn check_links(parent: Option<B256>, links: &[Link]) -> Result<(), Broken> {
    if let (Some(p), Some(first)) = (parent, links.first())
        && first.parent != p
    {
        return Err(Broken::Cursor);
    }
    for pair in links.windows(2) {
        if pair[1].parent != pair[0].hash || pair[1].number != pair[0].number + 1 {
            return Err(Broken::Changed(format!(
                "block {} does not build on block {}",
                pair[1].number, pair[0].number
            )));
        }
    }
    Ok(())
}

/// Whether every log asked of block `link` by its hash is of that block.
pub fn check_logs(link: &Link, logs: &[Log]) -> Result<(), Broken> {
    match logs
        .iter()
        .find(|l| l.block_hash != Some(link.hash) || l.block_number != Some(link.number))
    {
        None => Ok(()),
        Some(l) => Err(Broken::Changed(format!(
            "a log of block {} came with block hash {:?}",
            link.number, l.block_hash
        ))),
    }
}

/// Reads blocks `from..=to` (a few: those within reorg distance of the head) as one linked
/// chain on `parent`, and the logs of `filter` in them.
pub async fn read(
    chain: &ChainClient,
    filter: &Filter,
    from: u64,
    to: u64,
    parent: Option<B256>,
) -> Result<Result<Segment, Broken>, ChainError> {
    let mut headers = Vec::new();
    let numbers: Vec<u64> = (from..=to).collect();
    // One JSON-RPC batch per 16 headers: near the head a busy chain makes a block per
    // transaction, and a call each cost more than reading them.
    for chunk in numbers.chunks(HEADERS_AT_ONCE) {
        let params: Vec<(BlockNumberOrTag, bool)> = chunk
            .iter()
            .map(|n| (BlockNumberOrTag::Number(*n), false))
            .collect();
        let blocks = chain
            .batch::<_, Option<Block>>("eth_getBlockByNumber", &params)
            .await?;
        for (n, b) in chunk.iter().zip(blocks) {
            match b {
                Some(b) => headers.push(b.header),
                None => return Ok(Err(Broken::Changed(format!("block {n} is gone")))),
            }
        }
    }
    let links: Vec<Link> = headers
        .iter()
        .map(|h| Link {
            number: h.number,
            hash: h.hash,
            parent: h.parent_hash,
        })
        .collect();
    if let Err(b) = check_links(parent, &links) {
        return Ok(Err(b));
    }
    let mut logs = Vec::new();
    // A bloom never leaves out what a block logged: a block it rules out needs no call.
    let wanted: Vec<&Link> = links
        .iter()
        .zip(&headers)
        .filter(|(_, h)| filter.matches_bloom(h.logs_bloom))
        .map(|(l, _)| l)
        .collect();
    for link in wanted {
        let got = chain
            .get_logs(&filter.clone().at_block_hash(link.hash))
            .await?;
        if let Err(b) = check_logs(link, &got) {
            return Ok(Err(b));
        }
        logs.extend(got);
    }
    let Some(last) = links.last() else {
        return Ok(Err(Broken::Changed("no block was read".into())));
    };
    Ok(Ok(Segment {
        end: last.number,
        end_hash: last.hash,
        logs,
        times: headers.iter().map(|h| (h.number, h.timestamp)).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(number: u64, hash: u8, parent: u8) -> Link {
        Link {
            number,
            hash: B256::repeat_byte(hash),
            parent: B256::repeat_byte(parent),
        }
    }

    #[test]
    fn a_segment_must_be_one_chain_on_the_cursor() {
        let chain = [link(10, 0xa, 0x9), link(11, 0xb, 0xa), link(12, 0xc, 0xb)];
        assert_eq!(check_links(Some(B256::repeat_byte(0x9)), &chain), Ok(()));
        assert_eq!(check_links(None, &chain), Ok(()));
        assert_eq!(
            check_links(Some(B256::repeat_byte(0x8)), &chain),
            Err(Broken::Cursor),
            "the cursor's block was replaced"
        );
        let forked = [link(10, 0xa, 0x9), link(11, 0xd, 0xe)];
        assert!(matches!(
            check_links(None, &forked),
            Err(Broken::Changed(_))
        ));
        let gap = [link(10, 0xa, 0x9), link(12, 0xc, 0xa)];
        assert!(matches!(check_links(None, &gap), Err(Broken::Changed(_))));
    }

    #[test]
    fn every_log_must_carry_its_blocks_hash() {
        let l = link(10, 0xa, 0x9);
        let log = |hash: u8, number: u64| Log {
            block_hash: Some(B256::repeat_byte(hash)),
            block_number: Some(number),
            ..Default::default()
        };
        assert_eq!(check_logs(&l, &[log(0xa, 10), log(0xa, 10)]), Ok(()));
        assert!(check_logs(&l, &[log(0xa, 10), log(0xb, 10)]).is_err());
        assert!(check_logs(&l, &[log(0xa, 11)]).is_err());
        assert!(check_logs(&l, &[Log::default()]).is_err());
    }
}

//! What the chain says happened, never anyone's word: receipts, where a transaction stands for
//! one payment, the head, Permit2's nonce bits, and the search for a settlement whose hash was
//! lost.

use std::time::Duration;

use alloy::consensus::Transaction as _;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{Filter, TransactionReceipt};
use alloy::sol_types::{SolCall, SolEvent};

use super::{Facilitator, Sent, SettleError, chain_failure};
use crate::bindings::{IERC20, IPermit2, IX402ExactPermit2Proxy};
use journal_market_x402::permit2::nonce_position;

/// Blocks per `eth_getLogs` when searching: providers cap ranges, and a payment's window (from
/// shortly before its row to its deadline) is minutes long, so one or two calls cover it.
const LOG_RANGE: u64 = 5_000;

/// Where a known transaction stands, for one payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxStatus {
    /// Mined, and it is the proxy's `settle` of this permit with the USDG transfer.
    Paid,
    /// Mined without paying this permit (reverted, or another call).
    NotPaid,
    /// Known to the node, not mined yet.
    Pending,
    /// The node does not know it (never sent, or dropped).
    Unknown,
}

/// The chain's head as one block: number and timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    pub number: u64,
    pub timestamp: u64,
}

impl Facilitator {
    /// Waits for the receipt of `tx`.
    pub async fn receipt(&self, tx: B256) -> Result<Option<TransactionReceipt>, SettleError> {
        self.receipt_within(tx, self.receipt_timeout).await
    }

    /// The receipt of `tx`, polled at once and then at a growing interval (5 ms doubling up
    /// to 250 ms) until `wait` has passed; `None` when it did not come.
    pub async fn receipt_within(
        &self,
        tx: B256,
        wait: Duration,
    ) -> Result<Option<TransactionReceipt>, SettleError> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut pause = Duration::from_millis(5);
        loop {
            match self.reader.get_transaction_receipt(tx).await {
                Ok(Some(r)) => return Ok(Some(r)),
                Ok(None) => {}
                Err(e) => return Err(chain_failure(e)),
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    /// Where `tx` stands for the permit of `owner` and `nonce` paying `amount` to `to`,
    /// waiting up to `wait` for its receipt. Paid only when the transaction is the proxy's
    /// `settle` of this permit and its receipt holds the USDG transfer.
    pub async fn tx_status(
        &self,
        tx: B256,
        owner: Address,
        nonce: U256,
        to: Address,
        amount: U256,
        wait: Duration,
    ) -> Result<TxStatus, SettleError> {
        let (receipt, sent) = tokio::join!(
            self.receipt_within(tx, wait),
            self.reader.get_transaction_by_hash(tx)
        );
        let receipt = receipt?;
        let Some(sent) = sent.map_err(chain_failure)? else {
            return Ok(TxStatus::Unknown);
        };
        let Some(receipt) = receipt else {
            return Ok(TxStatus::Pending);
        };
        Ok(
            if self.settles(&sent, owner, nonce) && self.transfer_in(&receipt, owner, to, amount) {
                TxStatus::Paid
            } else {
                TxStatus::NotPaid
            },
        )
    }

    /// The latest block's number and timestamp.
    pub async fn head(&self) -> Result<Head, SettleError> {
        let block = self
            .reader
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .map_err(chain_failure)?
            .ok_or_else(|| SettleError::Chain("the node has no latest block".into()))?;
        Ok(Head {
            number: block.header.number,
            timestamp: block.header.timestamp,
        })
    }

    /// Whether Permit2 had marked the nonce used as of `block`.
    pub async fn nonce_used_at(
        &self,
        from: Address,
        nonce: U256,
        block: u64,
    ) -> Result<bool, SettleError> {
        let (word, bit) = nonce_position(nonce);
        IPermit2::new(self.permit2, &self.reader)
            .nonceBitmap(from, word)
            .block(block.into())
            .call()
            .await
            .map(|b| b.bit(bit))
            .map_err(chain_failure)
    }

    /// Whether `sent`, a settle this facilitator signed for the permit of `owner`, paid
    /// `amount` to `to`, from the receipt the node answered the send with (none: unknown yet).
    pub fn sent_pays(&self, sent: &Sent, owner: Address, to: Address, amount: U256) -> bool {
        sent.receipt.as_ref().is_some_and(|r| {
            r.transaction_hash == sent.tx
                && r.to == Some(self.proxy)
                && self.transfer_in(r, owner, to, amount)
        })
    }

    /// Whether `tx` is the proxy's `settle` of the permit of `owner` and `nonce`: only the
    /// calldata names the permit (Permit2 logs no nonce).
    fn settles(&self, tx: &alloy::rpc::types::Transaction, owner: Address, nonce: U256) -> bool {
        tx.inner.to() == Some(self.proxy)
            && IX402ExactPermit2Proxy::settleCall::abi_decode(tx.inner.input())
                .is_ok_and(|c| c.owner == owner && c.permit.nonce == nonce)
    }

    /// Whether the receipt holds a USDG `Transfer` of exactly `amount` from `from` to `to`.
    pub fn transfer_in(
        &self,
        r: &TransactionReceipt,
        from: Address,
        to: Address,
        amount: U256,
    ) -> bool {
        r.status()
            && r.inner.logs().iter().any(|l| {
                l.address() == self.usdg
                    && IERC20::Transfer::decode_log(&l.inner)
                        .is_ok_and(|t| t.from == from && t.to == to && t.value == amount)
            })
    }

    /// The settle transaction that spent `owner`'s Permit2 `nonce` paying `amount` USDG to `to`,
    /// mined between `since` and `until` (unix seconds; Permit2 refuses a permit after its
    /// deadline, so `until` is the deadline): for a payment whose transaction hash was lost (a
    /// crash between sending and recording it). Permit2 logs no nonce, so candidates are the
    /// USDG `Transfer`s from `owner` to `to` of `amount`, and the one whose calldata is the
    /// proxy's `settle` with that owner and nonce is the answer: an identical transfer for
    /// another purchase (same price, same recipient) never matches.
    pub async fn find_settlement(
        &self,
        owner: Address,
        to: Address,
        amount: U256,
        nonce: U256,
        since: u64,
        until: u64,
    ) -> Result<Option<B256>, SettleError> {
        let head = self
            .reader
            .get_block_number()
            .await
            .map_err(chain_failure)?;
        let mut from = self.first_block_from(since, head).await?;
        let end = self.first_block_from(until.saturating_add(1), head).await?;
        while from < end {
            let to_block = (from + LOG_RANGE - 1).min(end - 1);
            let filter = Filter::new()
                .address(self.usdg)
                .event_signature(IERC20::Transfer::SIGNATURE_HASH)
                .topic1(owner.into_word())
                .topic2(to.into_word())
                .from_block(from)
                .to_block(to_block);
            for log in self.reader.get_logs(&filter).await.map_err(chain_failure)? {
                let matches =
                    IERC20::Transfer::decode_log(&log.inner).is_ok_and(|t| t.value == amount);
                let Some(hash) = log.transaction_hash.filter(|_| matches) else {
                    continue;
                };
                let Some(tx) = self
                    .reader
                    .get_transaction_by_hash(hash)
                    .await
                    .map_err(chain_failure)?
                else {
                    continue;
                };
                if self.settles(&tx, owner, nonce) {
                    return Ok(Some(hash));
                }
            }
            from = to_block + 1;
        }
        Ok(None)
    }

    /// The first block whose timestamp is at or after `t` (unix seconds), by bisection;
    /// `head + 1` when every block is older.
    async fn first_block_from(&self, t: u64, head: u64) -> Result<u64, SettleError> {
        let (mut lo, mut hi) = (0u64, head + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let block = self
                .reader
                .get_block_by_number(mid.into())
                .await
                .map_err(chain_failure)?
                .ok_or_else(|| SettleError::Chain(format!("block {mid} is missing")))?;
            if block.header.timestamp < t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }
}

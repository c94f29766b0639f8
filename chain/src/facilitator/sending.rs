//! Settle transactions out of the relayer's key: the call, fee caps, signing with the next
//! nonce, the hash recorded before anything is sent, and the send itself
//! (`eth_sendRawTransactionSync` where the node has it, so the answer carries the receipt).

use std::time::Duration;

use alloy::eips::eip1559::Eip1559Estimation;
use alloy::eips::eip2718::Encodable2718 as _;
use alloy::network::{NetworkTransactionBuilder as _, TransactionBuilder as _};
use alloy::primitives::B256;
use alloy::providers::Provider;
use alloy::rpc::types::TransactionReceipt;

use super::{
    Checked, Facilitator, Permit, Record, Relayer, SendFailure, Sent, SettleError, chain_failure,
};
use crate::bindings::IX402ExactPermit2Proxy;
use crate::client::short;

/// How long a fee estimate is used. Fees are capped at twice the base fee plus the tip, so an
/// estimate a second old still pays a block's fee; a refused send drops it.
const FEE_TTL: Duration = Duration::from_secs(1);

/// A send the node did not take, as far as we know.
#[derive(Debug, thiserror::Error)]
pub(super) enum SendError {
    /// The node refused it, in these words.
    #[error("{0}")]
    Node(String),
    /// No answer (or none in time): whether the node has it is unknown.
    #[error("{0}")]
    NoAnswer(String),
}

/// What an error answer to `eth_sendRawTransactionSync` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncRefusal {
    /// The node does not have the method: send with `eth_sendRawTransaction`.
    Unsupported,
    /// Taken, but not mined before the node's own timeout (EIP-7966: code 4).
    NotYetMined,
    /// The transaction itself was refused.
    Refused,
}

/// Reads an error answer to `eth_sendRawTransactionSync`. Nodes word "no such method" in many
/// ways, and a timeout means the transaction is in, so neither is a refusal of it.
pub fn sync_refusal(code: i64, message: &str) -> SyncRefusal {
    let m = message.to_ascii_lowercase();
    if code == -32601
        || (m.contains("method")
            && [
                "not found",
                "not supported",
                "does not exist",
                "not available",
                "unsupported",
                "not allowed",
            ]
            .iter()
            .any(|s| m.contains(s)))
    {
        SyncRefusal::Unsupported
    } else if code == 4 || m.contains("timeout") || m.contains("timed out") {
        SyncRefusal::NotYetMined
    } else {
        SyncRefusal::Refused
    }
}

impl Facilitator {
    /// The proxy's `settle` of `permit`, from the relayer (or the proxy, to simulate without one).
    pub(super) fn settle_request(&self, permit: &Permit) -> alloy::rpc::types::TransactionRequest {
        let (pt, witness) = crate::permit2::settle_args(&permit.permit);
        IX402ExactPermit2Proxy::new(self.proxy, &self.reader)
            .settle(pt, permit.from, witness, permit.signature.clone())
            .into_transaction_request()
            .from(self.relayer_address().unwrap_or(self.proxy))
    }

    /// Fee caps for a send: the estimate of the last [`FEE_TTL`], else a new one.
    pub(super) async fn fees(&self) -> Result<Eip1559Estimation, SettleError> {
        if let Ok(f) = self.fees.lock()
            && let Some((at, fees)) = *f
            && at.elapsed() < FEE_TTL
        {
            return Ok(fees);
        }
        let fees = self
            .reader
            .estimate_eip1559_fees()
            .await
            .map_err(chain_failure)?;
        if let Ok(mut f) = self.fees.lock() {
            *f = Some((std::time::Instant::now(), fees));
        }
        Ok(fees)
    }

    fn forget_fees(&self) {
        if let Ok(mut f) = self.fees.lock() {
            *f = None;
        }
    }

    /// Sends the proxy's `settle` (after `verify`).
    pub async fn submit(&self, permit: &Permit, checked: Checked) -> Result<Sent, SettleError> {
        self.submit_recorded(permit, checked, &|_| Box::pin(async { Ok(()) }))
            .await
    }

    /// Sends the proxy's `settle` with the relayer key. The transaction is signed first and
    /// `record` is given its hash before it is sent, so whoever keeps payments knows the hash
    /// of every transaction that may exist; when `record` fails nothing is sent. Where the node
    /// offers `eth_sendRawTransactionSync` the answer carries the receipt.
    pub async fn submit_recorded(
        &self,
        permit: &Permit,
        checked: Checked,
        record: Record<'_>,
    ) -> Result<Sent, SettleError> {
        let relayer = self
            .relayer
            .as_ref()
            .ok_or_else(|| SettleError::Failed("no relayer key is configured".into()))?;
        let gas = match checked.gas {
            Some(gas) => gas,
            // Not verified here first (a resend by reconciliation): the same simulation now.
            None => self.simulate(permit).await?,
        };
        let call = self.settle_request(permit);
        self.send_from(relayer, call, gas.saturating_add(gas / 5), record)
            .await
    }

    /// Signs `call` with `sender`'s next nonce, gives its hash to `record`, then sends it. A
    /// nonce whose transaction was not sent goes back to the book.
    pub(super) async fn send_from(
        &self,
        sender: &Relayer,
        call: alloy::rpc::types::TransactionRequest,
        gas_limit: u64,
        record: Record<'_>,
    ) -> Result<Sent, SettleError> {
        // Fees before the nonce lock: they read the chain and may take a while.
        let fees = self.fees().await?;
        let nonce = {
            let mut book = sender.nonces.lock().await;
            match book.take() {
                Some(n) => n,
                None => {
                    let pending = self
                        .reader
                        .get_transaction_count(sender.address)
                        .pending()
                        .await
                        .map_err(chain_failure)?;
                    book.start_at(pending);
                    book.take().unwrap_or(pending)
                }
            }
        };
        let give_back = |why: SendFailure| async move {
            sender.nonces.lock().await.failed(nonce, why);
        };
        let request = call
            .from(sender.address)
            .nonce(nonce)
            .gas_limit(gas_limit)
            .max_fee_per_gas(fees.max_fee_per_gas)
            .max_priority_fee_per_gas(fees.max_priority_fee_per_gas)
            .with_chain_id(self.chain_id);
        let envelope = match request.build(&sender.wallet).await {
            Ok(e) => e,
            Err(e) => {
                give_back(SendFailure::NotSent).await;
                return Err(SettleError::Failed(format!("signing the transaction: {e}")));
            }
        };
        let hash = *envelope.tx_hash();
        if let Err(e) = record(hash).await {
            give_back(SendFailure::NotSent).await;
            return Err(SettleError::Failed(format!(
                "the transaction was not sent: {e}"
            )));
        }
        let raw = envelope.encoded_2718();
        match self.send_raw(&raw, hash).await {
            Ok(receipt) => Ok(Sent { tx: hash, receipt }),
            Err(e) => {
                let why = match &e {
                    SendError::Node(message) => SendFailure::of(message),
                    // No answer: whether it arrived is unknown. Used again, the nonce either
                    // fills the gap or is refused as taken.
                    SendError::NoAnswer(_) => SendFailure::NotSent,
                };
                give_back(why).await;
                self.forget_fees();
                Err(SettleError::Chain(e.to_string()))
            }
        }
    }

    /// Hands a signed transaction to the node: with `eth_sendRawTransactionSync` (the receipt
    /// comes back) unless the node has said it does not know that method, then with
    /// `eth_sendRawTransaction`. `Ok(None)`: taken, no receipt of `hash` yet.
    pub(super) async fn send_raw(
        &self,
        raw: &[u8],
        hash: B256,
    ) -> Result<Option<TransactionReceipt>, SendError> {
        use std::sync::atomic::Ordering;
        let failure = |e: &alloy::transports::TransportError| match e.as_error_resp() {
            Some(p) => SendError::Node(short(&p.message)),
            None => SendError::NoAnswer(short(&e.to_string())),
        };
        if !self.no_sync_send.load(Ordering::Relaxed) {
            let sent =
                tokio::time::timeout(self.send_wait, self.reader.send_raw_transaction_sync(raw))
                    .await;
            match sent {
                // A receipt of another transaction is no answer about this one.
                Ok(Ok(receipt)) => return Ok(Some(receipt).filter(|r| r.transaction_hash == hash)),
                Ok(Err(e)) => match e.as_error_resp().map(|p| sync_refusal(p.code, &p.message)) {
                    Some(SyncRefusal::Unsupported) => {
                        tracing::info!(
                            "the node has no eth_sendRawTransactionSync; polling for receipts"
                        );
                        self.no_sync_send.store(true, Ordering::Relaxed);
                    }
                    Some(SyncRefusal::NotYetMined) => return Ok(None),
                    Some(SyncRefusal::Refused) | None => return Err(failure(&e)),
                },
                // No answer in time: taken if the node knows it (then its nonce is used).
                Err(_) => {
                    return match self.reader.get_transaction_by_hash(hash).await {
                        Ok(Some(_)) => Ok(None),
                        _ => Err(SendError::NoAnswer(format!(
                            "the node did not answer the send within {} ms",
                            self.send_wait.as_millis()
                        ))),
                    };
                }
            }
        }
        match self.reader.send_raw_transaction(raw).await {
            Ok(_) => Ok(None),
            Err(e) => Err(failure(&e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_send_answers_are_told_apart() {
        assert_eq!(
            sync_refusal(-32601, "Method not found"),
            SyncRefusal::Unsupported
        );
        assert_eq!(
            sync_refusal(
                -32000,
                "the method eth_sendRawTransactionSync does not exist/is not available"
            ),
            SyncRefusal::Unsupported
        );
        assert_eq!(
            sync_refusal(
                4,
                "The transaction was added to the mempool but wasn't processed within the designated timeout"
            ),
            SyncRefusal::NotYetMined
        );
        assert_eq!(sync_refusal(-32000, "nonce too low"), SyncRefusal::Refused);
        assert_eq!(
            sync_refusal(-32003, "insufficient funds for gas * price + value"),
            SyncRefusal::Refused
        );
    }
}

//! The built-in x402 v2 facilitator for `exact` + Permit2 on one chain: the reference checks
//! before any money moves, submission of the proxy's `settle` by a relayer key, and
//! confirmation from the receipt's USDG `Transfer` (never from anyone's word).
//!
//! Its parts, in the order a payment meets them:
//! - `terms`: the checks that need no chain;
//! - `signatures`: who signed the permit, and `verify`, the checks in their order;
//! - `simulation`: the settle call simulated, and which check a revert fails;
//! - `sending`: fee caps, signing, recording and sending the settle;
//! - `nonces`: the sending keys' nonces;
//! - `sponsoring`: the chain's side of a sponsored approval;
//! - `evidence`: receipts, transaction status and the search for a lost settlement.

use std::time::Duration;

use alloy::eips::eip1559::Eip1559Estimation;
use alloy::primitives::{Address, B256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;

use crate::client::short;
use journal_market_x402::facilitator::{Checked, Invalid, Permit, Record, Sent, SettleError};
use journal_market_x402::{PaymentPayload, PaymentRequirements, SettleResponse};

mod evidence;
mod nonces;
mod sending;
mod signatures;
mod simulation;
mod sponsoring;
mod terms;

pub use evidence::{Head, TxStatus};
use nonces::Relayer;
pub use nonces::{NonceBook, SendFailure};
use sending::SendError;
pub use sending::{SyncRefusal, sync_refusal};
pub use sponsoring::{FUNDING_GAS, Funding};
pub use terms::check_terms;
use terms::invalid;

/// `errorReason` of a `/settle` answer whose transaction was sent but had no receipt in time.
pub const RECEIPT_TIMEOUT: &str = "settle_receipt_timeout";
/// `errorReason` of a `/settle` answer that failed other than by a check.
pub const UNEXPECTED: &str = "unexpected_settle_error";

/// One chain's facilitator: what it reads with, the keys it sends with, and what it remembers
/// between sends (nonces, the last fee estimate, whether the node has the sync send).
pub struct Facilitator {
    chain_id: u64,
    usdg: Address,
    permit2: Address,
    proxy: Address,
    reader: DynProvider,
    relayer: Option<std::sync::Arc<Relayer>>,
    /// The key that funds sponsored approvals' gas; none: nothing is sponsored.
    sponsor: Option<std::sync::Arc<Relayer>>,
    receipt_timeout: Duration,
    /// How long a send waits for the node's answer (with `eth_sendRawTransactionSync`, the
    /// receipt).
    send_wait: Duration,
    /// Set once the node has said it does not know `eth_sendRawTransactionSync`.
    no_sync_send: std::sync::atomic::AtomicBool,
    /// The last fee estimate and when it was made: one `eth_feeHistory` per `sending::FEE_TTL`,
    /// not one per settle.
    fees: std::sync::Mutex<Option<(std::time::Instant, Eip1559Estimation)>>,
}

/// A failed call to the chain, its text shortened (it may carry a provider's URL).
fn chain_failure(e: impl std::fmt::Display) -> SettleError {
    SettleError::Chain(short(&e.to_string()))
}

impl Facilitator {
    /// `relayer` signs the settle transactions; without it the facilitator only verifies.
    pub fn new(
        rpc_url: &str,
        chain_id: u64,
        usdg: Address,
        permit2: Address,
        proxy: Address,
        relayer: Option<PrivateKeySigner>,
    ) -> anyhow::Result<Self> {
        let url: alloy::transports::http::reqwest::Url = rpc_url.parse()?;
        let reader = ProviderBuilder::new().connect_http(url).erased();
        Ok(Self::with_reader(
            reader, chain_id, usdg, permit2, proxy, relayer,
        ))
    }

    /// As [`Facilitator::new`], over a provider built elsewhere (the chain client).
    pub fn with_reader(
        reader: DynProvider,
        chain_id: u64,
        usdg: Address,
        permit2: Address,
        proxy: Address,
        relayer: Option<PrivateKeySigner>,
    ) -> Self {
        let relayer = relayer.map(|s| std::sync::Arc::new(Relayer::new(s)));
        Facilitator {
            chain_id,
            usdg,
            permit2,
            proxy,
            reader,
            sponsor: None,
            relayer,
            receipt_timeout: Duration::from_secs(60),
            send_wait: Duration::from_secs(10),
            no_sync_send: std::sync::atomic::AtomicBool::new(false),
            fees: std::sync::Mutex::new(None),
        }
    }

    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    pub fn permit2(&self) -> Address {
        self.permit2
    }

    pub fn network(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    /// A read-only provider for the chain.
    pub fn reader(&self) -> &DynProvider {
        &self.reader
    }

    pub fn relayer_address(&self) -> Option<Address> {
        self.relayer.as_ref().map(|r| r.address)
    }

    /// How long a send waits for the node's answer before its fate is left to the chain.
    pub fn with_send_wait(mut self, wait: Duration) -> Self {
        self.send_wait = wait;
        self
    }

    /// How long `/settle` waits for a receipt before answering with the hash alone.
    pub fn with_receipt_timeout(mut self, wait: Duration) -> Self {
        self.receipt_timeout = wait;
        // A send answered with the receipt is part of that wait.
        self.send_wait = self.send_wait.min(wait);
        self
    }

    /// verify + submit + confirm: the facilitator's `/settle`. A hash, once signed, is in
    /// every answer that follows (also a failed or timed-out one): it is the caller's evidence.
    pub async fn settle(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> SettleResponse {
        let payer = p.payload.permit2_authorization.from.clone();
        let answer = |tx: Option<B256>, failure: Option<(&str, String)>| SettleResponse {
            success: failure.is_none(),
            transaction: tx.map(|t| format!("{t:#x}")).unwrap_or_default(),
            network: self.network(),
            payer: payer.clone(),
            error_reason: failure.as_ref().map(|f| f.0.to_string()),
            error_message: failure.map(|f| f.1),
            extensions: None,
        };
        let (permit, checked) = match self.verify(p, r, now).await {
            Ok(v) => v,
            Err(SettleError::Invalid(i)) => return answer(None, Some((i.code, i.message))),
            Err(e) => return answer(None, Some((UNEXPECTED, e.to_string()))),
        };
        let signed = std::sync::Mutex::new(None);
        let record = |tx: B256| -> futures::future::BoxFuture<'_, Result<(), String>> {
            if let Ok(mut s) = signed.lock() {
                *s = Some(tx);
            }
            Box::pin(async { Ok(()) })
        };
        let sent = self.submit_recorded(&permit, checked, &record).await;
        let hash = signed.lock().ok().and_then(|s| *s);
        let (tx, receipt) = match (sent, hash) {
            (Ok(sent), _) => (sent.tx, sent.receipt),
            (Err(e), hash) => return answer(hash, Some((UNEXPECTED, e.to_string()))),
        };
        let (from, to, amount) = (
            permit.from,
            permit.permit.witness.to,
            permit.permit.permitted.amount,
        );
        let receipt = match receipt {
            Some(r) => Ok(Some(r)),
            None => self.receipt(tx).await,
        };
        match receipt {
            Ok(Some(r)) if self.transfer_in(&r, from, to, amount) => answer(Some(tx), None),
            Ok(Some(_)) => answer(
                Some(tx),
                Some((
                    "settle_transaction_failed",
                    format!("transaction {tx:#x} moved no matching USDG"),
                )),
            ),
            Ok(None) => answer(
                Some(tx),
                Some((
                    RECEIPT_TIMEOUT,
                    format!("transaction {tx:#x} was sent; its receipt did not come in time"),
                )),
            ),
            Err(e) => answer(Some(tx), Some((UNEXPECTED, e.to_string()))),
        }
    }
}

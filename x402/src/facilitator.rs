//! The facilitator's side of a payment as both settlers see it (the built-in one that sends
//! the proxy's `settle` itself, and a standard facilitator over HTTP): the trait they
//! implement and the values it passes. The trait names the only I/O: verifying against the
//! chain and submitting.

use alloy::primitives::{Address, B256, Bytes};
use alloy::rpc::types::TransactionReceipt;
use futures::future::BoxFuture;

use crate::permit2::PermitWitnessTransferFrom;
use crate::{PaymentPayload, PaymentRequirements};

/// A settlement back-end: the built-in facilitator or an outside one. Neither is trusted for
/// the outcome: the caller settles a payment from the chain.
pub trait Settler: Send + Sync {
    /// Every check before money moves, for a permit whose signature is verified already.
    fn verify<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        permit: &'a Permit,
    ) -> BoxFuture<'a, Result<Checked, SettleError>>;

    /// Settles a verified payment (`checked`: what its verification learned, or the default).
    /// Every transaction hash the back-end makes known is given to `record` (before sending,
    /// for the built-in settler). `Ok` carries the hash sent, with the node's receipt of it
    /// when the send answered with one; an error leaves the outcome to the chain: the caller
    /// never takes it as proof of anything.
    fn submit<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        permit: &'a Permit,
        checked: Checked,
        record: Record<'a>,
    ) -> BoxFuture<'a, Result<Sent, SettleError>>;

    /// The relayer key this back-end sends with, if it is ours (one instance at a time may
    /// send with it).
    fn relayer(&self) -> Option<Address>;

    /// A reorg took back transactions of ours: the nonces counted past them are read from the
    /// chain again before the next send (an outside facilitator keeps its own).
    fn resync_nonces(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// Why settlement did not happen.
#[derive(Debug, thiserror::Error)]
pub enum SettleError {
    #[error("{0}")]
    Invalid(Invalid),
    #[error("the settlement transaction failed: {0}")]
    Failed(String),
    #[error("the chain could not be reached: {0}")]
    Chain(String),
}

/// A payment that must not be settled, with the reference error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub code: &'static str,
    pub message: String,
}

/// A permit read out of a payload, numbers parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Permit {
    pub from: Address,
    pub permit: PermitWitnessTransferFrom,
    pub signature: Bytes,
}

/// What verifying a permit learned that sending it can use.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// The settle call's gas estimate (the estimate is the simulation).
    pub gas: Option<u64>,
}

/// A settle transaction handed to the node.
#[derive(Debug, Clone)]
pub struct Sent {
    pub tx: B256,
    /// The node's receipt of this very transaction, when it answered the send with it
    /// (`eth_sendRawTransactionSync`). The transaction is the `settle` of the permit it was
    /// signed for, so its receipt alone says whether the permit paid.
    pub receipt: Option<TransactionReceipt>,
}

/// Called with the hash of a signed settle transaction before it is sent; an error stops the
/// send.
pub type Record<'a> =
    &'a (dyn Fn(B256) -> futures::future::BoxFuture<'a, Result<(), String>> + Send + Sync);

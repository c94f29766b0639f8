//! What a payment step comes to: the step asked for, its answer, its errors, and how far
//! one row got. The vocabulary the request path, the rows and reconciliation share.

use alloy::primitives::{Address, B256};
use chrono::{DateTime, Utc};
use journal_market_domain::purchase::{Refusal, Step};
use journal_market_domain::wallet::Wallet;
use journal_market_x402::facilitator::SettleError;
use journal_market_x402::{PaymentPayload, PaymentRequirements};
use sea_orm::DbErr;

/// One payment step to settle. Who pays is the payload's signer, proven inside.
#[derive(Debug, Clone)]
pub struct PayStep {
    pub journal_id: i32,
    /// The journal's author, for the "you wrote it" rule.
    pub author_wallet: Option<Wallet>,
    pub swarm: bool,
    pub step: Step,
    pub amount_units: i64,
    pub pay_to: Address,
    pub payload: PaymentPayload,
    pub requirements: PaymentRequirements,
    /// The payload's x402 `payment-identifier`, if it carries one (checked well-formed).
    pub payment_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paid {
    /// The step is settled by this transaction: by this request, or by the first request with
    /// this request's payment-identifier and payment (a retry gets the first answer).
    /// `at`: when the payment arrived (its row's creation), the time its receipt states.
    Settled {
        payer: Address,
        tx: B256,
        at: DateTime<Utc>,
    },
    /// The permit was settled by an earlier request, and this one has no claim to its answer:
    /// a permit is public once settled, so it proves the payment, not who is asking.
    Used {
        payer: Address,
        tx: B256,
        at: DateTime<Utc>,
    },
    /// The fee of a person-written journal was paid already: `{ ok, already }`.
    FeeAlreadyPaid,
}

#[derive(Debug, thiserror::Error)]
pub enum PayError {
    /// The payload must not be settled, or settling it failed without moving money (402).
    #[error("{0}")]
    Rejected(String),
    /// The purchase rules refuse the signer (409).
    #[error("{0}")]
    Refused(Refusal),
    /// The step's payment is on its way; the outcome is not known yet (409 + Retry-After).
    #[error("the payment for this step is still settling; retry the same request shortly")]
    StillSettling,
    /// The payment-identifier came first with another payment (409).
    #[error(
        "this payment-identifier was already used with another payment; use a new id for a new payment"
    )]
    IdReused,
    /// The in-flight limit is full (503 + Retry-After).
    #[error("payments are busy; retry shortly")]
    Busy,
    #[error("the chain could not be reached: {0}")]
    Chain(String),
    #[error("the settlement actor is restarting; retry shortly")]
    Stopped,
    #[error("the payment store failed")]
    Db(#[from] DbErr),
    /// A test fault point stopped the settlement, as a crash would (only in builds with the
    /// `faults` feature).
    #[error("settlement interrupted by a fault point")]
    Interrupted,
}

pub(super) fn rejected(e: SettleError) -> PayError {
    match e {
        SettleError::Invalid(i) => PayError::Rejected(i.message),
        SettleError::Chain(e) => PayError::Chain(e),
        SettleError::Failed(e) => PayError::Rejected(format!("settlement failed: {e}")),
    }
}

/// The outcome of settling one row, as far as it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RowState {
    Settled(B256),
    Failed(String),
    Pending,
}

//! `payments` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{PaymentState, TxHash, Wallet};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "payments")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub wallet: Wallet,
    pub journal_id: i32,
    pub step: String,
    pub amount_units: i64,
    pub pay_to: Wallet,
    pub permit_nonce: String,
    pub permit_deadline: DateTimeUtc,
    #[sea_orm(column_type = "Text")]
    pub payload: String,
    pub state: PaymentState,
    pub tx: Option<TxHash>,
    #[sea_orm(column_type = "Text")]
    pub error: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The instance working on a pending row, and until when (reconciliation waits for it).
    pub lease_owner: Option<String>,
    pub lease_until: Option<DateTimeUtc>,
    /// When reconciliation looks at the row next (backoff), and how often it has.
    pub next_check_at: Option<DateTimeUtc>,
    pub attempts: i32,
    /// The client's x402 `payment-identifier`, and a fingerprint of the payment it came with.
    pub payment_id: Option<String>,
    pub fingerprint: Option<String>,
    /// The block a settled row's transaction was mined in, as last seen; when that became
    /// final (`chain.reorg_safe_distance` deep); when a reorg dropped it (back to pending).
    pub block_number: Option<i64>,
    pub block_hash: Option<String>,
    pub final_at: Option<DateTimeUtc>,
    pub reorged_at: Option<DateTimeUtc>,
    /// The permit's signature, normalized (`signature::key`): one wallet per signature.
    pub signature_key: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

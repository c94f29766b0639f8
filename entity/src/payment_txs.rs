//! `payment_txs` table: every transaction hash learned for a payment (sent by us, answered by
//! a facilitator, or found on the chain). A hash belongs to one payment.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::TxHash;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "payment_txs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub tx: TxHash,
    pub payment_id: i32,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

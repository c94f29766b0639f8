//! `sponsorships` table: each approval whose gas the service funded (x402
//! `erc20ApprovalGasSponsoring`), with the payment it was for. `state`: `sending` (written
//! before anything is sent), `approved` (the approval is mined), `failed` (funding or approval
//! did not go through; `funded_wei` still says what left the sponsor).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{TxHash, Wallet};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "sponsorships")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub payment_id: i32,
    pub wallet: Wallet,
    #[sea_orm(unique)]
    pub approval_tx: TxHash,
    pub funding_tx: Option<TxHash>,
    pub funded_wei: i64,
    pub state: String,
    pub error: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

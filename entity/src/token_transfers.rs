//! `token_transfers` table: a `Transfer` of the community token; `amount` in base units.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "token_transfers")]
pub struct Model {
    /// The key is the log's place in the chain: (block, log_index).
    #[sea_orm(primary_key, auto_increment = false)]
    pub block: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub log_index: i32,
    pub tx: String,
    pub sender: String,
    pub recipient: String,
    pub amount: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

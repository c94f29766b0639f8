//! `token_transfers` table: a `Transfer` of the community token; `amount` in base units.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "token_transfers")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub tx: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub log_index: i32,
    pub block: i64,
    pub sender: String,
    pub recipient: String,
    pub amount: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

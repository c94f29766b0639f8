//! `swaps` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "swaps")]
pub struct Model {
    /// The key is the log's place in the chain: (block, log_index).
    #[sea_orm(primary_key, auto_increment = false)]
    pub block: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub log_index: i32,
    pub tx: String,
    pub amount0: String,
    pub amount1: String,
    pub sqrt_price_x96: String,
    pub block_time: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

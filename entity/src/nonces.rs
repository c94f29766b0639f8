//! `nonces` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "nonces")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub nonce: String,
    pub address: String,
    #[sea_orm(column_type = "Text")]
    pub message: String,
    pub expires_at: DateTimeUtc,
    pub used_at: Option<DateTimeUtc>,
    /// Failed signatures so far; at the limit the nonce is used up.
    pub failures: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

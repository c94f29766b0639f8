//! `burns` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "burns")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub tx: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub log_index: i32,
    pub block: i64,
    pub amount: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

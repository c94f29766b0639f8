//! `sitting_logs` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "sitting_logs")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub sitting_id: i64,
    pub ts: DateTimeUtc,
    pub desk: String,
    pub level: String,
    #[sea_orm(column_type = "Text")]
    pub message: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

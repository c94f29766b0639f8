//! `sittings` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "sittings")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    pub date: Date,
    pub started_at: DateTimeUtc,
    pub finished_at: Option<DateTimeUtc>,
    #[sea_orm(column_type = "Text")]
    pub note: String,
    pub leads: i32,
    pub filed: i32,
    pub spend_usd: f64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

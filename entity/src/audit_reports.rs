//! `audit_reports` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "audit_reports")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub journal_id: i32,
    pub verdict: String,
    pub score: f64,
    #[sea_orm(column_type = "Text")]
    pub summary: String,
    pub issues: Json,
    pub engine: String,
    pub audited_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

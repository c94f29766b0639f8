//! `entries` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "entries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub accession: String,
    pub ticker: String,
    pub date_of_record: Date,
    pub kind: String,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub summary: String,
    pub source_name: String,
    #[sea_orm(column_type = "Text")]
    pub canonical_url: String,
    #[sea_orm(column_type = "Text")]
    pub says: String,
    pub verified: bool,
    pub merged: bool,
    pub story_id: Option<i32>,
    pub story_seq: Option<i32>,
    pub sitting_id: Option<i64>,
    pub filed_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

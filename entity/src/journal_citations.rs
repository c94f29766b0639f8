//! `journal_citations` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "journal_citations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub journal_id: i32,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub accession: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

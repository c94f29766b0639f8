//! `unlocks` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Wallet;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "unlocks")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub wallet: Wallet,
    #[sea_orm(primary_key, auto_increment = false)]
    pub journal_id: i32,
    pub paid_units: i64,
    pub paid_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

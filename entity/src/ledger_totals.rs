//! `ledger_totals` table: the running totals of the indexed swaps and burns and the number of
//! holders, one row per index (the cursor's name), kept by the indexer in the transactions that
//! write and remove those rows. Sums are decimal strings of integers (`domain::ledger::Totals`,
//! see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "ledger_totals")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    pub swaps: i64,
    pub volume0: String,
    pub volume1: String,
    pub paid_in0: String,
    pub paid_in1: String,
    pub sold0: String,
    pub sold1: String,
    pub sold_value0: String,
    pub sold_value1: String,
    pub burned: String,
    pub holders: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

//! `journals` table (see the migration crate for the schema).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{JournalStatus, TxHash, Wallet};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "journals")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub slug: Option<String>,
    pub ticker: String,
    pub swarm: bool,
    pub author_wallet: Option<Wallet>,
    pub author_name: String,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub dek: String,
    #[sea_orm(column_type = "Text")]
    pub body: String,
    pub price_units: i64,
    pub status: JournalStatus,
    pub content_hash: Option<String>,
    pub meta_url: Option<String>,
    pub token_id: Option<String>,
    pub mint_tx: Option<TxHash>,
    pub stock_price_at_publication: Option<f64>,
    pub author_holds_stock: Option<bool>,
    pub audit_count: i32,
    /// Bumped by every save: an audit applies only to the revision it read.
    pub revision: i32,
    pub published_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The block the registration was mined in, as last seen, and when it became final.
    pub mint_block: Option<i64>,
    pub mint_final_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

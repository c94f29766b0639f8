//! `vote_events` table: a `NewFeedback` (`kind` = `feedback`) or `FeedbackRevoked` (`revoke`)
//! of the reputation registry about a journal; `valid` says whether a feedback met the vote
//! rules when it was applied (`reason` says why not).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "vote_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub tx: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub log_index: i32,
    pub block: i64,
    pub kind: String,
    pub wallet: String,
    pub journal_id: i32,
    pub feedback_index: i64,
    pub value: i16,
    pub tag: String,
    pub valid: bool,
    #[sea_orm(column_type = "Text", nullable)]
    pub reason: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

//! `audit_jobs` table: an audit asked for, written before the engine runs; `state` is
//! `queued`, `running`, `done`, `failed` or `superseded` (the draft changed while it waited or
//! ran: ended without a report, and when it had not reached the engine yet, without running it).

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};

use crate::JobState;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, Serialize, Deserialize)]
#[sea_orm(table_name = "audit_jobs")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub journal_id: i32,
    pub revision: i32,
    pub state: JobState,
    pub lease_owner: Option<String>,
    pub lease_until: Option<DateTimeUtc>,
    pub attempts: i32,
    pub report_id: Option<i32>,
    #[sea_orm(column_type = "Text", nullable)]
    pub error: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

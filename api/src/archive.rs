//! The archive's entries: the export rows, the detail, the search rows.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::journals::Company;

/// A row of `GET /entries.json` (snake_case, as the interface gives it).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct EntryRow {
    pub id: String,
    pub ticker: String,
    pub date_of_record: String,
    pub kind: String,
    pub desk: String,
    pub title: String,
    pub summary: String,
    pub source_name: String,
    pub canonical_url: String,
    pub stamp: String,
    pub merged: u8,
    pub story_title: Option<String>,
    pub story_slug: Option<String>,
    pub story_seq: Option<i32>,
    pub sitting_id: Option<i64>,
    pub filed_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct EntrySource {
    pub name: String,
    pub url: String,
    pub says: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EntryDetail {
    pub id: String,
    pub company: Company,
    pub date_of_record: String,
    pub kind: String,
    pub desk: String,
    pub title: String,
    pub summary: String,
    pub source: EntrySource,
    pub verified: bool,
    pub story: Option<String>,
    pub filed_at: String,
    pub url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct EntrySearchRow {
    pub id: String,
    pub date_of_record: String,
    pub kind: String,
    pub title: String,
    pub summary: String,
    pub source_name: String,
}

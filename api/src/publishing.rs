//! Publishing and voting: drafts, audits, registration files, minted journals, votes.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

use super::journals::{AuditIssue, Votes};
use super::numbers::integral;

/// `POST /journal/save`: a draft. Without `id` it creates one; with `id` it updates one of the
/// caller's own drafts and resets it to `draft`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DraftInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    pub ticker: String,
    pub title: String,
    /// The free preview, 120 to 340 characters.
    pub dek: String,
    /// `## ` sections citing archive entries by accession number in square brackets.
    pub body: String,
    pub price_usdg: f64,
    pub author_name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Saved {
    pub id: i64,
}

/// `POST /journal/audit` and `GET /journal/{id}/draft`'s journal id.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct JournalRef {
    #[serde(deserialize_with = "integral")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 2147483647))]
    pub id: i64,
}

/// An audit report. `verdict`: `approve`, `revise` or `reject`; `severity`: `critical`,
/// `major` or `minor`; `check` names are listed in docs/audit-engine.md.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditReport {
    pub verdict: String,
    pub score: f64,
    pub summary: String,
    pub issues: Vec<AuditIssue>,
    pub engine: String,
    pub audited_at: String,
    /// Each sentence of the body that restates a cited entry, with the entry's sentence it
    /// rests on (an extra field, for the draft's current text).
    #[serde(default)]
    pub support: Vec<AuditSupport>,
}

/// A sentence of record of a draft, how it stands against the cited entries, and a sentence of
/// an entry it rests on.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditSupport {
    pub sentence: String,
    /// The entry's accession number.
    pub entry: String,
    /// The entry's sentence it rests on (for an unsupported sentence, the nearest).
    pub quote: String,
    /// `supported`, `contradicted` or `unsupported`.
    #[serde(default)]
    pub judgement: String,
    /// What the sentence states that no sentence it rests on holds, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// `POST /journal/audit`'s answer: the draft's new status, the report, and on approval the
/// address of the registration file to register onchain.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditOutcome {
    pub status: String,
    pub report: AuditReport,
    pub meta_url: Option<String>,
}

/// `POST /journal/minted`: the journal and the transaction that registered it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct MintedInput {
    #[serde(deserialize_with = "integral")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 2147483647))]
    pub id: i64,
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{64}$"))]
    pub tx: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Published {
    pub slug: String,
}

/// `GET /journal/{id}/draft`: the author's own journal in any status, with its last report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DraftView {
    pub id: i64,
    pub status: String,
    pub ticker: String,
    pub title: String,
    pub dek: String,
    pub body: String,
    pub price_usdg: f64,
    pub price_units: String,
    pub author_name: String,
    pub slug: Option<String>,
    pub meta_url: Option<String>,
    pub content_hash: Option<String>,
    pub token_id: Option<u64>,
    pub mint_tx: Option<String>,
    pub author_holds_stock_token: Option<bool>,
    /// Audits that ended with a report, and how many more this draft may have.
    pub audits: i64,
    pub audits_left: i64,
    pub report: Option<AuditReport>,
    pub updated_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct RegistrationService {
    pub name: String,
    pub endpoint: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegistrationEntry {
    pub agent_id: u64,
    /// `eip155:<chain id>:<identity registry>`.
    pub agent_registry: String,
}

/// `GET /meta/{id}`: the ERC-8004 registration file of an approved or live journal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegistrationFile {
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub description: String,
    pub image: String,
    pub services: Vec<RegistrationService>,
    pub x402_support: bool,
    pub active: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registrations: Option<Vec<RegistrationEntry>>,
    pub supported_trust: Vec<String>,
    /// keccak-256 of the journal's text, 0x-hex.
    pub content_hash: Option<String>,
}

/// `POST /votes/record`: the vote transaction.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VoteInput {
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{64}$"))]
    pub tx: String,
}

/// `POST /votes/record`'s answer: the vote the transaction cast, whether it is the wallet's
/// standing vote on the journal (false when a newer vote of the same wallet replaced it), and
/// the journal's counts after it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VoteRecorded {
    pub ok: bool,
    pub slug: String,
    pub value: i64,
    pub tag: String,
    pub tx: String,
    pub counted: bool,
    pub votes: Votes,
}

//! The wire types of the API: the one definition both the server and this client use, so the
//! JSON the server writes and the JSON the client reads cannot drift apart.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Every error answer: `{ "error": "<what happened>" }`, plus `problems` on 422.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ErrorBody {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Company {
    pub ticker: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Author {
    pub name: String,
    pub wallet: Option<String>,
    pub swarm: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Votes {
    pub up: i64,
    pub down: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JournalListItem {
    pub journal_id: i64,
    pub slug: String,
    pub url: String,
    pub company: Company,
    pub title: String,
    pub preview: String,
    pub author: Author,
    pub price_usdg: f64,
    pub price_units: String,
    pub signatures: u8,
    pub read_minutes: i64,
    pub entries_cited: i64,
    pub audit_score: f64,
    pub readers: i64,
    pub votes: Votes,
    pub published_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct JournalList {
    pub journals: Vec<JournalListItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AuditIssue {
    pub severity: String,
    pub check: String,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AuditSummary {
    pub verdict: String,
    pub score: f64,
    pub summary: String,
    pub issues: Vec<AuditIssue>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub n: i64,
    pub id: String,
    pub date: String,
    pub kind: String,
    pub title: String,
    pub source: String,
    pub source_url: String,
    pub url: String,
    /// The entry's sentences the journal's claims restate, in the order it restates them (an
    /// extra field: what a reader can check each claim against).
    #[serde(default)]
    pub quotes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Covers {
    pub from: Option<String>,
    pub to: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JournalDetail {
    #[serde(flatten)]
    pub item: JournalListItem,
    pub audit: AuditSummary,
    pub evidence: Vec<Evidence>,
    pub covers: Covers,
    pub stock_token_price_at_publication: Option<f64>,
    pub author_holds_stock_token: Option<bool>,
    pub token_id: Option<u64>,
    pub mint_tx: Option<String>,
    /// Whether the registration that minted `tokenId` is `chain.reorg_safe_distance` blocks
    /// deep (until then a reorg may drop it or change the id; the service re-checks it).
    #[serde(default)]
    pub token_final: bool,
    pub content_hash: Option<String>,
    pub unlocked: bool,
    pub body: Option<String>,
}

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

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConfigInfo {
    pub chain_id: u64,
    pub usdg: String,
    pub usdg_decimals: u8,
    pub permit2_proxy: String,
    pub identity_registry: String,
    pub reputation_registry: String,
    pub payments_open: bool,
    pub wc_project_id: Option<String>,
    pub origin: String,
    /// The address that signs purchase receipts (x402 offer-receipt), when receipts are on.
    #[serde(default)]
    pub receipt_signer: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Sitting {
    pub id: i64,
    pub date: String,
    pub started_at: String,
    pub finished_at: String,
    pub note: String,
    pub leads: i64,
    pub filed: i64,
    pub spend_usd: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct LogLine {
    pub ts: String,
    pub desk: String,
    pub level: String,
    pub message: String,
}

/// `GET /swarm.json`: `sitting` is null (and `log` empty) before any sitting has finished.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct SwarmRun {
    pub sitting: Option<Sitting>,
    pub log: Vec<LogLine>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Me {
    pub address: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Health {
    pub status: String,
}

/// `GET /health/ready`: each part is `ok` or a sentence saying what is wrong.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Readiness {
    pub status: String,
    pub database: String,
    pub migrations: String,
    /// `ok`, or why payments and chain reads are unavailable.
    pub chain: String,
    pub chain_head: Option<u64>,
    /// `ok` (an outside facilitator answers), `built-in` (payments settle here), or why the
    /// facilitator is unusable (payments are closed meanwhile).
    #[serde(default)]
    pub facilitator: String,
    /// `ok`, or which actors are dead or stale (`/health/actors` has the detail).
    #[serde(default)]
    pub actors: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `GET /quote/{ticker}`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Quote {
    pub ticker: String,
    pub mid: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct NonceRequest {
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{40}$"))]
    pub address: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct NonceResponse {
    pub nonce: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VerifyRequest {
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x[0-9a-fA-F]{40}$"))]
    pub address: String,
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9]{1,64}$"))]
    pub nonce: String,
    /// `personal_sign` signature over the issued message, 0x-hex.
    #[cfg_attr(feature = "openapi", schema(pattern = "^0x([0-9a-fA-F]{2})+$"))]
    pub signature: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeskTotals {
    pub earned_units: i64,
    pub live: i64,
    pub reads: i64,
}

/// A journal on its author's desk; `slug` is null until an audit approves it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct DeskItem {
    pub id: i64,
    pub slug: Option<String>,
    pub ticker: String,
    pub title: String,
    pub status: String,
    pub reads: i64,
    pub earned: i64,
    pub up: i64,
    pub down: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Desk {
    pub address: String,
    pub totals: DeskTotals,
    pub written: Vec<DeskItem>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct UnlockItem {
    pub slug: String,
    pub title: String,
    pub ticker: String,
    pub author_name: String,
    pub paid_units: i64,
    pub paid_at: String,
    /// The signed receipt of the payment that completed the purchase (x402 offer-receipt,
    /// EIP-712), when receipts are on and the purchase was paid here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub receipt: Option<serde_json::Value>,
    /// Whether every payment of the purchase is `chain.reorg_safe_distance` blocks deep.
    #[serde(rename = "final", default)]
    pub is_final: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct VoteItem {
    pub slug: String,
    pub title: String,
    pub ticker: String,
    pub value: i64,
    pub tag: String,
    pub tx: String,
    pub created_at: String,
    /// Whether the vote's block is `chain.reorg_safe_distance` blocks deep.
    #[serde(rename = "final", default)]
    pub is_final: bool,
}

/// A purchase taken back: its payment was dropped by a reorg and could not be paid again (the
/// permit expired or was spent elsewhere), so the unlock was withdrawn.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct WithdrawnItem {
    pub slug: String,
    pub title: String,
    pub ticker: String,
    /// `burn` or `author`: the payment step that was taken back.
    pub step: String,
    pub paid_units: i64,
    pub withdrawn_at: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct History {
    pub address: String,
    pub unlocks: Vec<UnlockItem>,
    pub votes: Vec<VoteItem>,
    #[serde(default)]
    pub withdrawn: Vec<WithdrawnItem>,
}

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

/// A sentence of a draft and the cited entry's sentence that supports it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditSupport {
    pub sentence: String,
    /// The entry's accession number.
    pub entry: String,
    pub quote: String,
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

/// One burn of the community token.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Burn {
    pub tx: String,
    /// Whole tokens.
    pub amount: f64,
    pub block: u64,
}

/// `GET /token.json`: the community token's ledger (null until the token is configured).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TokenLedger {
    pub ca: String,
    pub pool: String,
    pub block: Option<u64>,
    pub caught_up: bool,
    pub updated_at: Option<String>,
    pub pool_fee_pct: f64,
    pub creator_share_pct: f64,
    pub buyback_pct: f64,
    pub swaps: u64,
    pub volume_weth: f64,
    pub fees_value_weth: f64,
    pub fees_weth: f64,
    pub fees_dove: f64,
    pub committed_value_weth: f64,
    pub committed_weth: f64,
    pub committed_dove: f64,
    pub fees_usd: Option<f64>,
    pub committed_usd: Option<f64>,
    pub burned: f64,
    pub burned_pct: f64,
    pub burns: Vec<Burn>,
    pub price_usd: Option<f64>,
    pub market_cap_usd: Option<f64>,
    pub volume24h_usd: Option<f64>,
    pub holders_total: u64,
}

/// A JSON number that is an integer, however it is written (`12`, `12.0`, `1.2e1`): JSON
/// Schema's `integer` is the number's value, not its spelling.
pub fn integral<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    n.as_i64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        })
        .ok_or_else(|| serde::de::Error::custom(format!("{n} is not an integer")))
}

/// As [`integral`], for an optional field (absent or null: `None`).
pub fn integral_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(deserialize_with = "integral")] i64);
    Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_by_value() {
        let id = |s: &str| serde_json::from_str::<JournalRef>(s).map(|r| r.id);
        assert_eq!(id(r#"{"id": 12}"#).unwrap(), 12);
        assert_eq!(id(r#"{"id": 12.0}"#).unwrap(), 12);
        assert_eq!(id(r#"{"id": 1.2e1}"#).unwrap(), 12);
        assert!(id(r#"{"id": 12.5}"#).is_err());
        assert!(id(r#"{"id": "12"}"#).is_err());
        assert!(id(r#"{"id": 1e300}"#).is_err());
    }
}

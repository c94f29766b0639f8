//! Sign-in and a wallet's own views: the nonce and its verification, the desk, the history.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

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

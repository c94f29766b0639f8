//! `GET /token.json`: the community token's ledger.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

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

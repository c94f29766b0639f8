//! The service's own answers: its configuration, the swarm's log, the caller, health, quotes.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

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

//! What the server says about itself: the protocol versions it speaks, `initialize`,
//! `server/discover` and the capabilities. Pure.

use serde_json::{Value, json};

/// The versions reached through `initialize`, oldest first.
pub const HANDSHAKE_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
/// The stateless version: no `initialize`, each request carries its own `_meta` envelope. This
/// server is stateless for every version, so it serves those requests as any other.
pub const MODERN_VERSION: &str = "2026-07-28";

/// The server's name as MCP clients and the server card show it.
pub const SERVER_NAME: &str = "journal-market";

/// Every version this server answers, oldest first.
pub fn supported_versions() -> Vec<&'static str> {
    let mut v = HANDSHAKE_VERSIONS.to_vec();
    v.push(MODERN_VERSION);
    v
}

/// The version `initialize` answers: the client's when this server speaks it, else the newest
/// reached through `initialize` (the client then decides whether it can go on).
pub fn negotiate(asked: Option<&str>) -> &'static str {
    HANDSHAKE_VERSIONS
        .iter()
        .find(|v| Some(**v) == asked)
        .copied()
        .unwrap_or(HANDSHAKE_VERSIONS[HANDSHAKE_VERSIONS.len() - 1])
}

pub fn capabilities() -> Value {
    json!({
        "tools": { "listChanged": false },
        "resources": { "listChanged": false, "subscribe": false },
    })
}

pub const INSTRUCTIONS: &str = "Research journals about listed companies, citing entries of a \
public archive. Free: search_entries, get_entry, list_journals, get_journal (a journal's preview, \
its audit and evidence). Paid: read_journal, with the x402 MCP binding: a call without payment \
returns the PaymentRequired (isError, structuredContent); send the signed payment in \
_meta[\"x402/payment\"] (add a payment-identifier to make a retry safe); the receipt comes in \
_meta[\"x402/payment-response\"]. A swarm journal takes one payment; a person-written one two \
calls (the 10% fee, then, with `payer` set to your address, the author's 90%). A wallet that \
bought a journal reads it again with a sign-in-with-x proof in _meta[\"x402/sign-in-with-x\"].";

/// The `initialize` result.
pub fn initialize(params: &Value, version: &str) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    json!({
        "protocolVersion": negotiate(asked),
        "capabilities": capabilities(),
        "serverInfo": { "name": SERVER_NAME, "title": "Journal Market", "version": version },
        "instructions": INSTRUCTIONS,
    })
}

/// The `server/discover` result (2026-07-28): what a client probing before its first request
/// learns.
pub fn discover() -> Value {
    json!({
        "supportedVersions": supported_versions(),
        "capabilities": capabilities(),
        "instructions": INSTRUCTIONS,
        "resultType": "complete",
        "ttlMs": 3_600_000,
        "cacheScope": "public",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_negotiates_down_to_a_version_it_speaks() {
        assert_eq!(negotiate(Some("2025-06-18")), "2025-06-18");
        assert_eq!(negotiate(Some("2099-01-01")), "2025-11-25");
        assert_eq!(negotiate(None), "2025-11-25");
        let r = initialize(&json!({"protocolVersion": "2025-03-26"}), "1.0.0");
        assert_eq!(r["protocolVersion"], "2025-03-26");
        assert_eq!(r["serverInfo"]["name"], SERVER_NAME);
        assert!(r["capabilities"]["tools"].is_object());
        assert_eq!(discover()["supportedVersions"][4], MODERN_VERSION);
    }
}

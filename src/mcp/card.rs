//! The MCP server card (experimental SEP-2127 draft, research/mcp-x402.md §2.5), at the path
//! the issue names (`/.well-known/mcp/server-card.json`), the draft's `<mcp-url>/server-card`,
//! and the draft's domain catalog `/.well-known/ai-catalog.json` that points at it. Pure.

use serde_json::{Value, json};

use super::protocol::{SERVER_NAME, supported_versions};

pub const CARD_TYPE: &str = "application/mcp-server-card+json";
const CARD_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/// The card's `name`: reverse-DNS of the site's host, then the server's name.
pub fn card_name(origin: &str) -> String {
    let host = journal_market_x402::extensions::siwx::domain_of(origin);
    let host = host.split(':').next().unwrap_or(host);
    let reversed: Vec<&str> = host.split('.').rev().collect();
    let ns: String = reversed
        .join(".")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        .collect();
    let ns = if ns.is_empty() { "local".into() } else { ns };
    format!("{ns}/{SERVER_NAME}")
}

pub fn card(origin: &str, version: &str) -> Value {
    json!({
        "$schema": CARD_SCHEMA,
        "name": card_name(origin),
        "version": version,
        "description": "Research journals on listed companies; paid full texts over x402",
        "title": "Journal Market",
        "websiteUrl": origin,
        "remotes": [{
            "type": "streamable-http",
            "url": format!("{origin}/mcp"),
            "supportedProtocolVersions": supported_versions(),
        }],
        "_meta": {
            "x402": { "discovery": format!("{origin}/.well-known/x402"), "paidTools": [crate::purchase::terms::TOOL] },
        },
    })
}

pub fn catalog(origin: &str) -> Value {
    let domain = journal_market_x402::extensions::siwx::domain_of(origin);
    json!({
        "specVersion": "1.0",
        "entries": [{
            "identifier": format!("urn:air:{domain}:mcp:{}", card_name(origin)),
            "type": CARD_TYPE,
            "url": format!("{origin}/.well-known/mcp/server-card.json"),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_has_the_drafts_required_fields() {
        let c = card("https://journals.example.com", "1.2.3");
        assert_eq!(c["$schema"], CARD_SCHEMA);
        assert_eq!(c["name"], "com.example.journals/journal-market");
        assert!(c["description"].as_str().unwrap().len() <= 100);
        assert_eq!(c["remotes"][0]["url"], "https://journals.example.com/mcp");
        assert_eq!(
            card_name("http://127.0.0.1:8080"),
            "1.0.0.127/journal-market"
        );
        assert!(
            catalog("https://j.example")["entries"][0]["url"]
                .as_str()
                .unwrap()
                .ends_with("/.well-known/mcp/server-card.json")
        );
    }
}

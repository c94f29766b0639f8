//! An offer's terms: what a payment step costs, whom it pays and how the resource is asked for,
//! and whether a signed payment matches them. Pure.

use alloy::primitives::Address;
use chrono::{DateTime, Utc};
use journal_market_x402::extensions::bazaar;
use journal_market_x402::{self as x402, Extra, PaymentPayload, PaymentRequirements};

pub struct Terms {
    /// The site's origin (the SIWX challenge's domain), and the service's time now.
    pub origin: String,
    pub api_prefix: String,
    pub now: DateTime<Utc>,
    pub chain_id: u64,
    pub usdg: Address,
    pub proxy: Address,
    pub amount: i64,
    pub pay_to: Address,
    pub resource_url: String,
    /// How the resource is asked for, for the `bazaar` declaration.
    pub route: Route,
    /// Whether to declare `erc20ApprovalGasSponsoring`.
    pub sponsoring: bool,
}

/// The paid text's route template, as catalogues name it.
pub fn text_route(api_prefix: &str) -> String {
    format!("{api_prefix}/journals/:slug/text")
}

/// An example of the answer that completes a purchase.
pub fn answer_example() -> serde_json::Value {
    serde_json::json!({
        "ok": true,
        "tx": "0x5f1c…(the settle transaction)",
        "body": "## Part 1\nThe journal's text, in markdown, citing entries [NVDA-2026-001]",
        "html": "<h2>Part 1</h2>…",
    })
}

/// How a paid resource is asked for.
#[derive(Clone, Debug)]
pub enum Route {
    /// `POST /pay/burn` or `/pay/author` with `{ journalId }`.
    Pay { journal_id: i32 },
    /// `GET /journals/{slug}/text`.
    Text { slug: String },
    /// The MCP tool `read_journal` with `{ slug }`.
    Tool { slug: String },
}

impl Route {
    /// The `bazaar` declaration: what the resource takes and an example of what it answers.
    pub fn discovery(&self, api_prefix: &str) -> serde_json::Value {
        let output = answer_example();
        match self {
            Route::Pay { journal_id } => bazaar::declare_post_json(
                serde_json::json!({ "journalId": journal_id }),
                serde_json::json!({
                    "type": "object",
                    "properties": { "journalId": { "type": "integer", "minimum": 1 } },
                    "required": ["journalId"],
                }),
                output,
            ),
            Route::Text { slug } => {
                let mut path = serde_json::Map::new();
                path.insert("slug".into(), slug.clone().into());
                let mut query = serde_json::Map::new();
                query.insert(
                    "payer".into(),
                    serde_json::json!({
                        "type": "string",
                        "pattern": "^0x[0-9a-fA-F]{40}$",
                        "description": "the paying wallet: chooses the step due (a person-written journal's fee, then the author's share)",
                    }),
                );
                bazaar::declare_get(&path, &query, output, &text_route(api_prefix))
            }
            Route::Tool { slug } => bazaar::declare_mcp(
                TOOL,
                TOOL_DESCRIPTION,
                tool_input_schema(),
                serde_json::json!({ "slug": slug }),
                output,
            ),
        }
    }

    /// The text's slug, when the route sells the text (not a `/pay/*` step).
    pub fn slug(&self) -> Option<&str> {
        match self {
            Route::Pay { .. } => None,
            Route::Text { slug } | Route::Tool { slug } => Some(slug),
        }
    }

    /// What a challenge's template is kept under besides its terms: the route's kind (the
    /// same resource is offered over HTTP and over MCP, with different `bazaar` declarations).
    pub fn kind(&self) -> &'static str {
        match self {
            Route::Pay { .. } => "pay",
            Route::Text { .. } => "text",
            Route::Tool { .. } => "tool",
        }
    }
}

/// The paid MCP tool: its name, what it does, and what it takes.
pub const TOOL: &str = "read_journal";
pub const TOOL_DESCRIPTION: &str = "The full text of a journal (paid with x402: the result without \
a payment is the PaymentRequired; a person-written journal takes two calls, the fee, then the \
author's share with `payer` set)";

pub fn tool_input_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "slug": { "type": "string", "minLength": 1, "description": "the journal's slug or id" },
            "payer": {
                "type": "string",
                "pattern": "^0x[0-9a-fA-F]{40}$",
                "description": "the paying wallet: chooses the step due (a person-written journal's fee, then the author's share)",
            },
        },
        "required": ["slug"],
        "additionalProperties": false,
    })
}

pub const MAX_TIMEOUT_SECONDS: u64 = 300;

pub fn requirements(t: &Terms) -> PaymentRequirements {
    PaymentRequirements {
        scheme: x402::SCHEME.into(),
        network: format!("eip155:{}", t.chain_id),
        amount: t.amount.to_string(),
        asset: t.usdg.to_checksum(None),
        pay_to: t.pay_to.to_checksum(None),
        max_timeout_seconds: MAX_TIMEOUT_SECONDS,
        extra: Extra {
            asset_transfer_method: "permit2".into(),
            spender: t.proxy.to_checksum(None),
            name: "USDG".into(),
        },
    }
}

fn same_address(a: &str, b: &Address) -> bool {
    a.parse::<Address>().is_ok_and(|a| a == *b)
}

/// Whether the payload was signed for the current terms: network, amount, token and recipient.
pub fn signed_for(p: &PaymentPayload, t: &Terms) -> bool {
    let a = &p.payload.permit2_authorization;
    p.accepted.network == format!("eip155:{}", t.chain_id)
        && a.permitted.amount == t.amount.to_string()
        && same_address(&a.permitted.token, &t.usdg)
        && same_address(&a.witness.to, &t.pay_to)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use journal_market_x402::{Permit2Authorization, Permit2Payload, Permitted, WitnessJson};

    pub(crate) fn terms() -> Terms {
        Terms {
            origin: "http://x".into(),
            api_prefix: "/api".into(),
            now: Utc::now(),
            chain_id: 4663,
            usdg: Address::repeat_byte(1),
            proxy: Address::repeat_byte(2),
            amount: 100_000,
            pay_to: Address::repeat_byte(3),
            resource_url: "http://x/api/pay/burn".into(),
            route: Route::Pay { journal_id: 5 },
            sponsoring: false,
        }
    }

    fn payload(t: &Terms) -> PaymentPayload {
        let r = requirements(t);
        PaymentPayload {
            x402_version: 2,
            resource: None,
            accepted: r.clone(),
            payload: Permit2Payload {
                signature: "0x".into(),
                permit2_authorization: Permit2Authorization {
                    from: format!("{:#x}", Address::repeat_byte(9)),
                    permitted: Permitted {
                        token: r.asset.to_lowercase(),
                        amount: r.amount.clone(),
                    },
                    spender: r.extra.spender.clone(),
                    nonce: "1".into(),
                    deadline: "2".into(),
                    witness: WitnessJson {
                        to: r.pay_to.clone(),
                        valid_after: "0".into(),
                    },
                },
            },
            extensions: None,
        }
    }

    #[test]
    fn signed_terms_must_match() {
        let t = terms();
        let p = payload(&t);
        assert!(signed_for(&p, &t), "addresses compare in any case");
        let mut cheaper = p.clone();
        cheaper.payload.permit2_authorization.permitted.amount = "99999".into();
        assert!(!signed_for(&cheaper, &t));
        let mut elsewhere = p.clone();
        elsewhere.payload.permit2_authorization.witness.to =
            format!("{:#x}", Address::repeat_byte(4));
        assert!(!signed_for(&elsewhere, &t));
        let mut other_chain = p;
        other_chain.accepted.network = "eip155:1".into();
        assert!(!signed_for(&other_chain, &t));
    }
}

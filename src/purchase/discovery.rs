//! The x402 discovery document: every paid resource, for catalogues and agents. One document
//! in both shapes in use: x402scan's `{ version: 1, resources }` list of URLs, and the
//! foundation draft's `items`, each with the offer of the journal's first payment step, its
//! price and the journal it sells.

use journal_market_entity::journals;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use super::terms::{Route, answer_example, requirements, text_route};
use super::{Purchases, Step};
use crate::domain::status::JournalStatus;
use crate::queries::journal_url;

impl Purchases {
    /// `GET /.well-known/x402`.
    pub async fn discovery(&self) -> Result<Value, DbErr> {
        let live = journals::Entity::find()
            .filter(journals::Column::Status.eq(JournalStatus::Live))
            .order_by_asc(journals::Column::Id)
            .all(self.db())
            .await?;
        let prefix = self.site().api_prefix();
        let mut resources = Vec::with_capacity(live.len());
        let mut items = Vec::with_capacity(live.len());
        for j in live {
            let Some(slug) = j.slug.clone() else { continue };
            let url = self.site().text_url(&slug, None);
            resources.push(Value::String(url.clone()));
            items.push(self.item(&j, &slug, url, prefix));
        }
        let signer = self.receipt_signer().map(|a| a.to_checksum(None));
        let doc = json!({
            "version": 1,
            "resources": resources,
            "x402Version": journal_market_x402::VERSION,
            "lastUpdated": self.site().now().timestamp(),
            "receiptSigner": signer,
            "instructions": "Each resource is `GET /api/journals/{slug}/text`: it answers 402 with the offer for the \
        payment step due, then the journal's text. A swarm-written journal takes one payment; a person-written one \
        takes two (a 10% fee to the buyback wallet, then 90% to the holder of the journal's token): send `?payer=<your \
        address>`, a session or a SIGN-IN-WITH-X proof so the offer names the step due. The fee's answer names the \
        next URL (`next`, and a `Link: <...>; rel=\"next\"` header); a fee paid again there is refused with a 402 \
        offering the author's share, nothing charged. A wallet that bought a journal reads it again with a \
        SIGN-IN-WITH-X proof alone.",
            "items": items,
            // The same purchases through the MCP tool (the x402 MCP binding).
            "mcp": {
                "endpoint": format!("{}/mcp", self.site().origin()),
                "transport": "streamable-http",
                "paidTool": super::terms::TOOL,
                "serverCard": format!("{}/.well-known/mcp/server-card.json", self.site().origin()),
            },
        });
        Ok(doc)
    }

    fn item(&self, j: &journals::Model, slug: &str, url: String, prefix: &str) -> Value {
        let buyback = self.buyback().unwrap_or_default();
        let terms = self.terms(
            Step::Burn.amount(j.price_units, j.swarm),
            buyback,
            url.clone(),
            Route::Text {
                slug: slug.to_string(),
            },
        );
        let mut steps = vec![json!({
            "step": if j.swarm { "whole price" } else { "fee" },
            "amount": Step::Burn.amount(j.price_units, j.swarm).to_string(),
            "payTo": buyback.to_checksum(None),
        })];
        if !j.swarm {
            steps.push(json!({
            "step": "author",
            "amount": Step::Author.amount(j.price_units, j.swarm).to_string(),
            "payTo": "the holder of the journal's ERC-8004 token (named in the offer when this step is due)",
        }));
        }
        json!({
            "resource": {
                "url": url,
                "description": format!("The full text of \"{}\" ({})", j.title, j.ticker),
                "mimeType": "application/json",
                "serviceName": "journal-market",
                "tags": ["journals", "research", j.ticker],
            },
            "type": "http",
            "accepts": [requirements(&terms)],
            "input": {
                "method": "GET",
                "routeTemplate": text_route(prefix),
                "pathParams": { "slug": slug },
            },
            "output": { "mimeType": "application/json", "example": answer_example() },
            "journal": {
                "journalId": j.id,
                "slug": slug,
                "title": j.title,
                "ticker": j.ticker,
                "url": journal_url(self.site().origin(), slug),
                "priceUnits": j.price_units.to_string(),
                "signatures": if j.swarm { 1 } else { 2 },
                "steps": steps,
            },
        })
    }
}

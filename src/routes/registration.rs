//! `GET /meta/{id}`: the ERC-8004 registration file of an approved or live journal (what its
//! onchain `tokenURI` points at), and the card image it names.

use crate::domain::purchase::Step;
use crate::domain::status::JournalStatus;
use crate::error::DomainResult;
use crate::queries::journal_url;
use crate::site::Site;
use crate::state::AppState;
use actix_web::{HttpResponse, web};
use journal_market_api::{ErrorBody, RegistrationEntry, RegistrationFile, RegistrationService};

pub const REGISTRATION_V1: &str = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/meta/{id}", "GET").route(web::get().to(registration)))
        .service(super::resource("/meta/{id}/image.svg", "GET").route(web::get().to(image)));
}

#[utoipa::path(get, path = "/meta/{id}", tag = "publishing",
    params(("id" = String, Path, description = "journal id")),
    responses((status = 200, body = RegistrationFile),
              (status = 404, body = ErrorBody, description = "no approved or live journal has this id")))]
pub async fn registration(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> DomainResult<web::Json<RegistrationFile>> {
    let j = state.publishing.registered(&id).await?;
    let site = &state.site;
    let base = site.api_base();
    let page = match &j.slug {
        Some(slug) => journal_url(site.origin(), slug),
        None => format!("{base}/meta/{}", j.id),
    };
    let registrations = j
        .token_id
        .as_deref()
        .and_then(|t| t.parse::<u64>().ok())
        .map(|agent_id| {
            vec![RegistrationEntry {
                agent_id,
                agent_registry: format!(
                    "eip155:{}:{}",
                    site.chain_id(),
                    state.publishing.identity_registry().to_checksum(None)
                ),
            }]
        });
    Ok(web::Json(RegistrationFile {
        kind: REGISTRATION_V1.into(),
        name: j.title,
        description: j.dek,
        image: format!("{base}/meta/{}/image.svg", j.id),
        services: services(site, page, j.slug.as_deref()),
        x402_support: true,
        active: j.status == JournalStatus::Live,
        registrations,
        supported_trust: vec!["reputation".into()],
        content_hash: j.content_hash,
    }))
}

/// The journal's page and, once it has a slug, where it is bought: the paid text (x402 GET)
/// and the two payment routes (x402 POST with `{ journalId }`).
fn services(site: &Site, page: String, slug: Option<&str>) -> Vec<RegistrationService> {
    let mut s = vec![RegistrationService {
        name: "web".into(),
        endpoint: page,
    }];
    if let Some(slug) = slug {
        s.push(RegistrationService {
            name: "x402".into(),
            endpoint: site.text_url(slug, None),
        });
        // The MCP endpoint, whose `read_journal` sells the same text.
        s.push(RegistrationService {
            name: "MCP".into(),
            endpoint: format!("{}/mcp", site.origin()),
        });
        for step in [Step::Burn, Step::Author] {
            s.push(RegistrationService {
                name: format!(
                    "x402-{}",
                    step.path().trim_start_matches('/').replace('/', "-")
                ),
                endpoint: site.pay_url(step),
            });
        }
    }
    s
}

fn escape(s: &str) -> String {
    s.chars()
        .take(90)
        .map(|c| match c {
            '&' => "&amp;".into(),
            '<' => "&lt;".into(),
            '>' => "&gt;".into(),
            '"' => "&quot;".into(),
            c => c.to_string(),
        })
        .collect()
}

#[utoipa::path(get, path = "/meta/{id}/image.svg", tag = "publishing",
    params(("id" = String, Path, description = "journal id")),
    responses((status = 200, content_type = "image/svg+xml", description = "a card with the ticker and title"),
              (status = 404, body = ErrorBody)))]
pub async fn image(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> DomainResult<HttpResponse> {
    let j = state.publishing.registered(&id).await?;
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="315" viewBox="0 0 600 315"><rect width="600" height="315" fill="#101418"/><text x="32" y="72" font-family="sans-serif" font-size="28" fill="#8fd694">{}</text><text x="32" y="140" font-family="serif" font-size="26" fill="#f4f1ea">{}</text></svg>"##,
        escape(&j.ticker),
        escape(&j.title)
    );
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("Cache-Control", "public, max-age=300"))
        .body(svg))
}

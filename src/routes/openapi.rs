//! `GET /openapi.json`: the OpenAPI 3.1 document generated from the handlers' annotations.

use actix_web::{HttpResponse, web};
use utoipa::openapi::header::Header;
use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use super::{
    archive, auth, journals, pay, publish, quote, registration, rpc, service, token, votes,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Journal Marketplace Service", description = "Archive of company entries, paid journals, wallet sign-in, x402 payments."),
    servers((url = "/api")),
    paths(
        service::config, service::health, service::ready, service::actors,
        journals::list, journals::detail,
        archive::newest, archive::search, archive::entry, archive::swarm_run,
        rpc::rpc, quote::quote,
        pay::pay_burn, pay::pay_author, pay::text, pay::body,
        auth::nonce, auth::verify, auth::logout, auth::whoami, auth::desk, auth::history,
        publish::save, publish::audit, publish::minted, publish::draft,
        registration::registration, registration::image,
        votes::record, token::token_json,
        openapi_json,
    ),
    modifiers(&RateLimited)
)]
pub struct ApiDoc;

/// Every operation but the health checks may answer 429 (the rate limits, `ratelimit.rs`),
/// every operation that reads a body or parameters answers 400 when they are malformed (the
/// extractors' errors, `app.rs`), and every operation that takes a body answers 408 when it
/// does not arrive in time (`middleware::body_deadline`).
struct RateLimited;

impl Modify for RateLimited {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let answer = error_body(
            "too many requests of this class from this address; retry after Retry-After seconds",
        )
        .header(
            "Retry-After",
            Header::new(
                utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::Integer),
            ),
        )
        .build();
        let malformed = error_body("a malformed body, path or query parameter").build();
        let too_slow = error_body(
            "the request body did not arrive within server.body_timeout_ms of the headers",
        )
        .build();
        for (path, item) in doc.paths.paths.iter_mut() {
            if path.starts_with("/health") {
                continue;
            }
            for op in [&mut item.get, &mut item.post].into_iter().flatten() {
                let takes_input = op.request_body.is_some()
                    || op.parameters.as_ref().is_some_and(|p| !p.is_empty());
                if takes_input {
                    op.responses
                        .responses
                        .entry("400".into())
                        .or_insert_with(|| malformed.clone().into());
                }
                if op.request_body.is_some() {
                    op.responses
                        .responses
                        .entry("408".into())
                        .or_insert_with(|| too_slow.clone().into());
                }
                op.responses
                    .responses
                    .entry("429".into())
                    .or_insert_with(|| answer.clone().into());
            }
        }
    }
}

/// A response whose body is the `ErrorBody` every error answer has.
fn error_body(description: &str) -> ResponseBuilder {
    ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build(),
    )
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/openapi.json", "GET").route(web::get().to(openapi_json)));
}

#[utoipa::path(get, path = "/openapi.json", tag = "meta", responses((status = 200, description = "this document")))]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

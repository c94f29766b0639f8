//! `GET /openapi.json`: the OpenAPI 3.1 document generated from the handlers' annotations.

use actix_web::{HttpResponse, web};
use utoipa::OpenApi;

use super::{archive, auth, chain, journals, meta, pay, publish, registration, token, votes};

#[derive(OpenApi)]
#[openapi(
    info(title = "Journal Marketplace Service", description = "Archive of company entries, paid journals, wallet sign-in, x402 payments."),
    servers((url = "/api")),
    paths(
        meta::config, meta::health, meta::ready, meta::actors,
        journals::list, journals::detail,
        archive::newest, archive::search, archive::entry, archive::swarm_run,
        chain::rpc, chain::quote,
        pay::pay_burn, pay::pay_author, pay::body,
        auth::nonce, auth::verify, auth::logout, auth::whoami, auth::desk, auth::history,
        publish::save, publish::audit, publish::minted, publish::draft,
        registration::registration, registration::image,
        votes::record, token::token_json,
        openapi_json,
    )
)]
pub struct ApiDoc;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/openapi.json", web::get().to(openapi_json));
}

#[utoipa::path(get, path = "/openapi.json", tag = "meta", responses((status = 200, description = "this document")))]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

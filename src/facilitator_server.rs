//! `journal-market facilitator`: the built-in settler served as a standard x402 v2 facilitator
//! (`POST /verify`, `POST /settle`, `GET /supported`) for one chain with Permit2.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use jm_chain::facilitator::{Facilitator, SettleError};
use jm_chain::x402::{FacilitatorRequest, SCHEME, VERSION, VerifyResponse};
use serde_json::json;

struct State {
    facilitator: Arc<Facilitator>,
    token: Option<String>,
}

fn now() -> u64 {
    chrono::Utc::now().timestamp().max(0) as u64
}

fn authorized(req: &HttpRequest, s: &State) -> bool {
    match &s.token {
        None => true,
        Some(t) => req
            .headers()
            .get("authorization")
            .and_then(|h| h.to_str().ok())
            .is_some_and(|h| h.strip_prefix("Bearer ").is_some_and(|v| v == t)),
    }
}

fn unauthorized() -> HttpResponse {
    HttpResponse::Unauthorized().json(json!({ "error": "a valid bearer token is required" }))
}

/// The request body, once the caller is known to be allowed (401 comes before 400).
fn parse(
    req: &HttpRequest,
    s: &State,
    body: &[u8],
) -> Result<FacilitatorRequest, Box<HttpResponse>> {
    if !authorized(req, s) {
        return Err(Box::new(unauthorized()));
    }
    serde_json::from_slice(body).map_err(|e| {
        Box::new(
            HttpResponse::BadRequest()
                .json(json!({ "error": format!("the request body is not valid: {e}") })),
        )
    })
}

async fn verify(req: HttpRequest, s: web::Data<State>, body: web::Bytes) -> HttpResponse {
    let body = match parse(&req, &s, &body) {
        Ok(b) => b,
        Err(resp) => return *resp,
    };
    let payer = body
        .payment_payload
        .payload
        .permit2_authorization
        .from
        .clone();
    let answer = match s
        .facilitator
        .verify(&body.payment_payload, &body.payment_requirements, now())
        .await
    {
        Ok(_) => VerifyResponse {
            is_valid: true,
            invalid_reason: None,
            invalid_message: None,
            payer,
        },
        Err(SettleError::Invalid(i)) => VerifyResponse {
            is_valid: false,
            invalid_reason: Some(i.code.to_string()),
            invalid_message: Some(i.message),
            payer,
        },
        Err(e) => VerifyResponse {
            is_valid: false,
            invalid_reason: Some("unexpected_verify_error".into()),
            invalid_message: Some(e.to_string()),
            payer,
        },
    };
    HttpResponse::Ok().json(answer)
}

async fn settle(req: HttpRequest, s: web::Data<State>, body: web::Bytes) -> HttpResponse {
    let body = match parse(&req, &s, &body) {
        Ok(b) => b,
        Err(resp) => return *resp,
    };
    HttpResponse::Ok().json(
        s.facilitator
            .settle(&body.payment_payload, &body.payment_requirements, now())
            .await,
    )
}

async fn supported(s: web::Data<State>) -> HttpResponse {
    let signers: Vec<String> = s
        .facilitator
        .relayer_address()
        .map(|a| a.to_checksum(None))
        .into_iter()
        .collect();
    HttpResponse::Ok().json(json!({
        "kinds": [{ "x402Version": VERSION, "scheme": SCHEME, "network": s.facilitator.network() }],
        "extensions": [],
        "signers": { "eip155:*": signers },
    }))
}

pub fn server(
    listener: TcpListener,
    facilitator: Arc<Facilitator>,
    token: Option<String>,
) -> std::io::Result<Server> {
    let state = web::Data::new(State { facilitator, token });
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(web::PayloadConfig::default().limit(64 * 1024))
            .route("/verify", web::post().to(verify))
            .route("/settle", web::post().to(settle))
            .route("/supported", web::get().to(supported))
            .default_service(web::to(|| async {
                HttpResponse::NotFound().json(json!({ "error": "no such endpoint" }))
            }))
    })
    .listen(listener)?
    .run())
}

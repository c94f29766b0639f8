//! `journal-market facilitator`: the built-in settler served as a standard x402 v2 facilitator
//! (`POST /verify`, `POST /settle`, `GET /supported`) for one chain with Permit2.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use alloy::primitives::{Address, U256};
use dashmap::DashMap;
use jm_chain::facilitator::{Facilitator, SettleError};
use jm_chain::x402::{FacilitatorRequest, SCHEME, SettleResponse, VERSION, VerifyResponse};
use serde_json::json;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::sync::OnceCell;

/// `/settle` answers kept per (payer, permit nonce), each until its permit's deadline has
/// passed (Permit2 refuses it after that anyway). At most this many are kept; past it a
/// duplicate is still never sent twice (the chain refuses a spent nonce), it just gets the
/// chain's answer instead of the first one.
const MAX_REMEMBERED: usize = 100_000;

struct Remembered {
    deadline: u64,
    answer: Arc<OnceCell<SettleResponse>>,
}

struct State {
    facilitator: Arc<Facilitator>,
    /// SHA-256 of the bearer token: compared in constant time, whatever the length sent.
    token: Option<[u8; 32]>,
    settled: DashMap<(Address, U256), Remembered>,
}

fn now() -> u64 {
    chrono::Utc::now().timestamp().max(0) as u64
}

fn digest(s: &str) -> [u8; 32] {
    Sha256::digest(s.as_bytes()).into()
}

fn authorized(req: &HttpRequest, s: &State) -> bool {
    let Some(expected) = &s.token else {
        return true;
    };
    let sent = req
        .headers()
        .get("authorization")
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
        .unwrap_or("");
    bool::from(digest(sent).ct_eq(expected))
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
    let (p, r) = (&body.payment_payload, &body.payment_requirements);
    let a = &p.payload.permit2_authorization;
    let key = a
        .from
        .parse::<Address>()
        .ok()
        .zip(U256::from_str_radix(&a.nonce, 10).ok());
    let deadline = a.deadline.parse::<u64>().unwrap_or(u64::MAX);
    let now = now();
    let Some(key) = key.filter(|_| s.settled.len() < MAX_REMEMBERED) else {
        return HttpResponse::Ok().json(s.facilitator.settle(p, r, now).await);
    };
    // One settlement per permit: a duplicate, concurrent or later, gets the first answer.
    let answer = s
        .settled
        .entry(key)
        .or_insert_with(|| Remembered {
            deadline,
            answer: Arc::new(OnceCell::new()),
        })
        .answer
        .clone();
    let settled = answer
        .get_or_init(|| s.facilitator.settle(p, r, now))
        .await
        .clone();
    if s.settled.len() > 1024 {
        s.settled.retain(|_, m| m.deadline >= now);
    }
    HttpResponse::Ok().json(settled)
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
    let state = web::Data::new(State {
        facilitator,
        token: token.as_deref().map(digest),
        settled: DashMap::new(),
    });
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

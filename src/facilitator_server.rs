//! `journal-market-facilitator` (src/bin/): the built-in settler served as a standard x402 v2 facilitator
//! (`POST /verify`, `POST /settle`, `GET /supported`) for one chain with Permit2.
//!
//! - The bearer token (when one is set) is compared in constant time: SHA-256 of the presented
//!   token against SHA-256 of the right one with `subtle`, so neither its content nor its
//!   length shows in the time of an answer.
//! - `/settle` is idempotent per (payer, permit nonce): the first request settles (in a task of
//!   its own, so a client hanging up cannot cut it short), a concurrent duplicate waits for that
//!   answer, and a later duplicate gets the same answer; nothing is sent twice. See [`Flights`]
//!   for what is remembered and for how long. The memory is this process's: after a restart a
//!   duplicate of a settled permit is refused by the chain checks (`permit2_invalid_nonce`),
//!   which still sends nothing twice.

use std::net::TcpListener;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use actix_web::dev::Server;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use alloy::primitives::{Address, U256};
use dashmap::DashMap;
use futures::FutureExt;
use futures::future::{BoxFuture, Shared};
use journal_market_chain::facilitator::{Facilitator, UNEXPECTED};
use journal_market_x402::facilitator::SettleError;
use journal_market_x402::{
    FacilitatorRequest, PaymentPayload, SCHEME, SettleResponse, VERSION, VerifyResponse,
};
use serde_json::json;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::Settings;

/// Most settlements remembered at once; a new permit beyond it is answered 503 (nothing sent).
const MAX_FLIGHTS: usize = 100_000;
/// Longest an answer is remembered, whatever the permit's deadline says.
const MAX_KEEP_SECS: u64 = 3_600;
/// Forgotten answers are swept at most this often (and whenever the map is full).
const SWEEP_EVERY_SECS: u64 = 30;

struct State {
    facilitator: Arc<Facilitator>,
    /// SHA-256 of the bearer token.
    token: Option<[u8; 32]>,
    flights: Arc<Flights>,
}

fn now() -> u64 {
    chrono::Utc::now().timestamp().max(0) as u64
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `given` is the token whose digest is `want`, in time independent of both.
fn token_matches(want: &[u8; 32], given: &str) -> bool {
    digest(given).ct_eq(want).into()
}

fn authorized(req: &HttpRequest, s: &State) -> bool {
    let Some(want) = &s.token else {
        return true;
    };
    let given = req
        .headers()
        .get("authorization")
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "));
    // A missing token is compared too (as an empty one), so every refusal costs the same.
    token_matches(want, given.unwrap_or("")) && given.is_some()
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
    let payer = payer_of(&body.payment_payload);
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

/// (payer, permit nonce): what Permit2 lets settle once.
type Key = (Address, U256);

/// The wallet that signed the payment's permit.
fn payer_of(p: &PaymentPayload) -> String {
    p.payload.permit2_authorization.from.clone()
}

/// The payer and nonce of a payload, when both parse (otherwise the checks refuse it before
/// anything is sent, and there is nothing to keep single).
fn key_of(p: &PaymentPayload) -> Option<Key> {
    let a = &p.payload.permit2_authorization;
    let from: Address = a.from.parse().ok()?;
    let nonce = U256::from_str_radix(&a.nonce, 10).ok()?;
    Some((from, nonce))
}

/// When a settlement's answer may be forgotten: the permit's deadline (Permit2 refuses the
/// permit after it, and so do our checks), at most [`MAX_KEEP_SECS`] from now.
fn forget_at(p: &PaymentPayload, now: u64) -> u64 {
    let deadline = U256::from_str_radix(&p.payload.permit2_authorization.deadline, 10)
        .map(|d| u64::try_from(d).unwrap_or(u64::MAX))
        .unwrap_or(now);
    deadline.min(now.saturating_add(MAX_KEEP_SECS))
}

/// An answer that refused the payment by a check, before anything was sent: it is shared with
/// the concurrent duplicates but not kept, so a payload bearing someone else's payer and nonce
/// cannot block the real one, and a payer who fixes a balance or an allowance can retry.
/// Everything else is kept: a sent transaction (settled, failed or without a receipt in time),
/// and an unexpected failure, which may have come after the transaction left.
fn refused_by_a_check(a: &SettleResponse) -> bool {
    !a.success && a.transaction.is_empty() && a.error_reason.as_deref() != Some(UNEXPECTED)
}

struct Flight {
    id: u64,
    forget_at: u64,
    /// Set by the settlement's task when it has its answer (awaited by anyone or not).
    done: Arc<AtomicBool>,
    answer: Shared<BoxFuture<'static, SettleResponse>>,
}

/// The settlements of this process by (payer, permit nonce): single flight and a memory of
/// answers. The first request for a key starts the settlement as a task of its own; every
/// request for that key, concurrent or later, awaits the same shared answer. An answer is kept
/// until [`forget_at`] (then swept, only once finished), except a refusal by a check, which is
/// dropped as soon as it is known ([`refused_by_a_check`]). At most [`MAX_FLIGHTS`] keys.
pub struct Flights {
    map: DashMap<Key, Arc<Flight>>,
    next_id: AtomicU64,
    last_sweep: AtomicU64,
    capacity: usize,
}

impl Flights {
    fn new(capacity: usize) -> Flights {
        Flights {
            map: DashMap::new(),
            next_id: AtomicU64::new(0),
            last_sweep: AtomicU64::new(0),
            capacity,
        }
    }

    /// The answer for `key`: the one already started or known, else the one `start` gives (run
    /// as a task of its own). `None` when the memory is full and `key` is new (nothing started).
    async fn answer(
        self: &Arc<Self>,
        key: Key,
        forget_at: u64,
        now: u64,
        start: impl FnOnce() -> BoxFuture<'static, SettleResponse>,
    ) -> Option<SettleResponse> {
        let flight = self.flight(key, forget_at, now, start)?;
        Some(flight.answer.clone().await)
    }

    fn flight(
        self: &Arc<Self>,
        key: Key,
        forget_at: u64,
        now: u64,
        start: impl FnOnce() -> BoxFuture<'static, SettleResponse>,
    ) -> Option<Arc<Flight>> {
        if let Some(f) = self.map.get(&key) {
            return Some(f.clone());
        }
        self.sweep(now);
        if self.map.len() >= self.capacity {
            return None;
        }
        // A concurrent first request may have got here too: the entry decides which one starts.
        let flight = self.map.entry(key).or_insert_with(|| {
            let id = self.next_id.fetch_add(1, Ordering::Relaxed);
            let work = start();
            let flights = Arc::clone(self);
            let done = Arc::new(AtomicBool::new(false));
            let finished = Arc::clone(&done);
            let task = tokio::spawn(async move {
                let answer = work.await;
                finished.store(true, Ordering::Release);
                if refused_by_a_check(&answer) {
                    flights.map.remove_if(&key, |_, f| f.id == id);
                }
                answer
            });
            let answer = async move {
                // Only when the runtime shuts down: the work itself catches its panics.
                task.await.unwrap_or_else(|e| SettleResponse {
                    success: false,
                    transaction: String::new(),
                    network: String::new(),
                    payer: String::new(),
                    error_reason: Some(UNEXPECTED.into()),
                    error_message: Some(format!("the settlement stopped: {e}")),
                    extensions: None,
                })
            }
            .boxed()
            .shared();
            Arc::new(Flight {
                id,
                forget_at,
                done,
                answer,
            })
        });
        Some(Arc::clone(&flight))
    }

    /// Drops the finished answers whose time has passed, every [`SWEEP_EVERY_SECS`] or when
    /// the map is full.
    fn sweep(&self, now: u64) {
        let last = self.last_sweep.load(Ordering::Relaxed);
        if self.map.len() < self.capacity && now < last.saturating_add(SWEEP_EVERY_SECS) {
            return;
        }
        self.last_sweep.store(now, Ordering::Relaxed);
        self.map
            .retain(|_, f| now <= f.forget_at || !f.done.load(Ordering::Acquire));
    }
}

async fn settle(req: HttpRequest, s: web::Data<State>, body: web::Bytes) -> HttpResponse {
    let body = match parse(&req, &s, &body) {
        Ok(b) => b,
        Err(resp) => return *resp,
    };
    let now = now();
    let Some(key) = key_of(&body.payment_payload) else {
        return HttpResponse::Ok().json(
            s.facilitator
                .settle(&body.payment_payload, &body.payment_requirements, now)
                .await,
        );
    };
    let forget = forget_at(&body.payment_payload, now);
    let payer = payer_of(&body.payment_payload);
    let facilitator = Arc::clone(&s.facilitator);
    let start = {
        let payer = payer.clone();
        move || {
            async move {
                let settling =
                    facilitator.settle(&body.payment_payload, &body.payment_requirements, now);
                match AssertUnwindSafe(settling).catch_unwind().await {
                    Ok(answer) => answer,
                    Err(_) => SettleResponse {
                        success: false,
                        transaction: String::new(),
                        network: facilitator.network(),
                        payer,
                        error_reason: Some(UNEXPECTED.into()),
                        error_message: Some("the settlement stopped on an internal error".into()),
                        extensions: None,
                    },
                }
            }
            .boxed()
        }
    };
    match s.flights.answer(key, forget, now, start).await {
        Some(answer) => HttpResponse::Ok().json(answer),
        None => HttpResponse::ServiceUnavailable().json(SettleResponse {
            success: false,
            transaction: String::new(),
            network: s.facilitator.network(),
            payer,
            error_reason: Some(UNEXPECTED.into()),
            error_message: Some(
                "the facilitator is settling too many permits at once; try again later".into(),
            ),
            extensions: None,
        }),
    }
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
        flights: Arc::new(Flights::new(MAX_FLIGHTS)),
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

/// Serves the built-in settler for the configured chain (with `payments.relayer_key`) on
/// `listen` until the process stops.
pub async fn run(mut settings: Settings, listen: &str) -> anyhow::Result<()> {
    crate::chain::apply_devnet_file(&mut settings)?;
    let a = crate::chain::ChainAddresses::from_settings(&settings)?;
    let relayer = settings
        .payments
        .relayer_key
        .signer()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("payments.relayer_key is needed to settle"))?;
    let client = journal_market_chain::client::ChainClient::new(
        &crate::chain::rpc_urls(&settings),
        std::time::Duration::from_millis(settings.chain.rpc_timeout_ms),
    )?;
    let f = journal_market_chain::facilitator::Facilitator::with_reader(
        client.provider().clone(),
        settings.chain.chain_id,
        a.usdg,
        a.permit2,
        a.permit2_proxy,
        Some(relayer),
    );
    let token =
        Some(settings.payments.facilitator_token.expose().to_string()).filter(|t| !t.is_empty());
    let listener = std::net::TcpListener::bind(listen)
        .map_err(|e| anyhow::anyhow!("cannot listen on {listen}: {e}"))?;
    tracing::info!("x402 facilitator on http://{}", listener.local_addr()?);
    server(listener, std::sync::Arc::new(f), token)?.await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    use super::*;

    #[test]
    fn only_the_exact_token_matches() {
        let want = digest("sesame");
        assert!(token_matches(&want, "sesame"));
        for wrong in ["", "s", "sesam", "sesame ", "sesame!", "Sesame", "emases"] {
            assert!(!token_matches(&want, wrong), "{wrong:?}");
        }
    }

    fn answer(success: bool, tx: &str, reason: Option<&str>) -> SettleResponse {
        SettleResponse {
            success,
            transaction: tx.into(),
            network: "eip155:4663".into(),
            payer: "0x01".into(),
            error_reason: reason.map(Into::into),
            error_message: None,
            extensions: None,
        }
    }

    fn key(n: u64) -> Key {
        (Address::repeat_byte(1), U256::from(n))
    }

    /// A `start` that counts its runs and answers `a` after a short wait.
    fn counted(
        runs: &Arc<AtomicUsize>,
        a: SettleResponse,
    ) -> impl FnOnce() -> BoxFuture<'static, SettleResponse> + use<> {
        let runs = Arc::clone(runs);
        move || {
            runs.fetch_add(1, Ordering::SeqCst);
            async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                a
            }
            .boxed()
        }
    }

    #[tokio::test]
    async fn duplicates_share_the_first_answer() {
        let flights = Arc::new(Flights::new(10));
        let runs = Arc::new(AtomicUsize::new(0));
        let sent = answer(true, "0xaa", None);
        let other = answer(true, "0xbb", None);
        let (a, b) = tokio::join!(
            flights.answer(key(1), 100, 0, counted(&runs, sent.clone())),
            flights.answer(key(1), 100, 0, counted(&runs, other.clone())),
        );
        assert_eq!((a.as_ref(), b.as_ref()), (Some(&sent), Some(&sent)));
        let later = flights.answer(key(1), 100, 50, counted(&runs, other)).await;
        assert_eq!(later, Some(sent));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn refusals_by_a_check_are_not_kept() {
        let flights = Arc::new(Flights::new(10));
        let runs = Arc::new(AtomicUsize::new(0));
        let refused = answer(false, "", Some("permit2_insufficient_balance"));
        let first = flights
            .answer(key(1), 100, 0, counted(&runs, refused.clone()))
            .await;
        assert_eq!(first, Some(refused));
        let sent = answer(true, "0xaa", None);
        let retry = flights
            .answer(key(1), 100, 0, counted(&runs, sent.clone()))
            .await;
        assert_eq!(retry, Some(sent));
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        // A timeout after sending and an unexpected error are kept.
        for (n, kept) in [
            answer(false, "0xaa", Some("settle_receipt_timeout")),
            answer(false, "", Some(UNEXPECTED)),
        ]
        .into_iter()
        .enumerate()
        {
            let k = key(10 + n as u64);
            flights
                .answer(k, 100, 0, counted(&runs, kept.clone()))
                .await;
            let again = flights
                .answer(k, 100, 0, counted(&runs, answer(true, "0xcc", None)))
                .await;
            assert_eq!(again, Some(kept));
        }
    }

    #[tokio::test]
    async fn answers_are_forgotten_after_the_deadline_and_the_memory_is_bounded() {
        let flights = Arc::new(Flights::new(2));
        let runs = Arc::new(AtomicUsize::new(0));
        // Permit `k` asked with `deadline` at `now`, answered with `a` when it runs.
        let ask = |k, deadline, now, a| flights.answer(key(k), deadline, now, counted(&runs, a));
        let sent = answer(true, "0xaa", None);
        ask(1, 100, 0, sent.clone()).await;
        // Still in flight at its deadline: never swept while running.
        let slow = flights.flight(key(2), 10, 0, counted(&runs, sent.clone()));
        assert!(slow.is_some());
        // Full: a new permit is turned away, a known one still answered.
        assert_eq!(ask(3, 100, 20, sent.clone()).await, None);
        assert_eq!(
            ask(1, 100, 20, answer(true, "0xbb", None)).await,
            Some(sent.clone())
        );
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        // Key 2 finishes; after its deadline it is swept and key 3 gets its place.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let third = answer(true, "0xcc", None);
        assert_eq!(ask(3, 100, 20, third.clone()).await, Some(third));
        assert!(!flights.map.contains_key(&key(2)));
        // Key 1 past its deadline: forgotten at the next sweep, so it runs again.
        let fresh = answer(true, "0xdd", None);
        assert_eq!(ask(1, 200, 101, fresh.clone()).await, Some(sent));
        flights.last_sweep.store(0, Ordering::Relaxed);
        flights.sweep(200);
        assert_eq!(ask(1, 300, 200, fresh.clone()).await, Some(fresh));
    }
}

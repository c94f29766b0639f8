//! The SessionActor: issues sign-in nonces, verifies signatures (EOA, ERC-1271, EIP-6492),
//! opens and closes sessions, and purges expired rows. Rows are the truth; a bounded DashMap in
//! front of the session table only saves reads, and its entries live seconds, so a logout on one
//! instance is seen by the others within that time.
//!
//! Nonces, sign-ins, logouts and `SIGN-IN-WITH-X` proofs are messages of the actor (declared
//! below), each with a deadline, an in-flight limit and the actor's panic guard; a proof's
//! check, a re-read's hot path, runs under them on the caller's task. Session
//! lookups, the hot path of every request, read the cache and then the table directly from the
//! handle; so does the session a settled payment opens (one insert, no check).

pub mod siwe;
pub mod store;
pub mod used_nonces;

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;
use alloy::primitives::{Address, B256};
use chrono::{DateTime, Utc};
use dashmap::DashMap;
use journal_market_chain::client::ChainClient;
use journal_market_chain::signature::verify_message;
use journal_market_domain::wallet::lower;
use journal_market_x402::extensions::siwx;
use journal_market_x402::signature::{self, SignatureError};
use sea_orm::{DatabaseConnection, DbErr};
use sha2::{Digest, Sha256};

use crate::clock::SharedClock;
use crate::handle::{ActorHandle, CallError};
use crate::health::HealthRegistry;
use crate::supervise;
use store::NonceProblem;
use used_nonces::{UsedNonce, UsedNonces};

const NAME: &str = "session";
/// How often the actor's own timer shows it runs.
const BEAT: Duration = Duration::from_secs(5);
/// Cached sessions beyond this clear the cache.
const MAX_CACHED: usize = 100_000;
/// How long a contract wallet's verdict on a (wallet, digest, signature) is kept: the same
/// proof sent again is answered without a second call to the chain.
const VERDICT_TTL: Duration = Duration::from_secs(60);
/// Cached verdicts beyond this clear the cache.
const MAX_VERDICTS: usize = 10_000;

/// Issues a sign-in nonce for a wallet: a row, then the message to sign.
#[derive(Message)]
#[rtype(result = "Result<NonceIssued, AuthError>")]
struct IssueNonce(Address);

/// Checks a signed sign-in message (EOA, ERC-1271, EIP-6492) and opens a session.
#[derive(Message)]
#[rtype(result = "Result<NewSession, AuthError>")]
struct Verify {
    address: Address,
    nonce: String,
    signature: String,
}

/// Closes the session of a token.
#[derive(Message)]
#[rtype(result = "Result<(), AuthError>")]
struct Logout(String);

/// Checks a `SIGN-IN-WITH-X` proof and uses its nonce once: the wallet it proves. Answered on
/// the caller's task ([`ActorHandle::run`]) under the message's limit, deadline and guard.
#[derive(Message)]
#[rtype(result = "Result<Address, AuthError>")]
struct VerifyProof {
    proof: siwx::Proof,
    chain: ChainCheck,
}

/// Whether a signature check may call the chain now. A contract wallet's check costs the
/// service's node a call, so the caller's rate class pays for it first: asked with `NotYet`,
/// a check that would call the chain answers [`AuthError::ChainCheckNeeded`] instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainCheck {
    NotYet,
    Allowed,
}

#[derive(Debug, Clone)]
pub struct SessionSettings {
    pub origin: String,
    pub chain_id: u64,
    pub nonce_ttl: chrono::Duration,
    pub session_ttl: chrono::Duration,
    /// How long a cached session is trusted before the table is read again.
    pub cache_ttl: Duration,
    pub chain: ChainClient,
    pub call_timeout: Duration,
    /// Calls in progress at once, per operation (nonce, verify, logout, session after a
    /// payment): a flood of one cannot take the others' places.
    pub max_in_flight: usize,
    /// Signatures being checked on the chain at once (contract wallets); past it "busy". EOA
    /// signatures need no chain call and never wait for these.
    pub max_chain_checks: usize,
    /// Gas a wallet's signature check may use.
    pub signature_gas: u64,
    /// Failed signatures that use a nonce up.
    pub max_failures: u32,
    pub purge_every: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("address must be a 0x-prefixed hexadecimal address of 20 bytes")]
    BadAddress,
    #[error("the nonce is unknown: ask POST /auth/nonce for one")]
    UnknownNonce,
    #[error("the nonce was already used: ask POST /auth/nonce for a new one")]
    NonceUsed,
    #[error("the nonce is used up by failed signatures: ask POST /auth/nonce for a new one")]
    NonceUsedUp,
    #[error("the nonce expired: nonces last 10 minutes, ask POST /auth/nonce for a new one")]
    NonceExpired,
    #[error("the nonce was issued for another address")]
    NonceForAnotherAddress,
    #[error("the signature is not valid: {0}")]
    BadSignature(SignatureError),
    #[error("sign-in is busy; retry shortly")]
    Busy,
    #[error("sign-in did not answer in time; retry shortly")]
    TimedOut,
    #[error("the chain could not be reached to check a contract wallet's signature; retry shortly")]
    Chain,
    #[error("the session store failed")]
    Db(#[from] DbErr),
    #[error("the system's random source failed")]
    Random,
    /// A `SIGN-IN-WITH-X` proof whose fields do not hold.
    #[error("{0}")]
    Proof(#[from] siwx::Refused),
    /// A `SIGN-IN-WITH-X` proof whose nonce was used before.
    #[error("the proof's nonce was already used: sign a new proof with the nonce of a new 402")]
    ProofReplayed,
    /// The signature is a contract wallet's: its check calls the chain, which the caller's
    /// rate class pays for first (asked again with [`ChainCheck::Allowed`]).
    #[error("a contract wallet's signature needs a check on the chain")]
    ChainCheckNeeded,
    /// The caller's rate class could not pay for that check (a 429).
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_secs: u64,
    },
}

#[derive(Debug, Clone)]
pub struct NonceIssued {
    pub nonce: String,
    pub message: String,
}

/// A new session: the cookie value and its lifetime.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub address: Address,
    pub token: String,
    pub max_age_secs: i64,
}

struct Cached {
    address: Address,
    expires_at: DateTime<Utc>,
    cached_at: Instant,
}

struct Inner {
    /// SIGN-IN-WITH-X nonces, written in groups.
    used: UsedNonces,
    db: DatabaseConnection,
    settings: SessionSettings,
    clock: SharedClock,
    cache: DashMap<String, Cached>,
    health: HealthRegistry,
    chain_checks: Arc<tokio::sync::Semaphore>,
    /// Contract wallets' verdicts by (wallet, digest, signature key): `true` valid.
    verdicts: DashMap<(Address, B256, B256), (bool, Instant)>,
}

/// The stored form of a token: only its hash ever reaches the table.
pub fn token_hash(token: &str) -> String {
    alloy::hex::encode(Sha256::digest(token.as_bytes()))
}

fn new_token() -> Result<String, AuthError> {
    let mut buf = [0u8; 32];
    getrandom::fill(&mut buf).map_err(|_| AuthError::Random)?;
    Ok(alloy::hex::encode(buf))
}

/// Whether `sig` over `hash` is `address`'s key's. Recovery is CPU work of tens of µs: it runs
/// on the blocking pool, so checks from many requests spread over the cores instead of queueing
/// on the actor's one thread. A panic in it goes on into the caller (the actor's guard).
async fn recovers(hash: B256, sig: &[u8], address: Address) -> Result<bool, AuthError> {
    let sig = sig.to_vec();
    match tokio::task::spawn_blocking(move || signature::recover(&hash, &sig) == Ok(address)).await
    {
        Ok(same) => Ok(same),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // Only when the runtime shuts down.
        Err(_) => Err(AuthError::TimedOut),
    }
}

pub fn parse_address(s: &str) -> Result<Address, AuthError> {
    journal_market_domain::wallet::Wallet::parse(s)
        .map(|w| w.address())
        .map_err(|_| AuthError::BadAddress)
}

impl Inner {
    async fn issue_nonce(&self, address: Address) -> Result<NonceIssued, AuthError> {
        let nonce = siwe::new_nonce().map_err(|_| AuthError::Random)?;
        let now = self.clock.now();
        let expires_at = now + self.settings.nonce_ttl;
        let message = siwe::SignIn {
            origin: &self.settings.origin,
            address,
            chain_id: self.settings.chain_id,
            nonce: &nonce,
            issued_at: now,
            expires_at,
        }
        .message();
        store::insert_nonce(&self.db, &nonce, &lower(&address), &message, expires_at).await?;
        Ok(NonceIssued { nonce, message })
    }

    async fn verify(
        &self,
        address: Address,
        nonce: String,
        sig_hex: String,
    ) -> Result<NewSession, AuthError> {
        let now = self.clock.now();
        let addr = lower(&address);
        let max_failures = self.settings.max_failures;
        let message = match store::usable_nonce(&self.db, &nonce, &addr, now, max_failures).await? {
            Ok(m) => m,
            Err(NonceProblem::Unknown) => return Err(AuthError::UnknownNonce),
            Err(NonceProblem::Used) => return Err(AuthError::NonceUsed),
            Err(NonceProblem::UsedUp) => return Err(AuthError::NonceUsedUp),
            Err(NonceProblem::Expired) => return Err(AuthError::NonceExpired),
            Err(NonceProblem::OtherAddress) => return Err(AuthError::NonceForAnotherAddress),
        };
        let checked = match signature::parse_hex(&sig_hex) {
            Ok(sig) => {
                self.check_signature(address, &message, &sig, ChainCheck::Allowed)
                    .await
            }
            Err(e) => Err(AuthError::BadSignature(e)),
        };
        if let Err(e) = checked {
            // A verdict against the signature counts; "busy" or an unreachable chain does not.
            if matches!(e, AuthError::BadSignature(_)) {
                store::record_failure(&self.db, &nonce, &addr, now, max_failures).await?;
            }
            return Err(e);
        }
        let token = new_token()?;
        let expires_at = now + self.settings.session_ttl;
        if !store::consume_and_open(
            &self.db,
            &nonce,
            &addr,
            &token_hash(&token),
            now,
            expires_at,
        )
        .await?
        {
            // Another verify of the same nonce won the race (or it expired meanwhile).
            return Err(AuthError::NonceUsed);
        }
        self.remember(&token, address, expires_at);
        Ok(NewSession {
            address,
            token,
            max_age_secs: self.settings.session_ttl.num_seconds(),
        })
    }

    /// A `SIGN-IN-WITH-X` proof: its fields, its signature (EOA, ERC-1271, EIP-6492, as for
    /// sign-in), then its nonce used once, in the nonce table every instance shares (kept until
    /// the proof could not be used anyway). The wallet it proves. Its nonce shares the table's
    /// key with sign-in's nonces: a sign-in message and its signature, which read as a proof,
    /// find their nonce taken and are refused.
    async fn verify_siwx(&self, p: siwx::Proof, chain: ChainCheck) -> Result<Address, AuthError> {
        let now = self.clock.now();
        let expect = siwx::Expect {
            origin: &self.settings.origin,
            chain_id: self.settings.chain_id,
            now,
        };
        let (address, until) = siwx::check(&p, &expect)?;
        let message = siwx::message(&p, address);
        let sig = signature::parse_hex(&p.signature).map_err(AuthError::BadSignature)?;
        self.check_signature(address, &message, &sig, chain).await?;
        let fresh = self
            .used
            .use_once(UsedNonce {
                nonce: p.nonce.clone(),
                address: lower(&address),
                message,
                expires_at: until,
                now,
            })
            .await?;
        if !fresh {
            return Err(AuthError::ProofReplayed);
        }
        Ok(address)
    }

    async fn check_signature(
        &self,
        address: Address,
        message: &str,
        sig: &[u8],
        chain: ChainCheck,
    ) -> Result<(), AuthError> {
        // The key's own signature needs no chain call, and never waits for a contract's check.
        let hash = alloy::primitives::eip191_hash_message(message);
        if !signature::is_6492(sig) && recovers(hash, sig, address).await? {
            return Ok(());
        }
        let key = (address, hash, signature::key(sig));
        if let Some(v) = self.verdicts.get(&key)
            && v.1.elapsed() < VERDICT_TTL
        {
            return match v.0 {
                true => Ok(()),
                false => Err(AuthError::BadSignature(SignatureError::ContractRejected)),
            };
        }
        if chain == ChainCheck::NotYet {
            return Err(AuthError::ChainCheckNeeded);
        }
        let Ok(_slot) = self.chain_checks.clone().try_acquire_owned() else {
            return Err(AuthError::Busy);
        };
        // The client fails over between upstreams; this bounds the whole check.
        let p = self.settings.chain.provider();
        let check = verify_message(p, address, message, sig, self.settings.signature_gas);
        let verdict = match tokio::time::timeout(self.settings.call_timeout * 2, check).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(SignatureError::Chain(e))) => {
                tracing::warn!(error = %e, "signature check could not reach the chain");
                return Err(AuthError::Chain);
            }
            Ok(Err(e)) => Err(AuthError::BadSignature(e)),
            Err(_) => return Err(AuthError::Chain),
        };
        if self.verdicts.len() >= MAX_VERDICTS {
            self.verdicts.clear();
        }
        self.verdicts.insert(key, (verdict.is_ok(), Instant::now()));
        verdict
    }

    /// Caches a session by its token (memory only: the table holds just the hash), so a hit
    /// costs no hashing.
    fn remember(&self, token: &str, address: Address, expires_at: DateTime<Utc>) {
        if self.cache.len() >= MAX_CACHED {
            self.cache.clear();
        }
        self.cache.insert(
            token.to_string(),
            Cached {
                address,
                expires_at,
                cached_at: Instant::now(),
            },
        );
    }

    async fn lookup(&self, token: &str) -> Result<Option<Address>, AuthError> {
        let now = self.clock.now();
        if let Some(c) = self.cache.get(token)
            && c.cached_at.elapsed() < self.settings.cache_ttl
        {
            return Ok((c.expires_at > now).then_some(c.address));
        }
        match store::find_session(&self.db, &token_hash(token), now).await? {
            Some((addr, expires_at)) => {
                let address = addr.parse().map_err(|_| AuthError::BadAddress)?;
                self.remember(token, address, expires_at);
                Ok(Some(address))
            }
            None => {
                self.cache.remove(token);
                Ok(None)
            }
        }
    }

    async fn logout(&self, token: &str) -> Result<(), AuthError> {
        let hash = token_hash(token);
        self.cache.remove(token);
        store::delete_session(&self.db, &hash).await?;
        Ok(())
    }

    async fn open_for(&self, address: Address) -> Result<NewSession, AuthError> {
        let token = new_token()?;
        let now = self.clock.now();
        let expires_at = now + self.settings.session_ttl;
        store::open(
            &self.db,
            &token_hash(&token),
            &lower(&address),
            now,
            expires_at,
        )
        .await?;
        self.remember(&token, address, expires_at);
        Ok(NewSession {
            address,
            token,
            max_age_secs: self.settings.session_ttl.num_seconds(),
        })
    }
}

supervise::actor!(SessionActor, NAME, stop);

impl Handler<IssueNonce> for SessionActor {
    type Result = ResponseFuture<Result<NonceIssued, AuthError>>;
    fn handle(&mut self, m: IssueNonce, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        supervise::beside(ctx, NAME, &self.inner.health, async move {
            inner.issue_nonce(m.0).await
        })
    }
}

impl Handler<Verify> for SessionActor {
    type Result = ResponseFuture<Result<NewSession, AuthError>>;
    fn handle(&mut self, m: Verify, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        supervise::beside(ctx, NAME, &self.inner.health, async move {
            inner.verify(m.address, m.nonce, m.signature).await
        })
    }
}

impl Handler<Logout> for SessionActor {
    type Result = ResponseFuture<Result<(), AuthError>>;
    fn handle(&mut self, m: Logout, ctx: &mut Self::Context) -> Self::Result {
        let inner = self.inner.clone();
        supervise::beside(ctx, NAME, &self.inner.health, async move {
            inner.logout(&m.0).await
        })
    }
}

impl SessionActor {
    /// A beat at once and every `BEAT`; a purge at once and every `settings.purge_every`.
    fn schedule(&mut self, ctx: &mut Context<Self>) {
        // Sign-ins run beside the mailbox; a timer of the actor's own shows it runs.
        supervise::every(ctx, NAME, &self.inner.health, BEAT, |act, _| {
            act.inner.health.alive(NAME)
        });
        let every = self.inner.settings.purge_every;
        supervise::every_spawned(ctx, NAME, &self.inner.health, every, |act, _| {
            let inner = act.inner.clone();
            async move {
                match store::purge(&inner.db, inner.clock.now()).await {
                    Ok(n) => {
                        inner.cache.retain(|_, c| c.expires_at > inner.clock.now());
                        inner.health.heartbeat(NAME);
                        if n > 0 {
                            tracing::debug!(rows = n, "purged expired sessions and nonces");
                        }
                    }
                    Err(e) => inner.health.error(NAME, format!("purge failed: {e}")),
                }
            }
        });
    }
}

/// A call's failure as sign-in's.
fn call_error(e: CallError) -> AuthError {
    match e {
        CallError::Busy => AuthError::Busy,
        CallError::TimedOut | CallError::Stopped => AuthError::TimedOut,
    }
}

/// The typed handle: async methods with a deadline and an in-flight limit per message.
#[derive(Clone)]
pub struct SessionHandle {
    handle: ActorHandle<SessionActor>,
    inner: Arc<Inner>,
    /// Sessions opened after a payment at once (they run on the caller's task).
    opening: Arc<tokio::sync::Semaphore>,
}

impl SessionHandle {
    pub fn start(
        db: DatabaseConnection,
        settings: SessionSettings,
        clock: SharedClock,
        health: HealthRegistry,
    ) -> anyhow::Result<Self> {
        let (max, deadline) = (settings.max_in_flight.max(1), settings.call_timeout * 3);
        let chain_checks = Arc::new(tokio::sync::Semaphore::new(
            settings.max_chain_checks.max(1),
        ));
        let inner = Arc::new(Inner {
            used: UsedNonces::start(db.clone()),
            db,
            settings,
            clock,
            cache: DashMap::new(),
            health,
            chain_checks,
            verdicts: DashMap::new(),
        });
        inner.health.register(NAME, BEAT * 3);
        let shared = inner.clone();
        let addr = Supervisor::start(move |_| SessionActor {
            inner: shared.clone(),
        });
        // Each message its own limit: a flood of one cannot take the others' places.
        let handle = ActorHandle::new(NAME, addr, max * 4, deadline, inner.health.clone())
            .limit::<IssueNonce>(max)
            .limit::<Verify>(max)
            .limit::<Logout>(max)
            .limit::<VerifyProof>(max);
        let opening = Arc::new(tokio::sync::Semaphore::new(max));
        Ok(SessionHandle {
            handle,
            inner,
            opening,
        })
    }

    /// Sends `msg`; the call's failures as sign-in's.
    async fn call<M, T>(&self, msg: M) -> Result<T, AuthError>
    where
        M: Message<Result = Result<T, AuthError>> + Send + 'static,
        T: Send + 'static,
        SessionActor: Handler<M>,
    {
        self.handle.call(msg).await.map_err(call_error)?
    }

    pub async fn issue_nonce(&self, address: Address) -> Result<NonceIssued, AuthError> {
        self.call(IssueNonce(address)).await
    }

    pub async fn verify(
        &self,
        address: Address,
        nonce: String,
        signature: String,
    ) -> Result<NewSession, AuthError> {
        self.call(Verify {
            address,
            nonce,
            signature,
        })
        .await
    }

    pub async fn logout(&self, token: String) -> Result<(), AuthError> {
        self.call(Logout(token)).await
    }

    /// The wallet a `SIGN-IN-WITH-X` proof proves (with sign-in's deadline, its budget of
    /// contract-wallet checks, a limit of its own and the actor's panic guard). Run on the
    /// caller's task: a re-read's check needs none of the actor's turns.
    pub async fn verify_siwx(
        &self,
        proof: siwx::Proof,
        chain: ChainCheck,
    ) -> Result<Address, AuthError> {
        let inner = self.inner.clone();
        let check = |m: VerifyProof| async move { inner.verify_siwx(m.proof, m.chain).await };
        self.handle
            .run(VerifyProof { proof, chain }, check)
            .await
            .map_err(call_error)?
    }

    /// Opens a session for a wallet proven otherwise (a settled payment). One insert and the
    /// cache, no check: run on the caller's task, so a purchase step makes one actor round trip
    /// (the settlement's), not two. Within its own in-flight limit.
    pub async fn open_for(&self, address: Address) -> Result<NewSession, AuthError> {
        let Ok(_slot) = self.opening.try_acquire() else {
            return Err(AuthError::Busy);
        };
        self.inner.open_for(address).await
    }

    /// The wallet of a session cookie, or `None` when it is unknown or expired.
    pub async fn lookup(&self, token: &str) -> Result<Option<Address>, AuthError> {
        self.inner.lookup(token).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SystemClock;

    const ORIGIN: &str = "http://localhost:8080";
    const CHAIN_ID: u64 = 4663;

    /// A node that takes connections and never answers: a contract wallet's check waits there.
    async fn silent_node() -> (tokio::net::TcpListener, String) {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        (l, url)
    }

    async fn session(url: String, call_timeout: Duration) -> (SessionHandle, HealthRegistry) {
        let db = sea_orm::Database::connect("sqlite::memory:").await.unwrap();
        let health = HealthRegistry::new();
        let settings = SessionSettings {
            origin: ORIGIN.into(),
            chain_id: CHAIN_ID,
            nonce_ttl: chrono::Duration::minutes(10),
            session_ttl: chrono::Duration::days(30),
            cache_ttl: Duration::from_secs(5),
            chain: ChainClient::new(&[url], call_timeout).unwrap(),
            call_timeout,
            max_in_flight: 4,
            max_chain_checks: 4,
            signature_gas: 1_000_000,
            max_failures: 5,
            purge_every: Duration::from_secs(3600),
        };
        let h = SessionHandle::start(db, settings, Arc::new(SystemClock), health.clone()).unwrap();
        (h, health)
    }

    /// A proof whose fields hold and whose signature is no key's: only the chain can judge it.
    fn contract_wallets_proof() -> siwx::Proof {
        let mut sig = vec![1u8; 64];
        sig.push(27);
        siwx::Proof {
            domain: siwx::domain_of(ORIGIN).into(),
            address: format!("{:#x}", Address::repeat_byte(0x42)),
            uri: format!("{ORIGIN}/api/journals/a"),
            version: "1".into(),
            chain_id: format!("eip155:{CHAIN_ID}"),
            kind: "eip191".into(),
            nonce: "abcdefgh1234".into(),
            issued_at: siwx::ts(&Utc::now()),
            signature: format!("0x{}", alloy::hex::encode(sig)),
            statement: None,
            expiration_time: None,
            not_before: None,
            request_id: None,
            resources: None,
            signature_scheme: None,
        }
    }

    fn in_flight(h: &HealthRegistry) -> u64 {
        h.snapshot()
            .iter()
            .find(|c| c.name == NAME)
            .map(|c| c.in_flight)
            .unwrap_or_default()
    }

    #[actix::test]
    async fn a_proof_is_checked_by_the_actor_within_its_limits() {
        let (_node, url) = silent_node().await;
        let (session, health) = session(url, Duration::from_millis(300)).await;
        let proof = contract_wallets_proof();

        // Not yet paid for: answered before any chain call.
        let first = session.verify_siwx(proof.clone(), ChainCheck::NotYet).await;
        assert!(
            matches!(first, Err(AuthError::ChainCheckNeeded)),
            "{first:?}"
        );

        // Paid for: the check waits on the silent node, counted in the actor's in-flight calls.
        let check = session.verify_siwx(proof, ChainCheck::Allowed);
        let watch = async {
            tokio::time::sleep(Duration::from_millis(150)).await;
            in_flight(&health)
        };
        let (checked, during) = tokio::join!(check, watch);
        assert_eq!(
            during, 1,
            "the proof's check is counted in the session actor's calls"
        );
        assert!(matches!(checked, Err(AuthError::Chain)), "{checked:?}");
        assert_eq!(in_flight(&health), 0);
    }
}

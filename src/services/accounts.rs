//! Wallet accounts: sign-in and sessions (the SessionActor's), sign-in-with-x proofs, and what
//! a signed-in wallet reads about itself. Errors are the session actor's [`AuthError`].

use alloy::primitives::Address;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::session::{
    AuthError, ChainCheck, NewSession, NonceIssued, SessionHandle,
};

use crate::toll::{Toll, Work};
use journal_market_api::{Desk, History};
use journal_market_x402::extensions::siwx;
use sea_orm::DatabaseConnection;

use crate::queries::me;
use crate::services::receipts::Receipts;
use crate::site::Site;

#[derive(Clone)]
pub struct Accounts {
    db: DatabaseConnection,
    site: Site,
    sessions: SessionHandle,
    /// The head, for how deep a purchase in the history is.
    watch: ChainWatchHandle,
    receipts: Receipts,
}

impl Accounts {
    pub fn new(
        db: DatabaseConnection,
        site: Site,
        sessions: SessionHandle,
        watch: ChainWatchHandle,
        receipts: Receipts,
    ) -> Self {
        Accounts {
            db,
            site,
            sessions,
            watch,
            receipts,
        }
    }

    pub async fn issue_nonce(&self, address: Address) -> Result<NonceIssued, AuthError> {
        self.sessions.issue_nonce(address).await
    }

    pub async fn verify(
        &self,
        address: Address,
        nonce: String,
        signature: String,
    ) -> Result<NewSession, AuthError> {
        self.sessions.verify(address, nonce, signature).await
    }

    pub async fn logout(&self, token: String) -> Result<(), AuthError> {
        self.sessions.logout(token).await
    }

    /// The wallet of a session token, if it is a live session.
    pub async fn lookup(&self, token: &str) -> Result<Option<Address>, AuthError> {
        self.sessions.lookup(token).await
    }

    /// A new session for a wallet that proved itself another way (a payment it signed).
    pub async fn open_for(&self, wallet: Address) -> Result<NewSession, AuthError> {
        self.sessions.open_for(wallet).await
    }

    /// The wallet a `SIGN-IN-WITH-X` header proves: `Ok(Err(why))` when the proof is refused
    /// (said to the client), `Err` when it could not be checked now (busy, the chain, the
    /// database, the caller's rate limit). A contract wallet's proof, whose check calls the
    /// chain, is first charged to the caller's auth class (`toll`).
    pub async fn prove(
        &self,
        header: &str,
        toll: Option<&Toll>,
    ) -> Result<Result<Address, String>, AuthError> {
        let proof = match siwx::decode(header) {
            Ok(p) => p,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let answer = match self
            .sessions
            .verify_siwx(proof.clone(), ChainCheck::NotYet)
            .await
        {
            Err(AuthError::ChainCheckNeeded) => {
                if let Some(t) = toll {
                    t.pay(Work::ChainCheck)
                        .await
                        .map_err(|r| AuthError::RateLimited {
                            message: r.message,
                            retry_after_secs: r.retry_after_secs,
                        })?;
                }
                self.sessions.verify_siwx(proof, ChainCheck::Allowed).await
            }
            answer => answer,
        };
        match answer {
            Ok(w) => Ok(Ok(w)),
            Err(
                e @ (AuthError::Proof(_)
                | AuthError::ProofReplayed
                | AuthError::BadSignature(_)
                | AuthError::BadAddress),
            ) => Ok(Err(e.to_string())),
            Err(e) => Err(e),
        }
    }

    /// `GET /me/desk`.
    pub async fn desk(&self, wallet: Address) -> Result<Desk, AuthError> {
        Ok(me::desk(&self.db, wallet).await?)
    }

    /// `GET /me/history`, each unlock with its receipt.
    pub async fn history(&self, wallet: Address) -> Result<History, AuthError> {
        let depth = me::Depth {
            head: self.watch.status().head,
            distance: self.site.settings.chain.reorg_safe_distance,
        };
        let mut h = me::history(&self.db, wallet, depth).await?;
        self.receipts.fill(wallet, &mut h).await?;
        Ok(h)
    }
}

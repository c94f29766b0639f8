//! A purchase, in one place. A journal is bought in one or two payment steps (interface §3):
//! a swarm journal's one payment to the buyback, a person-written journal's 10% fee to the
//! buyback and then 90% to the journal token's holder. Every way in (`POST /pay/burn`,
//! `/pay/author`, `GET /journals/{slug}/text`) runs the same step:
//!
//! ```text
//!  route (parse)  →  flow::pay_step                                   →  answer
//!                    resolve the journal · who asks (sign-in-with-x:     outcome to status,
//!                    a reader reads again, `access`) · pre-check (the    headers, receipt
//!                    rules for the asker) · offer (terms, the 402:       (`receipts`) and
//!                    `offer`) · settle (the settlement actor: judge      session cookie
//!                    the signer, guard in the write)
//! ```
//!
//! The purchase rules (`domain::purchase::rules`) are applied three times, each named for its
//! role: `pre_check` here shapes the answer for a wallet known before any payment (409, or the
//! fee paid already); the settlement's `judge` applies them to the wallet that signed the
//! payment; its store's `guard` enforces them in the write that records it, whatever was read
//! before. Only the guard is needed for money to be right; the other two make answers early
//! and clear.

pub mod access;
mod answer;
mod discovery;
mod flow;
pub mod mcp;
pub mod offer;
pub mod terms;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use alloy::primitives::{Address, B256};
use alloy::signers::local::PrivateKeySigner;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::db::Lanes;
use journal_market_actors::settlement::{SettlementHandle, sponsor};
use journal_market_chain::facilitator::Facilitator;
use sea_orm::{DatabaseConnection, DbErr};

use crate::cache::PublicCaches;
use crate::chain::ChainAddresses;
pub use crate::domain::purchase::Step;
use crate::error::{Challenge, DomainError, DomainResult};
use crate::queries::journals::LiveJournal;
use crate::services::accounts::Accounts;
use crate::services::catalog::Catalog;
use crate::services::receipts::Receipts;
use crate::site::Site;
use crate::toll::Toll;
pub use access::Access;

/// What payments need; `settlement` is None when no back-end or buyback wallet is configured.
pub struct PaymentParts {
    pub settlement: Option<SettlementHandle>,
    pub buyback: Option<Address>,
    /// The built-in facilitator's chain reads of the purchase flow (`ownerOf`) and receipts.
    pub facilitator: Arc<Facilitator>,
    /// The key that signs purchase receipts, when set.
    pub receipts: Option<PrivateKeySigner>,
    /// Whether challenges declare `erc20ApprovalGasSponsoring`: the built-in settler sponsors,
    /// or the outside facilitator's `/supported` lists it (set once that answer is in).
    pub sponsoring: Arc<AtomicBool>,
    /// Why the outside facilitator is unusable now (`None`: it answers); `None` for the
    /// built-in settler.
    pub facilitator_problem: Option<Arc<RwLock<Option<String>>>>,
}

/// The purchase flow: what it reads, the settlement it hands payments to, and the accounts a
/// paid answer signs in.
pub struct Purchases {
    db: Lanes,
    site: Site,
    catalog: Catalog,
    accounts: Accounts,
    receipts: Receipts,
    caches: Arc<PublicCaches>,
    watch: ChainWatchHandle,
    addresses: ChainAddresses,
    pay: PaymentParts,
}

/// What a payment request comes to.
pub enum Outcome {
    /// No payment yet: the challenge of the step due.
    Challenge(Challenge),
    /// The fee of a person-written journal is paid already.
    FeeAlreadyPaid,
    /// A wallet that bought the journal proved itself with `SIGN-IN-WITH-X`: the text again,
    /// and a session; `tx` is the payment that completed its purchase, when there was one.
    Reread {
        payer: Address,
        tx: Option<B256>,
        text: std::sync::Arc<LiveJournal>,
    },
    /// The step is settled; `text` is the journal's body when the step completed the purchase.
    /// `open_session`: the answer also signs the payer in (not when the caller is signed in as
    /// the payer already).
    Paid {
        /// What the receipt names as paid for: the journal's text for the step that completed
        /// the purchase, else the fee step and its amount ([`Site::fee_url`]).
        resource: String,
        payer: Address,
        tx: B256,
        /// When the payment arrived: the time its receipt states.
        paid_at: chrono::DateTime<chrono::Utc>,
        network: String,
        text: Option<std::sync::Arc<LiveJournal>>,
        open_session: bool,
        /// A fee paid through the text's URL: that URL with `?payer=`, where the author's
        /// share is offered.
        next: Option<String>,
    },
}

/// What a payment request asks for.
pub enum Want {
    /// A payment route's step of the journal with this id.
    Step { journal_id: i64, step: Step },
    /// The paid text of the journal with this slug: the step due for the paying wallet, told
    /// by the payment itself, else the session, a sign-in-with-x proof, or the `payer` hint
    /// (public, so it only chooses the offer shown: the rules come from the signer).
    Text {
        slug: String,
        hint: Option<Address>,
        via: Via,
    },
}

/// How the paid text is asked for: what its offer's `bazaar` declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// `GET /journals/{slug}/text`.
    Http,
    /// The MCP tool `read_journal`.
    Mcp,
}

impl Via {
    fn route(self, slug: String) -> terms::Route {
        match self {
            Via::Http => terms::Route::Text { slug },
            Via::Mcp => terms::Route::Tool { slug },
        }
    }
}

/// Who a payment request says it is, besides its payment.
pub struct Caller {
    /// The session's wallet.
    pub session: Option<Address>,
    /// The `SIGN-IN-WITH-X` proof (the header, or over MCP `_meta`); read only when no payment
    /// is sent.
    pub proof: Option<String>,
    /// What the caller's rate class is charged for a contract wallet's proof.
    pub toll: Option<Toll>,
}

impl Purchases {
    /// The services it asks, then the chain's readiness, and the contracts an offer names.
    pub fn new(
        db: Lanes,
        site: Site,
        (catalog, accounts, receipts): (Catalog, Accounts, Receipts),
        (watch, addresses): (ChainWatchHandle, ChainAddresses),
        pay: PaymentParts,
    ) -> Self {
        let caches = catalog.caches_arc();
        Purchases {
            db,
            site,
            catalog,
            accounts,
            receipts,
            caches,
            watch,
            addresses,
            pay,
        }
    }

    /// `wallet`'s access to the paid text of `j` (see [`Access`]).
    pub async fn access(&self, wallet: Address, j: &LiveJournal) -> Result<Access, DbErr> {
        Access::of(&self.db, &self.caches, wallet, j.id, j.author_wallet).await
    }

    /// Payments need both the setting and a ready chain.
    pub fn open(&self) -> bool {
        self.site.settings.payments.enabled
            && self.pay.settlement.is_some()
            && self.pay.buyback.is_some()
            && self.watch.is_ready()
            && self.facilitator_problem().is_none()
    }

    pub fn sponsoring(&self) -> bool {
        self.pay.sponsoring.load(Ordering::Relaxed)
    }

    pub(super) fn db(&self) -> &DatabaseConnection {
        self.db.pool()
    }

    pub fn site(&self) -> &Site {
        &self.site
    }

    pub fn buyback(&self) -> Option<Address> {
        self.pay.buyback
    }

    pub fn settlement(&self) -> Option<&SettlementHandle> {
        self.pay.settlement.as_ref()
    }

    pub fn receipt_signer(&self) -> Option<Address> {
        self.receipts.signer()
    }

    /// Why the outside facilitator is unusable now; `None` while it answers, or for the
    /// built-in settler.
    pub fn facilitator_problem(&self) -> Option<String> {
        self.pay
            .facilitator_problem
            .as_ref()
            .and_then(|p| p.read().ok().and_then(|p| p.clone()))
    }

    /// `ok`, `built-in`, or why the outside facilitator is unusable.
    pub fn facilitator_status(&self) -> String {
        match (&self.pay.facilitator_problem, self.facilitator_problem()) {
            (None, _) => "built-in".into(),
            (Some(_), None) => "ok".into(),
            (Some(_), Some(why)) => why,
        }
    }

    /// The sponsored approvals counted by outcome, when this instance sponsors.
    pub async fn sponsorships(&self) -> Option<Result<sponsor::Tally, DbErr>> {
        if !self.sponsoring() || self.pay.settlement.is_none() {
            return None;
        }
        Some(sponsor::tally(&self.db).await)
    }

    /// Reads the sponsorships into the settlement's metrics for the scrape about to be
    /// encoded: they are every instance's, in the database, so no counter of this one has
    /// them. Not exposed while this instance does not sponsor, or when they cannot be read.
    pub async fn count_sponsorships(&self) {
        let Some(settlement) = self.settlement() else {
            return;
        };
        let tally = match self.sponsorships().await {
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => {
                tracing::warn!(error = %e, "the sponsorships could not be counted");
                None
            }
            None => None,
        };
        settlement.stats().set_sponsorships(tally);
    }
}

//! A payment step of a purchase: the journal and its terms, the purchase rules for the wallet
//! the answer is about, and the settlement. The rules that must hold for money are enforced
//! again in the write that records a payment (the settlement store); the checks here shape the
//! answer early (409 and `{ ok, already }` before a challenge).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use crate::toll::Toll;
use alloy::primitives::{Address, B256, U256};
use alloy::signers::local::PrivateKeySigner;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::db::Lanes;
use journal_market_actors::session::AuthError;
use journal_market_actors::settlement::{
    Paid, PayError, PayStep, SettlementHandle, sponsor, store,
};
use journal_market_chain::bindings::IIdentityRegistry;
use journal_market_chain::extensions::offer_receipt::SignedReceipt;
use journal_market_chain::extensions::payment_identifier;
use journal_market_chain::facilitator::Facilitator;
use journal_market_chain::x402::{self, PaymentPayload, PaymentRequired};
use journal_market_entity::unlocks;
use sea_orm::{DatabaseConnection, DbErr, EntityTrait};

use crate::cache::PublicCaches;
use crate::chain::ChainAddresses;
use crate::domain::purchase::{Standing, Verdict, rules};
use crate::domain::wallet::lower;
use crate::payments::{Fresh, Route, Step, Template, Terms, challenge, requirements, signed_for};
use crate::queries::journals::LiveJournal;
use crate::services::accounts::Accounts;
use crate::services::catalog::{Catalog, CatalogError};
use crate::services::receipts::Receipts;
use crate::site::Site;

#[derive(Debug, thiserror::Error)]
pub enum PurchaseError {
    #[error("{0}")]
    NotOnSale(String),
    /// The request cannot be a purchase as sent.
    #[error("{0}")]
    BadRequest(String),
    /// The purchase rules, or a used permit, refuse it.
    #[error("{0}")]
    Refused(String),
    /// The payment is on its way; the same request later gets its outcome.
    #[error("{0}")]
    StillSettling(String),
    /// A payment that is missing or refused: a fresh challenge, saying why.
    #[error("{}", .0.error)]
    Unpaid(Box<PaymentRequired>),
    /// Payments are closed, busy, or the chain cannot be reached: retry shortly.
    #[error("{0}")]
    Closed(String),
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("the payment store failed")]
    Db(#[from] DbErr),
    #[error("{0}")]
    Internal(String),
}

pub type PurchaseResult<T> = Result<T, PurchaseError>;

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
    /// No payment yet: the challenge for these terms.
    Challenge {
        journal_id: i32,
        step: Step,
        terms: Terms,
    },
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
    },
}

/// What a payment request asks for.
pub enum Want {
    /// A payment route's step of the journal with this id.
    Step { journal_id: i64, step: Step },
    /// The paid text of the journal with this slug: the step due for the paying wallet, told
    /// by the payment itself, else the session, a sign-in-with-x proof, or the `payer` hint
    /// (public, so it only chooses the offer shown: the rules come from the signer).
    Text { slug: String, hint: Option<Address> },
}

/// Who a payment request says it is, besides its payment.
pub struct Caller {
    /// The session's wallet.
    pub session: Option<Address>,
    /// The `SIGN-IN-WITH-X` header; read only when no payment is sent.
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

    /// The journal on sale under `key` (a slug or an id).
    async fn on_sale(&self, key: &str) -> PurchaseResult<Arc<LiveJournal>> {
        match self.catalog.live(key).await {
            Ok(j) => Ok(j),
            Err(CatalogError::NotFound(_)) => Err(PurchaseError::NotOnSale(format!(
                "journal {key} is not on sale"
            ))),
            Err(e) => Err(e.into()),
        }
    }

    /// What `wallet` has paid for the journal so far, as the purchase rules read it.
    async fn standing_of(&self, j: &LiveJournal, wallet: Address) -> PurchaseResult<Standing> {
        Ok(store::standing(&self.db, &lower(&wallet), j.id, j.author_wallet.as_deref()).await?)
    }

    /// The step a payment for a journal's text is for: what the payment pays (the fee goes to the
    /// buyback), else the one due for `wallet`.
    async fn due_step(
        &self,
        j: &LiveJournal,
        payload: Option<&PaymentPayload>,
        wallet: Option<Address>,
        buyback: Address,
    ) -> PurchaseResult<Step> {
        if j.swarm {
            return Ok(Step::Burn);
        }
        if let Some(p) = payload {
            let to = &p.payload.permit2_authorization.witness.to;
            let to_buyback = to.parse::<Address>().is_ok_and(|a| a == buyback);
            return Ok(if to_buyback { Step::Burn } else { Step::Author });
        }
        let Some(wallet) = wallet else {
            return Ok(Step::Burn);
        };
        Ok(
            match rules(self.standing_of(j, wallet).await?, Step::Burn, false) {
                Verdict::FeeAlreadyPaid => Step::Author,
                _ => Step::Burn,
            },
        )
    }

    /// The rules for a wallet known before any payload (the session's): 409, or the fee paid.
    async fn rules_for(
        &self,
        j: &LiveJournal,
        wallet: Address,
        step: Step,
    ) -> PurchaseResult<bool> {
        match rules(self.standing_of(j, wallet).await?, step, j.swarm) {
            Verdict::Pay => Ok(false),
            Verdict::FeeAlreadyPaid => Ok(true),
            Verdict::Refused(r) => Err(PurchaseError::Refused(r.to_string())),
        }
    }

    /// The transaction that completed `wallet`'s purchase of a journal (its last settled step).
    async fn purchase_tx(&self, wallet: &str, j: &LiveJournal) -> PurchaseResult<Option<B256>> {
        let last = if j.swarm { Step::Burn } else { Step::Author }.as_str();
        Ok(store::of_wallet(wallet, j.id)
            .all(&self.db)
            .await?
            .into_iter()
            .find(|p| p.state == store::SETTLED && p.step == last)
            .and_then(|p| p.tx?.parse().ok()))
    }

    /// One payment step for `journal_id`. `payload` is the decoded PAYMENT-SIGNATURE header, if
    /// one was sent.
    pub async fn pay_step(
        &self,
        caller: Caller,
        want: Want,
        payload: Option<Result<PaymentPayload, String>>,
    ) -> PurchaseResult<Outcome> {
        let mut viewer = caller.session;
        let (Some(settlement), Some(buyback)) = (self.pay.settlement.as_ref(), self.pay.buyback)
        else {
            return Err(PurchaseError::Closed("payments are not open".into()));
        };
        if !self.open() {
            let why = match self.facilitator_problem() {
                Some(facilitator) if self.watch.is_ready() => facilitator,
                _ => "the chain is not ready".into(),
            };
            return Err(PurchaseError::Closed(format!(
                "payments are not open: {why}; retry shortly"
            )));
        }
        let (j, fixed) = match &want {
            Want::Step { journal_id, step } => {
                let j = match i32::try_from(*journal_id) {
                    Ok(id) => self.on_sale(&id.to_string()).await,
                    Err(_) => Err(PurchaseError::NotOnSale(format!(
                        "journal {journal_id} is not on sale"
                    ))),
                }?;
                (j, Some(*step))
            }
            Want::Text { slug, .. } => (self.on_sale(slug).await?, None),
        };
        if fixed == Some(Step::Author) && j.swarm {
            return Err(PurchaseError::BadRequest(
                "a swarm journal is bought with one payment to /pay/burn; it has no author payment"
                    .into(),
            ));
        }
        // Without a payment, a SIGN-IN-WITH-X proof of a wallet that bought the journal reads it
        // again; any other proof gets the usual answer for its wallet, with why in the 402.
        let mut why: Option<String> = None;
        if payload.is_none()
            && let Some(h) = caller.proof.as_deref()
        {
            match self.accounts.prove(h, caller.toll.as_ref()).await? {
                Ok(wallet) => {
                    let w = lower(&wallet);
                    if unlocks::Entity::find_by_id((w.clone(), j.id))
                        .one(&self.db)
                        .await?
                        .is_some()
                    {
                        return Ok(Outcome::Reread {
                            payer: wallet,
                            tx: self.purchase_tx(&w, &j).await?,
                            text: j,
                        });
                    }
                    viewer = Some(wallet);
                    why = Some(
                        "the signed-in wallet has not bought this journal: pay to read it".into(),
                    );
                }
                Err(e) => {
                    why = Some(format!(
                        "the SIGN-IN-WITH-X proof was refused ({e}): pay, or sign a new proof"
                    ))
                }
            }
        }
        let (step, resource_url, route) = match want {
            Want::Step { step, .. } => (
                step,
                self.site.pay_url(step),
                Route::Pay { journal_id: j.id },
            ),
            Want::Text { hint, .. } => {
                let paid = payload.as_ref().and_then(|p| p.as_ref().ok());
                let step = self.due_step(&j, paid, viewer.or(hint), buyback).await?;
                let slug = j.detail.item.slug.clone();
                (step, self.site.text_url(&slug, hint), Route::Text { slug })
            }
        };
        // Without a payload the session's wallet shapes the answer; with one, only the wallet
        // that signed it does (inside the settlement, after its signature is verified).
        if payload.is_none()
            && let Some(wallet) = viewer
            && self.rules_for(&j, wallet, step).await?
            && step == Step::Burn
        {
            return Ok(Outcome::FeeAlreadyPaid);
        }
        let pay_to = match step {
            Step::Burn => buyback,
            Step::Author => self.token_holder(&j).await?,
        };
        let terms = self.terms(
            step.amount(j.price_units, j.swarm),
            pay_to,
            resource_url,
            route,
        );
        let p = match payload {
            None if why.is_some() => return Err(refuse(why.unwrap_or_default(), &terms)),
            None => {
                return Ok(Outcome::Challenge {
                    journal_id: j.id,
                    step,
                    terms,
                });
            }
            Some(Err(e)) => {
                return Err(refuse(
                    format!("the payment header is malformed: {e}"),
                    &terms,
                ));
            }
            Some(Ok(p)) => p,
        };
        if p.x402_version != x402::VERSION {
            return Err(refuse(
                format!("x402Version must be {}", x402::VERSION),
                &terms,
            ));
        }
        if !signed_for(&p, &terms) {
            return Err(refuse(
                "the payment does not match the current price or recipient".into(),
                &terms,
            ));
        }
        let payment_id = payment_identifier::of(&p).map_err(PurchaseError::BadRequest)?;
        let paid = settlement
            .pay(PayStep {
                journal_id: j.id,
                author_wallet: j.author_wallet.clone(),
                swarm: j.swarm,
                step,
                amount_units: terms.amount,
                pay_to,
                requirements: requirements(&terms),
                payload: p,
                payment_id,
            })
            .await;
        let (payer, tx, paid_at, open_session) = match paid {
            Ok(Paid::Settled { payer, tx, at }) => (payer, tx, at, viewer != Some(payer)),
            // A permit seen on the chain opens nothing; the payer signed in reads again.
            Ok(Paid::Used { payer, tx, at }) if viewer == Some(payer) => (payer, tx, at, false),
            Ok(Paid::Used { tx, .. }) => return Err(PurchaseError::Refused(used(tx))),
            Ok(Paid::FeeAlreadyPaid) => return Ok(Outcome::FeeAlreadyPaid),
            Err(e) => return Err(pay_error(e, &terms)),
        };
        self.caches.paid();
        let last = step.is_last(j.swarm);
        let resource = match last {
            true => self.site.text_url(&j.detail.item.slug, None),
            false => self.site.fee_url(j.id, terms.amount),
        };
        Ok(Outcome::Paid {
            resource,
            payer,
            tx,
            paid_at,
            network: format!("eip155:{}", terms.chain_id),
            text: last.then(|| j.clone()),
            open_session,
        })
    }
}

/// The 409 for a settled permit presented again by a request with no claim to its answer.
fn used(tx: B256) -> String {
    format!(
        "this signed payment was settled already (transaction {tx:#x}); a settled permit is \
         public on the chain and opens nothing again: retry with the payment-identifier it was \
         first sent with, or sign in as the paying wallet (a SIGN-IN-WITH-X proof or a \
         session) to read the journal"
    )
}

/// A 402 with a fresh challenge, saying why.
fn refuse(why: String, terms: &Terms) -> PurchaseError {
    match Fresh::new(terms.now) {
        Ok(fresh) => PurchaseError::Unpaid(Box::new(challenge(terms, why, &fresh))),
        Err(_) => PurchaseError::Internal("the random source failed".into()),
    }
}

fn pay_error(e: PayError, terms: &Terms) -> PurchaseError {
    match e {
        PayError::Rejected(m) => refuse(m, terms),
        PayError::Refused(r) => PurchaseError::Refused(r.to_string()),
        PayError::IdReused => PurchaseError::Refused(e.to_string()),
        PayError::StillSettling => PurchaseError::StillSettling(e.to_string()),
        PayError::Busy | PayError::Stopped => PurchaseError::Closed(e.to_string()),
        PayError::Chain(m) => PurchaseError::Closed(format!("the chain could not be reached: {m}")),
        PayError::Db(db) => PurchaseError::Db(db),
        PayError::Interrupted => {
            PurchaseError::Internal("settlement interrupted by a fault point".into())
        }
    }
}

impl Purchases {
    /// Whoever holds the journal's token now, read from the identity registry.
    async fn token_holder(&self, j: &LiveJournal) -> PurchaseResult<Address> {
        let token = j
            .token_id
            .as_deref()
            .and_then(|t| U256::from_str_radix(t, 10).ok())
            .ok_or_else(|| {
                PurchaseError::NotOnSale(format!(
                    "journal {} has no onchain token and is not on sale",
                    j.id
                ))
            })?;
        IIdentityRegistry::new(
            self.addresses.identity_registry,
            self.pay.facilitator.reader(),
        )
        .ownerOf(token)
        .call()
        .await
        .map_err(|_| {
            PurchaseError::Closed(
                "the token's holder could not be read from the chain; retry shortly".into(),
            )
        })
    }

    /// The terms of an offer of `amount` to `pay_to` for the resource at `resource_url`.
    pub fn terms(&self, amount: i64, pay_to: Address, resource_url: String, route: Route) -> Terms {
        let a = &self.addresses;
        Terms {
            origin: self.site.origin().to_string(),
            api_prefix: self.site.api_prefix().to_string(),
            now: self.site.now(),
            chain_id: self.site.chain_id(),
            usdg: a.usdg,
            proxy: a.permit2_proxy,
            amount,
            pay_to,
            resource_url,
            route,
            sponsoring: self.sponsoring(),
        }
    }

    /// The serialized challenge of `terms`, kept per journal, step and recipient until a write
    /// that public reads show.
    pub async fn template(
        &self,
        terms: &Terms,
        id: i32,
        step: Step,
    ) -> PurchaseResult<Arc<Template>> {
        let key = (id, step.as_str(), terms.pay_to, terms.resource_url.clone());
        // A resource that names its payer is one of as many as there are addresses: those are
        // kept apart, in a small cache of their own.
        let cache = match terms.resource_url.contains("?payer=") {
            true => &self.caches.payer_challenges,
            false => &self.caches.challenges,
        };
        cache
        .get_or_try(&key, || async {
            Template::new(
                terms,
                "payment required: sign the offer in accepts and send it in the PAYMENT-SIGNATURE header",
            )
            .map(Arc::new)
            .map_err(|e| PurchaseError::Internal(format!("the challenge could not be written: {e}")))
        })
        .await
    }

    /// The signed receipt of a settled payment for `resource`, when receipts are on.
    pub fn receipt(
        &self,
        resource: &str,
        payer: Address,
        tx: B256,
        paid_at: chrono::DateTime<chrono::Utc>,
    ) -> Option<SignedReceipt> {
        self.receipts.of_payment(resource, payer, tx, paid_at)
    }

    /// A new session for the wallet a paid answer signs in.
    pub async fn open_session(
        &self,
        payer: Address,
    ) -> Result<journal_market_actors::session::NewSession, AuthError> {
        self.accounts.open_for(payer).await
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
}

//! One payment step, as named stages: payments open, resolve the journal, who asks, the step
//! due, the pre-check, the offer, then the settlement. The rules that must hold for money are
//! enforced again in the write that records a payment (the settlement store's guard); the
//! stages here shape the answer early (409 and `{ ok, already }` before a challenge).

use std::sync::Arc;

use alloy::primitives::{Address, B256};
use journal_market_actors::settlement::{Paid, PayError, PayStep, SettlementHandle, store};
use journal_market_entity::{PaymentState, Wallet};
use journal_market_x402::extensions::payment_identifier;
use journal_market_x402::{self as x402, PaymentPayload};

use super::offer::refuse;
use super::terms::{Route, Terms, requirements, signed_for};
use super::{Caller, DomainError, DomainResult, Outcome, Purchases, Step, Via, Want};
use crate::domain::purchase::{Standing, Verdict, rules};
use crate::queries::journals::LiveJournal;

/// Who the step is for, as far as is known before a payment's signer: the session's wallet or
/// a sign-in-with-x proof's, and why a proof did not read the text again.
struct Asker {
    wallet: Option<Address>,
    why: Option<String>,
}

/// The step due and the resource its offer names.
struct Due {
    step: Step,
    resource_url: String,
    route: Route,
}

impl Purchases {
    /// One payment step. `payload` is the decoded PAYMENT-SIGNATURE header, if one was sent.
    pub async fn pay_step(
        &self,
        caller: Caller,
        want: Want,
        payload: Option<Result<PaymentPayload, String>>,
    ) -> DomainResult<Outcome> {
        let (settlement, buyback) = self.payments_open()?;
        let j = self.resolve(&want).await?;
        let asker = match self.who_asks(&caller, &j, payload.is_some()).await? {
            Ok(asker) => asker,
            Err(reread) => return Ok(reread),
        };
        let signed = payload.as_ref().and_then(|p| p.as_ref().ok());
        let due = self.step_due(want, &j, signed, &asker, buyback).await?;
        if payload.is_none()
            && let Some(wallet) = asker.wallet
            && self.pre_check(&j, wallet, due.step).await? == Verdict::FeeAlreadyPaid
            && due.step == Step::Burn
        {
            return Ok(Outcome::FeeAlreadyPaid);
        }
        let pay_to = match due.step {
            Step::Burn => buyback,
            Step::Author => self.token_holder(&j).await?,
        };
        let amount = due.step.amount(j.price_units, j.swarm);
        let terms = self.terms(amount, pay_to, due.resource_url, due.route);
        let p = match (payload, asker.why) {
            (None, Some(why)) => return Err(refuse(why, &terms)),
            (None, None) => {
                return Ok(Outcome::Challenge(
                    self.offer(&terms, j.id, due.step).await?,
                ));
            }
            (Some(p), _) => payment(p, &terms)?,
        };
        self.settle(settlement, j, due.step, terms, p, asker.wallet)
            .await
    }

    /// The settlement and the buyback, when payments are open; else why not (503).
    fn payments_open(&self) -> DomainResult<(&SettlementHandle, Address)> {
        let (Some(settlement), Some(buyback)) = (self.pay.settlement.as_ref(), self.pay.buyback)
        else {
            return Err(DomainError::unavailable("payments are not open"));
        };
        if !self.open() {
            let why = match self.facilitator_problem() {
                Some(facilitator) if self.watch.is_ready() => facilitator,
                _ => "the chain is not ready".into(),
            };
            return Err(DomainError::unavailable(format!(
                "payments are not open: {why}; retry shortly"
            )));
        }
        Ok((settlement, buyback))
    }

    /// The journal on sale that `want` names; a swarm journal has no author step.
    async fn resolve(&self, want: &Want) -> DomainResult<Arc<LiveJournal>> {
        let not_on_sale = |key: &dyn std::fmt::Display| {
            DomainError::NotFound(format!("journal {key} is not on sale"))
        };
        let key = match want {
            Want::Step { journal_id, .. } => i32::try_from(*journal_id)
                .map_err(|_| not_on_sale(journal_id))?
                .to_string(),
            Want::Text { slug, .. } => slug.clone(),
        };
        let j = self.catalog.live(&key).await.map_err(|e| match e {
            DomainError::NotFound(_) => not_on_sale(&key),
            e => e,
        })?;
        if matches!(
            want,
            Want::Step {
                step: Step::Author,
                ..
            }
        ) && j.swarm
        {
            return Err(DomainError::BadRequest(
                "a swarm journal is bought with one payment to /pay/burn; it has no author payment"
                    .into(),
            ));
        }
        Ok(j)
    }

    /// Who asks. Without a payment, a SIGN-IN-WITH-X proof of a wallet that bought the journal
    /// reads it again (`Err` holds that answer); any other proof gets the usual answer for its
    /// wallet, with why in the 402.
    async fn who_asks(
        &self,
        caller: &Caller,
        j: &Arc<LiveJournal>,
        paying: bool,
    ) -> DomainResult<Result<Asker, Outcome>> {
        let mut asker = Asker {
            wallet: caller.session,
            why: None,
        };
        let Some(proof) = caller.proof.as_deref().filter(|_| !paying) else {
            return Ok(Ok(asker));
        };
        match self.accounts.prove(proof, caller.toll.as_ref()).await? {
            Ok(wallet) => {
                if self.access(wallet, j).await?.bought() {
                    return Ok(Err(Outcome::Reread {
                        payer: wallet,
                        tx: self.purchase_tx(Wallet(wallet), j).await?,
                        text: j.clone(),
                    }));
                }
                asker.wallet = Some(wallet);
                asker.why =
                    Some("the signed-in wallet has not bought this journal: pay to read it".into());
            }
            Err(e) => {
                asker.why = Some(format!(
                    "the SIGN-IN-WITH-X proof was refused ({e}): pay, or sign a new proof"
                ))
            }
        }
        Ok(Ok(asker))
    }

    /// The step a request is for: the route's, or for the paid text, what the payment pays
    /// (the fee goes to the buyback), else the one due for the asker or the `payer` hint.
    async fn step_due(
        &self,
        want: Want,
        j: &LiveJournal,
        signed: Option<&PaymentPayload>,
        asker: &Asker,
        buyback: Address,
    ) -> DomainResult<Due> {
        let hint = match want {
            Want::Step { step, .. } => {
                return Ok(Due {
                    step,
                    resource_url: self.site.pay_url(step),
                    route: Route::Pay { journal_id: j.id },
                });
            }
            Want::Text { hint, .. } => hint,
        };
        let via = match want {
            Want::Text { via, .. } => via,
            Want::Step { .. } => Via::Http,
        };
        let step = if j.swarm {
            Step::Burn
        } else if let Some(p) = signed {
            let to = &p.payload.permit2_authorization.witness.to;
            match to.parse::<Address>().is_ok_and(|a| a == buyback) {
                true => Step::Burn,
                false => Step::Author,
            }
        } else if let Some(wallet) = asker.wallet.or(hint) {
            match rules(self.standing_of(j, wallet).await?, Step::Burn, false) {
                Verdict::FeeAlreadyPaid => Step::Author,
                _ => Step::Burn,
            }
        } else {
            Step::Burn
        };
        let slug = j.detail.item.slug.clone();
        Ok(Due {
            step,
            resource_url: self.site.text_url(&slug, hint),
            route: via.route(slug),
        })
    }

    /// The pre-check: the purchase rules for a wallet known before any payment (the session's
    /// or a proof's). A refusal is a 409 before any challenge.
    async fn pre_check(
        &self,
        j: &LiveJournal,
        wallet: Address,
        step: Step,
    ) -> DomainResult<Verdict> {
        match rules(self.standing_of(j, wallet).await?, step, j.swarm) {
            Verdict::Refused(r) => Err(DomainError::Conflict(r.to_string())),
            v => Ok(v),
        }
    }

    /// What `wallet` has paid for the journal so far, as the purchase rules read it.
    async fn standing_of(&self, j: &LiveJournal, wallet: Address) -> DomainResult<Standing> {
        Ok(store::standing(&self.db, Wallet(wallet), j.id, j.author_wallet).await?)
    }

    /// The transaction that completed `wallet`'s purchase of a journal (its last settled step).
    async fn purchase_tx(&self, wallet: Wallet, j: &LiveJournal) -> DomainResult<Option<B256>> {
        let last = if j.swarm { Step::Burn } else { Step::Author }.as_str();
        Ok(store::of_wallet(wallet, j.id)
            .all(&self.db)
            .await?
            .into_iter()
            .find(|p| p.state == PaymentState::Settled && p.step == last)
            .and_then(|p| p.tx.map(B256::from)))
    }

    /// Hands the payment to the settlement actor, which judges its signer and records it.
    async fn settle(
        &self,
        settlement: &SettlementHandle,
        j: Arc<LiveJournal>,
        step: Step,
        terms: Terms,
        p: PaymentPayload,
        asker: Option<Address>,
    ) -> DomainResult<Outcome> {
        let payment_id = payment_identifier::of(&p).map_err(DomainError::BadRequest)?;
        // The signer, once the settlement has verified the signature (it judges nothing before).
        let signer = p.payload.permit2_authorization.from.parse::<Address>().ok();
        let pay_to = terms.pay_to;
        let paid = settlement
            .pay(PayStep {
                journal_id: j.id,
                author_wallet: j.author_wallet,
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
            Ok(Paid::Settled { payer, tx, at }) => (payer, tx, at, asker != Some(payer)),
            // A permit seen on the chain opens nothing; the payer signed in reads again.
            Ok(Paid::Used { payer, tx, at }) if asker == Some(payer) => (payer, tx, at, false),
            Ok(Paid::Used { tx, .. }) => return Err(DomainError::Conflict(used(tx))),
            Ok(Paid::FeeAlreadyPaid) => {
                return match (&terms.route, signer) {
                    // The text's URL (or tool) answers what is due instead: the author's offer.
                    (Route::Text { .. }, Some(payer)) => {
                        Err(self.author_due(&j, payer, Via::Http).await?)
                    }
                    (Route::Tool { .. }, Some(payer)) => {
                        Err(self.author_due(&j, payer, Via::Mcp).await?)
                    }
                    _ => Ok(Outcome::FeeAlreadyPaid),
                };
            }
            Err(e) => return Err(pay_error(e, &terms)),
        };
        self.caches.paid();
        let last = step.is_last(j.swarm);
        let resource = match last {
            true => self.site.text_url(&j.detail.item.slug, None),
            false => self.site.fee_url(j.id, terms.amount),
        };
        let next = match (terms.route.slug(), last) {
            (Some(slug), false) => Some(self.site.text_url(slug, Some(payer))),
            _ => None,
        };
        Ok(Outcome::Paid {
            resource,
            payer,
            tx,
            paid_at,
            network: format!("eip155:{}", terms.chain_id),
            text: last.then_some(j),
            open_session,
            next,
        })
    }

    /// A fee payment through the text's URL from a wallet whose fee is paid: nothing is
    /// charged, and the 402 offers the step due, the author's share, at the URL that names the
    /// payer (a plain x402 client that pays the fee again is never told `{ ok, already }`).
    async fn author_due(
        &self,
        j: &LiveJournal,
        payer: Address,
        via: Via,
    ) -> DomainResult<DomainError> {
        let pay_to = self.token_holder(j).await?;
        let slug = j.detail.item.slug.clone();
        let url = self.site.text_url(&slug, Some(payer));
        let amount = Step::Author.amount(j.price_units, j.swarm);
        let terms = self.terms(amount, pay_to, url.clone(), via.route(slug));
        Ok(refuse(
            format!(
                "the fee of this journal is paid already by {}: nothing was charged; the step due \
                 is the author's share, offered here and at {url}",
                payer.to_checksum(None)
            ),
            &terms,
        ))
    }
}

/// The payment sent, checked against the offer's terms before it goes to the settlement.
fn payment(sent: Result<PaymentPayload, String>, terms: &Terms) -> DomainResult<PaymentPayload> {
    let p = sent.map_err(|e| refuse(format!("the payment is malformed: {e}"), terms))?;
    if p.x402_version != x402::VERSION {
        return Err(refuse(
            format!("x402Version must be {}", x402::VERSION),
            terms,
        ));
    }
    if !signed_for(&p, terms) {
        return Err(refuse(
            "the payment does not match the current price or recipient".into(),
            terms,
        ));
    }
    Ok(p)
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

fn pay_error(e: PayError, terms: &Terms) -> DomainError {
    match e {
        PayError::Rejected(m) => refuse(m, terms),
        PayError::Refused(r) => DomainError::Conflict(r.to_string()),
        PayError::IdReused => DomainError::Conflict(e.to_string()),
        PayError::StillSettling => DomainError::StillSettling(e.to_string()),
        PayError::Busy | PayError::Stopped => DomainError::unavailable(e.to_string()),
        PayError::Chain(m) => {
            DomainError::unavailable(format!("the chain could not be reached: {m}"))
        }
        PayError::Db(db) => DomainError::db(db),
        PayError::Interrupted => {
            DomainError::internal_msg("settlement interrupted by a fault point")
        }
    }
}

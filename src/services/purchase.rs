//! A payment step of a purchase: the journal and its terms, the purchase rules for the wallet
//! the answer is about, and the settlement. The rules that must hold for money are enforced
//! again in the write that records a payment (the settlement store); the checks here shape the
//! answer early (409 and `{ ok, already }` before a challenge).

use alloy::primitives::{Address, B256, U256};
use journal_market_actors::settlement::{Paid, PayError, PayStep, store};
use journal_market_chain::bindings::IIdentityRegistry;
use journal_market_chain::extensions::payment_identifier;
use journal_market_chain::x402::{self, PaymentPayload};
use journal_market_entity::unlocks;
use sea_orm::EntityTrait;

use crate::domain::purchase::{Standing, Verdict, rules};
use crate::error::{ApiError, ApiResult};
use crate::payments::{Fresh, Route, Step, Terms, challenge, requirements, signed_for};
use crate::queries::journals::LiveJournal;
use crate::services::catalog::live;
use crate::session::prove;
use crate::state::AppState;

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
        journal_id: i32,
        slug: String,
        payer: Address,
        tx: B256,
        network: String,
        text: Option<std::sync::Arc<LiveJournal>>,
        open_session: bool,
    },
}

/// The journal on sale under `key` (a slug or an id).
async fn on_sale(state: &AppState, key: &str) -> ApiResult<std::sync::Arc<LiveJournal>> {
    match live(state, key).await {
        Ok(j) => Ok(j),
        Err(ApiError::NotFound(_)) => {
            Err(ApiError::not_found(format!("journal {key} is not on sale")))
        }
        Err(e) => Err(e),
    }
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

/// What `wallet` has paid for the journal so far, as the purchase rules read it.
async fn standing_of(state: &AppState, j: &LiveJournal, wallet: Address) -> ApiResult<Standing> {
    Ok(store::standing(
        &state.db,
        &format!("{wallet:#x}"),
        j.id,
        j.author_wallet.as_deref(),
    )
    .await?)
}

/// The step a payment for a journal's text is for: what the payment pays (the fee goes to the
/// buyback), else the one due for `wallet`.
async fn due_step(
    state: &AppState,
    j: &LiveJournal,
    payload: Option<&PaymentPayload>,
    wallet: Option<Address>,
    buyback: Address,
) -> ApiResult<Step> {
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
        match rules(standing_of(state, j, wallet).await?, Step::Burn, false) {
            Verdict::FeeAlreadyPaid => Step::Author,
            _ => Step::Burn,
        },
    )
}

/// The rules for a wallet known before any payload (the session's): 409, or the fee paid.
async fn rules_for(
    state: &AppState,
    j: &LiveJournal,
    wallet: Address,
    step: Step,
) -> ApiResult<bool> {
    match rules(standing_of(state, j, wallet).await?, step, j.swarm) {
        Verdict::Pay => Ok(false),
        Verdict::FeeAlreadyPaid => Ok(true),
        Verdict::Refused(r) => Err(ApiError::Conflict(r.to_string())),
    }
}

/// Who a payment request says it is, besides its payment.
pub struct Caller {
    /// The session's wallet.
    pub session: Option<Address>,
    /// The `SIGN-IN-WITH-X` header; read only when no payment is sent.
    pub proof: Option<String>,
}

/// The transaction that completed `wallet`'s purchase of a journal (its last settled step).
async fn purchase_tx(state: &AppState, wallet: &str, j: &LiveJournal) -> ApiResult<Option<B256>> {
    let last = if j.swarm { Step::Burn } else { Step::Author }.as_str();
    Ok(store::of_wallet(wallet, j.id)
        .all(&state.db)
        .await?
        .into_iter()
        .find(|p| p.state == store::SETTLED && p.step == last)
        .and_then(|p| p.tx?.parse().ok()))
}

/// One payment step for `journal_id`. `payload` is the decoded PAYMENT-SIGNATURE header, if
/// one was sent.
pub async fn pay_step(
    state: &AppState,
    caller: Caller,
    want: Want,
    payload: Option<Result<PaymentPayload, String>>,
) -> ApiResult<Outcome> {
    let mut viewer = caller.session;
    let (Some(settlement), Some(buyback)) = (state.pay.settlement.as_ref(), state.pay.buyback)
    else {
        return Err(ApiError::unavailable("payments are not open"));
    };
    if !state.payments_open() {
        let why = match state.pay.facilitator_problem() {
            Some(facilitator) if state.watch.is_ready() => facilitator,
            _ => "the chain is not ready".into(),
        };
        return Err(ApiError::unavailable(format!(
            "payments are not open: {why}; retry shortly"
        )));
    }
    let (j, fixed) = match &want {
        Want::Step { journal_id, step } => {
            let j = match i32::try_from(*journal_id) {
                Ok(id) => on_sale(state, &id.to_string()).await,
                Err(_) => Err(ApiError::not_found(format!(
                    "journal {journal_id} is not on sale"
                ))),
            }?;
            (j, Some(*step))
        }
        Want::Text { slug, .. } => (on_sale(state, slug).await?, None),
    };
    if fixed == Some(Step::Author) && j.swarm {
        return Err(ApiError::bad_request(
            "a swarm journal is bought with one payment to /pay/burn; it has no author payment",
        ));
    }
    // Without a payment, a SIGN-IN-WITH-X proof of a wallet that bought the journal reads it
    // again; any other proof gets the usual answer for its wallet, with why in the 402.
    let mut why: Option<String> = None;
    if payload.is_none()
        && let Some(h) = caller.proof.as_deref()
    {
        match prove(state, h).await? {
            Ok(wallet) => {
                let w = format!("{wallet:#x}");
                if unlocks::Entity::find_by_id((w.clone(), j.id))
                    .one(&state.db)
                    .await?
                    .is_some()
                {
                    return Ok(Outcome::Reread {
                        payer: wallet,
                        tx: purchase_tx(state, &w, &j).await?,
                        text: j,
                    });
                }
                viewer = Some(wallet);
                why =
                    Some("the signed-in wallet has not bought this journal: pay to read it".into());
            }
            Err(e) => {
                why = Some(format!(
                    "the SIGN-IN-WITH-X proof was refused ({e}): pay, or sign a new proof"
                ))
            }
        }
    }
    let (step, resource_url, route) = match want {
        Want::Step { step, .. } => (step, state.pay_url(step), Route::Pay { journal_id: j.id }),
        Want::Text { hint, .. } => {
            let paid = payload.as_ref().and_then(|p| p.as_ref().ok());
            let step = due_step(state, &j, paid, viewer.or(hint), buyback).await?;
            let slug = j.detail.item.slug.clone();
            (step, state.text_url(&slug, hint), Route::Text { slug })
        }
    };
    // Without a payload the session's wallet shapes the answer; with one, only the wallet
    // that signed it does (inside the settlement, after its signature is verified).
    if payload.is_none()
        && let Some(wallet) = viewer
        && rules_for(state, &j, wallet, step).await?
        && step == Step::Burn
    {
        return Ok(Outcome::FeeAlreadyPaid);
    }
    let pay_to = match step {
        Step::Burn => buyback,
        Step::Author => token_holder(state, &j).await?,
    };
    let a = &state.addresses;
    let terms = Terms {
        origin: state.origin().to_string(),
        api_prefix: state.settings.server.api_prefix.clone(),
        now: state.clock.now(),
        chain_id: state.settings.chain.chain_id,
        usdg: a.usdg,
        proxy: a.permit2_proxy,
        amount: step.amount(j.price_units, j.swarm),
        pay_to,
        resource_url,
        route,
        sponsoring: state.pay.sponsoring(),
    };
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
    let payment_id = payment_identifier::of(&p).map_err(ApiError::BadRequest)?;
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
    let (payer, tx, open_session) = match paid {
        Ok(Paid::Settled { payer, tx }) => (payer, tx, viewer != Some(payer)),
        // A permit seen on the chain opens nothing; the payer signed in reads again.
        Ok(Paid::Used { payer, tx }) if viewer == Some(payer) => (payer, tx, false),
        Ok(Paid::Used { tx, .. }) => return Err(ApiError::Conflict(used(tx))),
        Ok(Paid::FeeAlreadyPaid) => return Ok(Outcome::FeeAlreadyPaid),
        Err(e) => return Err(pay_error(e, &terms)),
    };
    state.invalidate_public();
    Ok(Outcome::Paid {
        journal_id: j.id,
        slug: j.detail.item.slug.clone(),
        payer,
        tx,
        network: format!("eip155:{}", terms.chain_id),
        text: step.is_last(j.swarm).then(|| j.clone()),
        open_session,
    })
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
fn refuse(why: String, terms: &Terms) -> ApiError {
    match Fresh::new(terms.now) {
        Ok(fresh) => ApiError::PaymentRequired(Box::new(challenge(terms, why, &fresh))),
        Err(_) => ApiError::internal(anyhow::anyhow!("the random source failed")),
    }
}

fn pay_error(e: PayError, terms: &Terms) -> ApiError {
    match e {
        PayError::Rejected(m) => refuse(m, terms),
        PayError::Refused(r) => ApiError::Conflict(r.to_string()),
        PayError::IdReused => ApiError::Conflict(e.to_string()),
        PayError::StillSettling => ApiError::StillSettling(e.to_string()),
        PayError::Busy | PayError::Stopped => ApiError::unavailable(e.to_string()),
        PayError::Chain(m) => ApiError::unavailable(format!("the chain could not be reached: {m}")),
        PayError::Db(db) => ApiError::db(db),
        PayError::Interrupted => {
            ApiError::internal(anyhow::anyhow!("settlement interrupted by a fault point"))
        }
    }
}

/// Whoever holds the journal's token now, read from the identity registry.
async fn token_holder(state: &AppState, j: &LiveJournal) -> ApiResult<Address> {
    let token = j
        .token_id
        .as_deref()
        .and_then(|t| U256::from_str_radix(t, 10).ok())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "journal {} has no onchain token and is not on sale",
                j.id
            ))
        })?;
    IIdentityRegistry::new(
        state.addresses.identity_registry,
        state.pay.facilitator.reader(),
    )
    .ownerOf(token)
    .call()
    .await
    .map_err(|_| {
        ApiError::unavailable("the token's holder could not be read from the chain; retry shortly")
    })
}

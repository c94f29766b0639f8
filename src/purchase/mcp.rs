//! A payment step's outcome as an MCP tool result, the x402 MCP binding's shapes
//! (research/mcp-x402.md §1): the challenge is a result with `isError` and the PaymentRequired
//! in `structuredContent` and, as JSON, in `content[0].text`; a settled payment carries its
//! PAYMENT-RESPONSE object (with the signed receipt) in `_meta["x402/payment-response"]`; the
//! text is `content[0].text`, the bytes the delivery receipt's `responseHash` binds. The step
//! itself is [`Purchases::pay_step`], as for every other way in.

use alloy::primitives::Address;
use journal_market_api::{Paid, PaymentAnswer};
use journal_market_x402::PaymentPayload;
use serde_json::{Value, json};

use super::answer::{Settled, settle_response, text_answer};
use super::terms::TOOL;
use super::{Caller, Outcome, Purchases, Want};
use crate::error::{Challenge, DomainError};

/// Where the binding puts the payment, its answer, and (this service's choice,
/// docs/decisions.md) a sign-in-with-x proof.
pub const PAYMENT_META: &str = "x402/payment";
pub const PAYMENT_RESPONSE_META: &str = "x402/payment-response";
pub const SIWX_META: &str = "x402/sign-in-with-x";

/// What a paid call came to, for the payment metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Paying {
    /// No payment: the challenge of the step due.
    Challenged,
    /// A payment refused with a fresh challenge saying why.
    Refused,
    /// A payment settled (or a retry answered as it was first).
    Settled,
    /// A wallet that bought the journal read it again; nothing paid.
    Reread,
    /// Any other refusal (not on sale, already bought, a permit used, payments closed).
    Failed,
}

impl Paying {
    pub fn as_str(self) -> &'static str {
        match self {
            Paying::Challenged => "challenged",
            Paying::Refused => "refused",
            Paying::Settled => "settled",
            Paying::Reread => "reread",
            Paying::Failed => "failed",
        }
    }
}

impl Purchases {
    /// A paid tool call, answered as its tool result. `slug` is what the caller named (the next
    /// call a fee's result names repeats it).
    pub async fn buy_over_mcp(
        &self,
        caller: Caller,
        want: Want,
        payload: Option<Result<PaymentPayload, String>>,
    ) -> (Value, Paying) {
        let slug = match &want {
            Want::Text { slug, .. } => slug.clone(),
            Want::Step { journal_id, .. } => journal_id.to_string(),
        };
        let paying = payload.is_some();
        match self.pay_step(caller, want, payload).await {
            Ok(outcome) => self.tool_result(outcome, &slug),
            Err(DomainError::PaymentRequired(c)) => {
                let why = match paying {
                    true => Paying::Refused,
                    false => Paying::Challenged,
                };
                (payment_required(&c), why)
            }
            Err(e) => (failed(&e), Paying::Failed),
        }
    }

    fn tool_result(&self, outcome: Outcome, slug: &str) -> (Value, Paying) {
        match outcome {
            Outcome::Challenge(c) => (payment_required(&c), Paying::Challenged),
            Outcome::FeeAlreadyPaid => match serde_json::to_value(PaymentAnswer::already()) {
                Ok(v) => (success(v, None), Paying::Failed),
                Err(e) => (failed(&e.into()), Paying::Failed),
            },
            Outcome::Reread { tx, text, .. } => {
                let tx = tx.map(|t| format!("{t:#x}")).unwrap_or_default();
                match text_result(text_answer(tx, &text)) {
                    Ok((v, _)) => (v, Paying::Reread),
                    Err(e) => (failed(&e), Paying::Failed),
                }
            }
            Outcome::Paid {
                resource,
                payer,
                tx,
                paid_at,
                network,
                text,
                next,
                ..
            } => {
                let settled = Settled {
                    resource,
                    payer,
                    tx,
                    paid_at,
                    network,
                };
                let tx = format!("{tx:#x}");
                let answer = match &text {
                    Some(j) => text_result(text_answer(tx, j)).map(|(mut v, body)| {
                        let receipt = self.delivery_receipt(&settled, j, body.as_bytes());
                        v["_meta"] = receipt_meta(settled, receipt);
                        v
                    }),
                    None => fee_result(tx, next, slug, payer).map(|mut v| {
                        let s = &settled;
                        let receipt =
                            self.receipts
                                .of_payment(&s.resource, s.payer, s.tx, s.paid_at);
                        v["_meta"] = receipt_meta(settled, receipt);
                        v
                    }),
                };
                match answer {
                    Ok(v) => (v, Paying::Settled),
                    Err(e) => (failed(&e), Paying::Failed),
                }
            }
        }
    }
}

/// `_meta` of a paid result: the PAYMENT-RESPONSE object.
fn receipt_meta(
    settled: Settled,
    receipt: Option<journal_market_x402::extensions::offer_receipt::SignedReceipt>,
) -> Value {
    let response = serde_json::to_value(settle_response(settled, receipt)).unwrap_or(Value::Null);
    json!({ PAYMENT_RESPONSE_META: response })
}

/// The text's result: `{ ok, tx, body, html }` as structured content and, serialized once, as
/// `content[0].text` (the same bytes as the REST answer's body); and that text.
fn text_result(answer: Paid) -> Result<(Value, String), DomainError> {
    let text = serde_json::to_string(&answer)?;
    let structured = serde_json::to_value(&answer)?;
    Ok((success_with_text(structured, text.clone()), text))
}

/// A fee's result: `{ ok, tx, next }` and the call that pays the author's share (`nextCall`).
fn fee_result(
    tx: String,
    next: Option<String>,
    slug: &str,
    payer: Address,
) -> Result<Value, DomainError> {
    let mut v = serde_json::to_value(Paid {
        ok: true,
        tx,
        body: None,
        html: None,
        next,
    })?;
    v["nextCall"] = json!({
        "name": TOOL,
        "arguments": { "slug": slug, "payer": payer.to_checksum(None) },
    });
    Ok(success(v, None))
}

/// A successful tool result of `structured`, its JSON as the text.
pub fn success(structured: Value, meta: Option<Value>) -> Value {
    let text = structured.to_string();
    let mut v = success_with_text(structured, text);
    if let Some(m) = meta {
        v["_meta"] = m;
    }
    v
}

fn success_with_text(structured: Value, text: String) -> Value {
    json!({
        "content": [{ "type": "text", "text": text }],
        "structuredContent": structured,
        "isError": false,
    })
}

/// The binding's payment-required result: the challenge's body, as sent over HTTP.
pub fn payment_required(c: &Challenge) -> Value {
    let text = String::from_utf8_lossy(&c.body).into_owned();
    let structured: Value = serde_json::from_slice(&c.body).unwrap_or(Value::Null);
    json!({
        "content": [{ "type": "text", "text": text }],
        "structuredContent": structured,
        "isError": true,
    })
}

/// A refusal that is not a payment required: `{ "error" }`, as the REST answer's body
/// (internal causes logged, never sent).
pub fn failed(e: &DomainError) -> Value {
    e.log();
    let body = json!({ "error": e.to_string() });
    json!({
        "content": [{ "type": "text", "text": body.to_string() }],
        "structuredContent": body,
        "isError": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_is_an_error_result_with_the_payment_required_twice() {
        let c = Challenge {
            why: "payment required".into(),
            body: br#"{"x402Version":2,"accepts":[{"scheme":"exact"}]}"#.to_vec(),
            header: Vec::new(),
        };
        let r = payment_required(&c);
        assert_eq!(r["isError"], true);
        assert_eq!(r["structuredContent"]["x402Version"], 2);
        let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, r["structuredContent"]);
    }

    #[test]
    fn refusals_say_why_and_keep_internal_causes_inside() {
        let r = failed(&DomainError::not_found("journal x is not on sale"));
        assert_eq!(r["isError"], true);
        assert_eq!(r["structuredContent"]["error"], "journal x is not on sale");
        let r = failed(&DomainError::internal_msg("secret /etc/x"));
        assert!(!r.to_string().contains("/etc/x"));
    }

    #[test]
    fn a_fee_names_the_call_that_pays_the_author() {
        let payer = Address::repeat_byte(7);
        let r = fee_result("0x1".into(), None, "nvda-a", payer).unwrap();
        assert_eq!(r["isError"], false);
        let next = &r["structuredContent"]["nextCall"];
        assert_eq!(next["name"], TOOL);
        assert_eq!(next["arguments"]["payer"], payer.to_checksum(None));
        assert!(r["structuredContent"].get("body").is_none());
    }
}

//! `read_journal` and the paid read of `journal://{slug}`: the arguments and `_meta` read into
//! the purchase's own terms ([`Caller`], [`Want`], the payment), then the same step as
//! `POST /pay/*` and the paid GET ([`crate::purchase`]).

use actix_web::HttpRequest;
use alloy::primitives::Address;
use journal_market_x402::{self as x402, PaymentPayload};
use serde::Deserialize;
use serde_json::Value;

use super::jsonrpc::args;
use crate::domain::wallet::Wallet;
use crate::error::DomainError;
use crate::purchase::mcp::{PAYMENT_META, Paying, SIWX_META, failed};
use crate::purchase::terms::TOOL;
use crate::purchase::{Caller, Via, Want};
use crate::state::AppState;
use crate::toll::{Toll, Work};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadJournal {
    slug: String,
    #[serde(default)]
    payer: Option<String>,
}

/// `read_journal` with `arguments`, the request's `_meta` holding the payment or a proof.
pub async fn read_journal(
    state: &AppState,
    req: &HttpRequest,
    arguments: Value,
    meta: Option<&Value>,
) -> (Value, Paying) {
    let a: ReadJournal = match args(TOOL, arguments) {
        Ok(a) => a,
        Err(e) => return (failed(&e), Paying::Failed),
    };
    let hint = match a.payer.as_deref().map(payer) {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => return (failed(&e), Paying::Failed),
    };
    buy(state, req, a.slug, hint, meta).await
}

/// The paid text of `slug`, as a tool result.
pub async fn buy(
    state: &AppState,
    req: &HttpRequest,
    slug: String,
    hint: Option<Address>,
    meta: Option<&Value>,
) -> (Value, Paying) {
    let toll = Toll::of(req);
    let payment = payment(meta);
    // The POST was counted as a read; the payment in it costs what `POST /pay/*` costs.
    if let (Some(_), Some(t)) = (&payment, &toll)
        && let Err(r) = t.pay(Work::Settlement).await
    {
        let e = DomainError::RateLimited {
            message: r.message,
            retry_after_secs: r.retry_after_secs,
        };
        return (failed(&e), Paying::Failed);
    }
    let caller = Caller {
        session: None,
        proof: proof(meta),
        toll,
    };
    let want = Want::Text {
        slug,
        hint,
        via: Via::Mcp,
    };
    state.purchases.buy_over_mcp(caller, want, payment).await
}

fn payer(p: &str) -> Result<Address, DomainError> {
    Wallet::parse(p).map(|w| w.address()).map_err(|_| {
        DomainError::bad_request(format!(
            "payer must be a 0x-prefixed 20-byte address, not {p:?}"
        ))
    })
}

/// `_meta["x402/payment"]`: a PaymentPayload object (the binding's form), or the same as a JSON
/// string or as the base64 of a PAYMENT-SIGNATURE header. Absent or null: no payment.
pub fn payment(meta: Option<&Value>) -> Option<Result<PaymentPayload, String>> {
    let sent = meta?.get(PAYMENT_META)?;
    let why = |e: &dyn std::fmt::Display| {
        format!("_meta[\"{PAYMENT_META}\"] is not an x402 PaymentPayload: {e}")
    };
    Some(match sent {
        Value::Null => return None,
        Value::Object(_) => serde_json::from_value(sent.clone()).map_err(|e| why(&e)),
        Value::String(s) => serde_json::from_str(s)
            .or_else(|_| x402::decode_header::<PaymentPayload>(s))
            .map_err(|e| why(&e)),
        other => Err(why(&format!(
            "a JSON {} where an object belongs",
            kind(other)
        ))),
    })
}

/// `_meta["x402/sign-in-with-x"]`: the SIGN-IN-WITH-X header's value (base64 JSON), or the
/// proof object itself. Anything else is passed on as it is, to be refused as malformed.
pub fn proof(meta: Option<&Value>) -> Option<String> {
    match meta?.get(SIWX_META)? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        v @ Value::Object(_) => Some(x402::encode_header(v).unwrap_or_default()),
        other => Some(other.to_string()),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_payment_in_meta_is_read_in_each_form_and_a_malformed_one_says_so() {
        assert!(payment(None).is_none());
        assert!(payment(Some(&json!({}))).is_none());
        assert!(payment(Some(&json!({ PAYMENT_META: null }))).is_none());
        let e = payment(Some(&json!({ PAYMENT_META: 7 })))
            .unwrap()
            .unwrap_err();
        assert!(e.contains("a JSON number"), "{e}");
        let e = payment(Some(&json!({ PAYMENT_META: { "x402Version": 2 } })))
            .unwrap()
            .unwrap_err();
        assert!(e.contains("not an x402 PaymentPayload"), "{e}");
        let e = payment(Some(&json!({ PAYMENT_META: "not json" })))
            .unwrap()
            .unwrap_err();
        assert!(e.contains("PaymentPayload"), "{e}");
    }

    #[test]
    fn a_proof_is_taken_as_a_header_or_an_object() {
        assert_eq!(
            proof(Some(&json!({ SIWX_META: "abc" }))).as_deref(),
            Some("abc")
        );
        let obj = json!({ "domain": "x" });
        let header = proof(Some(&json!({ SIWX_META: obj }))).unwrap();
        let back: Value = x402::decode_header(&header).unwrap();
        assert_eq!(back, obj);
        assert!(proof(Some(&json!({}))).is_none());
    }
}

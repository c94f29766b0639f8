//! The answers of the payment routes (`POST /pay/burn`, `POST /pay/author` and
//! `GET /journals/{slug}/text`) when they are 200.

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// A settled step, or a reader proved by sign-in-with-x: `{ ok, tx }` for a fee,
/// `{ ok, tx, body, html }` when the step completed the purchase.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct Paid {
    pub ok: bool,
    /// The settling transaction (for a re-read, the one that completed the purchase; empty
    /// when there was none).
    pub tx: String,
    /// The journal's text (markdown), on the step that completed the purchase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The URL of the step due next, on a fee paid through `GET /journals/{slug}/text`: the
    /// same URL with `?payer=`, which offers the author's share (also a `Link: <…>; rel="next"`
    /// header). An agent that follows the text's URL reads it and moves on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// `{ ok, already }`: the fee of a person-written journal is paid already; nothing was charged.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct AlreadyPaid {
    pub ok: bool,
    pub already: bool,
}

/// Any 200 answer of a payment step.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
#[serde(untagged)]
pub enum PaymentAnswer {
    Already(AlreadyPaid),
    Paid(Paid),
}

impl PaymentAnswer {
    pub fn already() -> Self {
        PaymentAnswer::Already(AlreadyPaid {
            ok: true,
            already: true,
        })
    }

    /// The settling transaction, when the answer names one.
    pub fn tx(&self) -> Option<&str> {
        match self {
            PaymentAnswer::Paid(p) if !p.tx.is_empty() => Some(&p.tx),
            _ => None,
        }
    }

    /// The journal's text, when the step completed the purchase.
    pub fn body(&self) -> Option<&str> {
        match self {
            PaymentAnswer::Paid(p) => p.body.as_deref(),
            PaymentAnswer::Already(_) => None,
        }
    }

    pub fn html(&self) -> Option<&str> {
        match self {
            PaymentAnswer::Paid(p) => p.html.as_deref(),
            PaymentAnswer::Already(_) => None,
        }
    }

    pub fn is_already(&self) -> bool {
        matches!(self, PaymentAnswer::Already(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shape_reads_back_as_itself() {
        let already: PaymentAnswer =
            serde_json::from_str(r#"{ "ok": true, "already": true }"#).unwrap();
        assert!(already.is_already() && already.tx().is_none());
        let fee: PaymentAnswer = serde_json::from_str(r#"{ "ok": true, "tx": "0xab" }"#).unwrap();
        assert_eq!((fee.tx(), fee.body()), (Some("0xab"), None));
        let last = PaymentAnswer::Paid(Paid {
            ok: true,
            tx: "0xcd".into(),
            body: Some("text".into()),
            html: Some("<p>text</p>".into()),
            next: None,
        });
        let json = serde_json::to_string(&last).unwrap();
        assert_eq!(serde_json::from_str::<PaymentAnswer>(&json).unwrap(), last);
        assert_eq!(
            serde_json::to_value(PaymentAnswer::already()).unwrap(),
            serde_json::json!({ "ok": true, "already": true })
        );
    }
}

//! The two settlement back-ends behind x402's `Settler` trait: the built-in settler (the
//! proxy's `settle` sent with the service's relayer key) and a standard x402 v2 facilitator
//! over HTTP.
//! Neither is trusted for the outcome: the caller settles a payment from the chain.

use std::sync::Arc;
use std::time::Duration;

use alloy::primitives::{Address, B256};
use futures::future::BoxFuture;
use journal_market_chain::facilitator::Facilitator;
use journal_market_x402::facilitator::{
    Checked, Invalid, Permit, Record, Sent, SettleError, Settler,
};
use journal_market_x402::{
    FacilitatorRequest, PaymentPayload, PaymentRequirements, SettleResponse, VERSION,
    VerifyResponse,
};

pub struct LocalSettler(pub Arc<Facilitator>);

impl Settler for LocalSettler {
    fn verify<'a>(
        &'a self,
        _: &'a PaymentPayload,
        _: &'a PaymentRequirements,
        permit: &'a Permit,
    ) -> BoxFuture<'a, Result<Checked, SettleError>> {
        Box::pin(self.0.verify_state(permit))
    }

    fn submit<'a>(
        &'a self,
        _: &'a PaymentPayload,
        _: &'a PaymentRequirements,
        permit: &'a Permit,
        checked: Checked,
        record: Record<'a>,
    ) -> BoxFuture<'a, Result<Sent, SettleError>> {
        Box::pin(self.0.submit_recorded(permit, checked, record))
    }

    fn relayer(&self) -> Option<Address> {
        self.0.relayer_address()
    }

    fn resync_nonces(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.0.forget_nonces())
    }
}

/// A facilitator at `url` (`/verify`, `/settle`), with an optional bearer token.
pub struct HttpSettler {
    url: String,
    token: Option<String>,
    http: reqwest::Client,
}

impl HttpSettler {
    pub fn new(url: &str, token: Option<String>, timeout: Duration) -> anyhow::Result<Self> {
        Ok(HttpSettler {
            url: url.trim_end_matches('/').to_string(),
            token,
            http: reqwest::Client::builder().timeout(timeout).build()?,
        })
    }

    async fn post<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        p: &PaymentPayload,
        r: &PaymentRequirements,
    ) -> Result<T, SettleError> {
        let body = FacilitatorRequest {
            x402_version: VERSION,
            payment_payload: p.clone(),
            payment_requirements: r.clone(),
        };
        let mut rb = self.http.post(format!("{}{path}", self.url)).json(&body);
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let resp = rb.send().await.map_err(|e| {
            SettleError::Chain(format!(
                "the facilitator cannot be reached: {}",
                if e.is_timeout() {
                    "timeout"
                } else {
                    "connection failed"
                }
            ))
        })?;
        let status = resp.status();
        let text = resp
            .text()
            .await
            .map_err(|_| SettleError::Chain("the facilitator's answer broke off".into()))?;
        serde_json::from_str(&text).map_err(|_| {
            SettleError::Failed(format!(
                "the facilitator answered HTTP {} with an unreadable body",
                status.as_u16()
            ))
        })
    }
}

impl HttpSettler {
    /// Whether the facilitator's `GET /supported` lists the extension `key`.
    pub async fn lists_extension(&self, key: &str) -> Result<bool, SettleError> {
        let mut rb = self.http.get(format!("{}/supported", self.url));
        if let Some(t) = &self.token {
            rb = rb.bearer_auth(t);
        }
        let supported: serde_json::Value = rb
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| SettleError::Chain(format!("the facilitator's /supported: {e}")))?
            .json()
            .await
            .map_err(|e| SettleError::Failed(format!("the facilitator's /supported: {e}")))?;
        Ok(lists(&supported, key))
    }
}

/// Whether a `/supported` answer lists the extension `key` (x402 v2: `extensions: [string]`).
pub fn lists(supported: &serde_json::Value, key: &str) -> bool {
    supported["extensions"]
        .as_array()
        .is_some_and(|e| e.iter().any(|x| x.as_str() == Some(key)))
}

impl Settler for HttpSettler {
    fn verify<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        _: &'a Permit,
    ) -> BoxFuture<'a, Result<Checked, SettleError>> {
        Box::pin(async move {
            let v: VerifyResponse = self.post("/verify", p, r).await?;
            if v.is_valid {
                return Ok(Checked::default());
            }
            let reason = v.invalid_reason.unwrap_or_else(|| "invalid_payment".into());
            Err(SettleError::Invalid(Invalid {
                // The reference code for a spent nonce keeps its meaning: the caller looks
                // for the transaction that spent it.
                code: if reason == "permit2_invalid_nonce" {
                    "permit2_invalid_nonce"
                } else {
                    "facilitator_rejected"
                },
                message: v
                    .invalid_message
                    .map_or(reason.clone(), |m| format!("{reason}: {m}")),
            }))
        })
    }

    fn submit<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        _: &'a Permit,
        _: Checked,
        record: Record<'a>,
    ) -> BoxFuture<'a, Result<Sent, SettleError>> {
        Box::pin(async move {
            let s: SettleResponse = self.post("/settle", p, r).await?;
            // A hash is evidence whatever the facilitator says about it.
            let tx = s.transaction.parse::<B256>().ok();
            if let Some(tx) = tx {
                record(tx).await.map_err(SettleError::Failed)?;
            }
            match (s.success, tx) {
                (true, Some(tx)) => Ok(Sent { tx, receipt: None }),
                (true, None) => Err(SettleError::Failed(
                    "the facilitator reported success without a transaction hash".into(),
                )),
                (false, _) => Err(SettleError::Failed(format!(
                    "the facilitator did not settle: {}",
                    s.error_message.or(s.error_reason).unwrap_or_default()
                ))),
            }
        })
    }

    fn relayer(&self) -> Option<Address> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::lists;
    use serde_json::json;

    #[test]
    fn an_extension_is_supported_only_when_listed_by_name() {
        let key = "erc20ApprovalGasSponsoring";
        assert!(lists(
            &json!({ "kinds": [], "extensions": ["bazaar", key] }),
            key
        ));
        assert!(!lists(&json!({ "kinds": [], "extensions": [] }), key));
        assert!(!lists(&json!({ "kinds": [] }), key));
        assert!(!lists(&json!({ "extensions": [{ "name": key }] }), key));
        assert!(!lists(&json!({ "extensions": key }), key));
    }
}

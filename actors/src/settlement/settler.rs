//! The two settlement back-ends behind one trait: the built-in settler (the proxy's `settle`
//! sent with the service's relayer key) and a standard x402 v2 facilitator over HTTP.

use std::sync::Arc;
use std::time::Duration;

use alloy::primitives::B256;
use futures::future::BoxFuture;
use jm_chain::facilitator::{Facilitator, Invalid, Permit, SettleError};
use jm_chain::x402::{
    FacilitatorRequest, PaymentPayload, PaymentRequirements, SettleResponse, VERSION,
    VerifyResponse,
};

pub trait Settler: Send + Sync {
    /// Every check before money moves; the parsed permit when the payment may be settled.
    fn verify<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        now: u64,
    ) -> BoxFuture<'a, Result<Permit, SettleError>>;

    /// Settles a verified payment and returns the transaction hash. The caller confirms the
    /// transfer from the receipt: no back-end's word is taken for it.
    fn submit<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        permit: &'a Permit,
    ) -> BoxFuture<'a, Result<B256, SettleError>>;
}

pub struct LocalSettler(pub Arc<Facilitator>);

impl Settler for LocalSettler {
    fn verify<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        now: u64,
    ) -> BoxFuture<'a, Result<Permit, SettleError>> {
        Box::pin(self.0.verify(p, r, now))
    }

    fn submit<'a>(
        &'a self,
        _: &'a PaymentPayload,
        _: &'a PaymentRequirements,
        permit: &'a Permit,
    ) -> BoxFuture<'a, Result<B256, SettleError>> {
        Box::pin(self.0.submit(permit))
    }
}

/// A facilitator at `url` (`/verify`, `/settle`), with an optional bearer token.
pub struct HttpSettler {
    url: String,
    token: Option<String>,
    http: reqwest::Client,
    /// For the checks that need no facilitator (parsing, terms).
    chain: Arc<Facilitator>,
}

impl HttpSettler {
    pub fn new(
        url: &str,
        token: Option<String>,
        timeout: Duration,
        chain: Arc<Facilitator>,
    ) -> anyhow::Result<Self> {
        Ok(HttpSettler {
            url: url.trim_end_matches('/').to_string(),
            token,
            http: reqwest::Client::builder().timeout(timeout).build()?,
            chain,
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

impl Settler for HttpSettler {
    fn verify<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        now: u64,
    ) -> BoxFuture<'a, Result<Permit, SettleError>> {
        Box::pin(async move {
            let permit = self.chain.check(p, r, now).map_err(SettleError::Invalid)?;
            let v: VerifyResponse = self.post("/verify", p, r).await?;
            if v.is_valid {
                Ok(permit)
            } else {
                let code = v.invalid_reason.unwrap_or_else(|| "invalid_payment".into());
                Err(SettleError::Invalid(Invalid {
                    code: "facilitator_rejected",
                    message: v
                        .invalid_message
                        .map_or(code.clone(), |m| format!("{code}: {m}")),
                }))
            }
        })
    }

    fn submit<'a>(
        &'a self,
        p: &'a PaymentPayload,
        r: &'a PaymentRequirements,
        _: &'a Permit,
    ) -> BoxFuture<'a, Result<B256, SettleError>> {
        Box::pin(async move {
            let s: SettleResponse = self.post("/settle", p, r).await?;
            if !s.success {
                return Err(SettleError::Failed(format!(
                    "the facilitator did not settle: {}",
                    s.error_message.or(s.error_reason).unwrap_or_default()
                )));
            }
            s.transaction.parse::<B256>().map_err(|_| {
                SettleError::Failed("the facilitator returned no transaction hash".into())
            })
        })
    }
}

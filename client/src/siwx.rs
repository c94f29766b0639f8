//! Sign-in-with-x for a client: a proof for the `sign-in-with-x` challenge a 402 declares, so a
//! wallet that bought a journal reads it again without paying or a session.

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use journal_market_x402::extensions::siwx::{self, Proof};
use journal_market_x402::{self as x402, PaymentRequired};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::payer::Purchase;
use crate::{Client, ClientError};

fn invalid(s: impl Into<String>) -> ClientError {
    ClientError::Invalid(s.into())
}

/// The `SIGN-IN-WITH-X` header value answering `required`'s challenge with `signer`.
pub fn proof_header(
    required: &PaymentRequired,
    signer: &PrivateKeySigner,
) -> Result<String, ClientError> {
    let ext = required
        .extensions
        .as_ref()
        .and_then(|e| e.get(siwx::KEY))
        .ok_or_else(|| invalid("the challenge does not offer sign-in-with-x"))?;
    let chain = ext["supportedChains"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == "eip191"))
        .ok_or_else(|| invalid("the challenge offers no eip191 chain to sign in on"))?;
    let info = &ext["info"];
    let text = |k: &str| info[k].as_str().map(str::to_string);
    let need = |k: &str| text(k).ok_or_else(|| invalid(format!("the challenge has no {k}")));
    let mut proof = Proof {
        domain: need("domain")?,
        address: signer.address().to_checksum(None),
        uri: need("uri")?,
        version: need("version")?,
        chain_id: chain["chainId"].as_str().unwrap_or_default().to_string(),
        kind: "eip191".into(),
        nonce: need("nonce")?,
        issued_at: need("issuedAt")?,
        signature: String::new(),
        statement: text("statement"),
        expiration_time: text("expirationTime"),
        not_before: text("notBefore"),
        request_id: text("requestId"),
        resources: serde_json::from_value(info["resources"].clone()).ok(),
        signature_scheme: None,
    };
    let message = siwx::message(&proof, signer.address());
    let sig = signer
        .sign_message_sync(message.as_bytes())
        .map_err(|e| invalid(format!("cannot sign: {e}")))?;
    proof.signature = format!("0x{}", alloy::hex::encode(sig.as_bytes()));
    x402::encode_header(&proof).map_err(|e| invalid(e.to_string()))
}

impl Client {
    /// The challenge of `POST /pay/burn` for a journal (no payment, no session).
    pub async fn challenge(&self, journal_id: i64) -> Result<PaymentRequired, ClientError> {
        let resp = self.pay_request("pay/burn", journal_id, None).await?;
        if resp.status() != StatusCode::PAYMENT_REQUIRED {
            let v: Value = crate::client::decode(resp).await?;
            return Err(invalid(format!("expected a 402 challenge, got {v}")));
        }
        let h = resp
            .headers()
            .get(x402::HEADER_REQUIRED)
            .and_then(|h| h.to_str().ok())
            .ok_or_else(|| invalid("a 402 without a PAYMENT-REQUIRED header"))?;
        x402::decode_header(h).map_err(invalid)
    }

    /// Reads a journal `signer`'s wallet bought, again, with sign-in-with-x: the text, and a
    /// session for later calls.
    pub async fn read_bought(
        &self,
        key: &str,
        signer: &PrivateKeySigner,
    ) -> Result<Purchase, ClientError> {
        let id = self.journal(key).await?.item.journal_id;
        let header = proof_header(&self.challenge(id).await?, signer)?;
        let resp = self
            .request(Method::POST, "pay/burn")
            .json(&json!({ "journalId": id }))
            .header(siwx::HEADER, header)
            .send()
            .await?;
        self.take_cookie(&resp);
        if resp.status() == StatusCode::PAYMENT_REQUIRED {
            let v: Value = resp.json().await?;
            return Err(invalid(format!(
                "not readable with sign-in-with-x: {}",
                v["error"]
                    .as_str()
                    .unwrap_or("the wallet has not bought it")
            )));
        }
        let v: Value = crate::client::decode(resp).await?;
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        Ok(Purchase {
            txs: vec![s("tx")]
                .into_iter()
                .filter(|t| !t.is_empty())
                .collect(),
            body: s("body"),
            html: s("html"),
            // A re-read pays nothing: no receipt.
            saved: None,
        })
    }
}

//! Checking a delivery receipt against the public API (docs/decisions.md, "Receipts"): the
//! answer saved as it was received (`jm buy --save FILE`), its PAYMENT-RESPONSE's signed
//! `offer-receipt`, and what the receipt binds recomputed: the body's hash, the journal's
//! audit summary's and the cited entries' sources'.

use alloy::primitives::Address;
use journal_market_api::delivery;
use journal_market_x402::extensions::offer_receipt::{self, SignedReceipt};
use journal_market_x402::{self as x402, SettleResponse};
use serde::{Deserialize, Serialize};

use crate::{Client, ClientError};

/// An answer that delivered a text, as received: what `jm verify-receipt` reads.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SavedAnswer {
    /// The PAYMENT-RESPONSE header, as sent (base64).
    pub payment_response: String,
    /// The body exactly as received.
    pub body: String,
}

/// A receipt that holds: who signed it, for which journal and payment.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    pub signer: Address,
    pub slug: String,
    pub transaction: String,
    pub payer: String,
}

/// What does not hold, first found.
#[derive(Debug, thiserror::Error)]
pub enum Mismatch {
    #[error("the answer has no offer-receipt: {0}")]
    NoReceipt(String),
    #[error("the receipt's signature is not the service's receipt signer ({0})")]
    Signer(String),
    #[error("a version 1 receipt binds the payment only, not what was delivered")]
    NoDelivery,
    #[error("responseHash: the body saved is not the body the receipt was signed for")]
    ResponseHash,
    #[error("auditHash: the journal's audit report is not the one the text was sold under")]
    AuditHash,
    #[error("sourcesHash: the cited entries' sources are not the ones the text was sold with")]
    SourcesHash,
    #[error("the receipt's transaction is not the PAYMENT-RESPONSE's")]
    Transaction,
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// Checks `saved` against the service `client` speaks to.
pub async fn verify(client: &Client, saved: &SavedAnswer) -> Result<Verified, Mismatch> {
    let settle: SettleResponse =
        x402::decode_header(&saved.payment_response).map_err(Mismatch::NoReceipt)?;
    let receipt = receipt_of(&settle)?;
    let signer = offer_receipt::recover(&receipt).map_err(|e| Mismatch::Signer(e.to_string()))?;
    let expected = client.config().await?.receipt_signer;
    if expected.as_deref().and_then(|a| a.parse::<Address>().ok()) != Some(signer) {
        return Err(Mismatch::Signer(format!(
            "{signer} signed it, /config names {expected:?}"
        )));
    }
    let p = &receipt.payload;
    if p.transaction != settle.transaction {
        return Err(Mismatch::Transaction);
    }
    let d = p.delivery.as_ref().ok_or(Mismatch::NoDelivery)?;
    if delivery::response_hash(saved.body.as_bytes()) != d.response_hash {
        return Err(Mismatch::ResponseHash);
    }
    let slug = slug_of(&p.resource_url)
        .ok_or_else(|| Mismatch::NoReceipt(format!("{} is no journal's text", p.resource_url)))?;
    let j = client.journal(&slug).await?;
    if delivery::audit_hash(&j.audit) != d.audit_hash {
        return Err(Mismatch::AuditHash);
    }
    let mut cited = Vec::with_capacity(j.evidence.len());
    for e in &j.evidence {
        cited.push((e.id.clone(), client.entry(&e.id).await?.source.says));
    }
    let sources = delivery::sources_hash(cited.iter().map(|(a, s)| (a.as_str(), s.as_str())));
    if sources != d.sources_hash {
        return Err(Mismatch::SourcesHash);
    }
    Ok(Verified {
        signer,
        slug,
        transaction: p.transaction.clone(),
        payer: p.payer.clone(),
    })
}

fn receipt_of(settle: &SettleResponse) -> Result<SignedReceipt, Mismatch> {
    let value = settle
        .extensions
        .as_ref()
        .and_then(|e| e.get(offer_receipt::KEY))
        .and_then(|r| r.get("info"))
        .and_then(|i| i.get("receipt"))
        .cloned()
        .ok_or_else(|| Mismatch::NoReceipt("no extensions[\"offer-receipt\"]".into()))?;
    serde_json::from_value(value).map_err(|e| Mismatch::NoReceipt(e.to_string()))
}

/// The slug of a journal's text URL, `…/journals/{slug}/text`.
fn slug_of(url: &str) -> Option<String> {
    let path = url.split('?').next()?;
    let rest = path.strip_suffix("/text")?;
    let (_, slug) = rest.rsplit_once("/journals/")?;
    (!slug.is_empty() && !slug.contains('/')).then(|| slug.to_string())
}

#[cfg(test)]
mod tests {
    use super::slug_of;

    #[test]
    fn slugs_of_text_urls() {
        assert_eq!(
            slug_of("http://x/api/journals/nvda-a/text").as_deref(),
            Some("nvda-a")
        );
        assert_eq!(
            slug_of("http://x/api/journals/nvda-a/text?payer=0x1").as_deref(),
            Some("nvda-a")
        );
        assert_eq!(slug_of("http://x/api/pay/burn"), None);
        assert_eq!(slug_of("http://x/api/journals//text"), None);
    }
}

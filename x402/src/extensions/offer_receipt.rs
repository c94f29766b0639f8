//! `offer-receipt` (research/x402-extensions.md §5), EIP-712 format: after a successful settlement
//! the server signs a receipt (who paid, for which URL, when, on which network) and puts it in
//! the PAYMENT-RESPONSE under `extensions["offer-receipt"]`. The domains have no
//! `verifyingContract` and a fixed `chainId` of 1, whatever chain was paid on: the receipt is
//! a statement by the server's key, not something a contract checks.

use alloy::primitives::{Address, B256, U256, hex};
use alloy::signers::SignerSync;
use alloy::sol_types::{Eip712Domain, SolStruct};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::signature::{self, SignatureError};

pub const KEY: &str = "offer-receipt";
/// The only format signed here (the other, `jws`, needs a DID for its key).
pub const FORMAT: &str = "eip712";
/// The payload `version` of a receipt of payment.
pub const VERSION: u64 = 1;
/// The payload `version` of a receipt that also binds what was delivered (the open upstream
/// proposal's `responseHash`, x402 PR #3186, and this service's `auditHash` and `sourcesHash`:
/// docs/decisions.md, "Receipts").
pub const VERSION_DELIVERY: u64 = 2;
/// `responseHashAlg` and `responseHashEncoding` of the receipts signed here: SHA-256 of the
/// body's bytes as delivered (before any content encoding).
pub const RESPONSE_HASH_ALG: &str = "sha256";
pub const RESPONSE_HASH_ENCODING: &str = "raw";

/// Version 2's type: version 1's six fields, then what binds the delivery. The primary type keeps
/// its name, so its type string is
/// `Receipt(uint256 version,string network,string resourceUrl,string payer,uint256 issuedAt,string transaction,string responseHash,string responseHashAlg,string responseHashEncoding,string auditHash,string sourcesHash)`.
mod eip712_v2 {
    alloy::sol! {
        struct Receipt {
            uint256 version;
            string network;
            string resourceUrl;
            string payer;
            uint256 issuedAt;
            string transaction;
            string responseHash;
            string responseHashAlg;
            string responseHashEncoding;
            string auditHash;
            string sourcesHash;
        }
    }
}

mod eip712 {
    alloy::sol! {
        struct Receipt {
            uint256 version;
            string network;
            string resourceUrl;
            string payer;
            uint256 issuedAt;
            string transaction;
        }

        struct Offer {
            uint256 version;
            string resourceUrl;
            string scheme;
            string network;
            string asset;
            string payTo;
            string amount;
            uint256 validUntil;
        }
    }
}

/// What a receipt says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptPayload {
    pub version: u64,
    /// CAIP-2, as in the SettleResponse.
    pub network: String,
    /// The URL the client asked (the offer's `resourceUrl` must equal it).
    pub resource_url: String,
    pub payer: String,
    /// Unix seconds.
    pub issued_at: u64,
    /// The settlement's hash, or `""` to leave it out: always present in this format, as it is
    /// a signed field.
    #[serde(default)]
    pub transaction: String,
    /// Version 2: what was delivered.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<Delivery>,
}

/// What a version 2 receipt binds besides the payment: the body as delivered, the audit report
/// the text was sold under, and the cited entries' sources (each `0x` and 64 lower-case hex
/// digits of SHA-256).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub response_hash: String,
    pub response_hash_alg: String,
    pub response_hash_encoding: String,
    pub audit_hash: String,
    pub sources_hash: String,
}

/// A receipt with its signature, as it goes on the wire.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SignedReceipt {
    pub format: String,
    pub payload: ReceiptPayload,
    /// `0x` and 65 bytes, r ‖ s ‖ v (v 27 or 28).
    pub signature: String,
}

/// What an offer says (signed per `accepts[i]` in a 402; not issued by this service).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct OfferPayload {
    pub version: u64,
    pub resource_url: String,
    pub scheme: String,
    pub network: String,
    pub asset: String,
    pub pay_to: String,
    pub amount: String,
    /// Unix seconds; 0 when unused.
    #[serde(default)]
    pub valid_until: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum ReceiptError {
    #[error("the receipt's format is {0:?}, not \"eip712\"")]
    Format(String),
    #[error(transparent)]
    Signature(#[from] SignatureError),
    #[error("the receipt could not be signed: {0}")]
    Sign(#[from] alloy::signers::Error),
}

/// `EIP712Domain(string name,string version,uint256 chainId)`.
fn domain(name: &'static str) -> Eip712Domain {
    Eip712Domain {
        name: Some(name.into()),
        version: Some("1".into()),
        chain_id: Some(U256::from(1)),
        verifying_contract: None,
        salt: None,
    }
}

/// The digest a receipt's signature is over: version 2's type when it binds a delivery.
pub fn digest(p: &ReceiptPayload) -> B256 {
    if let Some(d) = &p.delivery {
        return eip712_v2::Receipt {
            version: U256::from(p.version),
            network: p.network.clone(),
            resourceUrl: p.resource_url.clone(),
            payer: p.payer.clone(),
            issuedAt: U256::from(p.issued_at),
            transaction: p.transaction.clone(),
            responseHash: d.response_hash.clone(),
            responseHashAlg: d.response_hash_alg.clone(),
            responseHashEncoding: d.response_hash_encoding.clone(),
            auditHash: d.audit_hash.clone(),
            sourcesHash: d.sources_hash.clone(),
        }
        .eip712_signing_hash(&domain("x402 receipt"));
    }
    eip712::Receipt {
        version: U256::from(p.version),
        network: p.network.clone(),
        resourceUrl: p.resource_url.clone(),
        payer: p.payer.clone(),
        issuedAt: U256::from(p.issued_at),
        transaction: p.transaction.clone(),
    }
    .eip712_signing_hash(&domain("x402 receipt"))
}

/// The digest an offer's signature is over.
pub fn offer_digest(p: &OfferPayload) -> B256 {
    eip712::Offer {
        version: U256::from(p.version),
        resourceUrl: p.resource_url.clone(),
        scheme: p.scheme.clone(),
        network: p.network.clone(),
        asset: p.asset.clone(),
        payTo: p.pay_to.clone(),
        amount: p.amount.clone(),
        validUntil: U256::from(p.valid_until),
    }
    .eip712_signing_hash(&domain("x402 offer"))
}

pub fn sign(
    payload: ReceiptPayload,
    signer: &impl SignerSync,
) -> Result<SignedReceipt, ReceiptError> {
    let sig = signer.sign_hash_sync(&digest(&payload))?;
    Ok(SignedReceipt {
        format: FORMAT.into(),
        payload,
        signature: hex::encode_prefixed(sig.as_bytes()),
    })
}

/// Who signed a receipt. Whether that key speaks for the resource is the caller's question.
pub fn recover(r: &SignedReceipt) -> Result<Address, ReceiptError> {
    if r.format != FORMAT {
        return Err(ReceiptError::Format(r.format.clone()));
    }
    let sig = signature::parse_hex(&r.signature)?;
    Ok(signature::recover(&digest(&r.payload), &sig)?)
}

/// The value of `extensions["offer-receipt"]` in a PAYMENT-RESPONSE (the reference
/// `RECEIPT_SCHEMA`).
pub fn extension(receipt: &SignedReceipt) -> Value {
    json!({
        "info": { "receipt": receipt },
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "receipt": {
                    "type": "object",
                    "properties": {
                        "format": { "type": "string" },
                        "payload": {
                            "type": "object",
                            "properties": {
                                "version": { "type": "integer" },
                                "network": { "type": "string" },
                                "resourceUrl": { "type": "string" },
                                "payer": { "type": "string" },
                                "issuedAt": { "type": "integer" },
                                "transaction": { "type": "string" },
                                "responseHash": { "type": "string" },
                                "responseHashAlg": { "type": "string" },
                                "responseHashEncoding": { "type": "string" },
                                "auditHash": { "type": "string" },
                                "sourcesHash": { "type": "string" }
                            },
                            "required": ["version", "network", "resourceUrl", "payer", "issuedAt"]
                        },
                        "signature": { "type": "string" }
                    },
                    "required": ["format", "signature"]
                }
            },
            "required": ["receipt"]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_key as key;
    use alloy::primitives::{address, b256};

    // research/x402-extensions.md §5.3.
    const SIGNER: Address = address!("0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1");
    const RECEIPT_SIG: &str = "0x3664dc906a1a489b07026ee1d4aa5d51873eb5ff9b21de14a1c7977c82d091a30d19a2ee841d4781a4fc8e45e015f599a33f266120551b441dcf8ea17cb89e7b1b";
    fn receipt() -> ReceiptPayload {
        ReceiptPayload {
            version: 1,
            network: "eip155:4663".into(),
            resource_url: "https://api.example.com/premium-data".into(),
            payer: "0x857b06519E91e3A54538791bDbb0E22373e36b66".into(),
            issued_at: 1703123456,
            transaction: String::new(),
            delivery: None,
        }
    }

    #[test]
    fn a_delivery_receipt_signs_its_hashes() {
        let h = |b: u8| format!("0x{}", hex::encode([b; 32]));
        let mut v2 = ReceiptPayload {
            version: VERSION_DELIVERY,
            delivery: Some(Delivery {
                response_hash: h(1),
                response_hash_alg: RESPONSE_HASH_ALG.into(),
                response_hash_encoding: RESPONSE_HASH_ENCODING.into(),
                audit_hash: h(2),
                sources_hash: h(3),
            }),
            ..receipt()
        };
        let json = serde_json::to_value(&v2).unwrap();
        assert_eq!(json["responseHash"], h(1), "{json}");
        assert_eq!(json["sourcesHash"], h(3), "{json}");
        assert_eq!(serde_json::from_value::<ReceiptPayload>(json).unwrap(), v2);
        let signed = sign(v2.clone(), &key()).unwrap();
        assert_eq!(recover(&signed).unwrap(), SIGNER);
        // Each bound hash is signed: another one recovers another key.
        for change in 0..3 {
            let d = v2.delivery.as_mut().unwrap();
            match change {
                0 => d.response_hash = h(9),
                1 => d.audit_hash = h(9),
                _ => d.sources_hash = h(9),
            }
            let forged = SignedReceipt {
                payload: v2.clone(),
                ..signed.clone()
            };
            assert_ne!(recover(&forged).unwrap(), SIGNER, "change {change}");
        }
        // Version 1 carries no delivery fields.
        assert!(
            serde_json::to_value(receipt())
                .unwrap()
                .get("responseHash")
                .is_none()
        );
    }

    #[test]
    fn the_receipt_vector() {
        assert_eq!(key().address(), SIGNER);
        assert_eq!(
            digest(&receipt()),
            b256!("0x2ef534b728456f6f4e944a85fe58476d92f29aa89b6aee9d6603b571c518aac3")
        );
        let signed = sign(receipt(), &key()).unwrap();
        assert_eq!(signed.format, "eip712");
        assert_eq!(signed.signature, RECEIPT_SIG);
        assert_eq!(recover(&signed).unwrap(), SIGNER);
    }

    #[test]
    fn the_offer_vector() {
        let offer = OfferPayload {
            version: 1,
            resource_url: "https://api.example.com/premium-data".into(),
            scheme: "exact".into(),
            network: "eip155:4663".into(),
            asset: "0x1111111111111111111111111111111111111111".into(),
            pay_to: "0x2222222222222222222222222222222222222222".into(),
            amount: "10000".into(),
            valid_until: 1703123516,
        };
        let d = offer_digest(&offer);
        assert_eq!(
            d,
            b256!("0x4443cc0d8ab39051d8fc9774e6bc9ae69285652c660b4e4a9477b7e0ddbf9281")
        );
        let sig = key().sign_hash_sync(&d).unwrap();
        assert_eq!(
            hex::encode_prefixed(sig.as_bytes()),
            "0x76224d292d5968ebedc76aca11e4969c0b95bc23f157a3b1074be03da0b8f45819f905fee9540d2792d50622e2f255862ed5bb911579573dc1c0a992d8b269391b"
        );
        assert_eq!(
            serde_json::to_value(&offer).unwrap(),
            json!({
                "version": 1,
                "resourceUrl": "https://api.example.com/premium-data",
                "scheme": "exact",
                "network": "eip155:4663",
                "asset": "0x1111111111111111111111111111111111111111",
                "payTo": "0x2222222222222222222222222222222222222222",
                "amount": "10000",
                "validUntil": 1703123516
            })
        );
    }

    #[test]
    fn a_tampered_receipt_recovers_someone_else() {
        let mut signed = sign(receipt(), &key()).unwrap();
        signed.payload.transaction = "0xabc".into();
        let other = recover(&signed).unwrap();
        assert_ne!(other, SIGNER);
        let mut signed = sign(receipt(), &key()).unwrap();
        signed.payload.issued_at += 1;
        assert_ne!(recover(&signed).unwrap(), SIGNER);
        signed.format = "jws".into();
        assert!(matches!(recover(&signed), Err(ReceiptError::Format(_))));
        let mut signed = sign(receipt(), &key()).unwrap();
        signed.signature.truncate(10);
        assert!(matches!(
            recover(&signed),
            Err(ReceiptError::Signature(SignatureError::Length(4)))
        ));
    }

    #[test]
    fn the_wire_shape() {
        let signed = sign(receipt(), &key()).unwrap();
        let wire = json!({
            "format": "eip712",
            "payload": {
                "version": 1,
                "network": "eip155:4663",
                "resourceUrl": "https://api.example.com/premium-data",
                "payer": "0x857b06519E91e3A54538791bDbb0E22373e36b66",
                "issuedAt": 1703123456,
                "transaction": ""
            },
            "signature": RECEIPT_SIG
        });
        assert_eq!(serde_json::to_value(&signed).unwrap(), wire);
        assert_eq!(
            serde_json::from_value::<SignedReceipt>(wire.clone()).unwrap(),
            signed
        );
        let ext = extension(&signed);
        assert_eq!(ext["info"]["receipt"], wire);
        assert_eq!(ext["schema"]["required"], json!(["receipt"]));
        assert_eq!(
            ext["schema"]["properties"]["receipt"]["properties"]["payload"]["required"],
            json!(["version", "network", "resourceUrl", "payer", "issuedAt"])
        );
    }
}

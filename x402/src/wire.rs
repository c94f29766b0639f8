//! x402 version 2 wire types (protocols.md §2): the challenge, the signed payload, the
//! facilitator's answers, and base64 for the headers. Numbers in the authorization are strings.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub const VERSION: u8 = 2;
pub const SCHEME: &str = "exact";
pub const HEADER_REQUIRED: &str = "payment-required";
pub const HEADER_SIGNATURE: &str = "payment-signature";
pub const HEADER_X_PAYMENT: &str = "x-payment";
pub const HEADER_RESPONSE: &str = "payment-response";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Extra {
    pub asset_transfer_method: String,
    pub spender: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequirements {
    pub scheme: String,
    pub network: String,
    pub amount: String,
    pub asset: String,
    pub pay_to: String,
    pub max_timeout_seconds: u64,
    pub extra: Extra,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequired {
    pub x402_version: u8,
    pub error: String,
    pub resource: Resource,
    pub accepts: Vec<PaymentRequirements>,
    /// Extensions the server declares (protocols.md §2.1), by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Permitted {
    pub token: String,
    pub amount: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WitnessJson {
    pub to: String,
    pub valid_after: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Permit2Authorization {
    pub from: String,
    pub permitted: Permitted,
    pub spender: String,
    pub nonce: String,
    pub deadline: String,
    pub witness: WitnessJson,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Permit2Payload {
    pub signature: String,
    pub permit2_authorization: Permit2Authorization,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPayload {
    pub x402_version: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<Resource>,
    pub accepted: PaymentRequirements,
    pub payload: Permit2Payload,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SettleResponse {
    pub success: bool,
    pub transaction: String,
    pub network: String,
    pub payer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// Extension results, e.g. the signed `offer-receipt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VerifyResponse {
    pub is_valid: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_message: Option<String>,
    pub payer: String,
}

/// The body of a facilitator's `/verify` and `/settle`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FacilitatorRequest {
    pub x402_version: u8,
    pub payment_payload: PaymentPayload,
    pub payment_requirements: PaymentRequirements,
}

/// Standard base64 (with padding) of the JSON, as the headers carry it.
pub fn encode_header<T: Serialize>(v: &T) -> Result<String, serde_json::Error> {
    Ok(STANDARD.encode(serde_json::to_vec(v)?))
}

pub fn decode_header<T: DeserializeOwned>(s: &str) -> Result<T, String> {
    let bytes = STANDARD
        .decode(s.trim())
        .map_err(|_| "the header is not standard base64".to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| format!("the header's JSON is not valid: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip() {
        let r = SettleResponse {
            success: true,
            transaction: "0xab".into(),
            network: "eip155:4663".into(),
            payer: "0x01".into(),
            error_reason: None,
            error_message: None,
            extensions: None,
        };
        let h = encode_header(&r).unwrap();
        assert_eq!(decode_header::<SettleResponse>(&h).unwrap(), r);
        assert!(decode_header::<SettleResponse>("%%%").is_err());
        let v: serde_json::Value = serde_json::from_slice(&STANDARD.decode(h).unwrap()).unwrap();
        assert!(v.get("errorReason").is_none());
        assert_eq!(v["transaction"], "0xab");
    }
}

//! `payment-identifier`: a client's idempotency key for a payment. The server declares
//! `{ info: { required }, schema }`; the client echoes it with `info.id` (16-128 characters of
//! `[A-Za-z0-9_-]`). The id is bound to a fingerprint of the payment it first came with.

use alloy::primitives::keccak256;
use serde_json::{Value, json};

use crate::PaymentPayload;

pub const KEY: &str = "payment-identifier";
pub const MIN_LEN: usize = 16;
pub const MAX_LEN: usize = 128;

/// The declaration for a challenge's `extensions`.
pub fn declare(required: bool) -> Value {
    json!({
        "info": { "required": required },
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "required": { "type": "boolean" },
                "id": {
                    "type": "string",
                    "minLength": MIN_LEN,
                    "maxLength": MAX_LEN,
                    "pattern": "^[a-zA-Z0-9_-]+$"
                }
            },
            "required": ["required"]
        }
    })
}

/// Whether `id` is a well-formed payment identifier.
pub fn valid(id: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The id a payload carries: `Ok(None)` without one, `Err` with a malformed one.
pub fn of(p: &PaymentPayload) -> Result<Option<String>, String> {
    let Some(ext) = p.extensions.as_ref().and_then(|e| e.get(KEY)) else {
        return Ok(None);
    };
    match ext.get("info").and_then(|i| i.get("id")) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(id)) if valid(id) => Ok(Some(id.clone())),
        Some(_) => Err(format!(
            "the {KEY} id must be {MIN_LEN}-{MAX_LEN} characters of A-Z, a-z, 0-9, '-' and '_'"
        )),
    }
}

/// A fingerprint of the payment itself (the offer it accepts and the signed authorization),
/// leaving out the extensions, which carry the id: the same id with the same payment is a
/// retry, with another payment a reuse.
pub fn fingerprint(p: &PaymentPayload) -> String {
    // Serialized from the typed structs, so field order and number formats are fixed.
    let bytes = serde_json::to_vec(&(&p.accepted, &p.payload)).unwrap_or_default();
    format!("{:x}", keccak256(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Extra, PaymentRequirements, Permit2Authorization, Permit2Payload, Permitted, WitnessJson,
    };

    fn payload(id: Option<Value>) -> PaymentPayload {
        PaymentPayload {
            x402_version: 2,
            resource: None,
            accepted: PaymentRequirements {
                scheme: "exact".into(),
                network: "eip155:4663".into(),
                amount: "100".into(),
                asset: "0x01".into(),
                pay_to: "0x02".into(),
                max_timeout_seconds: 300,
                extra: Extra {
                    asset_transfer_method: "permit2".into(),
                    spender: "0x03".into(),
                    name: "USDG".into(),
                },
            },
            payload: Permit2Payload {
                signature: "0xab".into(),
                permit2_authorization: Permit2Authorization {
                    from: "0x04".into(),
                    permitted: Permitted {
                        token: "0x01".into(),
                        amount: "100".into(),
                    },
                    spender: "0x03".into(),
                    nonce: "7".into(),
                    deadline: "9".into(),
                    witness: WitnessJson {
                        to: "0x02".into(),
                        valid_after: "0".into(),
                    },
                },
            },
            extensions: id.map(|id| json!({ KEY: { "info": { "required": false, "id": id } } })),
        }
    }

    #[test]
    fn ids_are_16_to_128_safe_characters() {
        assert!(valid("pay_7d5d747be160e280"));
        assert!(valid(&"a".repeat(128)));
        assert!(!valid(&"a".repeat(15)));
        assert!(!valid(&"a".repeat(129)));
        assert!(!valid("pay_7d5d747be160e28!"));
        assert!(!valid("pay_7d5d747be160e28é"));
    }

    #[test]
    fn the_id_is_read_from_the_extension() {
        assert_eq!(of(&payload(None)), Ok(None));
        assert_eq!(of(&payload(Some(Value::Null))), Ok(None));
        assert_eq!(
            of(&payload(Some(json!("pay_0123456789abcdef")))),
            Ok(Some("pay_0123456789abcdef".into()))
        );
        assert!(of(&payload(Some(json!("short")))).is_err());
        assert!(of(&payload(Some(json!(12345678901234567_u64)))).is_err());
        // Declared without an id (the client echoed the declaration only).
        let mut p = payload(None);
        p.extensions = Some(json!({ KEY: declare(false) }));
        assert_eq!(of(&p), Ok(None));
    }

    #[test]
    fn the_fingerprint_is_the_payment_without_its_extensions() {
        let a = payload(Some(json!("pay_0123456789abcdef")));
        let b = payload(Some(json!("pay_fedcba9876543210")));
        assert_eq!(fingerprint(&a), fingerprint(&b));
        let mut c = a.clone();
        c.payload.permit2_authorization.nonce = "8".into();
        assert_ne!(fingerprint(&a), fingerprint(&c));
        let mut d = a.clone();
        d.payload.signature = "0xac".into();
        assert_ne!(fingerprint(&a), fingerprint(&d));
    }
}

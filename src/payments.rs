//! Purchase terms: what each payment step costs and whom it pays, the x402 challenge, and the
//! comparison of signed terms with the current ones. Pure functions.

use alloy::primitives::Address;
use jm_chain::extensions::payment_identifier;
use jm_chain::x402::{self, Extra, PaymentPayload, PaymentRequired, PaymentRequirements, Resource};

pub use journal_market_actors::settlement::Step;

pub struct Terms {
    pub chain_id: u64,
    pub usdg: Address,
    pub proxy: Address,
    pub amount: i64,
    pub pay_to: Address,
    pub resource_url: String,
}

pub const MAX_TIMEOUT_SECONDS: u64 = 300;

pub fn requirements(t: &Terms) -> PaymentRequirements {
    PaymentRequirements {
        scheme: x402::SCHEME.into(),
        network: format!("eip155:{}", t.chain_id),
        amount: t.amount.to_string(),
        asset: t.usdg.to_checksum(None),
        pay_to: t.pay_to.to_checksum(None),
        max_timeout_seconds: MAX_TIMEOUT_SECONDS,
        extra: Extra {
            asset_transfer_method: "permit2".into(),
            spender: t.proxy.to_checksum(None),
            name: "USDG".into(),
        },
    }
}

pub fn challenge(t: &Terms, error: impl Into<String>) -> PaymentRequired {
    PaymentRequired {
        x402_version: x402::VERSION,
        error: error.into(),
        resource: Resource {
            url: t.resource_url.clone(),
            description: Some("the journal's full text".into()),
            mime_type: Some("application/json".into()),
        },
        accepts: vec![requirements(t)],
        extensions: Some(serde_json::json!({
            payment_identifier::KEY: payment_identifier::declare(false),
        })),
    }
}

fn same_address(a: &str, b: &Address) -> bool {
    a.parse::<Address>().is_ok_and(|a| a == *b)
}

/// Whether the payload was signed for the current terms: network, amount, token and recipient.
pub fn signed_for(p: &PaymentPayload, t: &Terms) -> bool {
    let a = &p.payload.permit2_authorization;
    p.accepted.network == format!("eip155:{}", t.chain_id)
        && a.permitted.amount == t.amount.to_string()
        && same_address(&a.permitted.token, &t.usdg)
        && same_address(&a.witness.to, &t.pay_to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jm_chain::x402::{Permit2Authorization, Permit2Payload, Permitted, WitnessJson};

    fn terms() -> Terms {
        Terms {
            chain_id: 4663,
            usdg: Address::repeat_byte(1),
            proxy: Address::repeat_byte(2),
            amount: 100_000,
            pay_to: Address::repeat_byte(3),
            resource_url: "http://x/api/pay/burn".into(),
        }
    }

    fn payload(t: &Terms) -> PaymentPayload {
        let r = requirements(t);
        PaymentPayload {
            x402_version: 2,
            resource: None,
            accepted: r.clone(),
            payload: Permit2Payload {
                signature: "0x".into(),
                permit2_authorization: Permit2Authorization {
                    from: format!("{:#x}", Address::repeat_byte(9)),
                    permitted: Permitted {
                        token: r.asset.to_lowercase(),
                        amount: r.amount.clone(),
                    },
                    spender: r.extra.spender.clone(),
                    nonce: "1".into(),
                    deadline: "2".into(),
                    witness: WitnessJson {
                        to: r.pay_to.clone(),
                        valid_after: "0".into(),
                    },
                },
            },
            extensions: None,
        }
    }

    #[test]
    fn the_challenge_has_the_interface_shape() {
        let c = serde_json::to_value(challenge(&terms(), "payment required")).unwrap();
        assert_eq!(c["x402Version"], 2);
        let a = &c["accepts"][0];
        assert_eq!(a["scheme"], "exact");
        assert_eq!(a["network"], "eip155:4663");
        assert_eq!(a["amount"], "100000");
        assert_eq!(a["maxTimeoutSeconds"], 300);
        assert_eq!(a["extra"]["assetTransferMethod"], "permit2");
        assert_eq!(a["extra"]["name"], "USDG");
        assert_eq!(c["resource"]["url"], "http://x/api/pay/burn");
        assert_eq!(
            c["extensions"]["payment-identifier"]["info"],
            serde_json::json!({ "required": false })
        );
    }

    #[test]
    fn signed_terms_must_match() {
        let t = terms();
        let p = payload(&t);
        assert!(signed_for(&p, &t), "addresses compare in any case");
        let mut cheaper = p.clone();
        cheaper.payload.permit2_authorization.permitted.amount = "99999".into();
        assert!(!signed_for(&cheaper, &t));
        let mut elsewhere = p.clone();
        elsewhere.payload.permit2_authorization.witness.to =
            format!("{:#x}", Address::repeat_byte(4));
        assert!(!signed_for(&elsewhere, &t));
        let mut other_chain = p;
        other_chain.accepted.network = "eip155:1".into();
        assert!(!signed_for(&other_chain, &t));
    }
}

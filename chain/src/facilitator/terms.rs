//! The checks of a payment that need no chain, in the reference facilitator's order: the
//! version, scheme and network, then the permit's numbers against the price. A payment that
//! fails one never reaches a signature check or a node.

use alloy::primitives::{Address, U256};

use super::{Facilitator, Invalid, Permit};
use journal_market_x402::permit2::{PermitWitnessTransferFrom, TokenPermissions, Witness};
use journal_market_x402::signature;
use journal_market_x402::{PaymentPayload, PaymentRequirements, SCHEME, VERSION};

pub(super) fn invalid(code: &'static str, message: impl Into<String>) -> Invalid {
    Invalid {
        code,
        message: message.into(),
    }
}

fn addr(field: &str, s: &str) -> Result<Address, Invalid> {
    s.parse()
        .map_err(|_| invalid("invalid_payload", format!("{field} is not an address")))
}

fn uint(field: &str, s: &str) -> Result<U256, Invalid> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(
            "invalid_payload",
            format!("{field} must be a decimal string"),
        ));
    }
    U256::from_str_radix(s, 10)
        .map_err(|_| invalid("invalid_payload", format!("{field} is too large")))
}

/// Everything that can be checked without the chain, in the reference order.
pub fn check_terms(
    p: &PaymentPayload,
    r: &PaymentRequirements,
    chain_id: u64,
    usdg: Address,
    proxy: Address,
    now: u64,
) -> Result<Permit, Invalid> {
    if p.x402_version != VERSION {
        return Err(invalid(
            "invalid_x402_version",
            format!("x402Version must be {VERSION}"),
        ));
    }
    let network = format!("eip155:{chain_id}");
    if p.accepted.scheme != SCHEME || r.scheme != SCHEME {
        return Err(invalid("unsupported_scheme", "the scheme must be exact"));
    }
    if p.accepted.network != network || r.network != network {
        return Err(invalid(
            "invalid_network",
            format!("the network must be {network}"),
        ));
    }
    let a = &p.payload.permit2_authorization;
    let from = addr("permit2Authorization.from", &a.from)?;
    let spender = addr("permit2Authorization.spender", &a.spender)?;
    let token = addr("permit2Authorization.permitted.token", &a.permitted.token)?;
    let to = addr("permit2Authorization.witness.to", &a.witness.to)?;
    let amount = uint("permit2Authorization.permitted.amount", &a.permitted.amount)?;
    let nonce = uint("permit2Authorization.nonce", &a.nonce)?;
    let deadline = uint("permit2Authorization.deadline", &a.deadline)?;
    let valid_after = uint(
        "permit2Authorization.witness.validAfter",
        &a.witness.valid_after,
    )?;
    let pay_to = addr("payTo", &r.pay_to)?;
    let asset = addr("asset", &r.asset)?;
    let required = uint("amount", &r.amount)?;

    if spender != proxy {
        return Err(invalid(
            "invalid_permit2_spender",
            "the spender must be the x402 Permit2 proxy",
        ));
    }
    if to != pay_to {
        return Err(invalid(
            "invalid_permit2_recipient_mismatch",
            "the witness pays another recipient",
        ));
    }
    if deadline < U256::from(now.saturating_add(6)) {
        return Err(invalid(
            "permit2_deadline_expired",
            "the permit's deadline has passed",
        ));
    }
    if deadline
        > U256::from(now)
            .saturating_add(U256::from(r.max_timeout_seconds))
            .saturating_add(U256::from(30))
    {
        return Err(invalid(
            "permit2_deadline_too_far",
            format!(
                "the deadline is more than {} seconds away",
                r.max_timeout_seconds
            ),
        ));
    }
    if valid_after > U256::from(now) {
        return Err(invalid(
            "permit2_not_yet_valid",
            "the permit is not valid yet",
        ));
    }
    if amount != required {
        return Err(invalid(
            "permit2_amount_mismatch",
            "the permitted amount differs from the price",
        ));
    }
    if token != asset || asset != usdg {
        return Err(invalid(
            "permit2_token_mismatch",
            "the permitted token is not USDG",
        ));
    }
    let signature = signature::parse_hex(&p.payload.signature)
        .map_err(|_| invalid("invalid_permit2_signature", "the signature is not hex"))?;
    Ok(Permit {
        from,
        permit: PermitWitnessTransferFrom {
            permitted: TokenPermissions { token, amount },
            spender,
            nonce,
            deadline,
            witness: Witness {
                to,
                validAfter: valid_after,
            },
        },
        signature,
    })
}

impl Facilitator {
    /// The checks that need no chain, with this facilitator's chain, token and proxy.
    pub fn check(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<Permit, Invalid> {
        check_terms(p, r, self.chain_id, self.usdg, self.proxy, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use journal_market_x402::{
        Extra, Permit2Authorization, Permit2Payload, Permitted, WitnessJson,
    };

    fn addr(b: u8) -> Address {
        Address::repeat_byte(b)
    }

    fn pair(deadline: u64, max_timeout: u64) -> (PaymentPayload, PaymentRequirements) {
        let r = PaymentRequirements {
            scheme: SCHEME.into(),
            network: "eip155:4663".into(),
            amount: "100".into(),
            asset: addr(1).to_string(),
            pay_to: addr(3).to_string(),
            max_timeout_seconds: max_timeout,
            extra: Extra {
                asset_transfer_method: "permit2".into(),
                spender: addr(2).to_string(),
                name: "USDG".into(),
            },
        };
        let p = PaymentPayload {
            x402_version: VERSION,
            resource: None,
            accepted: r.clone(),
            payload: Permit2Payload {
                signature: format!("0x{}", "11".repeat(65)),
                permit2_authorization: Permit2Authorization {
                    from: addr(9).to_string(),
                    permitted: Permitted {
                        token: addr(1).to_string(),
                        amount: "100".into(),
                    },
                    spender: addr(2).to_string(),
                    nonce: "7".into(),
                    deadline: deadline.to_string(),
                    witness: WitnessJson {
                        to: addr(3).to_string(),
                        valid_after: "0".into(),
                    },
                },
            },
            extensions: None,
        };
        (p, r)
    }

    fn check(p: &PaymentPayload, r: &PaymentRequirements, now: u64) -> Result<Permit, Invalid> {
        check_terms(p, r, 4663, addr(1), addr(2), now)
    }

    #[test]
    fn huge_numbers_from_a_request_never_overflow() {
        let (p, r) = pair(1_000, u64::MAX);
        assert!(
            check(&p, &r, 900).is_ok(),
            "any deadline within u64::MAX + 30"
        );
        let (p, r) = pair(1_000, u64::MAX);
        assert_eq!(
            check(&p, &r, u64::MAX).unwrap_err().code,
            "permit2_deadline_expired",
            "a clock at the end of time"
        );
        let (mut p, r) = pair(1_000, 300);
        p.payload.permit2_authorization.deadline = format!("{}", U256::MAX);
        assert_eq!(
            check(&p, &r, 900).unwrap_err().code,
            "permit2_deadline_too_far"
        );
        p.payload.permit2_authorization.permitted.amount = format!("{}0", U256::MAX);
        assert_eq!(check(&p, &r, 900).unwrap_err().code, "invalid_payload");
    }

    #[test]
    fn the_reference_order_of_checks() {
        let (p, r) = pair(1_000, 300);
        assert!(check(&p, &r, 900).is_ok());
        assert_eq!(
            check(&p, &r, 995).unwrap_err().code,
            "permit2_deadline_expired",
            "less than 6 s left"
        );
        let (mut p, r) = pair(1_000, 300);
        p.payload.permit2_authorization.spender = addr(4).to_string();
        assert_eq!(
            check(&p, &r, 900).unwrap_err().code,
            "invalid_permit2_spender"
        );
    }
}

//! The x402 headers (PAYMENT-SIGNATURE / X-PAYMENT, PAYMENT-REQUIRED, PAYMENT-RESPONSE), the
//! facilitator's request body, and the terms checks and extensions read from a payload.
//!
//! Input: a header value, or (starting with `{`) the JSON a header carries, which is also read
//! as a facilitator's `/verify` body. Asserts that a decoded header encodes and decodes to
//! itself, and what an accepted permit must hold.
#![no_main]

use alloy::primitives::{Address, U256};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use journal_market_chain::facilitator::check_terms;
use journal_market_x402::extensions::{gas_sponsoring, payment_identifier};
use journal_market_x402::{
    self as x402, FacilitatorRequest, PaymentPayload, PaymentRequired, PaymentRequirements,
    SettleResponse, VerifyResponse,
};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;

const CHAIN: u64 = 4663;
const USDG: Address = Address::repeat_byte(1);
const PROXY: Address = Address::repeat_byte(2);
const NOW: u64 = 1_000_000;

/// Decodes `header` as a `T`; a decoded value must encode and decode to itself.
fn round_trip<T, F>(header: &str, without_extensions: F) -> Option<T>
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Clone,
    F: Fn(&mut T),
{
    let v: T = x402::decode_header(header).ok()?;
    let again = x402::encode_header(&v).expect("a decoded header encodes");
    let back: T = x402::decode_header(&again).expect("an encoded header decodes");
    // Extensions are free JSON: serde_json's float parsing is best-effort, so only the typed
    // fields are compared exactly.
    let (mut a, mut b) = (v.clone(), back);
    without_extensions(&mut a);
    without_extensions(&mut b);
    assert_eq!(a, b);
    Some(v)
}

fn terms(p: &PaymentPayload, r: &PaymentRequirements) {
    let Ok(permit) = check_terms(p, r, CHAIN, USDG, PROXY, NOW) else {
        return;
    };
    let a = &permit.permit;
    assert_eq!(a.spender, PROXY);
    assert_eq!(a.permitted.token, USDG);
    assert_eq!(Some(a.permitted.amount), r.amount.parse::<U256>().ok());
    assert_eq!(Some(a.witness.to), r.pay_to.parse::<Address>().ok());
    assert!(a.deadline >= U256::from(NOW + 6));
    assert!(a.deadline <= U256::from(NOW) + U256::from(r.max_timeout_seconds) + U256::from(30));
    assert!(a.witness.validAfter <= U256::from(NOW));
    assert_eq!(p.accepted.network, format!("eip155:{CHAIN}"));
}

fn payload(p: &PaymentPayload) {
    terms(p, &p.accepted);
    if let Ok(Some(id)) = payment_identifier::of(p) {
        assert!(payment_identifier::valid(&id));
    }
    let mut bare = p.clone();
    bare.extensions = None;
    assert_eq!(
        payment_identifier::fingerprint(p),
        payment_identifier::fingerprint(&bare),
        "the fingerprint leaves out the extensions"
    );
    if let Ok(Some(info)) = gas_sponsoring::of(p.extensions.as_ref()) {
        let limits = gas_sponsoring::Limits {
            chain_id: CHAIN,
            token: USDG,
            permit2: journal_market_x402::canonical::PERMIT2,
            max_gas: 100_000,
            max_fee_per_gas: 10_000_000_000,
        };
        let payer = p
            .payload
            .permit2_authorization
            .from
            .parse()
            .unwrap_or_default();
        let _ = gas_sponsoring::check(&info, payer, U256::from(100), &limits);
    }
}

fuzz_target!(|data: &[u8]| {
    let header = if data.first() == Some(&b'{') {
        if let Ok(req) = serde_json::from_slice::<FacilitatorRequest>(data) {
            terms(&req.payment_payload, &req.payment_requirements);
        }
        STANDARD.encode(data)
    } else {
        match std::str::from_utf8(data) {
            Ok(s) => s.to_string(),
            Err(_) => return,
        }
    };
    if let Some(p) = round_trip::<PaymentPayload, _>(&header, |p| p.extensions = None) {
        payload(&p);
    }
    round_trip::<PaymentRequired, _>(&header, |p| p.extensions = None);
    round_trip::<SettleResponse, _>(&header, |p| p.extensions = None);
    round_trip::<VerifyResponse, _>(&header, |_| {});
});

//! Sign-in: the bodies of `POST /auth/nonce` and `/auth/verify` (address, signature), the
//! `SIGN-IN-WITH-X` proof and the EIP-4361 messages built from it, signature recovery, and the
//! transaction hashes clients send.
//!
//! Input: a JSON body (starting with `{`), read as a sign-in body and as a proof (also sent
//! base64 as the header would carry it), or a header value / field as text. Asserts that what
//! is accepted reads back the same and that an accepted proof's message names its signer.
#![no_main]

use alloy::primitives::{Address, eip191_hash_message};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Duration, Utc};
use journal_market_actors::session::{parse_address, siwe};
use journal_market_chain::erc8004::parse_tx_hash;
use journal_market_client::api::{NonceRequest, VerifyRequest};
use journal_market_domain::wallet::lower;
use journal_market_x402::extensions::siwx::{self, Expect, Proof};
use journal_market_x402::signature::{parse_hex, recover};
use libfuzzer_sys::fuzz_target;

const ORIGIN: &str = "http://localhost:8080";
const CHAIN: u64 = 4663;

fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_767_225_660, 0).unwrap_or_default() // 2026-01-01T00:01:00Z
}

fn address(s: &str) -> Option<Address> {
    let a = parse_address(s).ok()?;
    assert_eq!(lower(&a), s.trim().to_ascii_lowercase());
    assert_eq!(parse_address(&a.to_checksum(None)).ok(), Some(a));
    Some(a)
}

fn signature(s: &str, message: &str) {
    let Ok(sig) = parse_hex(s) else {
        return;
    };
    assert_eq!(sig.to_string(), s.trim().to_ascii_lowercase());
    let _ = recover(&eip191_hash_message(message), &sig);
}

fn proof(p: &Proof) {
    let expect = Expect {
        origin: ORIGIN,
        chain_id: CHAIN,
        now: now(),
    };
    let Ok((a, until)) = siwx::check(p, &expect) else {
        return;
    };
    assert_eq!(p.address.trim().parse::<Address>().ok(), Some(a));
    assert!(
        until >= expect.now && until <= expect.now + Duration::seconds(siwx::MAX_AGE_SECS + 30)
    );
    let m = siwx::message(p, a);
    assert!(m.starts_with(&format!("{} wants you to sign in", p.domain)));
    assert!(m.contains(&format!("\n{}\n", a.to_checksum(None))));
    assert!(m.contains(&format!("\nNonce: {}\n", p.nonce)));
    signature(&p.signature, &m);
}

fn sign_in(v: &VerifyRequest) {
    let Some(a) = address(&v.address) else {
        return;
    };
    // The route's rule for a nonce before it looks one up.
    if v.nonce.is_empty()
        || v.nonce.len() > 64
        || !v.nonce.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return;
    }
    let m = siwe::SignIn {
        origin: ORIGIN,
        address: a,
        chain_id: CHAIN,
        nonce: &v.nonce,
        issued_at: now(),
        expires_at: now() + Duration::minutes(10),
    }
    .message();
    assert_eq!(m.lines().count(), 11);
    assert!(m.contains(&format!("\nNonce: {}\n", v.nonce)));
    signature(&v.signature, &m);
}

fuzz_target!(|data: &[u8]| {
    if data.first() == Some(&b'{') {
        if let Ok(v) = serde_json::from_slice::<VerifyRequest>(data) {
            sign_in(&v);
        }
        if let Ok(n) = serde_json::from_slice::<NonceRequest>(data) {
            address(&n.address);
        }
        if let Ok(p) = siwx::decode(&STANDARD.encode(data)) {
            proof(&p);
        }
        return;
    }
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = siwx::decode(s) {
        proof(&p);
    }
    address(s);
    signature(s, "message");
    if let Some(h) = parse_tx_hash(s) {
        assert_eq!(format!("{h:#x}"), s.trim().to_ascii_lowercase());
    }
    let _ = siwx::domain_of(s);
});

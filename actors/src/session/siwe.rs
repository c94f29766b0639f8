//! The EIP-4361 (Sign-In with Ethereum) message the server issues. The server verifies a
//! signature against the exact text it stored for the nonce, so nothing here parses messages.

use alloy::primitives::Address;
use chrono::{DateTime, SecondsFormat, Utc};

fn ts(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub const STATEMENT: &str =
    "Sign in to the journal market. Signing proves you control this wallet and costs no gas.";

/// Alphanumerics of a nonce; 20 of them carry 119 bits.
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub const NONCE_LEN: usize = 20;

/// A nonce from the OS's random source, without modulo bias.
pub fn new_nonce() -> Result<String, getrandom::Error> {
    let mut out = String::with_capacity(NONCE_LEN);
    let mut buf = [0u8; 64];
    while out.len() < NONCE_LEN {
        getrandom::fill(&mut buf)?;
        // 248 = 4 × 62: bytes at or above it would favour the first letters.
        for b in buf.iter().copied().filter(|b| *b < 248) {
            if out.len() == NONCE_LEN {
                break;
            }
            out.push(ALPHABET[usize::from(b) % ALPHABET.len()] as char);
        }
    }
    Ok(out)
}

/// The host (and port) of an origin URL: the message's `domain` (as SIWX's).
pub use journal_market_x402::extensions::siwx::domain_of;

pub struct SignIn<'a> {
    pub origin: &'a str,
    pub address: Address,
    pub chain_id: u64,
    pub nonce: &'a str,
    pub issued_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl SignIn<'_> {
    pub fn message(&self) -> String {
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n{address}\n\n{STATEMENT}\n\nURI: {uri}\nVersion: 1\nChain ID: {chain}\nNonce: {nonce}\nIssued At: {issued}\nExpiration Time: {expires}",
            domain = domain_of(self.origin),
            address = self.address.to_checksum(None),
            uri = self.origin.trim_end_matches('/'),
            chain = self.chain_id,
            nonce = self.nonce,
            issued = ts(&self.issued_at),
            expires = ts(&self.expires_at),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::address;

    #[test]
    fn nonces_are_long_alphanumeric_and_distinct() {
        let a = new_nonce().unwrap();
        let b = new_nonce().unwrap();
        assert_eq!(a.len(), NONCE_LEN);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, b);
    }

    #[test]
    fn message_follows_eip_4361() {
        let t = DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let m = SignIn {
            origin: "https://journals.example",
            address: address!("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
            chain_id: 4663,
            nonce: "abcDEF123456",
            issued_at: t,
            expires_at: t + chrono::Duration::minutes(10),
        }
        .message();
        assert_eq!(
            m,
            "journals.example wants you to sign in with your Ethereum account:\n\
             0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n\n\
             Sign in to the journal market. Signing proves you control this wallet and costs no gas.\n\n\
             URI: https://journals.example\nVersion: 1\nChain ID: 4663\nNonce: abcDEF123456\n\
             Issued At: 2026-11-22T10:00:00Z\nExpiration Time: 2026-11-22T10:10:00Z"
        );
        assert_eq!(domain_of("http://127.0.0.1:8080/"), "127.0.0.1:8080");
    }
}

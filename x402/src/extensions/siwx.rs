//! `sign-in-with-x` (SIWX): repeat access to paid content without paying again. The server
//! declares a fresh challenge in every 402 (`info`: domain, uri, nonce, issuedAt, …, and
//! `supportedChains`); the client answers with the `SIGN-IN-WITH-X` header: base64 JSON of the
//! info fields plus `address`, `chainId`, `type` and an EIP-191 signature of the EIP-4361
//! message built from them. Pure: the field checks and the message; the signature and the
//! nonce's single use are checked by the session actor.

use alloy::primitives::Address;
use chrono::{DateTime, Duration, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub const KEY: &str = "sign-in-with-x";
pub const HEADER: &str = "sign-in-with-x";
/// How old a proof's `issuedAt` may be (the reference default).
pub const MAX_AGE_SECS: i64 = 300;
/// How far ahead of our clock a proof's `issuedAt` may be.
const SKEW_SECS: i64 = 30;
pub const STATEMENT: &str =
    "Sign in to read the journals this wallet bought. Signing costs no gas.";

/// The proof a client sends in `SIGN-IN-WITH-X`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Proof {
    pub domain: String,
    pub address: String,
    pub uri: String,
    pub version: String,
    /// CAIP-2, e.g. `eip155:4663`.
    pub chain_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub nonce: String,
    pub issued_at: String,
    pub signature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<String>>,
    /// `eip191`, `eip1271` or `eip6492`: a hint only; the signature decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature_scheme: Option<String>,
}

/// What a proof must match: our origin and chain, and the time.
pub struct Expect<'a> {
    /// `scheme://host[:port]`, no trailing slash.
    pub origin: &'a str,
    pub chain_id: u64,
    pub now: DateTime<Utc>,
}

/// Why a proof is refused (said in the 402's `error`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the SIGN-IN-WITH-X header is not base64 JSON of a sign-in proof: {0}")]
    Malformed(String),
    #[error("the proof is for the domain {0:?}, not this site")]
    Domain(String),
    #[error("the proof's uri {0:?} is not on this site")]
    Uri(String),
    #[error("the proof's version must be \"1\"")]
    Version,
    #[error("the proof must be for chain eip155:{0} with an eip191 signature")]
    Chain(u64),
    #[error("the proof's address is not an address")]
    Address,
    #[error("the proof's nonce must be at least 8 letters and digits")]
    Nonce,
    #[error("the proof's {0} is not an RFC 3339 time")]
    Time(&'static str),
    #[error("the proof was issued more than 5 minutes ago; sign a new one")]
    TooOld,
    #[error("the proof is issued in the future")]
    Future,
    #[error("the proof expired")]
    Expired,
    #[error("the proof is not valid yet")]
    NotYet,
}

pub fn ts(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The host (and port) of an origin URL: the proof's `domain`.
pub fn domain_of(origin: &str) -> &str {
    origin
        .split_once("://")
        .map(|(_, rest)| rest)
        .unwrap_or(origin)
        .trim_end_matches('/')
}

/// The declaration for a challenge: a fresh `nonce`, `issuedAt` and `expirationTime` (as
/// `ts` writes them) for `uri` (the resource).
pub fn declare(
    origin: &str,
    uri: &str,
    chain_id: u64,
    nonce: &str,
    issued_at: &str,
    expiration_time: &str,
) -> Value {
    json!({
        "info": {
            "domain": domain_of(origin),
            "uri": uri,
            "version": "1",
            "nonce": nonce,
            "issuedAt": issued_at,
            "expirationTime": expiration_time,
            "statement": STATEMENT,
            "resources": [uri],
        },
        "supportedChains": [{ "chainId": format!("eip155:{chain_id}"), "type": "eip191" }],
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "domain": { "type": "string" },
                "address": { "type": "string" },
                "statement": { "type": "string" },
                "uri": { "type": "string", "format": "uri" },
                "version": { "type": "string" },
                "chainId": { "type": "string" },
                "type": { "type": "string" },
                "nonce": { "type": "string" },
                "issuedAt": { "type": "string", "format": "date-time" },
                "expirationTime": { "type": "string", "format": "date-time" },
                "notBefore": { "type": "string", "format": "date-time" },
                "requestId": { "type": "string" },
                "resources": { "type": "array", "items": { "type": "string", "format": "uri" } },
                "signature": { "type": "string" }
            },
            "required": ["domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature"]
        }
    })
}

pub fn decode(header: &str) -> Result<Proof, Refused> {
    crate::decode_header(header).map_err(Refused::Malformed)
}

fn time(s: &str, what: &'static str) -> Result<DateTime<Utc>, Refused> {
    DateTime::parse_from_rfc3339(s.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| Refused::Time(what))
}

/// The proof's fields against our origin, chain and clock (the reference checks, in order);
/// the signer it names, and until when its nonce must stay used.
pub fn check(p: &Proof, e: &Expect<'_>) -> Result<(Address, DateTime<Utc>), Refused> {
    let origin = e.origin.trim_end_matches('/');
    if !p.domain.eq_ignore_ascii_case(domain_of(origin)) {
        return Err(Refused::Domain(p.domain.clone()));
    }
    let same_origin = p
        .uri
        .strip_prefix(origin)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']));
    if !same_origin {
        return Err(Refused::Uri(p.uri.clone()));
    }
    if p.version != "1" {
        return Err(Refused::Version);
    }
    if p.chain_id != format!("eip155:{}", e.chain_id) || p.kind != "eip191" {
        return Err(Refused::Chain(e.chain_id));
    }
    let address = p
        .address
        .trim()
        .parse::<Address>()
        .map_err(|_| Refused::Address)?;
    if p.nonce.len() < 8 || !p.nonce.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(Refused::Nonce);
    }
    let issued = time(&p.issued_at, "issuedAt")?;
    if e.now - issued > Duration::seconds(MAX_AGE_SECS) {
        return Err(Refused::TooOld);
    }
    if issued - e.now > Duration::seconds(SKEW_SECS) {
        return Err(Refused::Future);
    }
    let mut until = issued + Duration::seconds(MAX_AGE_SECS);
    if let Some(exp) = &p.expiration_time {
        let exp = time(exp, "expirationTime")?;
        if exp <= e.now {
            return Err(Refused::Expired);
        }
        until = until.min(exp);
    }
    if let Some(nb) = &p.not_before
        && time(nb, "notBefore")? > e.now
    {
        return Err(Refused::NotYet);
    }
    Ok((address, until))
}

/// The EIP-4361 message the proof's signature covers, as the reference clients build it (the
/// address checksummed, optional lines only when present, no trailing newline).
pub fn message(p: &Proof, address: Address) -> String {
    let chain = p.chain_id.strip_prefix("eip155:").unwrap_or(&p.chain_id);
    let mut m = format!(
        "{} wants you to sign in with your Ethereum account:\n{}\n\n",
        p.domain,
        address.to_checksum(None)
    );
    if let Some(s) = &p.statement {
        m.push_str(s);
        m.push('\n');
    }
    m.push_str(&format!(
        "\nURI: {}\nVersion: {}\nChain ID: {}\nNonce: {}\nIssued At: {}",
        p.uri, p.version, chain, p.nonce, p.issued_at
    ));
    for (label, v) in [
        ("Expiration Time", &p.expiration_time),
        ("Not Before", &p.not_before),
        ("Request ID", &p.request_id),
    ] {
        if let Some(v) = v {
            m.push_str(&format!("\n{label}: {v}"));
        }
    }
    if let Some(rs) = p.resources.as_ref().filter(|r| !r.is_empty()) {
        m.push_str("\nResources:");
        for r in rs {
            m.push_str(&format!("\n- {r}"));
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference clients' vector (x402 2.25.0 and @x402/extensions 2.27.0 agree on it).
    const HEADER: &str = "eyJkb21haW4iOiJsb2NhbGhvc3Q6ODA4MCIsInVyaSI6Imh0dHA6Ly9sb2NhbGhvc3Q6ODA4MC93ZWF0aGVyIiwidmVyc2lvbiI6IjEiLCJjaGFpbklkIjoiZWlwMTU1OjQ2NjMiLCJ0eXBlIjoiZWlwMTkxIiwibm9uY2UiOiIwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZiIsImlzc3VlZEF0IjoiMjAyNi0wMS0wMVQwMDowMDowMC4wMDBaIiwic3RhdGVtZW50IjoiU2lnbiBpbiB0byBhY2Nlc3MiLCJyZXNvdXJjZXMiOlsiaHR0cDovL2xvY2FsaG9zdDo4MDgwL3dlYXRoZXIiXSwiYWRkcmVzcyI6IjB4MWE2NDJmMEUzYzNhRjU0NUU3QWNCRDM4YjA3MjUxQjM5OTA5MTRGMSIsInNpZ25hdHVyZSI6IjB4ODU3NDUyOWYxY2VmNzZkNGI4MTg4ZmJhZTc0NjMxMGEwY2NlMDdiYzA1N2QxNGFjODBiZTQ1ODU5MTI1YTk5NzMwYjQwYTUwYjc3MWRkZWE4YjM5MDEzYzY1OWI5YWRlN2JlNzFkZDk3NGRhNDllNDU3ZmIwMzQxYzZkZmU1MWIxYiJ9";
    const MESSAGE: &str = "localhost:8080 wants you to sign in with your Ethereum account:\n0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1\n\nSign in to access\n\nURI: http://localhost:8080/weather\nVersion: 1\nChain ID: 4663\nNonce: 0123456789abcdef0123456789abcdef\nIssued At: 2026-01-01T00:00:00.000Z\nResources:\n- http://localhost:8080/weather";

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn expect(now: &str) -> Expect<'static> {
        Expect {
            origin: "http://localhost:8080",
            chain_id: 4663,
            now: at(now),
        }
    }

    #[test]
    fn the_reference_vector_checks_and_recovers() {
        let p = decode(HEADER).unwrap();
        let (address, until) = check(&p, &expect("2026-01-01T00:01:00Z")).unwrap();
        assert_eq!(
            address,
            "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
                .parse::<Address>()
                .unwrap()
        );
        assert_eq!(until, at("2026-01-01T00:05:00Z"));
        let m = message(&p, address);
        assert_eq!(m, MESSAGE);
        let sig = crate::signature::parse_hex(&p.signature).unwrap();
        let hash = alloy::primitives::eip191_hash_message(&m);
        assert_eq!(crate::signature::recover(&hash, &sig), Ok(address));
        // A lower-case address signs the same (checksummed) message.
        let mut lower = p.clone();
        lower.address = lower.address.to_lowercase();
        let (a, _) = check(&lower, &expect("2026-01-01T00:01:00Z")).unwrap();
        assert_eq!(message(&lower, a), MESSAGE);
    }

    #[test]
    fn the_reference_checks_refuse_in_order() {
        let p = decode(HEADER).unwrap();
        let now = expect("2026-01-01T00:01:00Z");
        let with = |f: &dyn Fn(&mut Proof)| {
            let mut q = p.clone();
            f(&mut q);
            check(&q, &now).unwrap_err()
        };
        assert!(matches!(
            with(&|q| q.domain = "evil.example".into()),
            Refused::Domain(_)
        ));
        assert!(matches!(
            with(&|q| q.uri = "http://localhost:8080.evil/weather".into()),
            Refused::Uri(_)
        ));
        assert_eq!(with(&|q| q.version = "2".into()), Refused::Version);
        assert_eq!(
            with(&|q| q.chain_id = "eip155:1".into()),
            Refused::Chain(4663)
        );
        assert_eq!(with(&|q| q.kind = "ed25519".into()), Refused::Chain(4663));
        assert_eq!(with(&|q| q.address = "0x12".into()), Refused::Address);
        assert_eq!(with(&|q| q.nonce = "abc".into()), Refused::Nonce);
        assert_eq!(with(&|q| q.nonce = "abc-defgh".into()), Refused::Nonce);
        assert_eq!(
            with(&|q| q.issued_at = "yesterday".into()),
            Refused::Time("issuedAt")
        );
        assert_eq!(
            check(&p, &expect("2026-01-01T00:05:01Z")).unwrap_err(),
            Refused::TooOld
        );
        assert_eq!(
            check(&p, &expect("2025-12-31T23:59:00Z")).unwrap_err(),
            Refused::Future
        );
        assert_eq!(
            with(&|q| q.expiration_time = Some("2026-01-01T00:00:30Z".into())),
            Refused::Expired
        );
        assert_eq!(
            with(&|q| q.not_before = Some("2026-01-01T00:02:00Z".into())),
            Refused::NotYet
        );
        assert!(matches!(decode("%%%"), Err(Refused::Malformed(_))));
    }

    #[test]
    fn optional_lines_follow_eip_4361() {
        let mut p = decode(HEADER).unwrap();
        p.statement = None;
        p.resources = None;
        p.expiration_time = Some("2026-01-01T00:05:00Z".into());
        p.request_id = Some("r1".into());
        let m = message(&p, p.address.parse().unwrap());
        assert!(
            m.contains("0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1\n\n\nURI: "),
            "{m}"
        );
        assert!(m.ends_with("Issued At: 2026-01-01T00:00:00.000Z\nExpiration Time: 2026-01-01T00:05:00Z\nRequest ID: r1"), "{m}");
    }

    #[test]
    fn the_declaration_names_our_site_and_chain() {
        let now = at("2026-11-24T10:00:00Z");
        let d = declare(
            "https://j.example",
            "https://j.example/api/pay/burn",
            4663,
            "n0nce123",
            &ts(&now),
            &ts(&(now + Duration::seconds(MAX_AGE_SECS))),
        );
        assert_eq!(d["info"]["domain"], "j.example");
        assert_eq!(d["info"]["uri"], "https://j.example/api/pay/burn");
        assert_eq!(d["info"]["issuedAt"], "2026-11-24T10:00:00Z");
        assert_eq!(d["info"]["expirationTime"], "2026-11-24T10:05:00Z");
        assert_eq!(
            d["supportedChains"],
            json!([{ "chainId": "eip155:4663", "type": "eip191" }])
        );
    }
}

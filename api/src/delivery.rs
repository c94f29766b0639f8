//! What a version 2 receipt binds besides the payment (docs/decisions.md, "Receipts"), computed
//! the same way by the service that signs and by anyone who checks, from the public API:
//!
//! - `responseHash`: SHA-256 of the answer's body, the bytes as delivered (before any content
//!   encoding);
//! - `auditHash`: SHA-256 of the journal's public `audit` object (`GET /journals/{slug}`) in
//!   its RFC 8785 (JCS) form: keys sorted, no whitespace, numbers as ECMAScript writes them;
//! - `sourcesHash`: SHA-256 of one line per cited entry, in the order of the journal's
//!   `evidence`: `<accession> <0x + SHA-256 of its source.says>\n`.
//!
//! Each hash is written `0x` and 64 lower-case hex digits.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::AuditSummary;

/// `0x` and the SHA-256 of `bytes` in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(66);
    out.push_str("0x");
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// `responseHash` of a body as delivered.
pub fn response_hash(body: &[u8]) -> String {
    sha256_hex(body)
}

/// `auditHash` of the public audit summary.
pub fn audit_hash(audit: &AuditSummary) -> String {
    let value = serde_json::to_value(audit).unwrap_or(Value::Null);
    sha256_hex(canonical(&value).as_bytes())
}

/// `sourcesHash` of the cited entries, each `(accession, source.says)`, in citation order.
pub fn sources_hash<'a>(cited: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut lines = String::new();
    for (accession, says) in cited {
        lines.push_str(accession);
        lines.push(' ');
        lines.push_str(&sha256_hex(says.as_bytes()));
        lines.push('\n');
    }
    sha256_hex(lines.as_bytes())
}

/// The RFC 8785 (JCS) form of `v`: object keys sorted by their UTF-16 code units, no
/// whitespace, strings escaped as JSON requires and no more, numbers as ECMAScript's
/// `Number.prototype.toString` writes them (for the finite numbers JSON can hold).
pub fn canonical(v: &Value) -> String {
    let mut out = String::new();
    write(v, &mut out);
    out
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Null | Value::Bool(_) | Value::String(_) => {
            out.push_str(&serde_json::to_string(v).unwrap_or_default())
        }
        Value::Number(n) => out.push_str(&number(n)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                if let Some(item) = map.get(k) {
                    write(item, out);
                }
            }
            out.push('}');
        }
    }
}

/// A number as ECMAScript writes it: integers without a fraction, others in the shortest form
/// that reads back the same (Rust's `{}` of an `f64`), exponents from 1e21 and below 1e-6.
fn number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return "0".into();
    }
    let abs = f.abs();
    if f.fract() == 0.0 && abs < 1e21 {
        return format!("{f:.0}");
    }
    if (1e-6..1e21).contains(&abs) {
        return format!("{f}");
    }
    // ECMAScript's exponent form: `1e+21`, `1.5e-7`.
    let s = format!("{f:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_canonical_form_is_jcs() {
        // RFC 8785's own example, section 3.2.3 (its numbers and strings).
        let v: Value = serde_json::from_str(
            r#"{
              "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
              "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
              "literals": [null, true, false]
            }"#,
        )
        .unwrap();
        assert_eq!(
            canonical(&v),
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}"
        );
        assert_eq!(
            canonical(&json!({"b": 87.0, "a": [1, -2.5]})),
            "{\"a\":[1,-2.5],\"b\":87}"
        );
    }

    #[test]
    fn hashes_are_written_the_same_way() {
        assert_eq!(
            response_hash(b""),
            "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let a = sources_hash([("NVDA-1", "says one"), ("NVDA-2", "says two")]);
        let b = sources_hash([("NVDA-2", "says two"), ("NVDA-1", "says one")]);
        assert_ne!(a, b, "citation order counts");
        let c = sources_hash([("NVDA-1", "says one!"), ("NVDA-2", "says two")]);
        assert_ne!(a, c, "one byte of a source counts");
        assert_eq!(a.len(), 66);
    }
}

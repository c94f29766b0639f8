//! Field-by-field checks of JSON answers against the interface: names and JSON types.

use serde_json::Value;

/// The JSON type a field must have. `Or` allows alternatives (e.g. a string or null).
#[derive(Clone, Copy, Debug)]
pub enum T {
    Str,
    Num,
    Int,
    Bool,
    Obj,
    Arr,
    StrOrNull,
    NumOrNull,
    BoolOrNull,
    IntOrNull,
}

fn matches(t: T, v: &Value) -> bool {
    match t {
        T::Str => v.is_string(),
        T::Num => v.is_number(),
        T::Int => v.is_i64() || v.is_u64(),
        T::Bool => v.is_boolean(),
        T::Obj => v.is_object(),
        T::Arr => v.is_array(),
        T::StrOrNull => v.is_string() || v.is_null(),
        T::NumOrNull => v.is_number() || v.is_null(),
        T::BoolOrNull => v.is_boolean() || v.is_null(),
        T::IntOrNull => v.is_i64() || v.is_u64() || v.is_null(),
    }
}

/// Asserts `v` is an object with exactly these fields, each of its type.
pub fn assert_shape(what: &str, v: &Value, fields: &[(&str, T)]) {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object: {v}"));
    for (name, t) in fields {
        let f = obj
            .get(*name)
            .unwrap_or_else(|| panic!("{what}: missing field {name} in {v}"));
        assert!(matches(*t, f), "{what}.{name} should be {t:?}, is {f}");
    }
    for k in obj.keys() {
        assert!(
            fields.iter().any(|(n, _)| n == k),
            "{what}: unexpected field {k}"
        );
    }
}

/// Asserts an error answer: `status` and a `{ "error": "<sentence>" }` body.
pub async fn assert_error_answer(resp: reqwest::Response, status: reqwest::StatusCode) {
    assert_eq!(resp.status(), status);
    assert_error_body(&resp.json().await.unwrap());
}

pub fn assert_error_body(v: &Value) {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("error body is not an object: {v}"));
    let msg = obj
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no error sentence: {v}"));
    assert!(msg.len() > 5, "error sentence too short: {msg:?}");
    for k in obj.keys() {
        assert!(
            k == "error" || k == "problems",
            "unexpected field {k} in error body"
        );
    }
}

pub const JOURNAL_LIST_ITEM: &[(&str, T)] = &[
    ("journalId", T::Int),
    ("slug", T::Str),
    ("url", T::Str),
    ("company", T::Obj),
    ("title", T::Str),
    ("preview", T::Str),
    ("author", T::Obj),
    ("priceUsdg", T::Num),
    ("priceUnits", T::Str),
    ("signatures", T::Int),
    ("readMinutes", T::Num),
    ("entriesCited", T::Num),
    ("auditScore", T::Num),
    ("readers", T::Num),
    ("votes", T::Obj),
    ("publishedAt", T::Str),
];

pub const COMPANY: &[(&str, T)] = &[("ticker", T::Str), ("name", T::Str)];
pub const AUTHOR: &[(&str, T)] = &[
    ("name", T::Str),
    ("wallet", T::StrOrNull),
    ("swarm", T::Bool),
];
pub const VOTES: &[(&str, T)] = &[("up", T::Num), ("down", T::Num)];

pub fn assert_list_item(v: &Value) {
    assert_shape("journal", v, JOURNAL_LIST_ITEM);
    assert_shape("journal.company", &v["company"], COMPANY);
    assert_shape("journal.author", &v["author"], AUTHOR);
    assert_shape("journal.votes", &v["votes"], VOTES);
}

pub fn journal_detail_fields() -> Vec<(&'static str, T)> {
    let mut f = JOURNAL_LIST_ITEM.to_vec();
    f.extend_from_slice(&[
        ("audit", T::Obj),
        ("evidence", T::Arr),
        ("covers", T::Obj),
        ("stockTokenPriceAtPublication", T::NumOrNull),
        ("authorHoldsStockToken", T::BoolOrNull),
        ("tokenId", T::IntOrNull),
        ("mintTx", T::StrOrNull),
        ("tokenFinal", T::Bool),
        ("contentHash", T::StrOrNull),
        ("unlocked", T::Bool),
        ("body", T::StrOrNull),
    ]);
    f
}

pub const AUDIT: &[(&str, T)] = &[
    ("verdict", T::Str),
    ("score", T::Num),
    ("summary", T::Str),
    ("issues", T::Arr),
];
pub const AUDIT_ISSUE: &[(&str, T)] =
    &[("severity", T::Str), ("check", T::Str), ("detail", T::Str)];
pub const EVIDENCE: &[(&str, T)] = &[
    ("n", T::Int),
    ("id", T::Str),
    ("date", T::Str),
    ("kind", T::Str),
    ("title", T::Str),
    ("source", T::Str),
    ("sourceUrl", T::Str),
    ("url", T::Str),
    // Extra: the entry's lines the journal's claims restate (docs/decisions.md, Publishing).
    ("quotes", T::Arr),
];
pub const COVERS: &[(&str, T)] = &[("from", T::Str), ("to", T::Str)];

pub const ENTRY_ROW: &[(&str, T)] = &[
    ("id", T::Str),
    ("ticker", T::Str),
    ("date_of_record", T::Str),
    ("kind", T::Str),
    ("desk", T::Str),
    ("title", T::Str),
    ("summary", T::Str),
    ("source_name", T::Str),
    ("canonical_url", T::Str),
    ("stamp", T::Str),
    ("merged", T::Int),
    ("story_title", T::StrOrNull),
    ("story_slug", T::StrOrNull),
    ("story_seq", T::IntOrNull),
    ("sitting_id", T::IntOrNull),
    ("filed_at", T::Str),
];

pub const ENTRY_DETAIL: &[(&str, T)] = &[
    ("id", T::Str),
    ("company", T::Obj),
    ("dateOfRecord", T::Str),
    ("kind", T::Str),
    ("desk", T::Str),
    ("title", T::Str),
    ("summary", T::Str),
    ("source", T::Obj),
    ("verified", T::Bool),
    ("story", T::StrOrNull),
    ("filedAt", T::Str),
    ("url", T::Str),
];
pub const ENTRY_SOURCE: &[(&str, T)] = &[("name", T::Str), ("url", T::Str), ("says", T::Str)];

pub const SEARCH_ROW: &[(&str, T)] = &[
    ("id", T::Str),
    ("date_of_record", T::Str),
    ("kind", T::Str),
    ("title", T::Str),
    ("summary", T::Str),
    ("source_name", T::Str),
];

pub const CONFIG: &[(&str, T)] = &[
    ("chainId", T::Int),
    ("usdg", T::Str),
    ("usdgDecimals", T::Int),
    ("permit2Proxy", T::Str),
    ("identityRegistry", T::Str),
    ("reputationRegistry", T::Str),
    ("paymentsOpen", T::Bool),
    ("wcProjectId", T::StrOrNull),
    ("origin", T::Str),
    ("receiptSigner", T::StrOrNull),
];

pub const SITTING: &[(&str, T)] = &[
    ("id", T::Int),
    ("date", T::Str),
    ("started_at", T::Str),
    ("finished_at", T::Str),
    ("note", T::Str),
    ("leads", T::Int),
    ("filed", T::Int),
    ("spend_usd", T::Num),
];
pub const LOG_LINE: &[(&str, T)] = &[
    ("ts", T::Str),
    ("desk", T::Str),
    ("level", T::Str),
    ("message", T::Str),
];

/// `GET /me/history`.
pub const HISTORY: &[(&str, T)] = &[
    ("address", T::Str),
    ("unlocks", T::Arr),
    ("votes", T::Arr),
    ("withdrawn", T::Arr),
];

/// `GET /health/ready`.
pub const READY: &[(&str, T)] = &[
    ("status", T::Str),
    ("database", T::Str),
    ("migrations", T::Str),
    ("chain", T::Str),
    ("chain_head", T::IntOrNull),
    ("facilitator", T::Str),
    ("actors", T::Str),
];

/// A 402 challenge (`PaymentRequired`), in the body and in the `payment-required` header.
pub const CHALLENGE: &[(&str, T)] = &[
    ("x402Version", T::Int),
    ("error", T::Str),
    ("accepts", T::Arr),
    ("resource", T::Obj),
    ("extensions", T::Obj),
];

/// An RFC 3339 timestamp.
pub fn is_timestamp(s: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(s).is_ok()
}

/// A `YYYY-MM-DD` date.
pub fn is_date(s: &str) -> bool {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok() && s.len() == 10
}

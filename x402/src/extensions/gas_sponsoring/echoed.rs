//! The info a client echoes back under `erc20ApprovalGasSponsoring`: read out of a payload, its
//! fields checked for form (the declaration's patterns) and against the payment.

use alloy::primitives::{Address, U256};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{FORMAT, KEY, Limits, Refusal, refuse};

/// What the client adds to the echoed `info` (next to the declaration's `description`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Info {
    pub from: String,
    pub asset: String,
    pub spender: String,
    pub amount: String,
    pub signed_transaction: String,
    pub version: String,
}

/// The approval a payload carries: `Ok(None)` without one (no extension, or the declaration
/// echoed back unsigned, as clients do when the allowance is already there), `Err` when the
/// client's fields are there but not all strings.
pub fn of(extensions: Option<&Value>) -> Result<Option<Info>, Refusal> {
    let Some(info) = extensions
        .and_then(|e| e.get(KEY))
        .and_then(|x| x.get("info"))
    else {
        return Ok(None);
    };
    const SIGNED: [&str; 5] = ["from", "asset", "spender", "amount", "signedTransaction"];
    if SIGNED
        .iter()
        .all(|k| info.get(k).is_none_or(Value::is_null))
    {
        return Ok(None);
    }
    serde_json::from_value(info.clone())
        .map(Some)
        .map_err(|e| refuse(FORMAT, format!("the {KEY} info is malformed: {e}")))
}

/// The fields' form (the declaration's patterns), then whether they name this payment's payer,
/// token and Permit2. Answers the signed transaction's hex, without its `0x`.
pub(super) fn check<'a>(
    info: &'a Info,
    payer: Address,
    limits: &Limits,
) -> Result<&'a str, Refusal> {
    let from = address(&info.from, "from")?;
    let asset = address(&info.asset, "asset")?;
    let spender = address(&info.spender, "spender")?;
    ensure!(
        is_decimal(&info.amount) && info.amount.parse::<U256>().is_ok(),
        FORMAT,
        "the approval amount must be a uint256 in decimal",
    );
    let hex = info
        .signed_transaction
        .strip_prefix("0x")
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| refuse(FORMAT, "the signed transaction must be 0x-prefixed hex"))?;
    ensure!(
        is_version(&info.version),
        FORMAT,
        "the version must be numbers separated by dots",
    );
    ensure!(
        from == payer,
        "erc20_approval_from_mismatch",
        format!("the approval is from {from}, but the payment is from {payer}"),
    );
    ensure!(
        asset == limits.token,
        "erc20_approval_asset_mismatch",
        format!("the approval is for {asset}, not the token paid with"),
    );
    ensure!(
        spender == limits.permit2,
        "erc20_approval_spender_not_permit2",
        format!("the approval's spender must be Permit2, not {spender}"),
    );
    Ok(hex)
}

/// `^0x[a-fA-F0-9]{40}$`, then the address (case-insensitive: no checksum is required).
fn address(s: &str, field: &str) -> Result<Address, Refusal> {
    s.strip_prefix("0x")
        .filter(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|_| s.parse::<Address>().ok())
        .ok_or_else(|| refuse(FORMAT, format!("the approval's {field} is not an address")))
}

/// `^[0-9]+$`
fn is_decimal(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `^[0-9]+(\.[0-9]+)*$`
fn is_version(s: &str) -> bool {
    s.split('.').all(is_decimal)
}

#[cfg(test)]
mod tests {
    use super::super::{check, declare, fixtures::*};
    use super::*;
    use serde_json::json;

    #[test]
    fn the_echoed_info_is_read() {
        let raw = sign(reference_tx(), &key());
        let mut echoed = serde_json::to_value(info(&raw)).unwrap();
        echoed["description"] = json!("The facilitator accepts …");
        let ext = json!({ KEY: { "info": echoed, "schema": declare()["schema"] } });
        assert_eq!(of(Some(&ext)), Ok(Some(info(&raw))));
        assert_eq!(of(None), Ok(None));
        assert_eq!(of(Some(&json!({}))), Ok(None));
        // The declaration echoed without an approval.
        assert_eq!(of(Some(&json!({ KEY: declare() }))), Ok(None));
        // Part of one, or a number where a string belongs.
        let partial = json!({ KEY: { "info": { "version": "1", "from": "0x01" } } });
        assert_eq!(of(Some(&partial)).unwrap_err().code, FORMAT);
        let mut bad = serde_json::to_value(info(&raw)).unwrap();
        bad["amount"] = json!(5);
        assert_eq!(
            of(Some(&json!({ KEY: { "info": bad } }))).unwrap_err().code,
            FORMAT
        );
    }

    #[test]
    fn malformed_fields_are_a_format_error() {
        let raw = sign(reference_tx(), &key());
        let cases: [fn(&mut Info); 8] = [
            |i| i.from = "0x1234".into(),
            |i| i.asset = "1111111111111111111111111111111111111111".into(),
            |i| i.spender = format!("{}zz", &i.spender[..40]),
            |i| i.amount = "-1".into(),
            |i| i.amount = format!("{}0", U256::MAX),
            |i| i.signed_transaction = "0x".into(),
            |i| i.signed_transaction = "02f8".into(),
            |i| i.version = "1.".into(),
        ];
        for (n, f) in cases.iter().enumerate() {
            let mut i = info(&raw);
            f(&mut i);
            let r = check(&i, key().address(), U256::ZERO, &limits());
            assert_eq!(code(r), FORMAT, "case {n}");
        }
        let mut i = info(&raw);
        i.version = "1.2.10".into();
        assert!(check(&i, key().address(), U256::ZERO, &limits()).is_ok());
    }

    #[test]
    fn the_info_must_match_the_payment() {
        let raw = sign(reference_tx(), &key());
        let payer = key().address();
        let mut i = info(&raw);
        i.from = Address::repeat_byte(9).to_string();
        assert_eq!(
            code(check(&i, payer, U256::ZERO, &limits())),
            "erc20_approval_from_mismatch"
        );
        let mut i = info(&raw);
        i.asset = Address::repeat_byte(9).to_string();
        assert_eq!(
            code(check(&i, payer, U256::ZERO, &limits())),
            "erc20_approval_asset_mismatch"
        );
        let mut i = info(&raw);
        i.spender = Address::repeat_byte(9).to_string();
        assert_eq!(
            code(check(&i, payer, U256::ZERO, &limits())),
            "erc20_approval_spender_not_permit2"
        );
    }
}

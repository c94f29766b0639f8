//! `erc20ApprovalGasSponsoring` (x402-extensions.md §3): a payer without a Permit2 allowance
//! and without gas signs, but does not send, `token.approve(Permit2, amount)`; the facilitator
//! funds the gas, broadcasts it, then settles. Pure: the checks on the echoed extension and
//! the signed transaction. What needs the chain (the nonce against
//! `eth_getTransactionCount(from, "pending")`, the payer's balance, the funding) is the
//! caller's.

use alloy::consensus::{SignableTransaction, TxEnvelope};
use alloy::eips::eip2718::{Decodable2718, Encodable2718};
use alloy::primitives::{Address, B256, Bytes, TxKind, U256};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::signature;

pub const KEY: &str = "erc20ApprovalGasSponsoring";
/// `approve(address,uint256)`.
pub const APPROVE_SELECTOR: [u8; 4] = [0x09, 0x5e, 0xa7, 0xb3];
/// Selector, spender word, amount word.
const APPROVE_CALLDATA_LEN: usize = 4 + 32 + 32;
/// The intrinsic gas of any transaction: less can never be mined.
const MIN_GAS: u64 = 21_000;
const EIP1559_TYPE: u8 = 2;

/// The declaration for a challenge's `extensions` (the reference `server.py` and `schema.py`).
pub fn declare() -> Value {
    const ADDRESS: &str = "^0x[a-fA-F0-9]{40}$";
    json!({
        "info": {
            "description": "The facilitator accepts a raw signed approval transaction and will sponsor the gas fees.",
            "version": "1"
        },
        "schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "from": {
                    "type": "string",
                    "pattern": ADDRESS,
                    "description": "The address of the sender."
                },
                "asset": {
                    "type": "string",
                    "pattern": ADDRESS,
                    "description": "The ERC-20 token contract address to approve."
                },
                "spender": {
                    "type": "string",
                    "pattern": ADDRESS,
                    "description": "The address of the spender (Canonical Permit2)."
                },
                "amount": {
                    "type": "string",
                    "pattern": "^[0-9]+$",
                    "description": "Approval amount (uint256)."
                },
                "signedTransaction": {
                    "type": "string",
                    "pattern": "^0x[a-fA-F0-9]+$",
                    "description": "RLP-encoded signed transaction calling ERC20.approve()."
                },
                "version": {
                    "type": "string",
                    "pattern": "^[0-9]+(\\.[0-9]+)*$",
                    "description": "Schema version identifier."
                }
            },
            "required": ["from", "asset", "spender", "amount", "signedTransaction", "version"]
        }
    })
}

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

/// Why a sponsored approval is refused, with the reference error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

const FORMAT: &str = "invalid_erc20_approval_extension_format";

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

/// What this facilitator allows a sponsored approval to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub chain_id: u64,
    /// The token being paid with: the only contract an approval may call.
    pub token: Address,
    pub permit2: Address,
    /// The most gas the approval may ask for (the reference clients ask 70000).
    pub max_gas: u64,
    /// The highest `maxFeePerGas` the sponsor funds, in wei.
    pub max_fee_per_gas: u128,
}

/// A checked approval, ready to be funded and broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    pub from: Address,
    /// Not checked here: the caller compares it with `eth_getTransactionCount(from, "pending")`
    /// (a lower one can never be mined; a higher one waits for a gap that may never fill).
    pub nonce: u64,
    pub gas_limit: u64,
    pub max_fee_per_gas: u128,
    pub max_priority_fee_per_gas: u128,
    /// The signed transaction as sent to `eth_sendRawTransaction`.
    pub raw: Bytes,
    pub hash: B256,
}

impl Approval {
    /// The most the sender can spend on gas: what the sponsor must make sure it holds.
    pub fn cost(&self) -> U256 {
        U256::from(self.gas_limit) * U256::from(self.max_fee_per_gas)
    }
}

/// Checks an approval against the payment it comes with: the reference facilitator's checks
/// (format, from, asset, spender, signer, target, selector, calldata spender), plus what it
/// leaves out and a sponsor must not: the chain, a zero value, the amount, gas and fee bounds.
pub fn check(
    info: &Info,
    payer: Address,
    required_amount: U256,
    limits: &Limits,
) -> Result<Approval, Refusal> {
    let from = address(&info.from, "from")?;
    let asset = address(&info.asset, "asset")?;
    let spender = address(&info.spender, "spender")?;
    if !is_decimal(&info.amount) || info.amount.parse::<U256>().is_err() {
        return Err(refuse(
            FORMAT,
            "the approval amount must be a uint256 in decimal",
        ));
    }
    let hex = info
        .signed_transaction
        .strip_prefix("0x")
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| refuse(FORMAT, "the signed transaction must be 0x-prefixed hex"))?;
    if !is_version(&info.version) {
        return Err(refuse(
            FORMAT,
            "the version must be numbers separated by dots",
        ));
    }
    if from != payer {
        return Err(refuse(
            "erc20_approval_from_mismatch",
            format!("the approval is from {from}, but the payment is from {payer}"),
        ));
    }
    if asset != limits.token {
        return Err(refuse(
            "erc20_approval_asset_mismatch",
            format!("the approval is for {asset}, not the token paid with"),
        ));
    }
    if spender != limits.permit2 {
        return Err(refuse(
            "erc20_approval_spender_not_permit2",
            format!("the approval's spender must be Permit2, not {spender}"),
        ));
    }

    const PARSE: &str = "erc20_approval_tx_parse_failed";
    let raw: Bytes = alloy::primitives::hex::decode(hex)
        .map_err(|_| refuse(PARSE, "the signed transaction is not whole bytes of hex"))?
        .into();
    if raw.first() != Some(&EIP1559_TYPE) {
        return Err(refuse(
            PARSE,
            "the signed transaction must be an EIP-1559 (type 2) transaction",
        ));
    }
    let signed = match TxEnvelope::decode_2718_exact(&raw) {
        Ok(TxEnvelope::Eip1559(signed)) => signed,
        Ok(_) => return Err(refuse(PARSE, "the signed transaction is not type 2")),
        Err(e) => {
            return Err(refuse(
                PARSE,
                format!("the signed transaction does not decode: {e}"),
            ));
        }
    };
    // Only the canonical encoding: the bytes broadcast are the bytes checked and hashed.
    if TxEnvelope::from(signed.clone()).encoded_2718() != raw.as_ref() {
        return Err(refuse(
            PARSE,
            "the signed transaction is not canonically encoded",
        ));
    }
    let tx = signed.tx();

    // Low s only: a node refuses the malleable copy anyway (EIP-2).
    let signer =
        signature::recover(&tx.signature_hash(), &signed.signature().as_bytes()).map_err(|e| {
            refuse(
                "erc20_approval_tx_invalid_signature",
                format!("the approval's signature does not recover: {e}"),
            )
        })?;
    if signer != payer {
        return Err(refuse(
            "erc20_approval_tx_signer_mismatch",
            format!("the approval is signed by {signer}, not the payer {payer}"),
        ));
    }
    if tx.chain_id != limits.chain_id {
        return Err(refuse(
            "erc20_approval_tx_wrong_chain",
            format!(
                "the approval is for chain {}, not chain {}",
                tx.chain_id, limits.chain_id
            ),
        ));
    }
    if tx.to != TxKind::Call(limits.token) {
        return Err(refuse(
            "erc20_approval_tx_wrong_target",
            "the approval transaction must call the token paid with",
        ));
    }
    if !tx.value.is_zero() {
        // The sponsor funds gas only; value would come out of that funding.
        return Err(refuse(
            "erc20_approval_tx_value_not_zero",
            "the approval transaction must send no ether",
        ));
    }
    let data = tx.input.as_ref();
    if !data.starts_with(&APPROVE_SELECTOR) {
        return Err(refuse(
            "erc20_approval_tx_wrong_selector",
            "the approval transaction must call approve(address,uint256)",
        ));
    }
    if data.len() != APPROVE_CALLDATA_LEN {
        return Err(refuse(
            "erc20_approval_tx_invalid_calldata",
            format!(
                "approve calldata must be {APPROVE_CALLDATA_LEN} bytes, not {}",
                data.len()
            ),
        ));
    }
    // The whole word: dirty high bytes make a strict ABI decoder revert.
    if data[4..36] != limits.permit2.into_word()[..] {
        return Err(refuse(
            "erc20_approval_tx_wrong_spender",
            "the approval transaction must approve Permit2",
        ));
    }
    let approved = U256::from_be_slice(&data[36..68]);
    if approved < required_amount {
        return Err(refuse(
            "erc20_approval_tx_amount_too_low",
            format!("the approval allows {approved}, less than the {required_amount} to pay"),
        ));
    }
    if tx.gas_limit < MIN_GAS || tx.gas_limit > limits.max_gas {
        return Err(refuse(
            "erc20_approval_tx_gas_out_of_bounds",
            format!(
                "the approval's gas limit {} must be between {MIN_GAS} and {}",
                tx.gas_limit, limits.max_gas
            ),
        ));
    }
    if tx.max_fee_per_gas > limits.max_fee_per_gas {
        return Err(refuse(
            "erc20_approval_tx_fee_out_of_bounds",
            format!(
                "the approval's max fee per gas {} is above the {} wei this facilitator sponsors",
                tx.max_fee_per_gas, limits.max_fee_per_gas
            ),
        ));
    }
    if tx.max_priority_fee_per_gas > tx.max_fee_per_gas {
        return Err(refuse(
            "erc20_approval_tx_fee_out_of_bounds",
            "the approval's priority fee is above its max fee per gas",
        ));
    }
    if !tx.access_list.is_empty() {
        // Gas the sponsor pays for nothing an approve needs.
        return Err(refuse(
            "erc20_approval_tx_has_access_list",
            "the approval transaction must have an empty access list",
        ));
    }
    Ok(Approval {
        from: payer,
        nonce: tx.nonce,
        gas_limit: tx.gas_limit,
        max_fee_per_gas: tx.max_fee_per_gas,
        max_priority_fee_per_gas: tx.max_priority_fee_per_gas,
        hash: *signed.hash(),
        raw,
    })
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
    use super::*;
    use alloy::consensus::{Signed, TxEip1559, TxEip2930, TxLegacy};
    use alloy::eips::eip2930::{AccessList, AccessListItem};
    use alloy::network::TxSignerSync;
    use alloy::primitives::{Signature, address};
    use alloy::signers::local::PrivateKeySigner;

    const CHAIN: u64 = 4663;
    const TOKEN: Address = address!("0x1111111111111111111111111111111111111111");
    const PERMIT2: Address = crate::canonical::PERMIT2;

    fn key() -> PrivateKeySigner {
        "0x0101010101010101010101010101010101010101010101010101010101010101"
            .parse()
            .unwrap()
    }

    fn limits() -> Limits {
        Limits {
            chain_id: CHAIN,
            token: TOKEN,
            permit2: PERMIT2,
            max_gas: 100_000,
            max_fee_per_gas: 10_000_000_000,
        }
    }

    fn calldata(spender: Address, amount: U256) -> Bytes {
        let mut d = APPROVE_SELECTOR.to_vec();
        d.extend_from_slice(spender.into_word().as_slice());
        d.extend_from_slice(&amount.to_be_bytes::<32>());
        d.into()
    }

    /// The transaction the reference clients sign (§3.2's decoded example).
    fn reference_tx() -> TxEip1559 {
        TxEip1559 {
            chain_id: CHAIN,
            nonce: 7,
            gas_limit: 70_000,
            max_fee_per_gas: 3_000_000_000,
            max_priority_fee_per_gas: 1_000_000_000,
            to: TxKind::Call(TOKEN),
            value: U256::ZERO,
            access_list: AccessList::default(),
            input: calldata(PERMIT2, U256::MAX),
        }
    }

    fn sign(mut tx: TxEip1559, by: &PrivateKeySigner) -> Bytes {
        let sig = by.sign_transaction_sync(&mut tx).unwrap();
        TxEnvelope::from(tx.into_signed(sig)).encoded_2718().into()
    }

    fn info(raw: &[u8]) -> Info {
        Info {
            from: key().address().to_string(),
            asset: TOKEN.to_string(),
            spender: PERMIT2.to_string(),
            amount: U256::MAX.to_string(),
            signed_transaction: alloy::primitives::hex::encode_prefixed(raw),
            version: "1".into(),
        }
    }

    fn check_tx(tx: TxEip1559) -> Result<Approval, Refusal> {
        check(
            &info(&sign(tx, &key())),
            key().address(),
            U256::from(10_000),
            &limits(),
        )
    }

    fn code(r: Result<Approval, Refusal>) -> &'static str {
        r.unwrap_err().code
    }

    #[test]
    fn the_reference_clients_approval_passes() {
        let raw = sign(reference_tx(), &key());
        assert_eq!(raw[0], 2);
        let a = check(&info(&raw), key().address(), U256::from(10_000), &limits()).unwrap();
        assert_eq!(a.from, key().address());
        assert_eq!(a.nonce, 7);
        assert_eq!(a.gas_limit, 70_000);
        assert_eq!(a.max_fee_per_gas, 3_000_000_000);
        assert_eq!(a.max_priority_fee_per_gas, 1_000_000_000);
        assert_eq!(a.raw, raw);
        assert_eq!(a.hash, alloy::primitives::keccak256(&raw));
        assert_eq!(a.cost(), U256::from(70_000u64 * 3_000_000_000));
        // Addresses in any case.
        let mut i = info(&raw);
        i.from = i.from.to_lowercase();
        i.spender = i.spender.to_uppercase().replacen("0X", "0x", 1);
        assert!(check(&i, key().address(), U256::from(10_000), &limits()).is_ok());
    }

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
    fn the_declaration_matches_the_reference() {
        let d = declare();
        assert_eq!(d["info"]["version"], "1");
        let schema = &d["schema"];
        assert_eq!(
            schema["required"],
            json!([
                "from",
                "asset",
                "spender",
                "amount",
                "signedTransaction",
                "version"
            ])
        );
        assert_eq!(
            schema["properties"]["version"]["pattern"],
            r"^[0-9]+(\.[0-9]+)*$"
        );
        assert_eq!(
            schema["properties"]["from"]["pattern"],
            "^0x[a-fA-F0-9]{40}$"
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

    #[test]
    fn only_a_whole_canonical_eip1559_transaction_parses() {
        let payer = key().address();
        let run = |raw: &[u8]| code(check(&info(raw), payer, U256::ZERO, &limits()));
        let parse = "erc20_approval_tx_parse_failed";

        let mut legacy = TxLegacy {
            chain_id: Some(CHAIN),
            nonce: 7,
            gas_price: 1_000_000_000,
            gas_limit: 70_000,
            to: TxKind::Call(TOKEN),
            value: U256::ZERO,
            input: calldata(PERMIT2, U256::MAX),
        };
        let sig = key().sign_transaction_sync(&mut legacy).unwrap();
        let raw = TxEnvelope::from(legacy.into_signed(sig)).encoded_2718();
        assert_eq!(run(&raw), parse);

        let mut t2930 = TxEip2930 {
            chain_id: CHAIN,
            nonce: 7,
            gas_price: 1_000_000_000,
            gas_limit: 70_000,
            to: TxKind::Call(TOKEN),
            value: U256::ZERO,
            access_list: AccessList::default(),
            input: calldata(PERMIT2, U256::MAX),
        };
        let sig = key().sign_transaction_sync(&mut t2930).unwrap();
        let raw = TxEnvelope::from(t2930.into_signed(sig)).encoded_2718();
        assert_eq!(run(&raw), parse);

        let good = sign(reference_tx(), &key());
        let mut junk = good.to_vec();
        junk.push(0);
        assert_eq!(run(&junk), parse);
        assert_eq!(run(&good[..good.len() - 1]), parse);
        assert_eq!(run(&[2, 0xc0]), parse);
        let mut odd = info(&good);
        odd.signed_transaction.push('0');
        assert_eq!(code(check(&odd, payer, U256::ZERO, &limits())), parse);
    }

    #[test]
    fn the_signature_must_recover_to_the_payer() {
        let tx = reference_tx();
        let sig = key().sign_transaction_sync(&mut tx.clone()).unwrap();
        // The malleable copy (high s) of a good signature.
        let n = U256::from_str_radix(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
            16,
        )
        .unwrap();
        let high = Signature::new(sig.r(), n - sig.s(), !sig.v());
        let hash = tx.signature_hash();
        let raw = TxEnvelope::from(Signed::new_unchecked(tx.clone(), high, hash)).encoded_2718();
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_invalid_signature"
        );
        let zero = Signature::new(U256::ZERO, U256::ZERO, false);
        let raw = TxEnvelope::from(Signed::new_unchecked(tx.clone(), zero, hash)).encoded_2718();
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_invalid_signature"
        );

        let other = PrivateKeySigner::random();
        let raw = sign(tx, &other);
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_signer_mismatch"
        );
    }

    #[test]
    fn the_transaction_must_be_a_plain_approve_of_permit2() {
        let with = |f: fn(&mut TxEip1559)| {
            let mut tx = reference_tx();
            f(&mut tx);
            code(check_tx(tx))
        };
        assert_eq!(with(|t| t.chain_id = 1), "erc20_approval_tx_wrong_chain");
        assert_eq!(
            with(|t| t.to = TxKind::Call(Address::repeat_byte(9))),
            "erc20_approval_tx_wrong_target"
        );
        assert_eq!(
            with(|t| t.to = TxKind::Create),
            "erc20_approval_tx_wrong_target"
        );
        assert_eq!(
            with(|t| t.value = U256::from(1)),
            "erc20_approval_tx_value_not_zero"
        );
        assert_eq!(
            with(|t| {
                let mut d = t.input.to_vec();
                d[0] = 0xa9;
                t.input = d.into();
            }),
            "erc20_approval_tx_wrong_selector"
        );
        assert_eq!(
            with(|t| t.input = Bytes::new()),
            "erc20_approval_tx_wrong_selector"
        );
        assert_eq!(
            with(|t| t.input = t.input.slice(..36)),
            "erc20_approval_tx_invalid_calldata"
        );
        assert_eq!(
            with(|t| t.input = [t.input.as_ref(), &[0u8; 32]].concat().into()),
            "erc20_approval_tx_invalid_calldata"
        );
        assert_eq!(
            with(|t| t.input = calldata(Address::repeat_byte(9), U256::MAX)),
            "erc20_approval_tx_wrong_spender"
        );
        assert_eq!(
            with(|t| {
                let mut d = t.input.to_vec();
                d[4] = 1; // a dirty high byte in the spender word
                t.input = d.into();
            }),
            "erc20_approval_tx_wrong_spender"
        );
        assert_eq!(
            with(|t| t.input = calldata(PERMIT2, U256::from(9_999))),
            "erc20_approval_tx_amount_too_low"
        );
        assert_eq!(
            with(|t| t.gas_limit = 100_001),
            "erc20_approval_tx_gas_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.gas_limit = 20_999),
            "erc20_approval_tx_gas_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.max_fee_per_gas = 10_000_000_001),
            "erc20_approval_tx_fee_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.max_priority_fee_per_gas = t.max_fee_per_gas + 1),
            "erc20_approval_tx_fee_out_of_bounds"
        );
        assert_eq!(
            with(|t| {
                t.access_list = AccessList(vec![AccessListItem {
                    address: TOKEN,
                    storage_keys: vec![B256::ZERO],
                }])
            }),
            "erc20_approval_tx_has_access_list"
        );
        // The bounds themselves pass, and so does the exact amount.
        assert!(
            check_tx(TxEip1559 {
                gas_limit: 100_000,
                max_fee_per_gas: 10_000_000_000,
                max_priority_fee_per_gas: 10_000_000_000,
                input: calldata(PERMIT2, U256::from(10_000)),
                ..reference_tx()
            })
            .is_ok()
        );
    }
}

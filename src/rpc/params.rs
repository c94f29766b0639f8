//! Canonical parameters for each allowed method: what the proxy forwards is what it checked.
//!
//! Go nodes (geth, Nitro) read JSON keys case-insensitively with the last one winning, and
//! accept block numbers and hashes in several spellings. So every parameter is parsed here and
//! written back in one spelling: hashes and addresses lower-case, quantities as minimal hex,
//! objects with exactly the members the method knows. The same canonical form keys the cache, so
//! spellings of one call share one entry. Pure functions, no I/O.

use serde_json::{Map, Value, json};

/// Limits on what a public call may ask of the node.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// `gas` of `eth_call` / `eth_estimateGas` is lowered to this, and set to it when absent.
    pub gas_cap: u64,
    /// `eth_feeHistory`'s block count is lowered to this.
    pub fee_history_blocks: u64,
    /// State reads at a block further than this below the head are refused (0: no limit).
    pub max_state_age: u64,
    /// The chain head as last seen, for `max_state_age`.
    pub head: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            gas_cap: 30_000_000,
            fee_history_blocks: 128,
            max_state_age: 0,
            head: None,
        }
    }
}

/// The members an `eth_call` / `eth_estimateGas` transaction object may have, spelled exactly.
const CALL_FIELDS: [&str; 16] = [
    "from",
    "to",
    "gas",
    "gasPrice",
    "maxFeePerGas",
    "maxPriorityFeePerGas",
    "maxFeePerBlobGas",
    "value",
    "nonce",
    "data",
    "input",
    "accessList",
    "type",
    "chainId",
    "blobVersionedHashes",
    "authorizationList",
];

const BLOCK_TAGS: [&str; 5] = ["latest", "earliest", "pending", "safe", "finalized"];

/// The canonical params of `method`, or why they are not acceptable (JSON-RPC -32602).
pub fn canonical(method: &str, params: &Value, limits: &Limits) -> Result<Value, String> {
    let items: &[Value] = match params {
        Value::Array(v) => v,
        Value::Object(m) if m.is_empty() => &[],
        Value::Object(_) => return Err("params must be an array (positional)".into()),
        _ => return Err("params must be an array".into()),
    };
    // Trailing nulls are the same as absent optional parameters.
    let mut items = items;
    while let [rest @ .., Value::Null] = items {
        items = rest;
    }
    let arity = |min: usize, max: usize| -> Result<(), String> {
        if items.len() < min || items.len() > max {
            Err(if min == max {
                format!("{method} takes {min} parameter(s), not {}", items.len())
            } else {
                format!(
                    "{method} takes {min} to {max} parameters, not {}",
                    items.len()
                )
            })
        } else {
            Ok(())
        }
    };
    let out: Vec<Value> = match method {
        "eth_chainId" | "eth_blockNumber" | "eth_gasPrice" | "eth_maxPriorityFeePerGas" => {
            arity(0, 0)?;
            Vec::new()
        }
        "eth_getBalance" | "eth_getCode" | "eth_getTransactionCount" => {
            arity(1, 2)?;
            let mut v = vec![json!(address(&items[0], "the address")?)];
            if let Some(b) = items.get(1) {
                v.push(state_block(b, limits)?);
            }
            v
        }
        "eth_getTransactionReceipt" | "eth_getTransactionByHash" => {
            arity(1, 1)?;
            vec![json!(hash(&items[0], "the transaction hash")?)]
        }
        "eth_getBlockByNumber" => {
            arity(1, 2)?;
            let full = match items.get(1) {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("the second parameter must be true or false".into()),
            };
            vec![block_tag_or_number(&items[0])?, json!(full)]
        }
        "eth_call" | "eth_estimateGas" => {
            if items.len() > 2 {
                return Err(format!(
                    "{method} with state or block overrides is not allowed by this proxy"
                ));
            }
            arity(1, 2)?;
            let mut v = vec![call_object(&items[0], limits)?];
            if let Some(b) = items.get(1) {
                v.push(state_block(b, limits)?);
            }
            v
        }
        "eth_feeHistory" => {
            arity(2, 3)?;
            let count = match &items[0] {
                Value::Number(n) => n.as_u64().ok_or("the block count must be a quantity")?,
                other => quantity(other).ok_or("the block count must be a quantity")?,
            };
            let mut v = vec![
                json!(format!("{:#x}", count.min(limits.fee_history_blocks))),
                block_tag_or_number(&items[1])?,
            ];
            if let Some(p) = items.get(2) {
                let list = p
                    .as_array()
                    .ok_or("the reward percentiles must be an array")?;
                if list.len() > 100 {
                    return Err("at most 100 reward percentiles".into());
                }
                if !list
                    .iter()
                    .all(|x| x.as_f64().is_some_and(|f| (0.0..=100.0).contains(&f)))
                {
                    return Err("reward percentiles are numbers from 0 to 100".into());
                }
                v.push(p.clone());
            }
            v
        }
        other => return Err(format!("the method {other} has no parameter rules")),
    };
    Ok(Value::Array(out))
}

/// A JSON-RPC quantity: `0x` and hex digits, no leading zero (as geth reads it).
pub fn quantity(v: &Value) -> Option<u64> {
    let s = v.as_str()?;
    let digits = s.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 16 || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

fn hex_bytes(v: &Value, len: usize, what: &str) -> Result<String, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("{what} must be a string"))?;
    let digits = s
        .strip_prefix("0x")
        .ok_or_else(|| format!("{what} must start with 0x"))?;
    if digits.len() != len * 2 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("{what} must be {len} bytes of hex"));
    }
    Ok(format!("0x{}", digits.to_ascii_lowercase()))
}

fn address(v: &Value, what: &str) -> Result<String, String> {
    hex_bytes(v, 20, what)
}

fn hash(v: &Value, what: &str) -> Result<String, String> {
    hex_bytes(v, 32, what)
}

/// A block number or tag, written canonically.
fn block_tag_or_number(v: &Value) -> Result<Value, String> {
    if let Some(tag) = v.as_str().filter(|s| BLOCK_TAGS.contains(s)) {
        return Ok(json!(tag));
    }
    quantity(v)
        .map(|n| json!(format!("{n:#x}")))
        .ok_or_else(|| "a block must be a tag (latest, earliest, pending, safe, finalized) or a hex number without leading zeros".into())
}

/// The block of a state read: a number or tag, or an EIP-1898 object; old blocks refused.
fn state_block(v: &Value, limits: &Limits) -> Result<Value, String> {
    let (canonical, number) = match v {
        Value::Object(m) => {
            if let Some(k) = m
                .keys()
                .find(|k| !["blockNumber", "blockHash", "requireCanonical"].contains(&k.as_str()))
            {
                return Err(format!("the block object has an unknown member {k:?}"));
            }
            let mut out = Map::new();
            let mut number = None;
            match (m.get("blockNumber"), m.get("blockHash")) {
                (Some(n), None) => {
                    let n = block_tag_or_number(n)?;
                    number = block_number(&n);
                    out.insert("blockNumber".into(), n);
                }
                (None, Some(h)) => {
                    out.insert("blockHash".into(), json!(hash(h, "blockHash")?));
                    if let Some(r) = m.get("requireCanonical") {
                        let r = r
                            .as_bool()
                            .ok_or("requireCanonical must be true or false")?;
                        out.insert("requireCanonical".into(), json!(r));
                    }
                }
                _ => return Err("the block object needs blockNumber or blockHash".into()),
            }
            (Value::Object(out), number)
        }
        other => {
            let b = block_tag_or_number(other)?;
            let n = block_number(&b);
            (b, n)
        }
    };
    if let (Some(n), Some(head)) = (number, limits.head)
        && limits.max_state_age > 0
        && n.saturating_add(limits.max_state_age) < head
    {
        return Err(format!(
            "state older than {} blocks below the head is not served by this proxy",
            limits.max_state_age
        ));
    }
    Ok(canonical)
}

/// The number a canonical block names, when it names a fixed one (`earliest` is block 0).
fn block_number(b: &Value) -> Option<u64> {
    quantity(b).or((b.as_str() == Some("earliest")).then_some(0))
}

/// An `eth_call` / `eth_estimateGas` transaction: known members only, spelled exactly, with
/// `gas` at most the cap (and the cap when absent).
fn call_object(v: &Value, limits: &Limits) -> Result<Value, String> {
    let m = v
        .as_object()
        .ok_or("the first parameter must be a transaction object")?;
    let mut out = Map::new();
    for (k, val) in m {
        if !CALL_FIELDS.contains(&k.as_str()) {
            return Err(format!(
                "the transaction object has an unknown member {k:?}"
            ));
        }
        let val = match k.as_str() {
            "from" | "to" if !val.is_null() => json!(address(val, k)?),
            "gas" => {
                let g = quantity(val).ok_or("gas must be a hex quantity")?;
                json!(format!("{:#x}", g.min(limits.gas_cap)))
            }
            _ => val.clone(),
        };
        out.insert(k.clone(), val);
    }
    out.entry("gas")
        .or_insert_with(|| json!(format!("{:#x}", limits.gas_cap)));
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim() -> Limits {
        Limits {
            gas_cap: 1_000_000,
            fee_history_blocks: 64,
            max_state_age: 100,
            head: Some(1_000),
        }
    }

    #[test]
    fn hashes_and_addresses_are_lower_cased() {
        let h = format!("0x{}", "AB".repeat(32));
        let a = canonical("eth_getTransactionReceipt", &json!([h]), &lim()).unwrap();
        assert_eq!(a, json!([format!("0x{}", "ab".repeat(32))]));
        let b = canonical(
            "eth_getBalance",
            &json!([format!("0x{}", "Cd".repeat(20)), "latest"]),
            &lim(),
        )
        .unwrap();
        assert_eq!(b[0], json!(format!("0x{}", "cd".repeat(20))));
        assert!(canonical("eth_getTransactionReceipt", &json!(["0x12"]), &lim()).is_err());
    }

    #[test]
    fn block_numbers_have_one_spelling() {
        let a = canonical("eth_getBlockByNumber", &json!(["0x3e8"]), &lim()).unwrap();
        assert_eq!(a, json!(["0x3e8", false]));
        let b = canonical("eth_getBlockByNumber", &json!(["0x3E8", false]), &lim()).unwrap();
        assert_eq!(a, b);
        for bad in ["0x03e8", "1000", "LATEST", "0x", "0xg"] {
            assert!(
                canonical("eth_getBlockByNumber", &json!([bad, false]), &lim()).is_err(),
                "{bad}"
            );
        }
        assert!(canonical("eth_getBlockByNumber", &json!(["latest", 1]), &lim()).is_err());
    }

    #[test]
    fn calls_lose_unknown_members_overrides_and_excess_gas() {
        let to = format!("0x{}", "11".repeat(20));
        let c = canonical(
            "eth_call",
            &json!([{ "to": to, "data": "0x", "gas": "0xffffffff" }, "latest"]),
            &lim(),
        )
        .unwrap();
        assert_eq!(c[0]["gas"], json!("0xf4240"));
        let c = canonical("eth_estimateGas", &json!([{ "to": to }]), &lim()).unwrap();
        assert_eq!(c[0]["gas"], json!("0xf4240"));
        let e = canonical(
            "eth_call",
            &json!([{ "to": to, "GAS": "0xffffffff" }, "latest"]),
            &lim(),
        )
        .unwrap_err();
        assert!(e.contains("GAS"), "{e}");
        let e = canonical("eth_call", &json!([{ "to": to }, "latest", {}]), &lim()).unwrap_err();
        assert!(e.contains("overrides"), "{e}");
        // A trailing null is an absent override.
        assert!(canonical("eth_call", &json!([{ "to": to }, "latest", null]), &lim()).is_ok());
    }

    #[test]
    fn old_state_is_refused() {
        let a = format!("0x{}", "11".repeat(20));
        let balance_at =
            |block: Value, limits: &Limits| canonical("eth_getBalance", &json!([a, block]), limits);
        assert!(balance_at(json!("0x384"), &lim()).is_ok()); // 900
        assert!(balance_at(json!("0x383"), &lim()).is_err()); // 899
        assert!(balance_at(json!("earliest"), &lim()).is_err());
        assert!(balance_at(json!({ "blockNumber": "0x1" }), &lim()).is_err());
        assert!(balance_at(json!({ "blockNumber": "earliest" }), &lim()).is_err());
        let unlimited = Limits {
            max_state_age: 0,
            ..lim()
        };
        assert!(balance_at(json!("0x1"), &unlimited).is_ok());
        assert!(balance_at(json!({ "BLOCKHASH": "0x1" }), &lim()).is_err());
    }

    #[test]
    fn fee_history_is_capped() {
        let f = canonical("eth_feeHistory", &json!(["0x400", "latest", [50]]), &lim()).unwrap();
        assert_eq!(f, json!(["0x40", "latest", [50]]));
        let f = canonical("eth_feeHistory", &json!([10, "latest"]), &lim()).unwrap();
        assert_eq!(f[0], json!("0xa"));
        let many: Vec<u32> = (0..101).collect();
        assert!(canonical("eth_feeHistory", &json!(["0x1", "latest", many]), &lim()).is_err());
    }

    #[test]
    fn arity_and_shapes() {
        assert_eq!(
            canonical("eth_blockNumber", &json!([]), &lim()).unwrap(),
            json!([])
        );
        assert!(canonical("eth_blockNumber", &json!([1]), &lim()).is_err());
        assert!(canonical("eth_blockNumber", &json!({ "a": 1 }), &lim()).is_err());
        assert!(canonical("eth_getCode", &json!([]), &lim()).is_err());
    }
}

//! What a challenge declares under `erc20ApprovalGasSponsoring`: the reference's description
//! and the JSON schema of the info a client sends back.

use serde_json::{Value, json};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}

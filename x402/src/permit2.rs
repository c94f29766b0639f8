//! The Permit2 witness transfer an x402 payer signs (protocols.md §2), and how it is hashed:
//! pure EIP-712, no chain access.

use alloy::primitives::{Address, B256, U256, keccak256};
use alloy::sol;
use alloy::sol_types::{Eip712Domain, SolStruct};

sol! {
    #[derive(Debug, PartialEq, Eq)]
    struct TokenPermissions { address token; uint256 amount; }

    #[derive(Debug, PartialEq, Eq)]
    struct Witness { address to; uint256 validAfter; }

    #[derive(Debug, PartialEq, Eq)]
    struct PermitWitnessTransferFrom {
        TokenPermissions permitted;
        address spender;
        uint256 nonce;
        uint256 deadline;
        Witness witness;
    }
}

/// The Permit2 domain: `EIP712Domain(string name,uint256 chainId,address verifyingContract)`.
pub fn domain(chain_id: u64, permit2: Address) -> Eip712Domain {
    Eip712Domain {
        name: Some("Permit2".into()),
        version: None,
        chain_id: Some(U256::from(chain_id)),
        verifying_contract: Some(permit2),
        salt: None,
    }
}

impl PermitWitnessTransferFrom {
    /// The digest the payer signs.
    pub fn signing_hash(&self, chain_id: u64, permit2: Address) -> B256 {
        self.eip712_signing_hash(&domain(chain_id, permit2))
    }
}

/// `keccak256("Witness(address to,uint256 validAfter)")`.
pub fn witness_type_hash() -> B256 {
    keccak256("Witness(address to,uint256 validAfter)")
}

/// The unordered-nonce bitmap position of a Permit2 nonce: (word, bit).
pub fn nonce_position(nonce: U256) -> (U256, usize) {
    (nonce >> 8, (nonce & U256::from(0xff)).to::<usize>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::b256;

    #[test]
    fn type_hashes_match_protocols_md() {
        assert_eq!(
            witness_type_hash(),
            b256!("0xd97b3239a7f32295517bd14cb074edfdd188dfe5eb42f802bb26d4fd1eb12c37")
        );
        let p = PermitWitnessTransferFrom {
            permitted: TokenPermissions {
                token: Address::ZERO,
                amount: U256::ZERO,
            },
            spender: Address::ZERO,
            nonce: U256::ZERO,
            deadline: U256::ZERO,
            witness: Witness {
                to: Address::ZERO,
                validAfter: U256::ZERO,
            },
        };
        assert_eq!(
            p.eip712_type_hash(),
            b256!("0xebc156cd23678a74c94df13d772ef5478420637f0c94bd10d509e1dc98f521c7")
        );
        assert_eq!(
            PermitWitnessTransferFrom::eip712_encode_type(),
            "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,uint256 validAfter)"
        );
    }

    #[test]
    fn nonce_positions() {
        assert_eq!(nonce_position(U256::from(0x1ff)), (U256::from(1), 0xff));
        assert_eq!(nonce_position(U256::from(3)), (U256::ZERO, 3));
    }
}

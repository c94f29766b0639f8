//! ERC-7739: signatures a contract wallet binds to itself. The owner signs the app's hash nested
//! in the wallet's own EIP-712 domain (its address and chain), so the signature is good for
//! that wallet only, never for the owner's key itself or for a second wallet of the same owner.
//! Here: the detection the service asks a payer's wallet, and the hashes a client signs for the
//! devnet's `SmartWallet` (`contracts/src/SmartWallet.sol`).

use alloy::primitives::{Address, B256, Bytes, U256, b256, keccak256};
use alloy::providers::Provider;
use alloy::sol_types::SolValue;

use crate::bindings::ISmartWallet;
use journal_market_x402::signature::SignatureError;

/// `isValidSignature(PROBE, "")` answers [`SUPPORTED`] from a wallet that implements ERC-7739.
pub const PROBE: B256 = b256!("0x7739773977397739773977397739773977397739773977397739773977397739");
pub const SUPPORTED: [u8; 4] = [0x77, 0x39, 0x00, 0x01];

/// Whether the wallet says it binds signatures to itself. A revert, an empty or another answer
/// is "no"; only a chain that cannot be asked is an error.
pub async fn binds_signatures<P: Provider>(
    provider: &P,
    wallet: Address,
    gas: u64,
) -> Result<bool, SignatureError> {
    let answer = ISmartWallet::new(wallet, provider)
        .isValidSignature(PROBE, Bytes::new())
        .gas(gas)
        .call()
        .await;
    match answer {
        Ok(magic) => Ok(magic.0 == SUPPORTED),
        Err(alloy::contract::Error::TransportError(e)) => match crate::client::ChainError::of(&e) {
            c if c.reverted() || c.out_of_gas() => Ok(false),
            c => Err(SignatureError::Chain(c.to_string())),
        },
        Err(_) => Ok(false),
    }
}

/// The EIP-712 domain separator of the devnet's `SmartWallet` at `wallet` ("SmartWallet", "1").
pub fn smart_wallet_domain(wallet: Address, chain_id: u64) -> B256 {
    keccak256(
        (
            keccak256(
                "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
            ),
            keccak256("SmartWallet"),
            keccak256("1"),
            U256::from(chain_id),
            wallet,
        )
            .abi_encode(),
    )
}

/// What the owner signs for `hash` in ERC-7739's PersonalSign form (a 65-byte signature the
/// wallet accepts for `hash`, and no other wallet does).
pub fn personal_sign_hash(wallet_domain: B256, hash: B256) -> B256 {
    let inner = keccak256((keccak256("PersonalSign(bytes prefixed)"), hash).abi_encode());
    eip712(wallet_domain, inner)
}

/// ERC-7739's TypedDataSign form for an app's typed data: the hash the owner signs, and what
/// follows the owner's 65-byte signature (`appDomain ‖ contents ‖ contentsType ‖ u16 len`).
/// `contents_type` is the app's full type string, its primary type first (implicit mode).
pub fn typed_data_sign(
    wallet: Address,
    chain_id: u64,
    app_domain: B256,
    contents: B256,
    contents_type: &str,
) -> (B256, Vec<u8>) {
    let name = contents_type.split('(').next().unwrap_or_default();
    let typehash = keccak256(format!(
        "TypedDataSign({name} contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt){contents_type}"
    ));
    let fields = (
        typehash,
        contents,
        keccak256("SmartWallet"),
        keccak256("1"),
        U256::from(chain_id),
        wallet,
        B256::ZERO,
    );
    let signed = eip712(app_domain, keccak256(fields.abi_encode()));
    let mut tail = Vec::with_capacity(66 + contents_type.len());
    tail.extend_from_slice(app_domain.as_slice());
    tail.extend_from_slice(contents.as_slice());
    tail.extend_from_slice(contents_type.as_bytes());
    tail.extend_from_slice(&(contents_type.len() as u16).to_be_bytes());
    (signed, tail)
}

fn eip712(domain: B256, struct_hash: B256) -> B256 {
    let mut buf = [0u8; 66];
    buf[..2].copy_from_slice(b"\x19\x01");
    buf[2..34].copy_from_slice(domain.as_slice());
    buf[34..].copy_from_slice(struct_hash.as_slice());
    keccak256(buf)
}

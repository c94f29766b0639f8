//! Who signed a message, as far as the signature alone says: hex parsing, ECDSA recovery with
//! the checks of protocols.md §4 (65 bytes, v in {0,1,27,28}, low s), the malleability-free key
//! of a signature, and the EIP-6492 wrapper's shape. Contract wallets (ERC-1271, EIP-6492's
//! deploy, ERC-7739) need the chain: `journal_market_chain::signature` asks it, with these
//! errors.

use alloy::primitives::{Address, B256, Bytes, U256, b256};
use alloy::sol_types::SolValue;

/// The 32-byte suffix of an EIP-6492 wrapped signature.
pub const MAGIC_6492: B256 =
    b256!("0x6492649264926492649264926492649264926492649264926492649264926492");
/// The secp256k1 group order.
const N: U256 = U256::from_limbs([
    0xbfd25e8cd0364141,
    0xbaaedce6af48a03b,
    0xfffffffffffffffe,
    0xffffffffffffffff,
]);
/// Half the secp256k1 order: signatures with a larger `s` are malleable copies.
const HALF_N: U256 = U256::from_limbs([
    0xdfe92f46681b20a0,
    0x5d576e7357a4501d,
    0xffffffffffffffff,
    0x7fffffffffffffff,
]);

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignatureError {
    #[error("the signature is not valid hex")]
    NotHex,
    #[error("the signature must be 65 bytes, not {0}")]
    Length(usize),
    #[error("the signature's v must be 0, 1, 27 or 28")]
    BadV,
    #[error("the signature has a high s value (a malleable copy)")]
    HighS,
    #[error("the signature does not recover to the address")]
    WrongSigner,
    #[error("the wallet contract rejected the signature")]
    ContractRejected,
    #[error("the chain could not be asked to check a contract wallet's signature: {0}")]
    Chain(String),
    #[error(
        "the wallet contract does not bind signatures to its own address (ERC-7739), so an \
         owner's signature over the bare permit could pay from another wallet: sign the \
         wallet's replay-safe hash with a wallet that supports it"
    )]
    NotReplaySafe,
    #[error(
        "a permit's signature cannot be EIP-6492 wrapped: Permit2 checks it onchain as given, \
         so the wallet must be deployed and sign plainly"
    )]
    Wrapped6492,
    #[error("the EIP-6492 wrapper cannot be read")]
    Bad6492,
}

pub fn parse_hex(s: &str) -> Result<Bytes, SignatureError> {
    let s = s.trim();
    if !s.starts_with("0x") {
        return Err(SignatureError::NotHex);
    }
    s.parse::<Bytes>().map_err(|_| SignatureError::NotHex)
}

/// ECDSA recovery with the checks of protocols.md: 65 bytes, v in {0,1,27,28}, low s.
pub fn recover(hash: &B256, sig: &[u8]) -> Result<Address, SignatureError> {
    if sig.len() != 65 {
        return Err(SignatureError::Length(sig.len()));
    }
    let parity = match sig[64] {
        0 | 27 => false,
        1 | 28 => true,
        _ => return Err(SignatureError::BadV),
    };
    let s = U256::from_be_slice(&sig[32..64]);
    if s > HALF_N {
        return Err(SignatureError::HighS);
    }
    // libsecp256k1: about five times faster than the pure-Rust curve here (a sign-in-with-x
    // re-read is one recovery per request).
    use secp256k1::ecdsa::{RecoverableSignature, RecoveryId};
    static SECP: std::sync::LazyLock<secp256k1::Secp256k1<secp256k1::VerifyOnly>> =
        std::sync::LazyLock::new(secp256k1::Secp256k1::verification_only);
    let id = RecoveryId::try_from(i32::from(parity)).map_err(|_| SignatureError::BadV)?;
    let key = RecoverableSignature::from_compact(&sig[..64], id)
        .and_then(|rs| SECP.recover_ecdsa(&secp256k1::Message::from_digest(hash.0), &rs))
        .map_err(|_| SignatureError::WrongSigner)?;
    Ok(Address::from_raw_public_key(
        &key.serialize_uncompressed()[1..],
    ))
}

/// A key for a signature that is the same for its malleable forms: 65 bytes with a low `s`
/// and `v` as 27/28 (a 64-byte EIP-2098 signature is expanded first); other signatures (a
/// contract wallet's own format) as they are. What a payment row's unique key is made of.
pub fn key(sig: &[u8]) -> B256 {
    let canonical = match sig.len() {
        64 => {
            let mut out = [0u8; 65];
            out[..32].copy_from_slice(&sig[..32]);
            out[32..64].copy_from_slice(&sig[32..64]);
            out[32] &= 0x7f;
            out[64] = 27 + (sig[32] >> 7);
            Some(out)
        }
        65 => {
            let mut out = [0u8; 65];
            out.copy_from_slice(sig);
            let mut parity = match sig[64] {
                0 | 27 => 0u8,
                1 | 28 => 1,
                _ => return alloy::primitives::keccak256(sig),
            };
            let s = U256::from_be_slice(&sig[32..64]);
            if s > HALF_N {
                out[32..64].copy_from_slice(&(N - s).to_be_bytes::<32>());
                parity ^= 1;
            }
            out[64] = 27 + parity;
            Some(out)
        }
        _ => None,
    };
    match canonical {
        Some(c) => alloy::primitives::keccak256(c),
        None => alloy::primitives::keccak256(sig),
    }
}

/// Whether `sig` is an EIP-6492 wrapped signature (of a wallet not yet deployed).
pub fn is_6492(sig: &[u8]) -> bool {
    sig.len() >= 32 && sig[sig.len() - 32..] == MAGIC_6492[..]
}

/// Wraps a signature of a not-yet-deployed wallet: `abi.encode(factory, calldata, sig) ++ magic`.
pub fn wrap_6492(factory: Address, factory_calldata: Bytes, sig: Bytes) -> Bytes {
    let mut out = (factory, factory_calldata, sig).abi_encode_params();
    out.extend_from_slice(MAGIC_6492.as_slice());
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::eip191_hash_message;
    use alloy::signers::SignerSync;
    use alloy::signers::local::PrivateKeySigner;

    #[test]
    fn recovers_with_every_v_form_and_rejects_high_s() {
        let signer = PrivateKeySigner::random();
        let hash = eip191_hash_message("hello");
        let sig = signer.sign_hash_sync(&hash).unwrap();
        let mut bytes = sig.as_bytes().to_vec();
        assert_eq!(recover(&hash, &bytes).unwrap(), signer.address());
        bytes[64] -= 27;
        assert_eq!(
            recover(&hash, &bytes).unwrap(),
            signer.address(),
            "v as 0/1"
        );
        bytes[64] = 29;
        assert_eq!(recover(&hash, &bytes), Err(SignatureError::BadV));

        // The malleable twin (n - s, flipped v) recovers the same key but is refused.
        let n = U256::from_str_radix(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
            16,
        )
        .unwrap();
        let high_s = n - sig.s();
        let mut twin = sig.as_bytes().to_vec();
        twin[32..64].copy_from_slice(&high_s.to_be_bytes::<32>());
        twin[64] = if sig.v() { 27 } else { 28 };
        assert_eq!(recover(&hash, &twin), Err(SignatureError::HighS));

        assert_eq!(recover(&hash, &[0u8; 64]), Err(SignatureError::Length(64)));
        assert_eq!(parse_hex("zz"), Err(SignatureError::NotHex));
        assert_eq!(parse_hex("0xzz"), Err(SignatureError::NotHex));
    }
}

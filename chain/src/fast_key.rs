//! Private keys that sign with libsecp256k1 instead of the pure-Rust curve: the same
//! signatures (RFC 6979 nonces, low `s`), several times faster. The relayer signs a
//! transaction for every payment and the receipt key a receipt; both were a visible share of a
//! purchase's CPU.

use std::sync::LazyLock;

use alloy::signers::k256::ecdsa::signature::Error as SignError;
use alloy::signers::k256::ecdsa::signature::hazmat::PrehashSigner;
use alloy::signers::k256::ecdsa::{RecoveryId, Signature};
use alloy::signers::local::{LocalSigner, PrivateKeySigner};
use secp256k1::{Message, Secp256k1, SecretKey, SignOnly};

static SECP: LazyLock<Secp256k1<SignOnly>> = LazyLock::new(Secp256k1::signing_only);

/// A secret key held for libsecp256k1.
#[derive(Clone)]
pub struct FastKey(SecretKey);

impl std::fmt::Debug for FastKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FastKey(..)")
    }
}

impl PrehashSigner<(Signature, RecoveryId)> for FastKey {
    fn sign_prehash(&self, prehash: &[u8]) -> Result<(Signature, RecoveryId), SignError> {
        let digest: [u8; 32] = prehash.try_into().map_err(SignError::from_source)?;
        let (id, compact) = SECP
            .sign_ecdsa_recoverable(&Message::from_digest(digest), &self.0)
            .serialize_compact();
        let signature = Signature::from_slice(&compact).map_err(SignError::from_source)?;
        let id = RecoveryId::from_byte(i32::from(id) as u8)
            .ok_or_else(|| SignError::from_source("the recovery id is out of range"))?;
        Ok((signature, id))
    }
}

/// A signer whose key signs with libsecp256k1.
pub type FastSigner = LocalSigner<FastKey>;

/// `key` as a [`FastSigner`]: same address, same chain id, same signatures. A key k256
/// accepted is a valid secp256k1 scalar, so the error is only there to say so.
pub fn fast(key: &PrivateKeySigner) -> Result<FastSigner, secp256k1::Error> {
    let bytes: [u8; 32] = key.credential().to_bytes().into();
    let secret = SecretKey::from_byte_array(&bytes)?;
    Ok(LocalSigner::new_with_credential(
        FastKey(secret),
        key.address(),
        key.chain_id(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::keccak256;
    use alloy::signers::SignerSync;

    #[test]
    fn signs_exactly_as_the_pure_rust_key() {
        for i in 0..32u8 {
            let key = PrivateKeySigner::random();
            let hash = keccak256([i; 40]);
            let ours = fast(&key).unwrap().sign_hash_sync(&hash).unwrap();
            assert_eq!(ours, key.sign_hash_sync(&hash).unwrap());
            assert_eq!(
                ours.recover_address_from_prehash(&hash).unwrap(),
                key.address()
            );
        }
    }
}

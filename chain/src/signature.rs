//! Who signed a message: ECDSA by the address's own key, else EIP-6492 (a wallet not yet
//! deployed), else ERC-1271 (a contract wallet) (protocols.md §4); and who may pay with a
//! permit ([`verify_payer`]): a contract wallet only with a signature bound to itself.

use alloy::primitives::{Address, B256, Bytes, U256, b256, eip191_hash_message};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolValue;

use crate::bindings::ISmartWallet;
use crate::client::{ChainError, short_to};
use crate::{artifacts, erc7739};

/// The 32-byte suffix of an EIP-6492 wrapped signature.
pub const MAGIC_6492: B256 =
    b256!("0x6492649264926492649264926492649264926492649264926492649264926492");
/// Gas allowed to a wallet's signature check (ERC-1271, or EIP-6492's deploy and check) unless
/// the caller says otherwise: a wallet that burns more is refused rather than waited for. The
/// check runs on the service's node for whoever sends a signature, so it is kept small (a tenth
/// of the 3M it was): the devnet wallet's ERC-7739 check, and EIP-6492's deploy of its clone
/// and check, fit in it (tests/api/auth.rs, tests/api/edge.rs).
pub const SIGNATURE_GAS: u64 = 300_000;
/// The most characters of a node's error text that [`SignatureError::Chain`] carries.
const CHAIN_ERROR_CHARS: usize = 160;
/// The secp256k1 group order.
const N: U256 = U256::from_limbs([
    0xbfd25e8cd0364141,
    0xbaaedce6af48a03b,
    0xfffffffffffffffe,
    0xffffffffffffffff,
]);
/// `isValidSignature` answers this for a valid signature.
const ERC1271_OK: [u8; 4] = [0x16, 0x26, 0xba, 0x7e];

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

impl SignatureError {
    /// A failed call to the chain, its text shortened (it may carry a provider's URL).
    fn chain(e: impl std::fmt::Display) -> SignatureError {
        SignatureError::Chain(short_to(&e.to_string(), CHAIN_ERROR_CHARS))
    }
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

/// Checks `sig` over `hash` for `signer`, asking the chain only when it must: an ECDSA signature
/// by the address's own key proves control without a call, so EOAs sign in while the chain is
/// down. Otherwise: an EIP-6492 wrapper runs its factory only for a wallet without code (a
/// deployed wallet checks the signature inside it with ERC-1271); a wallet with code answers
/// ERC-1271. A contract's check gets at most `gas`; running out of it is a rejection.
pub async fn verify_hash<P: Provider>(
    provider: &P,
    signer: Address,
    hash: B256,
    sig: &[u8],
    gas: u64,
) -> Result<(), SignatureError> {
    let wrapped = is_6492(sig);
    let ecdsa = recover(&hash, sig);
    if !wrapped && ecdsa.as_ref() == Ok(&signer) {
        return Ok(());
    }
    let deployed = has_code(provider, signer).await?;
    if wrapped {
        if !deployed {
            let call = deployless_6492(signer, hash, sig)?.gas_limit(gas);
            return match provider.call(call).await {
                Ok(out) if out.as_ref() == [1u8] => Ok(()),
                Ok(_) => Err(SignatureError::ContractRejected),
                Err(e) => Err(rejected_or_unknown(&e)),
            };
        }
        return erc1271(provider, signer, hash, &unwrap_6492(sig)?, gas).await;
    }
    if deployed {
        return erc1271(provider, signer, hash, sig, gas).await;
    }
    match ecdsa {
        Ok(_) => Err(SignatureError::WrongSigner),
        Err(e) => Err(e),
    }
}

/// Whether `from` signed a permit over `hash`, as Permit2 will judge it onchain, plus the rule
/// Permit2 lacks: its digest does not name the owner, so a contract wallet that accepts its
/// owner's plain ECDSA signature over the bare digest would also accept that owner's own
/// permit, reposted with `from` set to the wallet. A contract payer's ECDSA-shaped signature
/// (64 or 65 bytes) is therefore accepted only from a wallet that says it binds signatures to
/// its own address (ERC-7739's detection); longer signatures (a nested ERC-7739 signature, a
/// multisig's) are the wallet's to judge.
pub async fn verify_payer<P: Provider>(
    provider: &P,
    from: Address,
    hash: B256,
    sig: &[u8],
    gas: u64,
) -> Result<(), SignatureError> {
    if is_6492(sig) {
        return Err(SignatureError::Wrapped6492);
    }
    let ecdsa = recover(&hash, sig);
    if ecdsa.as_ref() == Ok(&from) {
        return Ok(());
    }
    if !has_code(provider, from).await? {
        return Err(ecdsa.err().unwrap_or(SignatureError::WrongSigner));
    }
    if matches!(sig.len(), 64 | 65) && !erc7739::binds_signatures(provider, from, gas).await? {
        return Err(SignatureError::NotReplaySafe);
    }
    erc1271(provider, from, hash, sig, gas).await
}

async fn has_code<P: Provider>(provider: &P, address: Address) -> Result<bool, SignatureError> {
    let code = provider
        .get_code_at(address)
        .await
        .map_err(SignatureError::chain)?;
    Ok(!code.is_empty())
}

/// The wallet's ERC-1271 answer for `sig` over `hash`, in at most `gas`.
async fn erc1271<P: Provider>(
    provider: &P,
    wallet: Address,
    hash: B256,
    sig: &[u8],
    gas: u64,
) -> Result<(), SignatureError> {
    let answer = ISmartWallet::new(wallet, provider)
        .isValidSignature(hash, Bytes::copy_from_slice(sig))
        .gas(gas)
        .call()
        .await;
    match answer {
        Ok(magic) if magic.0 == ERC1271_OK => Ok(()),
        // Not the magic value: nothing, or bytes that are not a bytes4.
        Ok(_)
        | Err(alloy::contract::Error::ZeroData(..))
        | Err(alloy::contract::Error::AbiError(_)) => Err(SignatureError::ContractRejected),
        Err(alloy::contract::Error::TransportError(e)) => Err(rejected_or_unknown(&e)),
        Err(e) => Err(SignatureError::chain(e)),
    }
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

/// A personal_sign signature over `message`.
pub async fn verify_message<P: Provider>(
    provider: &P,
    signer: Address,
    message: &str,
    sig: &[u8],
    gas: u64,
) -> Result<(), SignatureError> {
    verify_hash(provider, signer, eip191_hash_message(message), sig, gas).await
}

/// The call of the deployless EIP-6492 validator: its constructor runs in an `eth_call` with no
/// `to`, deploys the wallet through the factory if needed, checks ERC-1271 and returns one byte,
/// 1 when the signature holds.
fn deployless_6492(
    signer: Address,
    hash: B256,
    sig: &[u8],
) -> Result<TransactionRequest, SignatureError> {
    let mut code = artifacts::bytecode("UniversalSigValidator")
        .map_err(|e| SignatureError::Chain(e.to_string()))?
        .to_vec();
    code.extend_from_slice(&(signer, hash, Bytes::copy_from_slice(sig)).abi_encode_params());
    Ok(TransactionRequest::default().input(Bytes::from(code).into()))
}

/// A failed call: a revert is the wallet's (or the validator's) answer, so the signature is
/// rejected; anything else (a transport failure, or a node error such as a provider's rate
/// limit) means the chain could not be asked: no verdict (503, not 401).
fn rejected_or_unknown(e: &alloy::transports::TransportError) -> SignatureError {
    match ChainError::of(e) {
        // Running out of the gas it was given is the wallet's doing, as a revert is.
        c if c.reverted() || c.out_of_gas() => SignatureError::ContractRejected,
        c => SignatureError::Chain(c.to_string()),
    }
}

/// The signature inside an EIP-6492 wrapper: `abi.decode(sig[..len-32], (address, bytes, bytes))`.
fn unwrap_6492(sig: &[u8]) -> Result<Vec<u8>, SignatureError> {
    let body = &sig[..sig.len() - 32];
    let (_, _, inner) =
        <(Address, Bytes, Bytes)>::abi_decode_params(body).map_err(|_| SignatureError::Bad6492)?;
    Ok(inner.to_vec())
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

    #[test]
    fn only_a_revert_rejects_a_contract_signature() {
        use alloy::rpc::json_rpc::ErrorPayload;
        use alloy::transports::{RpcError, TransportErrorKind};
        let answer = |code, message: &str| {
            RpcError::ErrorResp(ErrorPayload {
                code,
                message: message.to_string().into(),
                data: None,
            })
        };
        assert_eq!(
            rejected_or_unknown(&answer(3, "execution reverted")),
            SignatureError::ContractRejected
        );
        assert_eq!(
            rejected_or_unknown(&answer(-32000, "execution reverted: bad sig")),
            SignatureError::ContractRejected
        );
        assert_eq!(
            rejected_or_unknown(&answer(-32000, "out of gas")),
            SignatureError::ContractRejected
        );
        assert!(matches!(
            rejected_or_unknown(&answer(-32005, "rate limit exceeded")),
            SignatureError::Chain(_)
        ));
        assert!(matches!(
            rejected_or_unknown(&TransportErrorKind::custom_str("connection reset")),
            SignatureError::Chain(_)
        ));
    }
}

//! Who signed a message: ECDSA by the address's own key, else EIP-6492 (a wallet not yet
//! deployed), else ERC-1271 (a contract wallet) (protocols.md §4); and who may pay with a
//! permit ([`verify_payer`]): a contract wallet only with a signature bound to itself. What the
//! signature alone says (recovery, its key, the wrapper's shape) is `journal_market_x402`'s.

use alloy::primitives::{Address, B256, Bytes, eip191_hash_message};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionRequest;
use alloy::sol_types::SolValue;

use journal_market_x402::signature::{SignatureError, is_6492, recover};

use crate::bindings::ISmartWallet;
use crate::client::{ChainError, short_to};
use crate::{artifacts, erc7739};

/// Gas allowed to a wallet's signature check (ERC-1271, or EIP-6492's deploy and check) unless
/// the caller says otherwise: a wallet that burns more is refused rather than waited for. The
/// check runs on the service's node for whoever sends a signature, so it is kept small (a tenth
/// of the 3M it was): the devnet wallet's ERC-7739 check, and EIP-6492's deploy of its clone
/// and check, fit in it (tests/api/auth.rs, tests/api/edge.rs).
pub const SIGNATURE_GAS: u64 = 300_000;
/// The most characters of a node's error text that [`SignatureError::Chain`] carries.
const CHAIN_ERROR_CHARS: usize = 160;
/// `isValidSignature` answers this for a valid signature.
const ERC1271_OK: [u8; 4] = [0x16, 0x26, 0xba, 0x7e];

/// A failed call to the chain, its text shortened (it may carry a provider's URL).
fn chain_error(e: impl std::fmt::Display) -> SignatureError {
    SignatureError::Chain(short_to(&e.to_string(), CHAIN_ERROR_CHARS))
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
    let code = provider.get_code_at(address).await.map_err(chain_error)?;
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
        Err(e) => Err(chain_error(e)),
    }
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
    let mut code = artifacts::universal_sig_validator()
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

#[cfg(test)]
mod tests {
    use super::*;

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

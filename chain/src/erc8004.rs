//! The ERC-8004 identity registry as publishing reads it: what a registration transaction
//! proves, and a token's URI.

use alloy::primitives::{Address, B256, U256};
use alloy::providers::{DynProvider, Provider};

use crate::bindings::IIdentityRegistry;
use crate::client::ChainError;

/// A mined, successful transaction and the tokens it minted on the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub from: Address,
    pub block: u64,
    pub block_hash: B256,
    /// `(to, tokenId)` of every `Transfer(0x0, to, id)` the registry logged.
    pub mints: Vec<(Address, U256)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistrationError {
    #[error("no transaction with this hash is known to the chain")]
    Unknown,
    #[error("the transaction is not mined yet; call again once it is")]
    Pending,
    #[error("the transaction reverted")]
    Reverted,
    #[error(transparent)]
    Chain(#[from] ChainError),
}

/// Reads the receipt of `tx` and the registry's mints in it.
pub async fn registration(
    provider: &DynProvider,
    registry: Address,
    tx: B256,
) -> Result<Registration, RegistrationError> {
    let receipt = provider
        .get_transaction_receipt(tx)
        .await
        .map_err(|e| ChainError::of(&e))?;
    let Some(receipt) = receipt else {
        let known = provider
            .get_transaction_by_hash(tx)
            .await
            .map_err(|e| ChainError::of(&e))?;
        return Err(match known {
            Some(_) => RegistrationError::Pending,
            None => RegistrationError::Unknown,
        });
    };
    if !receipt.status() {
        return Err(RegistrationError::Reverted);
    }
    let mints = receipt
        .inner
        .logs()
        .iter()
        .filter(|l| l.address() == registry)
        .filter_map(|l| l.log_decode::<IIdentityRegistry::Transfer>().ok())
        .map(|t| t.inner.data)
        .filter(|t| t.from == Address::ZERO)
        .map(|t| (t.to, t.tokenId))
        .collect();
    Ok(Registration {
        from: receipt.from,
        block: receipt.block_number.unwrap_or_default(),
        block_hash: receipt.block_hash.unwrap_or_default(),
        mints,
    })
}

/// The token `reg` minted to `author` whose tokenURI is `meta_url` (a journal's registration),
/// and the URIs of the others it minted to `author`.
pub async fn journal_token(
    provider: &DynProvider,
    registry: Address,
    reg: &Registration,
    author: Address,
    meta_url: &str,
) -> Result<(Option<U256>, Vec<String>), ChainError> {
    let mut others = Vec::new();
    for (_, id) in reg.mints.iter().filter(|(to, _)| *to == author) {
        let uri = token_uri(provider, registry, *id).await?;
        if uri == meta_url {
            return Ok((Some(*id), others));
        }
        others.push(uri);
    }
    Ok((None, others))
}

/// `tokenURI(id)` on the registry.
pub async fn token_uri(
    provider: &DynProvider,
    registry: Address,
    id: U256,
) -> Result<String, ChainError> {
    IIdentityRegistry::new(registry, provider)
        .tokenURI(id)
        .call()
        .await
        .map_err(ChainError::of_call)
}

/// The balance of `owner` in an ERC-20 (a stock token).
pub async fn balance_of(
    provider: &DynProvider,
    token: Address,
    owner: Address,
) -> Result<U256, ChainError> {
    crate::bindings::IERC20::new(token, provider)
        .balanceOf(owner)
        .call()
        .await
        .map_err(ChainError::of_call)
}

/// A transaction hash as an API client sends it.
pub fn parse_tx_hash(s: &str) -> Option<B256> {
    let s = s.trim();
    (s.len() == 66 && s.starts_with("0x"))
        .then(|| s.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_hashes_are_66_hex_characters() {
        let h = format!("0x{}", "ab".repeat(32));
        assert!(parse_tx_hash(&h).is_some());
        assert!(parse_tx_hash(&h[..65]).is_none());
        assert!(parse_tx_hash(&format!("0x{}", "zz".repeat(32))).is_none());
        assert!(parse_tx_hash(&"ab".repeat(33)).is_none());
    }
}

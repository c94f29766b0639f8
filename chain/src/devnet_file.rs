//! `data/devnet.json`: the dev chain's RPC, contracts and accounts, as the devnet tool
//! (`journal-market-devnet`) wrote them. The product reads it as configuration
//! (`chain.devnet_file`); deploying and seeding are the devnet crate's.

use std::collections::BTreeMap;

use alloy::network::EthereumWallet;
use alloy::primitives::Address;
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::signers::local::PrivateKeySigner;
use serde::{Deserialize, Serialize};

/// The devnet's receipt-signing key (holds nothing; receipts only need a stable signer).
pub const RECEIPT_KEY: &str = "0x7265636569707473207369676e6564206279206a6f75726e616c2d6d61726b74";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StockContracts {
    pub token: Address,
    pub price_feed: Address,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Contracts {
    pub usdg: Address,
    pub permit2: Address,
    pub permit2_proxy: Address,
    pub identity_registry: Address,
    pub reputation_registry: Address,
    pub weth: Address,
    pub token: Address,
    pub pool: Address,
    pub fee_locker: Address,
    pub wallet_factory: Address,
    pub stock_tokens: BTreeMap<String, StockContracts>,
    /// The ETH / USD price feed (8 decimals) the token ledger values its figures with.
    #[serde(default)]
    pub eth_usd_feed: Address,
}

#[derive(Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub role: String,
    pub address: Address,
    pub private_key: String,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Account({} {})", self.role, self.address)
    }
}

impl Account {
    pub fn signer(&self) -> anyhow::Result<PrivateKeySigner> {
        Ok(self.private_key.parse()?)
    }
}

/// `data/devnet.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Devnet {
    pub rpc_url: String,
    pub chain_id: u64,
    pub contracts: Contracts,
    pub accounts: Vec<Account>,
}

impl Devnet {
    pub fn accounts(&self, role: &str) -> Vec<&Account> {
        self.accounts.iter().filter(|a| a.role == role).collect()
    }

    /// The first account of `role`.
    pub fn account(&self, role: &str) -> anyhow::Result<&Account> {
        self.accounts
            .iter()
            .find(|a| a.role == role)
            .ok_or_else(|| anyhow::anyhow!("the devnet has no {role} account"))
    }

    /// A provider that signs with `account`.
    pub fn provider_for(&self, account: &Account) -> anyhow::Result<DynProvider> {
        wallet_provider(&self.rpc_url, account.signer()?)
    }

    pub fn load(path: &std::path::Path) -> anyhow::Result<Devnet> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not valid: {e}", path.display()))
    }
}

/// A provider that signs with `signer`.
pub fn wallet_provider(rpc_url: &str, signer: PrivateKeySigner) -> anyhow::Result<DynProvider> {
    Ok(ProviderBuilder::new()
        .wallet(EthereumWallet::from(signer))
        .connect_http(rpc_url.parse()?)
        .erased())
}

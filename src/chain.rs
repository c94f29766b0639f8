//! The chain as configured: addresses parsed once at start, the devnet file applied, and the
//! readiness targets the ChainWatch actor checks.

use std::collections::HashMap;
use std::time::Duration;

use alloy::primitives::Address;
use journal_market_actors::chain_watch::ChainTargets;
use journal_market_chain::devnet::Devnet;

use crate::config::{Secret, Settings, StockTokenSettings};

/// Addresses of the contracts the service uses.
#[derive(Debug, Clone)]
pub struct ChainAddresses {
    pub usdg: Address,
    pub permit2: Address,
    pub permit2_proxy: Address,
    pub identity_registry: Address,
    pub reputation_registry: Address,
    pub price_feeds: HashMap<String, Address>,
    pub stock_tokens: HashMap<String, Address>,
    pub ledger: Option<LedgerContracts>,
}

/// The token ledger's contracts: set when the community token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerContracts {
    pub token: Address,
    pub pool: Address,
    pub fee_locker: Option<Address>,
    pub weth: Address,
}

fn optional(name: &str, s: &str) -> anyhow::Result<Option<Address>> {
    match s.trim() {
        "" => Ok(None),
        v => parse(name, v).map(Some),
    }
}

fn parse(name: &str, s: &str) -> anyhow::Result<Address> {
    s.parse()
        .map_err(|_| anyhow::anyhow!("chain.{name} is not an address: {s:?}"))
}

impl ChainAddresses {
    pub fn from_settings(s: &Settings) -> anyhow::Result<Self> {
        let c = &s.chain;
        let mut price_feeds = HashMap::new();
        let mut stock_tokens = HashMap::new();
        for (ticker, t) in &c.stock_tokens {
            price_feeds.insert(
                ticker.clone(),
                parse(&format!("stock_tokens.{ticker}.price_feed"), &t.price_feed)?,
            );
            stock_tokens.insert(
                ticker.clone(),
                parse(&format!("stock_tokens.{ticker}.token"), &t.token)?,
            );
        }
        let ledger = match optional("token", &c.token)? {
            None => None,
            Some(token) => Some(LedgerContracts {
                token,
                pool: parse("pool", &c.pool)?,
                fee_locker: optional("fee_locker", &c.fee_locker)?,
                weth: parse("weth", &c.weth)?,
            }),
        };
        if let Some(feed) = optional("eth_usd_feed", &c.eth_usd_feed)? {
            price_feeds.insert(ETH.to_string(), feed);
        }
        Ok(ChainAddresses {
            ledger,
            usdg: parse("usdg", &c.usdg)?,
            permit2: parse("permit2", &c.permit2)?,
            permit2_proxy: parse("permit2_proxy", &c.permit2_proxy)?,
            identity_registry: parse("identity_registry", &c.identity_registry)?,
            reputation_registry: parse("reputation_registry", &c.reputation_registry)?,
            price_feeds,
            stock_tokens,
        })
    }

    /// What must hold for the chain to count as ready.
    pub fn targets(&self, s: &Settings) -> ChainTargets {
        ChainTargets {
            chain_id: s.chain.chain_id,
            contracts: vec![
                ("USDG".into(), self.usdg),
                ("Permit2".into(), self.permit2),
                ("the x402 Permit2 proxy".into(), self.permit2_proxy),
                ("the identity registry".into(), self.identity_registry),
                ("the reputation registry".into(), self.reputation_registry),
            ],
            call_timeout: Duration::from_millis(s.chain.rpc_timeout_ms),
        }
    }
}

pub fn rpc_urls(s: &Settings) -> Vec<String> {
    s.chain
        .rpc_urls
        .iter()
        .map(|u| u.expose().to_string())
        .collect()
}

/// The public proxy's upstreams: `chain.proxy_rpc_urls`, or the service's own when empty.
pub fn proxy_rpc_urls(s: &Settings) -> Vec<String> {
    if s.chain.proxy_rpc_urls.is_empty() {
        return rpc_urls(s);
    }
    s.chain
        .proxy_rpc_urls
        .iter()
        .map(|u| u.expose().to_string())
        .collect()
}

/// The "ticker" of the ETH / USD feed among the quotes.
pub const ETH: &str = "ETH";

/// Points the settings at a devnet: its RPC, its contracts and its stock tokens.
pub fn apply_devnet(s: &mut Settings, d: &Devnet) {
    let c = &d.contracts;
    s.chain.chain_id = d.chain_id;
    s.chain.rpc_urls = vec![Secret::new(d.rpc_url.clone())];
    s.chain.usdg = c.usdg.to_string();
    s.chain.permit2 = c.permit2.to_string();
    s.chain.permit2_proxy = c.permit2_proxy.to_string();
    s.chain.identity_registry = c.identity_registry.to_string();
    s.chain.reputation_registry = c.reputation_registry.to_string();
    s.chain.token = c.token.to_string();
    s.chain.pool = c.pool.to_string();
    s.chain.fee_locker = c.fee_locker.to_string();
    s.chain.weth = c.weth.to_string();
    s.chain.eth_usd_feed = if c.eth_usd_feed.is_zero() {
        String::new()
    } else {
        c.eth_usd_feed.to_string()
    };
    if let Some(b) = d.accounts.iter().find(|a| a.role == "buyback") {
        s.payments.buyback_wallet = b.address.to_checksum(None);
    }
    if let Some(r) = d.accounts.iter().find(|a| a.role == "relayer") {
        s.payments.relayer_key = Secret::new(r.private_key.clone());
    }
    // The sponsor's key of its own (a devnet file from before it had one sponsors nothing).
    if s.payments.sponsor.key.expose().trim().is_empty()
        && let Some(a) = d.accounts.iter().find(|a| a.role == "sponsor")
    {
        s.payments.sponsor.key = Secret::new(a.private_key.clone());
    }
    if s.payments.receipt_key.expose().trim().is_empty() {
        s.payments.receipt_key = Secret::new(journal_market_chain::devnet::RECEIPT_KEY);
    }
    s.chain.stock_tokens = c
        .stock_tokens
        .iter()
        .map(|(t, sc)| {
            (
                t.clone(),
                StockTokenSettings {
                    token: sc.token.to_string(),
                    price_feed: sc.price_feed.to_string(),
                },
            )
        })
        .collect();
}

/// Applies `chain.devnet_file` when it is set.
pub fn apply_devnet_file(s: &mut Settings) -> anyhow::Result<()> {
    if s.chain.devnet_file.trim().is_empty() {
        return Ok(());
    }
    let d = Devnet::load(std::path::Path::new(&s.chain.devnet_file))?;
    apply_devnet(s, &d);
    Ok(())
}

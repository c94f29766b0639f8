//! The chain as configured: addresses parsed once at start, the devnet file applied, and the
//! readiness targets the ChainWatch actor checks.

use std::collections::HashMap;
use std::time::Duration;

use alloy::primitives::Address;
use journal_market_actors::chain_watch::ChainTargets;
use journal_market_chain::devnet_file::Devnet;

use crate::config::{Key, Secret, Settings, StockTokenSettings};

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

/// A contract the ledger needs once the token is set.
fn needed(name: &str, a: Option<Address>) -> anyhow::Result<Address> {
    a.ok_or_else(|| anyhow::anyhow!("chain.{name} is needed with chain.token"))
}

impl ChainAddresses {
    pub fn from_settings(s: &Settings) -> anyhow::Result<Self> {
        let c = &s.chain;
        let mut price_feeds = HashMap::new();
        let mut stock_tokens = HashMap::new();
        for (ticker, t) in &c.stock_tokens {
            price_feeds.insert(ticker.clone(), t.price_feed);
            stock_tokens.insert(ticker.clone(), t.token);
        }
        let ledger = match c.token {
            None => None,
            Some(token) => Some(LedgerContracts {
                token,
                pool: needed("pool", c.pool)?,
                fee_locker: c.fee_locker,
                weth: needed("weth", c.weth)?,
            }),
        };
        if let Some(feed) = c.eth_usd_feed {
            price_feeds.insert(ETH.to_string(), feed);
        }
        Ok(ChainAddresses {
            ledger,
            usdg: c.usdg,
            permit2: c.permit2,
            permit2_proxy: c.permit2_proxy,
            identity_registry: c.identity_registry,
            reputation_registry: c.reputation_registry,
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

/// Points the settings at a devnet: its RPC, its contracts, its keys and its stock tokens.
pub fn apply_devnet(s: &mut Settings, d: &Devnet) -> anyhow::Result<()> {
    let c = &d.contracts;
    s.chain.chain_id = d.chain_id;
    s.chain.rpc_urls = vec![Secret::new(d.rpc_url.clone())];
    s.chain.usdg = c.usdg;
    s.chain.permit2 = c.permit2;
    s.chain.permit2_proxy = c.permit2_proxy;
    s.chain.identity_registry = c.identity_registry;
    s.chain.reputation_registry = c.reputation_registry;
    s.chain.token = Some(c.token);
    s.chain.pool = Some(c.pool);
    s.chain.fee_locker = Some(c.fee_locker);
    s.chain.weth = Some(c.weth);
    // A zero feed is one the devnet has none of.
    s.chain.eth_usd_feed = (!c.eth_usd_feed.is_zero()).then_some(c.eth_usd_feed);
    if let Some(b) = d.accounts.iter().find(|a| a.role == "buyback") {
        s.payments.buyback_wallet = Some(b.address);
    }
    if let Some(r) = d.accounts.iter().find(|a| a.role == "relayer") {
        s.payments.relayer_key = r.signer()?.into();
    }
    // The sponsor's key of its own (a devnet file from before it had one sponsors nothing).
    if s.payments.sponsor.key.signer().is_none()
        && let Some(a) = d.accounts.iter().find(|a| a.role == "sponsor")
    {
        s.payments.sponsor.key = a.signer()?.into();
    }
    if s.payments.receipt_key.signer().is_none() {
        s.payments.receipt_key = Key::parse(journal_market_chain::devnet_file::RECEIPT_KEY)
            .map_err(|e| anyhow::anyhow!("the devnet's receipt key {e}"))?;
    }
    s.chain.stock_tokens = c
        .stock_tokens
        .iter()
        .map(|(t, sc)| {
            (
                t.clone(),
                StockTokenSettings {
                    token: sc.token,
                    price_feed: sc.price_feed,
                },
            )
        })
        .collect();
    Ok(())
}

/// Applies `chain.devnet_file` when it is set.
pub fn apply_devnet_file(s: &mut Settings) -> anyhow::Result<()> {
    if s.chain.devnet_file.trim().is_empty() {
        return Ok(());
    }
    let d = Devnet::load(std::path::Path::new(&s.chain.devnet_file))?;
    apply_devnet(s, &d)
}

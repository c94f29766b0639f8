//! Deploys the dev chain's contracts on a fresh anvil: USDG, Permit2 and the x402 proxy at their
//! canonical addresses, the ERC-8004 registries, stock tokens with price feeds, WETH, the
//! community token with its pool and fee locker, and the smart-wallet factory; funds the buyers
//! with USDG and approves Permit2 for them. The result is what `data/devnet.json` holds.

use std::collections::BTreeMap;

use alloy::network::TransactionBuilder;
use alloy::primitives::{Address, Bytes, U256, utils::parse_units};
use alloy::providers::{DynProvider, Provider};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::SolValue;
use journal_market_chain::bindings::{IERC20, IMintable, IPool, IWETH};
use journal_market_chain::devnet_file::{
    Account, Contracts, Devnet, StockContracts, wallet_provider,
};
use journal_market_x402::canonical;

use crate::artifacts;

/// anvil's default accounts (mnemonic "test test … junk"): public, for local chains only.
const DEV_KEYS: [&str; 10] = [
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
    "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
    "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
    "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
];

/// The devnet's gas sponsor (x402 `erc20ApprovalGasSponsoring`): a key of its own, so that
/// what it spends never holds up the relayer's settlements. Public, for local chains only.
pub const SPONSOR_KEY: &str = "0x73706f6e736f7273206761732066726f6d206a6f75726e616c2d6d61726b6574";
/// The sponsor's ether on a new devnet.
pub const SPONSOR_ETH: u64 = 10;

/// Roles of the dev accounts, by index into [`DEV_KEYS`].
const ROLES: [&str; 10] = [
    "deployer", "buyer", "buyer", "buyer", "author", "author", "buyback", "relayer", "buyer",
    "author",
];

/// Tickers with a stock token and their opening price in USD.
pub const STOCKS: [(&str, &str, f64); 6] = [
    ("NVDA", "NVIDIA Corporation", 181.42),
    ("TSLA", "Tesla, Inc.", 352.10),
    ("AAPL", "Apple Inc.", 229.87),
    ("MSFT", "Microsoft Corporation", 431.05),
    ("PLTR", "Palantir Technologies Inc.", 118.64),
    ("AMD", "Advanced Micro Devices, Inc.", 162.33),
];

/// USDG each buyer starts with, in whole USDG.
pub const BUYER_USDG: u64 = 10_000;
/// Price feeds answer with 8 decimals.
pub const FEED_DECIMALS: u8 = 8;

macro_rules! send {
    ($call:expr, $what:expr) => {{
        let receipt = $call.send().await?.get_receipt().await?;
        anyhow::ensure!(receipt.status(), "{} reverted", $what);
        receipt
    }};
}

/// Dev wallets made on demand, for tests and load runs.
pub trait Buyers {
    /// A new wallet with 100 ETH for gas, `usdg_units` base units of USDG, and USDG approved to
    /// Permit2: a buyer for load runs and tests.
    fn funded_buyer(
        &self,
        usdg_units: u64,
    ) -> impl std::future::Future<Output = anyhow::Result<PrivateKeySigner>> + Send;

    /// A new wallet that holds `usdg_units` USDG and nothing else: no gas, no Permit2
    /// allowance (a first purchase needs a sponsored approval).
    fn usdg_only_buyer(
        &self,
        usdg_units: u64,
    ) -> impl std::future::Future<Output = anyhow::Result<PrivateKeySigner>> + Send;
}

impl Buyers for Devnet {
    async fn funded_buyer(&self, usdg_units: u64) -> anyhow::Result<PrivateKeySigner> {
        let w = PrivateKeySigner::random();
        let deployer = self.provider_for(self.account("deployer")?)?;
        deployer
            .raw_request::<_, ()>(
                "anvil_setBalance".into(),
                (w.address(), U256::from(10u128.pow(20))),
            )
            .await?;
        send!(
            IMintable::new(self.contracts.usdg, &deployer)
                .mint(w.address(), U256::from(usdg_units)),
            "minting USDG"
        );
        send!(
            IERC20::new(
                self.contracts.usdg,
                wallet_provider(&self.rpc_url, w.clone())?
            )
            .approve(self.contracts.permit2, U256::MAX),
            "approving Permit2"
        );
        Ok(w)
    }

    async fn usdg_only_buyer(&self, usdg_units: u64) -> anyhow::Result<PrivateKeySigner> {
        let w = PrivateKeySigner::random();
        let deployer = self.provider_for(self.account("deployer")?)?;
        send!(
            IMintable::new(self.contracts.usdg, &deployer)
                .mint(w.address(), U256::from(usdg_units)),
            "minting USDG"
        );
        Ok(w)
    }
}

/// Deploys the artifact `name` with its encoded constructor arguments; its address.
pub async fn deploy_code(p: &DynProvider, name: &str, args: Vec<u8>) -> anyhow::Result<Address> {
    let mut code = artifacts::bytecode(name)?.to_vec();
    code.extend_from_slice(&args);
    let tx = TransactionRequest::default().with_deploy_code(Bytes::from(code));
    let receipt = p.send_transaction(tx).await?.get_receipt().await?;
    anyhow::ensure!(receipt.status(), "deploying {name} reverted");
    receipt
        .contract_address
        .ok_or_else(|| anyhow::anyhow!("deploying {name} created no contract"))
}

/// Puts `name`'s runtime code at `at` (how Permit2 and the proxy reach their canonical address).
async fn set_code(p: &DynProvider, name: &str, at: Address) -> anyhow::Result<()> {
    let code = artifacts::deployed_bytecode(name)?;
    p.raw_request::<_, ()>("anvil_setCode".into(), (at, code))
        .await?;
    Ok(())
}

fn usdg_units(whole: u64) -> U256 {
    U256::from(whole) * U256::from(1_000_000u64)
}

/// Deploys everything on the anvil at `rpc_url` (which must be fresh: addresses follow from
/// the deployer's nonce, so the same steps give the same addresses every time).
pub async fn deploy(rpc_url: &str) -> anyhow::Result<Devnet> {
    let mut accounts: Vec<Account> = DEV_KEYS
        .iter()
        .zip(ROLES)
        .map(|(key, role)| {
            let signer: PrivateKeySigner = key.parse()?;
            Ok(Account {
                role: role.to_string(),
                address: signer.address(),
                private_key: key.to_string(),
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let deployer = &accounts[0];
    let p = wallet_provider(rpc_url, deployer.signer()?)?;
    let chain_id = p.get_chain_id().await?;

    let usdg = deploy_code(&p, "USDG", Vec::new()).await?;
    // Permit2 and the proxy keep no constructor state, so their runtime code works anywhere.
    set_code(&p, "Permit2", canonical::PERMIT2).await?;
    set_code(&p, "X402ExactPermit2Proxy", canonical::X402_PERMIT2_PROXY).await?;
    let identity = deploy_code(&p, "IdentityRegistry", Vec::new()).await?;
    let reputation = deploy_code(&p, "ReputationRegistry", identity.abi_encode()).await?;
    let wallet_factory = deploy_code(&p, "SmartWalletFactory", Vec::new()).await?;

    let mut stock_tokens = BTreeMap::new();
    for (ticker, name, price) in STOCKS {
        let token = deploy_code(
            &p,
            "StockToken",
            (format!("{name} (tokenized)"), ticker.to_string()).abi_encode_params(),
        )
        .await?;
        let answer = alloy::primitives::I256::try_from((price * 1e8).round() as i64)?;
        let feed = deploy_code(
            &p,
            "PriceFeed",
            (format!("{ticker} / USD"), answer).abi_encode_params(),
        )
        .await?;
        stock_tokens.insert(
            ticker.to_string(),
            StockContracts {
                token,
                price_feed: feed,
            },
        );
    }

    // The community token and its WETH pool, with liquidity, and the creator's fee locker.
    let weth = deploy_code(&p, "WETH", Vec::new()).await?;
    let token = deploy_code(
        &p,
        "CommunityToken",
        ("Dove".to_string(), "DOVE".to_string()).abi_encode_params(),
    )
    .await?;
    let pool = deploy_code(
        &p,
        "Pool",
        (
            token,
            weth,
            alloy::primitives::aliases::U24::from(10_000u32),
        )
            .abi_encode_params(),
    )
    .await?;
    let fee_locker = deploy_code(
        &p,
        "FeeLocker",
        (pool, deployer.address, U256::from(8000u64)).abi_encode_params(),
    )
    .await?;
    let weth_in: U256 = parse_units("50", 18)?.into();
    let token_in: U256 = parse_units("100000000", 18)?.into();
    send!(
        IWETH::new(weth, &p).deposit().value(weth_in),
        "WETH deposit"
    );
    send!(
        IERC20::new(weth, &p).approve(pool, U256::MAX),
        "WETH approve"
    );
    send!(
        IERC20::new(token, &p).approve(pool, U256::MAX),
        "token approve"
    );
    let pool_c = IPool::new(pool, &p);
    let (a0, a1) = if pool_c.token0().call().await? == token {
        (token_in, weth_in)
    } else {
        (weth_in, token_in)
    };
    send!(pool_c.addLiquidity(a0, a1), "addLiquidity");

    // Buyers: USDG and a standing Permit2 approval. Authors: a little of every stock token.
    let usdg_c = IMintable::new(usdg, &p);
    for a in accounts.iter().filter(|a| a.role == "buyer") {
        send!(usdg_c.mint(a.address, usdg_units(BUYER_USDG)), "USDG mint");
        let bp = wallet_provider(rpc_url, a.signer()?)?;
        send!(
            IERC20::new(usdg, &bp).approve(canonical::PERMIT2, U256::MAX),
            "Permit2 approve"
        );
    }
    for a in accounts.iter().filter(|a| a.role == "author").take(1) {
        for s in stock_tokens.values() {
            let amount: U256 = parse_units("10", 18)?.into();
            send!(
                IMintable::new(s.token, &p).mint(a.address, amount),
                "stock mint"
            );
        }
    }

    // Dev accounts that hold the community token; the ETH / USD feed.
    for a in accounts
        .iter()
        .filter(|a| a.role == "buyer" || a.role == "buyback")
    {
        let amount: U256 = parse_units("1000000", 18)?.into();
        send!(
            IERC20::new(token, &p).transfer(a.address, amount),
            "DOVE transfer"
        );
        send!(
            IWETH::new(weth, &wallet_provider(rpc_url, a.signer()?)?)
                .deposit()
                .value(parse_units("5", 18)?.into()),
            "WETH deposit"
        );
    }
    let eth_usd_feed = deploy_code(
        &p,
        "PriceFeed",
        (
            "ETH / USD".to_string(),
            alloy::primitives::I256::try_from(300_000_000_000_i64)?,
        )
            .abi_encode_params(),
    )
    .await?;
    // Last, and without a transaction: the deployer's nonce, and so every address above, is
    // the same as before the sponsor had a key of its own.
    let sponsor: PrivateKeySigner = SPONSOR_KEY.parse()?;
    let sponsor_eth: U256 = parse_units(&SPONSOR_ETH.to_string(), 18)?.into();
    p.raw_request::<_, ()>("anvil_setBalance".into(), (sponsor.address(), sponsor_eth))
        .await?;
    accounts.push(Account {
        role: "sponsor".into(),
        address: sponsor.address(),
        private_key: SPONSOR_KEY.into(),
    });

    Ok(Devnet {
        rpc_url: rpc_url.to_string(),
        chain_id,
        contracts: Contracts {
            usdg,
            permit2: canonical::PERMIT2,
            permit2_proxy: canonical::X402_PERMIT2_PROXY,
            identity_registry: identity,
            reputation_registry: reputation,
            weth,
            token,
            pool,
            fee_locker,
            wallet_factory,
            stock_tokens,
            eth_usd_feed,
        },
        accounts,
    })
}

/// Some market activity for the token ledger: each buyer buys and sells the community token
/// on its pool, and the buyback account burns some (to the dead address).
pub async fn market_activity(d: &Devnet) -> anyhow::Result<()> {
    let c = &d.contracts;
    let e18 = U256::from(10u64).pow(U256::from(18));
    for (i, a) in d.accounts("buyer").iter().enumerate() {
        let p = wallet_provider(&d.rpc_url, a.signer()?)?;
        send!(
            IERC20::new(c.weth, &p).approve(c.pool, U256::MAX),
            "WETH approve"
        );
        send!(
            IERC20::new(c.token, &p).approve(c.pool, U256::MAX),
            "token approve"
        );
        let pool = IPool::new(c.pool, &p);
        let token_is_0 = pool.token0().call().await? == c.token;
        let weth_in = e18 / U256::from(10u64) * U256::from(i as u64 + 1);
        send!(
            pool.swap(a.address, !token_is_0, weth_in, U256::ZERO),
            "buy"
        );
        let token_in = U256::from(1_000u64 * (i as u64 + 1)) * e18;
        send!(
            pool.swap(a.address, token_is_0, token_in, U256::ZERO),
            "sell"
        );
    }
    if let Some(b) = d.accounts("buyback").first() {
        let p = wallet_provider(&d.rpc_url, b.signer()?)?;
        let dead = alloy::primitives::address!("0x000000000000000000000000000000000000dEaD");
        send!(
            IERC20::new(c.token, &p).transfer(dead, U256::from(50_000u64) * e18),
            "burn"
        );
    }
    Ok(())
}

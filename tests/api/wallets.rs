//! Contract wallets cannot be paid from, or signed in as, with signatures that are not theirs,
//! and their signature checks cost the caller (issue 41, items 2 and 3). Judged from the
//! chain's `Transfer` logs.

use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall, SolValue};
use journal_market_chain::bindings::{IERC20, IMintable};
use journal_market_client::payer::sign_payment;
use journal_market_x402 as x402;
use journal_market_x402::canonical;
use journal_market_x402::extensions::siwx::{self, Proof};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::devchain::Mined;
use crate::faultproxy::FaultProxy;
use crate::pay::{Shop, now};
use crate::replay::charges;

alloy::sol! {
    #[sol(rpc)]
    interface IBareHashWallet {
        function execute(address to, uint256 value, bytes data) external returns (bytes);
    }
}

/// A wallet of `owner` that accepts the owner's signature over the bare hash (as wallets made
/// before ERC-7739 do), holding USDG and approving Permit2.
async fn bare_hash_wallet(
    shop: &Shop,
    owner: &journal_market_chain::devnet_file::Account,
) -> Address {
    let deployer = shop.chain.provider(shop.chain.account("deployer", 0));
    let wallet = journal_market_devnet::deploy::deploy_code(
        &deployer,
        "BareHashWallet",
        owner.address.abi_encode(),
    )
    .await
    .unwrap();
    let c = &shop.chain.devnet.contracts;
    IMintable::new(c.usdg, &deployer)
        .mint(wallet, U256::from(5_000_000u64))
        .mined()
        .await;
    let approve = IERC20::approveCall {
        spender: canonical::PERMIT2,
        amount: U256::MAX,
    }
    .abi_encode();
    let receipt = IBareHashWallet::new(wallet, shop.chain.provider(owner))
        .execute(c.usdg, U256::ZERO, approve.into())
        .mined()
        .await;
    assert!(receipt.status());
    wallet
}

#[actix_web::test]
async fn an_owners_permit_reposted_for_its_contract_wallet_moves_nothing_and_opens_no_session() {
    let shop = Shop::open().await;
    let (id, _) = shop.person_journal(0, "1").await;
    let owner = shop.buyer(3);
    let wallet = bare_hash_wallet(&shop, owner).await;

    // The owner pays the fee from its own key.
    let paid = shop.burn_payment_by(id, owner).await;
    let (status, body, _) = shop.raw_pay("pay/burn", id, Some(&paid)).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // The same signed permit, reposted with `from` set to the wallet, and a fresh one the
    // owner signed over the bare digest for the wallet: both refused, nothing opened.
    let mut reposted = paid.clone();
    reposted.payload.permit2_authorization.from = wallet.to_checksum(None);
    let offer = shop.offer("pay/burn", id).await;
    let mut fresh = sign_payment(&offer.accepts[0], None, &owner.signer().unwrap(), now()).unwrap();
    fresh.payload.permit2_authorization.from = wallet.to_checksum(None);
    for p in [&reposted, &fresh] {
        let (status, body, headers) = shop.raw_pay("pay/burn", id, Some(p)).await;
        assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("ERC-7739"),
            "{body}"
        );
        assert!(headers.get("set-cookie").is_none(), "no session: {body}");
    }
    // The chain: the wallet paid nothing, the owner once.
    assert!(charges(&shop, wallet).await.is_empty());
    assert_eq!(charges(&shop, owner.address).await.len(), 1);
}

/// A sign-in (SIWE) message and its signature, sent again as a sign-in-with-x proof.
#[actix_web::test]
async fn a_used_sign_in_signature_is_not_a_sign_in_with_x_proof() {
    let shop = Shop::open().await;
    let (_, slug) = shop.person_journal(0, "1").await;
    let key = PrivateKeySigner::random();
    let address = key.address().to_checksum(None);
    let http = &shop.app.http;
    let issued: Value = http
        .post(format!("{}/auth/nonce", shop.app.base))
        .json(&json!({ "address": address }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let message = issued["message"].as_str().unwrap();
    let sig = key.sign_message_sync(message.as_bytes()).unwrap();
    let signature = format!("0x{}", alloy::hex::encode(sig.as_bytes()));
    let verified = http
        .post(format!("{}/auth/verify", shop.app.base))
        .json(&json!({ "address": address, "nonce": issued["nonce"], "signature": signature }))
        .send()
        .await
        .unwrap();
    assert_eq!(verified.status(), StatusCode::OK);

    // The same message, field by field, as a proof.
    let line = |label: &str| {
        message
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .unwrap()
            .to_string()
    };
    let proof = Proof {
        domain: message.split(' ').next().unwrap().to_string(),
        address: address.clone(),
        uri: line("URI: "),
        version: "1".into(),
        chain_id: format!("eip155:{}", line("Chain ID: ")),
        kind: "eip191".into(),
        nonce: line("Nonce: "),
        issued_at: line("Issued At: "),
        signature,
        statement: Some(message.lines().nth(3).unwrap().to_string()),
        expiration_time: Some(line("Expiration Time: ")),
        not_before: None,
        request_id: None,
        resources: None,
        signature_scheme: None,
    };
    assert_eq!(
        siwx::message(&proof, key.address()),
        message,
        "the proof covers the sign-in message"
    );
    let resp = http
        .get(format!("{}/journals/{slug}", shop.app.base))
        .header(siwx::HEADER, x402::encode_header(&proof).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let body: Value = resp.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("already used"),
        "{body}"
    );
}

/// A proof of the devnet's smart wallet for the journal's detail: the message of a proof the
/// service would declare, signed in the wallet's domain (or wrapped for EIP-6492).
pub(crate) fn wallet_proof(
    shop: &Shop,
    owner: &PrivateKeySigner,
    wallet: Address,
    nonce: &str,
    wrap: Option<(Address, Bytes)>,
) -> String {
    let origin = shop.app.base.trim_end_matches("/api").to_string();
    let issued = chrono::Utc::now();
    let mut p = Proof {
        domain: siwx::domain_of(&origin).to_string(),
        address: wallet.to_checksum(None),
        uri: origin.clone(),
        version: "1".into(),
        chain_id: format!("eip155:{}", shop.chain.devnet.chain_id),
        kind: "eip191".into(),
        nonce: nonce.into(),
        issued_at: siwx::ts(&issued),
        signature: String::new(),
        statement: None,
        expiration_time: None,
        not_before: None,
        request_id: None,
        resources: None,
        signature_scheme: None,
    };
    let hash = alloy::primitives::eip191_hash_message(siwx::message(&p, wallet));
    let sig = Bytes::from(shop.chain.wallet_sign(owner, wallet, hash));
    let sig = match wrap {
        Some((factory, calldata)) => {
            journal_market_x402::signature::wrap_6492(factory, calldata, sig)
        }
        None => sig,
    };
    p.signature = format!("{sig}");
    x402::encode_header(&p).unwrap()
}

/// Contract-wallet proofs are charged to the caller's auth class before the chain is asked,
/// the same proof again is answered from the verdict cache, and a deployed wallet's EIP-6492
/// wrapper does not run its factory. An EOA's proofs are not charged.
#[actix_web::test]
async fn contract_wallet_proofs_cost_the_callers_auth_class() {
    let chain = crate::devchain::TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let url = proxy.url.clone();
    let shop = Shop::open_on_chain(chain, move |s| {
        s.chain.rpc_urls = vec![journal_market::config::Secret::new(url)];
        s.limits.enabled = true;
        s.limits.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.auth = journal_market::config::ClassLimit {
            per_minute: 1,
            burst: 3,
        };
    })
    .await;
    let (_, slug) = shop.person_journal(0, "1").await;
    let owner = shop.chain.account("buyer", 2);
    let owner_key = owner.signer().unwrap();
    let salt = B256::with_last_byte(61);
    let wallet = shop.chain.smart_wallet(owner, salt, true).await;
    let factory = shop.chain.devnet.contracts.wallet_factory;
    let deploy_call = journal_market_chain::bindings::ISmartWalletFactory::deployCall {
        owner: owner.address,
        salt,
    }
    .abi_encode();
    let get = |header: String| {
        shop.app
            .http
            .get(format!("{}/journals/{slug}", shop.app.base))
            .header("x-forwarded-for", "198.51.100.7")
            .header(siwx::HEADER, header)
            .send()
    };
    let isvalid = "1626ba7e";
    let deploy_selector = alloy::hex::encode(
        journal_market_chain::bindings::ISmartWalletFactory::deployCall::SELECTOR,
    );

    // One proof: charged, checked on the chain once.
    let first = wallet_proof(&shop, &owner_key, wallet, "walletproof0001", None);
    assert_eq!(get(first.clone()).await.unwrap().status(), StatusCode::OK);
    assert_eq!(proxy.hits(isvalid), 1);
    // The same proof again: the verdict is cached (no second call), the nonce is used.
    let again = get(first).await.unwrap();
    assert_eq!(again.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(proxy.hits(isvalid), 1, "answered from the verdict cache");
    // A deployed wallet's 6492 wrapper: checked with ERC-1271, its factory not run.
    let wrapped = wallet_proof(
        &shop,
        &owner_key,
        wallet,
        "walletproof0002",
        Some((factory, Bytes::from(deploy_call))),
    );
    assert_eq!(get(wrapped).await.unwrap().status(), StatusCode::OK);
    assert_eq!(proxy.hits(isvalid), 2);
    assert_eq!(proxy.hits(&deploy_selector), 0, "no factory call");
    // The auth class's burst (3) is spent: the next contract proof is refused before the call.
    let third = wallet_proof(&shop, &owner_key, wallet, "walletproof0003", None);
    assert_eq!(get(third).await.unwrap().status(), StatusCode::OK);
    let fourth = wallet_proof(&shop, &owner_key, wallet, "walletproof0004", None);
    let limited = get(fourth).await.unwrap();
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(proxy.hits(isvalid), 3, "refused before the chain was asked");
    // An EOA's proof from the same address needs no chain call and is not charged.
    let key = PrivateKeySigner::random();
    let origin = shop.app.base.trim_end_matches("/api").to_string();
    let mut p = Proof {
        domain: siwx::domain_of(&origin).to_string(),
        address: key.address().to_checksum(None),
        uri: origin,
        version: "1".into(),
        chain_id: format!("eip155:{}", shop.chain.devnet.chain_id),
        kind: "eip191".into(),
        nonce: "eoaproof00001".into(),
        issued_at: siwx::ts(&chrono::Utc::now()),
        signature: String::new(),
        statement: None,
        expiration_time: None,
        not_before: None,
        request_id: None,
        resources: None,
        signature_scheme: None,
    };
    let m = siwx::message(&p, key.address());
    p.signature = format!(
        "0x{}",
        alloy::hex::encode(key.sign_message_sync(m.as_bytes()).unwrap().as_bytes())
    );
    let eoa = get(x402::encode_header(&p).unwrap()).await.unwrap();
    assert_eq!(eoa.status(), StatusCode::OK);
}

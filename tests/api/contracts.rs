//! The dev chain's contracts, driven from Rust with the exact types of protocols.md.

use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::Provider;
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall, SolEvent};
use journal_market_chain::bindings::{
    IERC20, IIdentityRegistry, IMintable, IReputationRegistry, ISmartWallet, IX402ExactPermit2Proxy,
};
use journal_market_x402::canonical;
use journal_market_x402::permit2::{PermitWitnessTransferFrom, TokenPermissions, Witness};

use crate::devchain::{Mined, TestChain};

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn permit(
    chain: &TestChain,
    to: Address,
    amount: u64,
    nonce: u64,
    deadline: u64,
) -> PermitWitnessTransferFrom {
    PermitWitnessTransferFrom {
        permitted: TokenPermissions {
            token: chain.devnet.contracts.usdg,
            amount: U256::from(amount),
        },
        spender: canonical::X402_PERMIT2_PROXY,
        nonce: U256::from(nonce),
        deadline: U256::from(deadline),
        witness: Witness {
            to,
            validAfter: U256::ZERO,
        },
    }
}

fn sign(p: &PermitWitnessTransferFrom, signer: &PrivateKeySigner) -> Bytes {
    let hash = p.signing_hash(4663, canonical::PERMIT2);
    Bytes::from(signer.sign_hash_sync(&hash).unwrap().as_bytes().to_vec())
}

/// Settles through the proxy with the relayer; `Ok(())` when the transaction succeeded.
async fn settle(
    chain: &TestChain,
    p: &PermitWitnessTransferFrom,
    owner: Address,
    sig: Bytes,
) -> Result<(), String> {
    let relayer = chain.provider(chain.account("relayer", 0));
    let proxy = IX402ExactPermit2Proxy::new(canonical::X402_PERMIT2_PROXY, &relayer);
    let (permit, witness) = journal_market_chain::permit2::settle_args(p);
    match proxy.settle(permit, owner, witness, sig).send().await {
        Ok(pending) => {
            let receipt = pending.get_receipt().await.map_err(|e| e.to_string())?;
            if receipt.status() {
                Ok(())
            } else {
                Err("reverted".into())
            }
        }
        Err(e) => Err(e.to_string()),
    }
}

async fn usdg_balance(chain: &TestChain, who: Address) -> U256 {
    let p = chain.provider(chain.account("deployer", 0));
    IERC20::new(chain.devnet.contracts.usdg, &p)
        .balanceOf(who)
        .call()
        .await
        .unwrap()
}

#[actix_web::test]
async fn permit2_witness_transfer_settles_once() {
    let chain = TestChain::start().await;
    let buyer = chain.account("buyer", 0);
    let signer = buyer.signer().unwrap();
    let to = chain.account("buyback", 0).address;
    let before = (
        usdg_balance(&chain, buyer.address).await,
        usdg_balance(&chain, to).await,
    );

    let p = permit(&chain, to, 250_000, 42, now() + 280);
    let sig = sign(&p, &signer);
    settle(&chain, &p, buyer.address, sig.clone())
        .await
        .expect("the signed permit settles");
    assert_eq!(
        usdg_balance(&chain, buyer.address).await,
        before.0 - U256::from(250_000)
    );
    assert_eq!(
        usdg_balance(&chain, to).await,
        before.1 + U256::from(250_000)
    );

    // The same signature again: the nonce is used.
    assert!(
        settle(&chain, &p, buyer.address, sig).await.is_err(),
        "a replay must fail"
    );
    // An expired deadline.
    let expired = permit(&chain, to, 1, 43, now() - 10);
    assert!(
        settle(&chain, &expired, buyer.address, sign(&expired, &signer))
            .await
            .is_err()
    );
    // Signed by another key.
    let other = chain.account("buyer", 1).signer().unwrap();
    let wrong = permit(&chain, to, 1, 44, now() + 280);
    assert!(
        settle(&chain, &wrong, buyer.address, sign(&wrong, &other))
            .await
            .is_err()
    );
    // A signature for one recipient cannot pay another.
    let mut redirected = permit(&chain, to, 1, 45, now() + 280);
    let sig = sign(&redirected, &signer);
    redirected.witness.to = chain.account("relayer", 0).address;
    assert!(
        settle(&chain, &redirected, buyer.address, sig)
            .await
            .is_err()
    );
    assert_eq!(
        usdg_balance(&chain, to).await,
        before.1 + U256::from(250_000),
        "nothing else moved"
    );
}

#[actix_web::test]
async fn an_erc1271_wallet_pays_through_permit2() {
    let chain = TestChain::start().await;
    let owner = chain.account("buyer", 0);
    let owner_p = chain.provider(owner);
    let deployer = chain.provider(chain.account("deployer", 0));
    let c = &chain.devnet.contracts;
    let wallet = chain
        .smart_wallet(owner, B256::with_last_byte(7), true)
        .await;
    assert!(!owner_p.get_code_at(wallet).await.unwrap().is_empty());

    IMintable::new(c.usdg, &deployer)
        .mint(wallet, U256::from(5_000_000))
        .mined()
        .await;
    let approve = IERC20::approveCall {
        spender: canonical::PERMIT2,
        amount: U256::MAX,
    }
    .abi_encode();
    ISmartWallet::new(wallet, &owner_p)
        .execute(c.usdg, U256::ZERO, approve.into())
        .mined()
        .await;

    let to = chain.account("author", 0).address;
    let owner_key = owner.signer().unwrap();
    // The owner's plain signature of the permit is its own key's, not the wallet's: refused.
    let p = permit(&chain, to, 1_000_000, 9, now() + 280);
    assert!(
        settle(&chain, &p, wallet, sign(&p, &owner_key))
            .await
            .is_err()
    );
    // The permit's hash nested in the wallet's domain (ERC-7739) settles.
    let hash = p.signing_hash(4663, canonical::PERMIT2);
    let bound = Bytes::from(chain.wallet_sign(&owner_key, wallet, hash));
    settle(&chain, &p, wallet, bound)
        .await
        .expect("ERC-1271 permit settles");
    assert_eq!(usdg_balance(&chain, wallet).await, U256::from(4_000_000));
    // Signed by a key that does not own the wallet.
    let p = permit(&chain, to, 1, 10, now() + 280);
    let stranger = chain.account("buyer", 2).signer().unwrap();
    assert!(
        settle(&chain, &p, wallet, sign(&p, &stranger))
            .await
            .is_err()
    );
}

/// ERC-7739's TypedDataSign form: the owner signs the permit nested in one wallet's domain;
/// that wallet settles it, a second wallet of the same owner does not.
#[actix_web::test]
async fn a_nested_typed_data_signature_is_good_for_its_wallet_only() {
    use alloy::sol_types::SolStruct;
    use journal_market_chain::erc7739;
    let chain = TestChain::start().await;
    let owner = chain.account("buyer", 1);
    let owner_key = owner.signer().unwrap();
    let owner_p = chain.provider(owner);
    let deployer = chain.provider(chain.account("deployer", 0));
    let c = &chain.devnet.contracts;
    let mut wallets = Vec::new();
    for salt in [21u8, 22] {
        let wallet = chain
            .smart_wallet(owner, B256::with_last_byte(salt), true)
            .await;
        IMintable::new(c.usdg, &deployer)
            .mint(wallet, U256::from(5_000_000))
            .mined()
            .await;
        let approve = IERC20::approveCall {
            spender: canonical::PERMIT2,
            amount: U256::MAX,
        }
        .abi_encode();
        // A provider of its own: the factory call above was sent by another one.
        ISmartWallet::new(wallet, chain.provider(owner))
            .execute(c.usdg, U256::ZERO, approve.into())
            .mined()
            .await;
        wallets.push(wallet);
    }
    // The probe ERC-7739 defines.
    let probe = ISmartWallet::new(wallets[0], &owner_p)
        .isValidSignature(erc7739::PROBE, Bytes::new())
        .call()
        .await
        .unwrap();
    assert_eq!(probe.0, erc7739::SUPPORTED);

    let to = chain.account("author", 0).address;
    let nested = |p: &PermitWitnessTransferFrom, wallet: Address, ty: &str| {
        let app = journal_market_x402::permit2::domain(4663, canonical::PERMIT2).hash_struct();
        let (hash, tail) = erc7739::typed_data_sign(wallet, 4663, app, p.eip712_hash_struct(), ty);
        let mut sig = owner_key.sign_hash_sync(&hash).unwrap().as_bytes().to_vec();
        sig.extend_from_slice(&tail);
        Bytes::from(sig)
    };
    let ty = PermitWitnessTransferFrom::eip712_encode_type().into_owned();
    let p = permit(&chain, to, 1_000, 31, now() + 280);
    // Made for wallet 0, presented for wallet 1: refused.
    assert!(
        settle(&chain, &p, wallets[1], nested(&p, wallets[0], &ty))
            .await
            .is_err()
    );
    settle(&chain, &p, wallets[0], nested(&p, wallets[0], &ty))
        .await
        .expect("the nested signature settles for its wallet");
    assert_eq!(
        usdg_balance(&chain, wallets[0]).await,
        U256::from(4_999_000)
    );
    assert_eq!(
        usdg_balance(&chain, wallets[1]).await,
        U256::from(5_000_000)
    );
}

#[actix_web::test]
async fn registry_events_have_the_exact_signatures() {
    let chain = TestChain::start().await;
    let c = &chain.devnet.contracts;
    let author = chain.account("author", 0);
    let author_p = chain.provider(author);
    let identity = IIdentityRegistry::new(c.identity_registry, &author_p);
    let receipt = identity
        .register_0("https://journals.example/api/meta/1".into())
        .mined()
        .await;
    assert!(receipt.status());
    let logs = receipt.inner.logs();
    let mint = logs
        .iter()
        .find_map(|l| IIdentityRegistry::Transfer::decode_log(&l.inner).ok())
        .expect("a Transfer log");
    assert_eq!(mint.from, Address::ZERO);
    assert_eq!(mint.to, author.address);
    let registered = logs
        .iter()
        .find_map(|l| IIdentityRegistry::Registered::decode_log(&l.inner).ok())
        .expect("a Registered log");
    assert_eq!(registered.agentId, mint.tokenId);
    assert_eq!(registered.agentURI, "https://journals.example/api/meta/1");
    assert_eq!(
        identity.tokenURI(mint.tokenId).call().await.unwrap(),
        "https://journals.example/api/meta/1"
    );
    assert_eq!(
        identity.ownerOf(mint.tokenId).call().await.unwrap(),
        author.address
    );

    let voter = chain.account("buyer", 0);
    let rep = IReputationRegistry::new(c.reputation_registry, chain.provider(voter));
    let receipt = rep
        .giveFeedback(
            mint.tokenId,
            1,
            0,
            "accurate".into(),
            String::new(),
            "https://journals.example/journal/x".into(),
            String::new(),
            B256::ZERO,
        )
        .mined()
        .await;
    let fb = receipt
        .inner
        .logs()
        .iter()
        .find(|l| l.topic0() == Some(&IReputationRegistry::NewFeedback::SIGNATURE_HASH))
        .map(|l| IReputationRegistry::NewFeedback::decode_log(&l.inner).unwrap())
        .expect("a NewFeedback log");
    assert_eq!(fb.agentId, mint.tokenId);
    assert_eq!(fb.clientAddress, voter.address);
    assert_eq!(fb.value, 1);
    assert_eq!(fb.tag1, "accurate");

    // The owner cannot vote on its own token.
    let own = IReputationRegistry::new(c.reputation_registry, &author_p)
        .giveFeedback(
            mint.tokenId,
            1,
            0,
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            B256::ZERO,
        )
        .send()
        .await;
    let err = match own {
        Err(e) => e.to_string(),
        Ok(p) => format!("{:?}", p.get_receipt().await.map(|r| r.status())),
    };
    assert!(
        err.contains("Self-feedback") || err.contains("false"),
        "{err}"
    );
}

#[test]
fn contract_artifacts_match_their_sources() {
    let out = std::process::Command::new("node")
        .args(["contracts/build.mjs", "--check"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("node runs (npm ci installs solc)");
    assert!(
        out.status.success(),
        "the committed artifacts differ from contracts/src: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[actix_web::test]
async fn a_dev_chain_is_not_started_on_a_port_in_use() {
    let chain = TestChain::start().await;
    let Err(e) = journal_market_devnet::anvil::spawn(Some(chain.anvil.port), 4663).await else {
        panic!("a second anvil on the same port must be refused");
    };
    assert!(e.to_string().contains("in use"), "{e}");
    // The node already there is untouched.
    let head = chain
        .provider(chain.account("buyer", 0))
        .get_block_number()
        .await
        .unwrap();
    assert!(head > 0);
}

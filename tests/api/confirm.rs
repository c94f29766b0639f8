//! Confirmations: a settled payment and a registration are *seen* until
//! `chain.reorg_safe_distance` blocks deep, then *final*; a reorg before that is re-checked.
//! Money is judged from the chain's `Transfer` logs.

use std::time::Duration;

use alloy::primitives::{Address, U256};
use alloy::providers::{DynProvider, Provider};
use journal_market_chain::bindings::IIdentityRegistry;
use journal_market_client::api::History;

use crate::devchain::{mine, revert, snapshot};
use crate::metrics::{scrape, value};
use crate::pay::Shop;
use crate::replay::{assert_one_charge, charges};

/// A shop whose confirmation and reconciliation passes run often.
async fn shop() -> Shop {
    Shop::open_with(|s| {
        s.chain.confirm_interval_ms = 100;
        s.payments.reconcile_every_ms = 200;
    })
    .await
}

fn rpc(shop: &Shop) -> DynProvider {
    shop.chain.provider(shop.chain.account("deployer", 0))
}

/// Mines a block every 100 ms until `done` holds (at most 60 s: the suite shares two cores).
async fn mine_until<F, Fut>(p: &DynProvider, what: &str, mut done: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..600 {
        if done().await {
            return;
        }
        mine(p, 1).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} never happened");
}

async fn history(c: &journal_market_client::Client) -> History {
    c.history().await.unwrap()
}

/// A swarm journal of `shop` bought by buyer 0, and that buyer's client (signed in by the
/// purchase).
async fn bought_by_buyer_0(shop: &Shop) -> (String, journal_market_client::Client) {
    let (_, slug, _) = shop.swarm_journal().await;
    let client = shop.client();
    client
        .buy(&slug, &shop.buyer(0).signer().unwrap())
        .await
        .unwrap();
    (slug, client)
}

/// A swarm journal bought by buyer 0, whose settle transaction a reorg then dropped: the chain
/// went back to a snapshot taken just before the purchase, its clock moved on by
/// `clock_forward` seconds, and it grew 13 blocks past the purchase's without it.
struct Orphaned {
    shop: Shop,
    p: DynProvider,
    slug: String,
    price: i64,
    /// The buyer's USDG before the purchase.
    before: U256,
    /// The buyer's client (signed in by the purchase).
    client: journal_market_client::Client,
    /// The dropped settle transaction.
    tx: String,
}

async fn bought_then_orphaned(clock_forward: u64) -> Orphaned {
    let shop = shop().await;
    let p = rpc(&shop);
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let before = shop.usdg(buyer.address).await;
    let snap = snapshot(&p).await;
    let client = shop.client();
    let bought = client.buy(&slug, &buyer.signer().unwrap()).await.unwrap();
    assert_eq!(charges(&shop, buyer.address).await.len(), 1);
    assert!(client.journal(&slug).await.unwrap().unlocked);
    revert(&p, snap).await;
    if clock_forward > 0 {
        let _: serde_json::Value = p
            .raw_request("evm_increaseTime".into(), (U256::from(clock_forward),))
            .await
            .unwrap();
    }
    mine(&p, 13).await;
    Orphaned {
        tx: bought.txs[0].clone(),
        shop,
        p,
        slug,
        price,
        before,
        client,
    }
}

#[actix_web::test]
async fn only_a_final_purchase_is_read_from_memory() {
    let shop = Shop::open_with(|s| {
        s.chain.confirm_interval_ms = 100;
        s.metrics.listen = "127.0.0.1:0".into();
        s.cache.public_ttl_ms = 60_000;
    })
    .await;
    let p = rpc(&shop);
    let (slug, client) = bought_by_buyer_0(&shop).await;
    let readers = |text: &str, result: &str| {
        value(
            text,
            &format!(r#"jm_cache_requests_total{{cache="readers",result="{result}"}}"#),
        )
        .unwrap_or(0.0)
    };
    // Not final: a reorg could still withdraw it, so each read asks the table.
    for _ in 0..2 {
        assert!(client.journal(&slug).await.unwrap().unlocked);
    }
    let text = scrape(&shop.app).await;
    assert_eq!(readers(&text, "hit"), 0.0);
    assert_eq!(readers(&text, "miss"), 2.0);
    mine_until(&p, "the purchase final", || async {
        history(&client).await.unlocks.iter().any(|u| u.is_final)
    })
    .await;
    // Final: asked once, then known.
    for _ in 0..2 {
        let d = client.journal(&slug).await.unwrap();
        assert!(d.unlocked && d.body.is_some());
    }
    let text = scrape(&shop.app).await;
    assert_eq!(readers(&text, "miss"), 3.0);
    assert_eq!(readers(&text, "hit"), 1.0);
    // The text still goes to nobody else.
    let d = shop.client().journal(&slug).await.unwrap();
    assert!(!d.unlocked && d.body.is_none());
}

#[actix_web::test]
async fn a_purchase_is_final_only_once_deep_enough() {
    let shop = shop().await;
    let p = rpc(&shop);
    let (_, client) = bought_by_buyer_0(&shop).await;
    // Seen, not final: the chain has not grown past it.
    let h = history(&client).await;
    assert_eq!(h.unlocks.len(), 1);
    assert!(!h.unlocks[0].is_final, "final at depth 0");
    mine(&p, 5).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !history(&client).await.unlocks[0].is_final,
        "final at depth 6"
    );
    mine_until(&p, "the purchase becoming final", || async {
        history(&client).await.unlocks[0].is_final
    })
    .await;
}

#[actix_web::test]
async fn a_settle_transaction_a_reorg_drops_is_sent_again_and_charged_once() {
    // The permit is unused again on the new chain and the buyer is charged nothing.
    let Orphaned {
        shop,
        p,
        slug,
        price,
        before,
        client,
        tx,
    } = bought_then_orphaned(0).await;
    let buyer = shop.buyer(0);
    assert_eq!(shop.usdg(buyer.address).await, before);
    assert!(charges(&shop, buyer.address).await.is_empty());

    // The service notices, settles the same permit again (a new transaction of the relayer)
    // and the purchase becomes final once that one is deep enough.
    mine_until(&p, "the purchase settled again and final", || async {
        let h = history(&client).await;
        h.unlocks.len() == 1 && h.unlocks[0].is_final
    })
    .await;
    assert_one_charge(&shop, buyer.address, price).await;
    assert_eq!(shop.usdg(buyer.address).await, before - U256::from(price));
    let (_, again, _) = crate::settle::transfers_from(&shop.chain, buyer.address)
        .await
        .remove(0);
    assert_ne!(format!("{again:#x}"), tx, "a new transaction paid it");
    // The buyer still reads it; nothing was withdrawn.
    assert!(client.journal(&slug).await.unwrap().unlocked);
    assert!(history(&client).await.withdrawn.is_empty());
}

#[actix_web::test]
async fn a_settle_transaction_a_reorg_drops_after_its_permit_expired_withdraws_the_unlock() {
    // The chain's clock is past the permit's deadline (300 s) before it grows on.
    let o = bought_then_orphaned(3_600).await;
    let (shop, p, client, slug) = (&o.shop, &o.p, &o.client, &o.slug);
    let buyer = shop.buyer(0);

    mine_until(p, "the unlock withdrawn", || async {
        !history(client).await.withdrawn.is_empty()
    })
    .await;
    let h = history(client).await;
    assert!(h.unlocks.is_empty(), "{h:?}");
    let w = &h.withdrawn[0];
    assert_eq!((w.slug.as_str(), w.step.as_str()), (slug.as_str(), "burn"));
    assert_eq!(w.paid_units, o.price);
    assert!(w.reason.contains("reorganisation"), "{}", w.reason);
    assert!(w.reason.contains("expired"), "{}", w.reason);
    // The text is closed again and, on the chain, nothing was paid.
    let d = client.journal(slug).await.unwrap();
    assert!(!d.unlocked && d.body.is_none());
    assert!(charges(shop, buyer.address).await.is_empty());
    assert_eq!(shop.usdg(buyer.address).await, o.before);
}

#[actix_web::test]
async fn a_registration_a_reorg_mints_again_under_another_id_is_corrected() {
    let shop = shop().await;
    let p = rpc(&shop);
    let registry = shop.chain.devnet.contracts.identity_registry;
    let snap = snapshot(&p).await;
    let (id, slug) = shop.person_journal(0, "2").await;
    let first = shop.app.client.journal(&slug).await.unwrap();
    let (token, mint_tx) = (first.token_id.unwrap(), first.mint_tx.clone().unwrap());
    assert!(!first.token_final, "final at depth 0");
    let raw: alloy::primitives::Bytes = p
        .raw_request("eth_getRawTransactionByHash".into(), (mint_tx.clone(),))
        .await
        .unwrap();

    // The registration's block is orphaned; on the new chain another wallet registers first
    // and takes the token id, then the author's same transaction is mined again.
    revert(&p, snap).await;
    let other = shop.chain.account("author", 1);
    let other_registry = IIdentityRegistry::new(registry, shop.chain.provider(other));
    let r = other_registry
        .register_0("http://elsewhere.example/agent.json".into())
        .send()
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert!(r.status());
    let again = p
        .send_raw_transaction(&raw)
        .await
        .unwrap()
        .get_receipt()
        .await
        .unwrap();
    assert_eq!(format!("{:#x}", again.transaction_hash), mint_tx);
    let owner_of = |t: u64| {
        let p = p.clone();
        async move {
            IIdentityRegistry::new(registry, &p)
                .ownerOf(U256::from(t))
                .call()
                .await
                .unwrap()
        }
    };
    assert_eq!(
        owner_of(token).await,
        other.address,
        "the old id is someone else's"
    );
    let author: Address = shop.chain.account("author", 0).address;

    // Once deep enough, the journal carries the id its registration minted on this chain.
    mine_until(&p, "the registration re-read and final", || async {
        let d = shop.app.client.journal(&slug).await.unwrap();
        d.token_final && d.token_id != Some(token)
    })
    .await;
    let d = shop.app.client.journal(&slug).await.unwrap();
    let corrected = d.token_id.unwrap();
    assert_eq!(owner_of(corrected).await, author);
    let (_, meta) = shop.app.get(&format!("/meta/{id}")).await;
    assert_eq!(meta["registrations"][0]["agentId"], corrected);

    // The author's 90% goes to whoever holds the corrected token: the author, not the wallet
    // that took the old id.
    let buyer = shop.buyer(1);
    shop.buy(&slug, buyer).await;
    let paid = charges(&shop, buyer.address).await;
    assert!(paid.iter().any(|(to, _)| *to == author), "{paid:?}");
    assert!(!paid.iter().any(|(to, _)| *to == other.address), "{paid:?}");
}

#[actix_web::test]
async fn a_registration_a_reorg_drops_clears_the_token_until_registered_again() {
    let shop = shop().await;
    let p = rpc(&shop);
    let snap = snapshot(&p).await;
    let (id, slug) = shop.person_journal(0, "2").await;
    revert(&p, snap).await;
    mine(&p, 13).await;
    mine_until(&p, "the dropped registration cleared", || async {
        shop.app
            .client
            .journal(&slug)
            .await
            .unwrap()
            .token_id
            .is_none()
    })
    .await;
    // No author payment while the journal has no token on the chain.
    let (status, body, _) = shop.raw_pay("pay/author", id, None).await;
    assert_eq!(status, reqwest::StatusCode::NOT_FOUND, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no onchain token"),
        "{body}"
    );
    let buyer = shop.buyer(1).signer().unwrap();

    // The author registers again; the live journal takes the new registration.
    let author = shop.chain.account("author", 0).signer().unwrap();
    let c = shop.client();
    c.login(&author).await.unwrap();
    let meta_url = c.draft(id).await.unwrap().meta_url.unwrap();
    let tx = journal_market_client::publisher::register(
        &shop.chain.devnet.rpc_url,
        shop.chain.devnet.contracts.identity_registry,
        &author,
        &meta_url,
    )
    .await
    .unwrap();
    let published = c.minted(id, &format!("{tx:#x}")).await.unwrap();
    assert_eq!(published.slug, slug);
    let d = shop.app.client.journal(&slug).await.unwrap();
    assert!(d.token_id.is_some() && !d.token_final);
    shop.client().buy(&slug, &buyer).await.unwrap();
}

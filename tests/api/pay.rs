//! Purchases over x402 v2 with Permit2 on anvil, through the project's client and raw HTTP.

use std::sync::Arc;

use alloy::primitives::{Address, U256};
use alloy::signers::local::PrivateKeySigner;
use journal_market::config::{Key, Secret};
use journal_market_actors::settlement::FaultPoint;
use journal_market_chain::bindings::{IERC20, IIdentityRegistry, IMintable};
use journal_market_chain::devnet_file::Account;
use journal_market_chain::facilitator::Facilitator;
use journal_market_client::api::PaymentAnswer;
use journal_market_client::payer::{Purchase, sign_payment};
use journal_market_devnet::deploy::Buyers;
use journal_market_devnet::seed::{PersonJournal, publish};
use journal_market_x402::{self as x402, PaymentPayload, PaymentRequired, PaymentRequirements};
use reqwest::StatusCode;
use serde_json::Value;

use crate::devchain::{Mined, TestChain};
use crate::helpers::{TestApp, send_json};
use crate::shape::{CHALLENGE, T, assert_error_body, assert_shape};

pub(crate) const FACILITATOR_TOKEN: &str = "sesame";

/// A facilitator on the test chain, settling with the relayer key.
pub(crate) fn relayer_facilitator(chain: &TestChain) -> Facilitator {
    let c = &chain.devnet.contracts;
    let relayer = chain.account("relayer", 0).signer().unwrap();
    Facilitator::new(
        &chain.devnet.rpc_url,
        4663,
        c.usdg,
        c.permit2,
        c.permit2_proxy,
        Some(relayer),
    )
    .unwrap()
}

/// `journal-market-facilitator` in-process on a free port, settling with the relayer key.
pub(crate) async fn start_facilitator(chain: &TestChain) -> String {
    serve_facilitator(relayer_facilitator(chain)).await
}

/// `facilitator` served in-process on a free port, with the test's bearer token.
pub(crate) async fn serve_facilitator(facilitator: Facilitator) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = journal_market::facilitator_server::server(
        listener,
        Arc::new(facilitator),
        Some(FACILITATOR_TOKEN.into()),
    )
    .unwrap();
    actix_web::rt::spawn(server);
    url
}

pub(crate) struct Shop {
    pub chain: TestChain,
    pub app: TestApp,
}

pub(crate) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The settlement back-end a test runs against.
#[derive(Clone, Copy)]
pub(crate) enum Backend {
    /// The built-in settler with the relayer key.
    Local,
    /// `journal-market-facilitator` over HTTP, with a bearer token.
    Http,
}

/// Runs a test body once per settlement back-end.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident) => {
        mod $name {
            #[actix_web::test]
            async fn local() {
                super::$name(super::Backend::Local).await
            }

            #[actix_web::test]
            async fn http_facilitator() {
                super::$name(super::Backend::Http).await
            }
        }
    };
}

impl Shop {
    pub(crate) async fn open() -> Shop {
        Self::open_with(|_| {}).await
    }

    pub(crate) async fn open_on(backend: Backend) -> Shop {
        match backend {
            Backend::Local => Self::open().await,
            Backend::Http => {
                let chain = TestChain::start().await;
                let url = start_facilitator(&chain).await;
                let app = chain
                    .app_with(|s| {
                        s.demo.load_on_first_start = true;
                        s.cache.public_ttl_ms = 0;
                        s.server.origin = "http://127.0.0.1:0".into();
                        s.payments.facilitator = url;
                        s.payments.facilitator_token = Secret::new(FACILITATOR_TOKEN);
                        s.payments.relayer_key = Key::default();
                    })
                    .await;
                Shop { chain, app }
            }
        }
    }

    /// A shop whose indexer polls every 100 ms, with the ledger never served from a cache.
    pub(crate) async fn open_indexing() -> Shop {
        Shop::open_with(|s| {
            s.indexer.poll_ms = 100;
            s.indexer.ledger_max_age_ms = 0;
        })
        .await
    }

    /// A shop whose instance, named `instance`, crashes at `fault`; its leases last two
    /// minutes, longer than a test waits for a successor to take over.
    pub(crate) async fn open_crashing(fault: FaultPoint, instance: &str) -> Shop {
        Shop::open_with(|s| {
            s.payments.fault = fault;
            s.payments.lease_secs = 120;
            s.payments.instance_id = instance.into();
        })
        .await
    }

    pub(crate) async fn open_with(f: impl FnOnce(&mut journal_market::config::Settings)) -> Shop {
        Shop::open_on_chain(TestChain::start().await, f).await
    }

    /// As [`Shop::open_with`], on a chain the test started (to put a proxy in front of it).
    pub(crate) async fn open_on_chain(
        chain: TestChain,
        f: impl FnOnce(&mut journal_market::config::Settings),
    ) -> Shop {
        let app = chain
            .app_with(|s| {
                s.demo.load_on_first_start = true;
                s.cache.public_ttl_ms = 0;
                // The site names the port it was given, as clients checking the sign-in-with-x
                // domain against the host they asked need.
                s.server.origin = "http://127.0.0.1:0".into();
                f(s);
            })
            .await;
        Shop { chain, app }
    }

    /// A draft about NVDA that the built-in audit approves: each section is an entry's own
    /// summary with its citation.
    pub(crate) async fn faithful_draft(
        &self,
        title: &str,
        price: f64,
    ) -> journal_market_client::api::DraftInput {
        let entries = self.app.client.search_entries("NVDA").await.unwrap();
        let picked: Vec<(&str, &str)> = entries
            .iter()
            .take(3)
            .map(|e| (e.summary.as_str(), e.id.as_str()))
            .collect();
        let (dek, body) = journal_market_audit::sample::faithful(&picked);
        journal_market_client::api::DraftInput {
            id: None,
            ticker: "NVDA".into(),
            title: title.into(),
            dek,
            body,
            price_usdg: price,
            author_name: "A. Person".into(),
        }
    }

    /// A live person-written journal by author `n`, published through the API (save, audit,
    /// register, minted).
    pub(crate) async fn person_journal(&self, n: usize, price: &str) -> (i64, String) {
        let author = self.chain.account("author", n).signer().unwrap();
        let title = format!("A person's view {n} at {price}");
        let d = self.faithful_draft(&title, price.parse().unwrap()).await;
        let spec = PersonJournal {
            slug: journal_market::domain::text::slugify("NVDA", &title),
            ticker: d.ticker,
            title: d.title,
            dek: d.dek,
            body: d.body,
            price: price.into(),
            author_name: d.author_name,
            author: n,
        };
        publish(&self.app.base, &self.chain.devnet.rpc_url, &author, &spec)
            .await
            .unwrap()
    }

    /// Every swarm-written journal on sale.
    pub(crate) async fn swarm_journals(&self) -> Vec<journal_market_client::api::JournalListItem> {
        self.app
            .client
            .journals(None)
            .await
            .unwrap()
            .journals
            .into_iter()
            .filter(|j| j.author.swarm)
            .collect()
    }

    pub(crate) async fn swarm_journal(&self) -> (i64, String, i64) {
        let j = self.swarm_journals().await.remove(0);
        (j.journal_id, j.slug, j.price_units.parse().unwrap())
    }

    pub(crate) async fn usdg(&self, who: Address) -> U256 {
        let p = self.chain.provider(self.chain.account("deployer", 0));
        IERC20::new(self.chain.devnet.contracts.usdg, &p)
            .balanceOf(who)
            .call()
            .await
            .unwrap()
    }

    /// A new wallet holding `units` of USDG and nothing else (no gas, no Permit2 allowance).
    pub(crate) async fn usdg_only_buyer(&self, units: i64) -> PrivateKeySigner {
        self.chain
            .devnet
            .usdg_only_buyer(units as u64)
            .await
            .unwrap()
    }

    pub(crate) fn buyer(&self, n: usize) -> &Account {
        self.chain.account("buyer", n)
    }

    pub(crate) fn buyback(&self) -> Address {
        self.chain.account("buyback", 0).address
    }

    /// Another instance on this shop's database, without the fault point: the process after a
    /// crash, or a sibling.
    pub(crate) async fn without_fault(&self) -> TestApp {
        let mut settings = self.app.settings.clone();
        settings.payments.fault = FaultPoint::None;
        TestApp::start_on(settings, self.app.db.clone()).await
    }

    /// A client of its own (own cookie jar) for a buyer.
    pub(crate) fn client(&self) -> journal_market_client::Client {
        journal_market_client::Client::new(self.app.base.clone()).unwrap()
    }

    /// `buyer` buys the journal `key` (slug or id) through a client of its own; the purchase.
    pub(crate) async fn buy(&self, key: &str, buyer: &Account) -> Purchase {
        self.client()
            .buy(key, &buyer.signer().unwrap())
            .await
            .unwrap()
    }

    pub(crate) async fn raw_pay(
        &self,
        path: &str,
        journal_id: i64,
        payment: Option<&PaymentPayload>,
    ) -> (StatusCode, Value, reqwest::header::HeaderMap) {
        let resp = self
            .client()
            .pay_request(path, journal_id, payment)
            .await
            .unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        (status, resp.json().await.unwrap_or(Value::Null), headers)
    }

    /// The challenge of a step.
    pub(crate) async fn offer(&self, path: &str, journal_id: i64) -> PaymentRequired {
        let (status, body, headers) = self.raw_pay(path, journal_id, None).await;
        assert_eq!(status, StatusCode::PAYMENT_REQUIRED, "{body}");
        x402::decode_header(headers.get("payment-required").unwrap().to_str().unwrap()).unwrap()
    }

    /// `buyer`'s payment for the burn offer of journal `journal_id`.
    pub(crate) async fn burn_payment_by(&self, journal_id: i64, buyer: &Account) -> PaymentPayload {
        let offer = self.offer("pay/burn", journal_id).await;
        sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap()
    }

    pub(crate) async fn balances(&self, who: &[Address]) -> Vec<U256> {
        let mut out = Vec::new();
        for w in who {
            out.push(self.usdg(*w).await);
        }
        out
    }
}

on_both_backends!(a_swarm_journal_takes_one_payment);

async fn a_swarm_journal_takes_one_payment(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (id, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let before = shop.balances(&[buyer.address, shop.buyback()]).await;

    // The challenge: JSON body and base64 header agree and have the interface's shape.
    let (status, body, headers) = shop.raw_pay("pay/burn", id, None).await;
    assert_eq!(status, StatusCode::PAYMENT_REQUIRED);
    let header: Value =
        x402::decode_header(headers.get("payment-required").unwrap().to_str().unwrap()).unwrap();
    assert_eq!(header, body);
    assert_shape("challenge", &body, CHALLENGE);
    let offer = &body["accepts"][0];
    assert_eq!(offer["scheme"], "exact");
    assert_eq!(offer["network"], "eip155:4663");
    assert_eq!(offer["amount"], price.to_string());
    assert_eq!(offer["maxTimeoutSeconds"], 300);
    assert_eq!(offer["extra"]["assetTransferMethod"], "permit2");
    assert_eq!(offer["extra"]["name"], "USDG");
    assert_eq!(
        offer["extra"]["spender"].as_str().unwrap().to_lowercase(),
        format!("{:#x}", journal_market_x402::canonical::X402_PERMIT2_PROXY)
    );
    assert_eq!(
        offer["payTo"].as_str().unwrap().parse::<Address>().unwrap(),
        shop.buyback()
    );
    assert!(
        body["resource"]["url"]
            .as_str()
            .unwrap()
            .ends_with("/api/pay/burn")
    );

    let client = shop.client();
    let bought = client.buy(&slug, &buyer.signer().unwrap()).await.unwrap();
    assert_eq!(bought.txs.len(), 1);
    assert!(bought.body.starts_with("## "));
    assert!(bought.html.contains("<h2>"));
    let after = shop.balances(&[buyer.address, shop.buyback()]).await;
    assert_eq!(after[0], before[0] - U256::from(price));
    assert_eq!(after[1], before[1] + U256::from(price));

    // The purchase signed the buyer in: the text, readers, history.
    let d = client.journal(&slug).await.unwrap();
    assert!(d.unlocked);
    assert_eq!(d.body.as_deref(), Some(bought.body.as_str()));
    assert_eq!(d.item.readers, 1);
    let h = client.history().await.unwrap();
    assert_eq!(h.unlocks.len(), 1);
    assert_eq!(h.unlocks[0].paid_units, price);
    let body_path = format!("/journal/{id}/body");
    let (status, b) = shop
        .app
        .get_as(&body_path, &client.session().unwrap())
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_shape(
        "body",
        &b,
        &[("journalId", T::Int), ("slug", T::Str), ("html", T::Str)],
    );
    // A second purchase: 409, nothing moves.
    let err = client
        .buy(&slug, &buyer.signer().unwrap())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
    assert_eq!(shop.balances(&[buyer.address, shop.buyback()]).await, after);
    // Others still see no text.
    assert!(!shop.app.client.journal(&slug).await.unwrap().unlocked);
    let other = shop.client();
    other.login(&PrivateKeySigner::random()).await.unwrap();
    let (status, _) = shop.app.get_as(&body_path, &other.session().unwrap()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

on_both_backends!(a_person_journal_takes_two_payments_split_10_90);

async fn a_person_journal_takes_two_payments_split_10_90(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (id, slug) = shop.person_journal(0, "1.000005").await;
    let price: i64 = 1_000_005;
    let (fee, author_part) = (price * 1000 / 10000, price - price * 1000 / 10000);
    let author = shop.chain.account("author", 0).address;
    let buyer = shop.buyer(0);
    let before = shop
        .balances(&[buyer.address, shop.buyback(), author])
        .await;

    let client = shop.client();
    let signer = buyer.signer().unwrap();
    let usdg = shop.chain.devnet.contracts.usdg;
    let pay = |step| client.pay_step(step, id, &signer, usdg, U256::from(price));
    let first = pay("pay/burn").await.unwrap();
    assert!(first.tx().is_some() && first.body().is_none(), "{first:?}");
    // Paying the fee again is answered without a challenge.
    let again = pay("pay/burn").await.unwrap();
    assert_eq!(again, PaymentAnswer::already());
    let last = pay("pay/author").await.unwrap();
    assert!(last.body().is_some() && last.html().is_some(), "{last:?}");

    let after = shop
        .balances(&[buyer.address, shop.buyback(), author])
        .await;
    assert_eq!(after[0], before[0] - U256::from(price));
    assert_eq!(after[1], before[1] + U256::from(fee));
    assert_eq!(after[2], before[2] + U256::from(author_part));
    assert!(client.journal(&slug).await.unwrap().unlocked);

    // The author's desk counts the read and the 90%.
    let desk_client = shop.client();
    desk_client
        .login(&shop.chain.account("author", 0).signer().unwrap())
        .await
        .unwrap();
    let desk = desk_client.desk().await.unwrap();
    let item = desk
        .written
        .iter()
        .find(|w| w.slug.as_deref() == Some(slug.as_str()))
        .unwrap();
    assert_eq!((item.reads, item.earned), (1, author_part));
    assert_eq!(desk.totals.earned_units, author_part);
    // The author's own journal is theirs already.
    let err = desk_client
        .pay_step(
            "pay/burn",
            id,
            &shop.chain.account("author", 0).signer().unwrap(),
            usdg,
            U256::from(price),
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::CONFLICT));
}

#[actix_web::test]
async fn the_author_payment_follows_the_token() {
    let shop = Shop::open().await;
    let (id, _) = shop.person_journal(0, "2").await;
    let author = shop.chain.account("author", 0);
    let new_holder = shop.chain.account("author", 1).address;
    let token: U256 = {
        use journal_market_entity::journals;
        use sea_orm::EntityTrait;
        let j = journals::Entity::find_by_id(id as i32)
            .one(&shop.app.db.connect().await)
            .await
            .unwrap()
            .unwrap();
        U256::from_str_radix(&j.token_id.unwrap(), 10).unwrap()
    };
    IIdentityRegistry::new(
        shop.chain.devnet.contracts.identity_registry,
        shop.chain.provider(author),
    )
    .transferFrom(author.address, new_holder, token)
    .mined()
    .await;
    let before = shop.balances(&[author.address, new_holder]).await;
    shop.buy(&id.to_string(), shop.buyer(1)).await;
    let after = shop.balances(&[author.address, new_holder]).await;
    assert_eq!(after[0], before[0], "the former holder gets nothing");
    assert_eq!(after[1], before[1] + U256::from(1_800_000u64));
}

on_both_backends!(refusals_move_no_money);

async fn refusals_move_no_money(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (swarm_id, _, price) = shop.swarm_journal().await;
    let (person_id, _) = shop.person_journal(0, "1").await;
    let buyer = shop.buyer(0);
    let signer = buyer.signer().unwrap();
    let watch = [
        buyer.address,
        shop.buyback(),
        shop.chain.account("author", 0).address,
    ];
    let before = shop.balances(&watch).await;

    // 404, 400, 409 before any signature.
    let (s, b, _) = shop.raw_pay("pay/burn", 999_999, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_error_body(&b);
    let (s, b, _) = shop.raw_pay("pay/author", swarm_id, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let offer = shop.offer("pay/author", person_id).await;
    let author_payload = sign_payment(&offer.accepts[0], None, &signer, now()).unwrap();
    let (s, b, _) = shop
        .raw_pay("pay/author", person_id, Some(&author_payload))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "the fee comes first: {b}");
    let bad_body = shop
        .app
        .http
        .post(format!("{}/pay/burn", shop.app.base))
        .json(&serde_json::json!({ "journal": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad_body.status(), StatusCode::BAD_REQUEST);

    // 402s: each names its reason.
    let offer = shop.offer("pay/burn", swarm_id).await;
    let expect_402 = |payment: PaymentPayload, says: &'static str| {
        let shop = &shop;
        async move {
            let (s, b, h) = shop.raw_pay("pay/burn", swarm_id, Some(&payment)).await;
            assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{b}");
            assert!(h.get("payment-required").is_some());
            let e = b["error"].as_str().unwrap();
            assert!(e.contains(says), "expected {says:?} in {e:?}");
        }
    };
    let mut cheaper = offer.accepts[0].clone();
    cheaper.amount = (price - 1).to_string();
    expect_402(
        sign_payment(&cheaper, None, &signer, now()).unwrap(),
        "does not match the current price or recipient",
    )
    .await;
    let mut elsewhere = offer.accepts[0].clone();
    elsewhere.pay_to = format!("{:#x}", buyer.address);
    expect_402(
        sign_payment(&elsewhere, None, &signer, now()).unwrap(),
        "does not match the current price or recipient",
    )
    .await;
    let mut forged = sign_payment(
        &offer.accepts[0],
        None,
        &shop.buyer(1).signer().unwrap(),
        now(),
    )
    .unwrap();
    forged.payload.permit2_authorization.from = buyer.address.to_checksum(None);
    expect_402(forged, "signature").await;
    expect_402(
        sign_payment(&offer.accepts[0], None, &signer, now() - 600).unwrap(),
        "deadline",
    )
    .await;
    let broke = PrivateKeySigner::random();
    expect_402(
        sign_payment(&offer.accepts[0], None, &broke, now()).unwrap(),
        "balance",
    )
    .await;
    // USDG but no Permit2 approval.
    let deployer = shop.chain.provider(shop.chain.account("deployer", 0));
    let unapproved = shop.chain.account("buyback", 0);
    IMintable::new(shop.chain.devnet.contracts.usdg, &deployer)
        .mint(
            shop.chain.account("relayer", 0).address,
            U256::from(10_000_000u64),
        )
        .mined()
        .await;
    let _ = unapproved;
    expect_402(
        sign_payment(
            &offer.accepts[0],
            None,
            &shop.chain.account("relayer", 0).signer().unwrap(),
            now(),
        )
        .unwrap(),
        "approved",
    )
    .await;
    let (s, b, _) = {
        let r = shop
            .app
            .http
            .post(format!("{}/pay/burn", shop.app.base))
            .header("payment-signature", "not base64!")
            .json(&serde_json::json!({ "journalId": swarm_id }))
            .send()
            .await
            .unwrap();
        (r.status(), r.json::<Value>().await.unwrap(), ())
    };
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED);
    assert!(b["error"].as_str().unwrap().contains("malformed"), "{b}");

    assert_eq!(shop.balances(&watch).await, before, "no USDG moved");

    // A settled payload used again (for another journal at the same price): the nonce is spent.
    let payment = sign_payment(&offer.accepts[0], None, &signer, now()).unwrap();
    let (s, _, h) = shop.raw_pay("pay/burn", swarm_id, Some(&payment)).await;
    assert_eq!(s, StatusCode::OK);
    let receipt: x402::SettleResponse =
        x402::decode_header(h.get("payment-response").unwrap().to_str().unwrap()).unwrap();
    assert!(receipt.success && receipt.transaction.starts_with("0x"));
    let paid = shop.balances(&watch).await;
    let same_price = shop
        .swarm_journals()
        .await
        .into_iter()
        .find(|j| j.journal_id != swarm_id && j.price_units == price.to_string());
    if let Some(other) = same_price {
        let (s, b, _) = shop
            .raw_pay("pay/burn", other.journal_id, Some(&payment))
            .await;
        assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{b}");
    }
    // The same payment again, without a payment-identifier: a settled permit is public, so
    // it opens nothing again (409, no text), and nothing moves. A new payment for the unlocked
    // journal is a second purchase: 409.
    let (s, b, h) = shop.raw_pay("pay/burn", swarm_id, Some(&payment)).await;
    assert_eq!(s, StatusCode::CONFLICT, "a settled permit again: {b}");
    assert!(
        b.get("body").is_none() && h.get("set-cookie").is_none(),
        "{b}"
    );
    assert!(
        b["error"].as_str().unwrap().contains(&receipt.transaction),
        "{b}"
    );
    let second = sign_payment(&offer.accepts[0], None, &signer, now()).unwrap();
    let (s, b, _) = shop.raw_pay("pay/burn", swarm_id, Some(&second)).await;
    assert_eq!(s, StatusCode::CONFLICT, "a second purchase: {b}");
    assert_eq!(shop.balances(&watch).await, paid, "a replay moves nothing");
}

#[actix_web::test]
async fn closed_payments_answer_503() {
    let shop = Shop::open_with(|s| s.payments.enabled = false).await;
    let (id, _, _) = shop.swarm_journal().await;
    let (s, b, _) = shop.raw_pay("pay/burn", id, None).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE);
    assert_error_body(&b);
    assert!(!shop.app.client.config().await.unwrap().payments_open);
}

on_both_backends!(fifty_identical_final_payments_settle_once);

async fn fifty_identical_final_payments_settle_once(backend: Backend) {
    let shop = Shop::open_on(backend).await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(2);
    let before = shop.usdg(buyer.address).await;
    let payment = shop.burn_payment_by(id, buyer).await;
    let tries = (0..50).map(|_| shop.raw_pay("pay/burn", id, Some(&payment)));
    let results = futures::future::join_all(tries).await;
    let statuses: Vec<_> = results.iter().map(|r| r.0).collect();
    assert!(
        statuses
            .iter()
            .all(|s| [StatusCode::OK, StatusCode::CONFLICT].contains(s)),
        "{statuses:?}"
    );
    // The one 200 is the request that settled it (with the text); every other copy says
    // "still settling" (with Retry-After) or, once settled, that the permit opens nothing again.
    let oks: Vec<_> = results.iter().filter(|r| r.0 == StatusCode::OK).collect();
    assert!(oks.len() <= 1, "{statuses:?}");
    for r in &oks {
        assert!(r.1["body"].is_string(), "{}", r.1);
    }
    for r in results.iter().filter(|r| r.0 == StatusCode::CONFLICT) {
        assert!(
            r.2.get("retry-after").is_some()
                || r.1["error"].as_str().unwrap().contains("settled already"),
            "{}",
            r.1
        );
        assert!(r.1.get("body").is_none(), "{}", r.1);
    }
    // After it settled, the same payment again: no text (retries carry a payment-identifier).
    let (s, again, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(s, StatusCode::CONFLICT, "{again}");
    assert!(again.get("body").is_none());
    assert_eq!(
        shop.usdg(buyer.address).await,
        before - U256::from(price),
        "charged once"
    );
}

/// One test per fault point: the service crashes there, restarts and finishes the purchase.
macro_rules! crash_then_restart_at {
    ($($(#[doc = $doc:literal])* $name:ident: $fault:ident,)*) => {$(
        $(#[doc = $doc])*
        #[actix_web::test]
        async fn $name() {
            crash_then_restart(FaultPoint::$fault).await;
        }
    )*};
}

crash_then_restart_at! {
    a_crash_after_sending_is_finished_on_restart_with_one_charge: AfterSend,
    /// The transaction is on the chain but its hash never reached the database: recovery finds
    /// it from the USDG transfer and the settle calldata.
    a_crash_before_recording_the_transaction_is_found_on_restart: BeforeRecord,
    /// The row is written, nothing was sent: the restarted instance sends the still-valid permit.
    a_crash_before_sending_is_sent_on_restart: BeforeSend,
    /// The signed transaction's hash is recorded but it never reached the node: the hash is
    /// unknown to the chain, the nonce unused, the permit valid: sent again.
    a_crash_between_recording_and_sending_is_sent_on_restart: AfterRecord,
}

async fn crash_then_restart(fault: FaultPoint) {
    let shop = Shop::open_with(|s| s.payments.fault = fault).await;
    let (id, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let offer = shop.offer("pay/burn", id).await;
    // Decoys for the search: the same buyer pays the same amount to the same recipient, once
    // through the proxy's settle with another nonce and once by a plain transfer.
    let decoy = sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap();
    let settled = relayer_facilitator(&shop.chain)
        .settle(&decoy, &offer.accepts[0], now())
        .await;
    assert!(settled.success, "{settled:?}");
    let pay_to: Address = offer.accepts[0].pay_to.parse().unwrap();
    IERC20::new(shop.chain.devnet.contracts.usdg, shop.chain.provider(buyer))
        .transfer(pay_to, U256::from(price))
        .mined()
        .await;
    let before = shop.usdg(buyer.address).await;
    let payment = journal_market_client::payer::with_payment_id(
        sign_payment(&offer.accepts[0], None, &buyer.signer().unwrap(), now()).unwrap(),
        &journal_market_client::payer::new_payment_id().unwrap(),
    );
    let (s, _, _) = shop.raw_pay("pay/burn", id, Some(&payment)).await;
    assert_eq!(
        s,
        StatusCode::INTERNAL_SERVER_ERROR,
        "the fault hook stopped the settlement"
    );
    shop.app.stop().await;

    let mut settings = shop.app.settings.clone();
    settings.payments.fault = FaultPoint::None;
    settings.demo.load_on_first_start = false;
    let restarted = TestApp::start_on(settings, shop.app.db.clone()).await;
    let client = restarted.client.clone();
    client.login(&buyer.signer().unwrap()).await.unwrap();
    let mut unlocked = false;
    for _ in 0..100 {
        if client.journal(&slug).await.unwrap().unlocked {
            unlocked = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(unlocked, "recovery finished the purchase");
    assert_eq!(shop.usdg(buyer.address).await, before - U256::from(price));
    // The client retries the same payment (with its payment-identifier) after its timeout:
    // the text, no second charge.
    let c = journal_market_client::Client::new(restarted.base.clone()).unwrap();
    let r = c.pay_request("pay/burn", id, Some(&payment)).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.json::<Value>().await.unwrap()["body"].is_string());
    assert_eq!(shop.usdg(buyer.address).await, before - U256::from(price));

    // The recorded transaction is this payment's settle, not a decoy's.
    use alloy::consensus::Transaction as _;
    use alloy::providers::Provider as _;
    use alloy::sol_types::SolCall as _;
    use journal_market_entity::payments;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let row = payments::Entity::find()
        .filter(payments::Column::JournalId.eq(id as i32))
        .one(&shop.app.db.connect().await)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.state.as_str(), "settled");
    let tx = row.tx.unwrap();
    assert_ne!(tx.to_string(), settled.transaction);
    let sent = shop
        .chain
        .provider(buyer)
        .get_transaction_by_hash(tx.into())
        .await
        .unwrap()
        .unwrap();
    let call = journal_market_chain::bindings::IX402ExactPermit2Proxy::settleCall::abi_decode(
        sent.inner.input(),
    )
    .unwrap();
    assert_eq!(call.permit.nonce.to_string(), row.permit_nonce);
    assert_eq!(call.owner, buyer.address);
}

/// A requirement to burn `amount` for journal 1, as the service would send it, and the first
/// buyer's payment for it.
pub(crate) fn burn_payment(
    chain: &TestChain,
    amount: i64,
) -> (PaymentPayload, PaymentRequirements) {
    let c = &chain.devnet.contracts;
    let terms = journal_market::purchase::terms::Terms {
        origin: "http://127.0.0.1".into(),
        api_prefix: "/api".into(),
        now: chrono::Utc::now(),
        chain_id: 4663,
        usdg: c.usdg,
        proxy: c.permit2_proxy,
        amount,
        pay_to: chain.account("buyback", 0).address,
        resource_url: "http://x/api/pay/burn".into(),
        route: journal_market::purchase::terms::Route::Pay { journal_id: 1 },
        sponsoring: false,
    };
    let r = journal_market::purchase::terms::requirements(&terms);
    let buyer = chain.account("buyer", 0).signer().unwrap();
    (sign_payment(&r, None, &buyer, now()).unwrap(), r)
}

#[actix_web::test]
async fn the_facilitator_speaks_x402_v2() {
    let chain = TestChain::start().await;
    let url = start_facilitator(&chain).await;
    let http = reqwest::Client::new();
    let supported = send_json(http.get(format!("{url}/supported"))).await;
    assert_eq!(
        supported["kinds"][0],
        serde_json::json!({ "x402Version": 2, "scheme": "exact", "network": "eip155:4663" })
    );
    assert_eq!(
        supported["signers"]["eip155:*"][0]
            .as_str()
            .unwrap()
            .parse::<Address>()
            .unwrap(),
        chain.account("relayer", 0).address
    );

    // A requirement and a payment for it, as the service would send them.
    let (payment, requirements) = burn_payment(&chain, 250_000);
    let c = &chain.devnet.contracts;
    let buyer = chain.account("buyer", 0);
    let body = serde_json::json!({ "x402Version": 2, "paymentPayload": payment, "paymentRequirements": requirements });

    // An authorized POST of `body` to a facilitator endpoint, decoded.
    let call = |path: &'static str| {
        let (http, url, body) = (http.clone(), url.clone(), body.clone());
        async move {
            send_json(
                http.post(format!("{url}/{path}"))
                    .bearer_auth(FACILITATOR_TOKEN)
                    .json(&body),
            )
            .await
        }
    };
    let no_token = http
        .post(format!("{url}/verify"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), StatusCode::UNAUTHORIZED);
    let bad = http
        .post(format!("{url}/verify"))
        .bearer_auth(FACILITATOR_TOKEN)
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let ok: Value = call("verify").await;
    assert_eq!(ok["isValid"], true, "{ok}");

    let before = IERC20::new(c.usdg, chain.provider(buyer))
        .balanceOf(buyer.address)
        .call()
        .await
        .unwrap();
    let settled: x402::SettleResponse = serde_json::from_value(call("settle").await).unwrap();
    assert!(
        settled.success && settled.transaction.starts_with("0x"),
        "{settled:?}"
    );
    assert_eq!(settled.network, "eip155:4663");
    let after = IERC20::new(c.usdg, chain.provider(buyer))
        .balanceOf(buyer.address)
        .call()
        .await
        .unwrap();
    assert_eq!(after, before - U256::from(250_000u64));
    // The same payload again: the first answer, and nothing moves; `/verify` says why.
    let again: x402::SettleResponse = serde_json::from_value(call("settle").await).unwrap();
    assert_eq!(again.transaction, settled.transaction);
    let unchanged = IERC20::new(c.usdg, chain.provider(buyer))
        .balanceOf(buyer.address)
        .call()
        .await
        .unwrap();
    assert_eq!(unchanged, after);
    let invalid: Value = call("verify").await;
    assert_eq!(invalid["isValid"], false);
    assert_eq!(invalid["invalidReason"], "permit2_invalid_nonce");
}

/// A pending row as a crash before the settle call leaves it: payload stored, no transaction.
async fn leave_unsent(shop: &Shop, journal_id: i64, payment: &PaymentPayload, amount: i64) {
    use journal_market_entity::payments;
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    let a = &payment.payload.permit2_authorization;
    let deadline: i64 = a.deadline.parse().unwrap();
    let now = chrono::Utc::now();
    payments::ActiveModel {
        wallet: Set(a.from.parse().unwrap()),
        journal_id: Set(journal_id as i32),
        step: Set("burn".into()),
        amount_units: Set(amount),
        pay_to: Set(a.witness.to.parse().unwrap()),
        permit_nonce: Set(a.nonce.clone()),
        permit_deadline: Set(chrono::DateTime::from_timestamp(deadline, 0).unwrap()),
        payload: Set(serde_json::to_string(payment).unwrap()),
        state: Set(journal_market_entity::PaymentState::Pending),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&shop.app.db.connect().await)
    .await
    .unwrap();
}

async fn state_after_restart(shop: &Shop, journal_id: i64, wallet: Address) -> String {
    use journal_market_entity::payments;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    shop.app.stop().await;
    let mut settings = shop.app.settings.clone();
    settings.demo.load_on_first_start = false;
    let _restarted = TestApp::start_on(settings, shop.app.db.clone()).await;
    let db = shop.app.db.connect().await;
    for _ in 0..100 {
        let row = payments::Entity::find()
            .filter(payments::Column::JournalId.eq(journal_id as i32))
            .filter(payments::Column::Wallet.eq(journal_market_entity::Wallet(wallet)))
            .one(&db)
            .await
            .unwrap()
            .unwrap();
        if row.state.as_str() != "pending" {
            return row.state.to_string();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    "pending".into()
}

#[actix_web::test]
async fn recovery_fails_an_expired_unsent_permit() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let before = shop.usdg(buyer.address).await;
    let offer = shop.offer("pay/burn", id).await;
    // Signed long ago: its deadline has passed.
    let payment = sign_payment(
        &offer.accepts[0],
        None,
        &buyer.signer().unwrap(),
        now() - 600,
    )
    .unwrap();
    leave_unsent(&shop, id, &payment, price).await;
    assert_eq!(
        state_after_restart(&shop, id, buyer.address).await,
        "failed"
    );
    assert_eq!(shop.usdg(buyer.address).await, before, "nothing moved");
}

#[actix_web::test]
async fn recovery_sends_an_unsent_permit_that_is_still_valid() {
    let shop = Shop::open().await;
    let (id, _, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(1);
    let before = shop.usdg(buyer.address).await;
    let payment = shop.burn_payment_by(id, buyer).await;
    leave_unsent(&shop, id, &payment, price).await;
    assert_eq!(
        state_after_restart(&shop, id, buyer.address).await,
        "settled"
    );
    assert_eq!(
        shop.usdg(buyer.address).await,
        before - U256::from(price),
        "charged once"
    );
}

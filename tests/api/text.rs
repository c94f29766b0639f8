//! The paid text, `GET /journals/{slug}/text`: the challenge of the step due, the payment and
//! the text on the same URL, the signed receipt in PAYMENT-RESPONSE and `/me/history`, and the
//! discovery documents (`/.well-known/x402`, bazaar, `/meta/{id}`).

use alloy::primitives::{Address, U256};
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::devnet_file::Account;
use journal_market_client::payer::sign_payment;
use journal_market_x402::extensions::offer_receipt::{self, SignedReceipt};
use journal_market_x402::{self as x402, PaymentRequired, SettleResponse};
use reqwest::StatusCode;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::Value;

use crate::pay::{Shop, now};
use crate::replay::{assert_one_charge, charges};

/// What a GET answered: status, body, PAYMENT-REQUIRED, PAYMENT-RESPONSE, session cookie.
type Answer = (
    StatusCode,
    Value,
    Option<PaymentRequired>,
    Option<SettleResponse>,
    Option<String>,
);

/// One GET of `url`, with a payment signed for `pay` when given.
async fn get(
    http: &reqwest::Client,
    url: &str,
    pay: Option<(&PaymentRequired, &PrivateKeySigner)>,
) -> Answer {
    let mut rb = http.get(url);
    if let Some((c, signer)) = pay {
        let p = sign_payment(&c.accepts[0], Some(c.resource.clone()), signer, now()).unwrap();
        rb = rb.header(x402::HEADER_SIGNATURE, x402::encode_header(&p).unwrap());
    }
    let resp = rb.send().await.unwrap();
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .map(|h| h.to_str().unwrap().to_string())
    };
    let required = header(x402::HEADER_REQUIRED).map(|h| x402::decode_header(&h).unwrap());
    let settled = header(x402::HEADER_RESPONSE).map(|h| x402::decode_header(&h).unwrap());
    let cookie = header("set-cookie").map(|c| c.split(';').next().unwrap().to_string());
    let status = resp.status();
    (
        status,
        resp.json().await.unwrap(),
        required,
        settled,
        cookie,
    )
}

fn receipt_of(s: &SettleResponse) -> SignedReceipt {
    let ext = s
        .extensions
        .as_ref()
        .expect("the settle response has extensions");
    serde_json::from_value(ext[offer_receipt::KEY]["info"]["receipt"].clone()).unwrap()
}

#[actix_web::test]
async fn the_paid_text_sells_a_swarm_journal_with_a_signed_receipt() {
    let shop = Shop::open().await;
    let (_, slug, price) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let signer = buyer.signer().unwrap();
    let url = format!("{}/journals/{slug}/text", shop.app.base);
    let http = reqwest::Client::new();

    let (s, body, c, ..) = get(&http, &url, None).await;
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{body}");
    let c = c.expect("PAYMENT-REQUIRED");
    assert_eq!(c.resource.url, url, "the resource is the URL asked");
    assert_eq!(c.accepts[0].amount, price.to_string());
    let ext = c.extensions.clone().unwrap();
    assert_eq!(ext["bazaar"]["routeTemplate"], "/api/journals/:slug/text");
    assert_eq!(ext["bazaar"]["info"]["input"]["method"], "GET");
    assert_eq!(ext["bazaar"]["info"]["input"]["pathParams"]["slug"], slug);
    assert!(ext.get("sign-in-with-x").is_some() && ext.get("payment-identifier").is_some());

    let (s, body, _, settled, cookie) = get(&http, &url, Some((&c, &signer))).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(body["body"].as_str().unwrap().contains("## "), "{body}");
    let settled = settled.expect("PAYMENT-RESPONSE");
    assert!(settled.success);
    assert_eq!(body["tx"], settled.transaction);

    // The receipt: signed by the key /config names, for this payer, URL and transaction.
    let receipt = receipt_of(&settled);
    let config = shop.app.client.config().await.unwrap();
    let signer_address: Address = config.receipt_signer.unwrap().parse().unwrap();
    assert_eq!(offer_receipt::recover(&receipt).unwrap(), signer_address);
    assert_eq!(receipt.payload.payer, buyer.address.to_checksum(None));
    assert_eq!(receipt.payload.resource_url, url);
    assert_eq!(receipt.payload.transaction, settled.transaction);
    assert_eq!(receipt.payload.network, "eip155:4663");

    // It binds what was delivered: the body's hash is the body's (the rest is checked by
    // `a_delivery_receipt_holds_until_a_byte_changes`).
    let d = receipt
        .payload
        .delivery
        .clone()
        .expect("a delivery receipt");
    assert_eq!(receipt.payload.version, 2);
    assert_eq!(
        (
            d.response_hash_alg.as_str(),
            d.response_hash_encoding.as_str()
        ),
        ("sha256", "raw")
    );

    // The history lists the receipt of the payment (version 1: the same payment, signed by the
    // same key); the chain shows one charge.
    let (s, h) = shop.app.get_as("/me/history", &cookie.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let listed: SignedReceipt = serde_json::from_value(h["unlocks"][0]["receipt"].clone()).unwrap();
    assert_eq!(
        listed.payload,
        offer_receipt::ReceiptPayload {
            version: 1,
            delivery: None,
            ..receipt.payload.clone()
        }
    );
    assert_eq!(offer_receipt::recover(&listed).unwrap(), signer_address);
    assert_one_charge(&shop, buyer.address, price).await;
}

/// A delivery receipt binds the text as delivered, the audit report it was sold under and the
/// cited entries' sources: the client crate's verifier (`jm verify-receipt`) recomputes each
/// from the public API, and fails, naming which, when one byte of the body or of a cited source
/// changes.
#[actix_web::test]
async fn a_delivery_receipt_holds_until_a_byte_changes() {
    use journal_market_client::receipt::{Mismatch, verify};
    let shop = Shop::open().await;
    let (_, slug, _) = shop.swarm_journal().await;
    let buyer = shop.buyer(0);
    let client = shop.client();
    let bought = client.buy(&slug, &buyer.signer().unwrap()).await.unwrap();
    let saved = bought.saved.expect("the delivering answer, as received");

    let v = verify(&client, &saved).await.unwrap();
    assert_eq!(v.slug, slug);
    assert_eq!(v.payer, buyer.address.to_checksum(None));
    assert_eq!(Some(&v.transaction), bought.txs.last());

    // One byte of the text.
    let mut body = saved.clone();
    let at = body.body.find("## ").expect("a heading") + 3;
    body.body.replace_range(at..at + 1, "#");
    assert!(matches!(
        verify(&client, &body).await,
        Err(Mismatch::ResponseHash)
    ));

    // One byte of a cited entry's source, as the archive serves it.
    change_a_cited_source(&shop, &slug).await;
    sources_no_longer_hold(&client, &saved).await;
}

/// Adds one byte to the source of `slug`'s first cited entry, as the archive serves it.
pub(crate) async fn change_a_cited_source(shop: &Shop, slug: &str) {
    let cited = shop.client().journal(slug).await.unwrap().evidence[0]
        .id
        .clone();
    let db = shop.app.db.connect().await;
    journal_market_entity::entries::Entity::update_many()
        .col_expr(
            journal_market_entity::entries::Column::Says,
            sea_orm::sea_query::Expr::cust("says || '.'"),
        )
        .filter(journal_market_entity::entries::Column::Accession.eq(cited.as_str()))
        .exec(&db)
        .await
        .unwrap();
}

/// Asserts that the receipt of `saved` fails on the cited sources (once the archive's cached
/// answers have gone).
pub(crate) async fn sources_no_longer_hold(
    client: &journal_market_client::Client,
    saved: &journal_market_client::receipt::SavedAnswer,
) {
    use journal_market_client::receipt::{Mismatch, verify};
    let mut outcome = verify(client, saved).await;
    for _ in 0..50 {
        if matches!(outcome, Err(Mismatch::SourcesHash)) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        outcome = verify(client, saved).await;
    }
    assert!(matches!(outcome, Err(Mismatch::SourcesHash)), "{outcome:?}");
}

/// A person-written journal of 2.5 USDG on sale, and who buys it.
struct Person {
    author: Address,
    buyer: Account,
    signer: PrivateKeySigner,
    /// The text's URL as listed, and with the buyer as `?payer=`.
    plain: String,
    named: String,
}

async fn person_written() -> (Shop, Person) {
    let shop = Shop::open().await;
    let (_, slug) = shop.person_journal(0, "2.5").await;
    let buyer = shop.buyer(1).clone();
    let plain = format!("{}/journals/{slug}/text", shop.app.base);
    let person = Person {
        author: shop.chain.account("author", 0).address,
        signer: buyer.signer().unwrap(),
        named: format!("{plain}?payer={}", buyer.address.to_checksum(None)),
        plain,
        buyer,
    };
    (shop, person)
}

#[actix_web::test]
async fn a_person_written_journal_is_paid_step_by_step_on_one_url() {
    let (
        shop,
        Person {
            author,
            buyer,
            signer,
            plain,
            named: url,
        },
    ) = person_written().await;
    // No cookies: each request stands alone, as a plain x402 client's do.
    let http = reqwest::Client::new();

    let (s, _, c, ..) = get(&http, &url, None).await;
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED);
    let c = c.unwrap();
    assert_eq!(c.resource.url, url, "the hint is part of the resource");
    assert_eq!(c.accepts[0].amount, "250000", "the fee first");
    assert_eq!(
        c.accepts[0].pay_to.parse::<Address>().unwrap(),
        shop.buyback()
    );
    let (s, body, _, settled, _) = get(&http, &url, Some((&c, &signer))).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(
        body.get("body").is_none(),
        "the fee opens nothing yet: {body}"
    );
    assert!(settled.unwrap().success);

    // The same URL now offers the author's share; paying it answers the text.
    let (s, _, c, ..) = get(&http, &url, None).await;
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED);
    let c = c.unwrap();
    assert_eq!(c.accepts[0].amount, "2250000");
    assert_eq!(c.accepts[0].pay_to.parse::<Address>().unwrap(), author);
    let (s, body, _, settled, _) = get(&http, &url, Some((&c, &signer))).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(body["body"].as_str().unwrap().contains("## "));
    // A receipt names the journal's text, whichever URL paid for it.
    let receipt = receipt_of(&settled.unwrap());
    assert_eq!(receipt.payload.resource_url, plain);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(250_000)),
            (author, U256::from(2_250_000))
        ]
    );

    // Without a hint an unknown caller is offered the first step; a bad hint is a 400.
    let (_, _, c, ..) = get(&http, &plain, None).await;
    assert_eq!(c.unwrap().accepts[0].amount, "250000");
    let (s, body, ..) = get(&http, &format!("{plain}?payer=0x12"), None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("payer"), "{body}");
}

/// A plain x402 client follows the URL `/.well-known/x402` lists (no `?payer=`): the fee's answer
/// names the next URL (`next` and a `Link` header); paying the fee again there is a 402 offering
/// the author's share, nothing charged, never `{ ok, already }`; the next URL sells the text.
/// Charges judged from the chain's transfers.
#[actix_web::test]
async fn a_plain_client_on_the_listed_url_is_led_to_the_step_due() {
    let (
        shop,
        Person {
            author,
            buyer,
            signer,
            plain,
            named,
        },
    ) = person_written().await;
    let http = reqwest::Client::new();

    let (_, _, c, ..) = get(&http, &plain, None).await;
    let fee = c.unwrap();
    assert_eq!(fee.accepts[0].amount, "250000");
    let resp = {
        let p = sign_payment(&fee.accepts[0], Some(fee.resource.clone()), &signer, now()).unwrap();
        http.get(&plain)
            .header(x402::HEADER_SIGNATURE, x402::encode_header(&p).unwrap())
            .send()
            .await
            .unwrap()
    };
    assert_eq!(resp.status(), StatusCode::OK);
    let link = resp
        .headers()
        .get("link")
        .map(|h| h.to_str().unwrap().to_string());
    assert_eq!(link, Some(format!("<{named}>; rel=\"next\"")));
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["next"], named.as_str(), "{body}");
    assert!(body.get("body").is_none(), "{body}");

    // The listed URL again: it cannot know the wallet, so it offers the fee; the fee paid again
    // is refused with the author's offer at the named URL, and nothing moves.
    let (_, _, c, ..) = get(&http, &plain, None).await;
    let again = c.unwrap();
    assert_eq!(again.accepts[0].amount, "250000");
    let (s, body, c, settled, _) = get(&http, &plain, Some((&again, &signer))).await;
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{body}");
    assert!(settled.is_none());
    assert_ne!(body.get("already"), Some(&Value::Bool(true)), "{body}");
    let offer = c.unwrap();
    assert_eq!(offer.resource.url, named);
    assert_eq!(offer.accepts[0].amount, "2250000");
    assert_eq!(offer.accepts[0].pay_to.parse::<Address>().unwrap(), author);
    assert!(
        offer.error.contains("nothing was charged"),
        "{}",
        offer.error
    );

    // The named URL sells the text.
    let (s, body, _, settled, _) = get(&http, &named, Some((&offer, &signer))).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert!(body["body"].as_str().unwrap().contains("## "));
    assert!(body.get("next").is_none(), "{body}");
    assert!(settled.unwrap().success);
    assert_eq!(
        charges(&shop, buyer.address).await,
        vec![
            (shop.buyback(), U256::from(250_000)),
            (author, U256::from(2_250_000))
        ]
    );
}

#[actix_web::test]
async fn catalogues_find_every_journal_and_how_to_buy_it() {
    let shop = Shop::open().await;
    let (id, slug) = shop.person_journal(0, "3").await;
    let origin = shop.app.base.trim_end_matches("/api").to_string();
    let doc: Value = reqwest::get(format!("{origin}/.well-known/x402"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["version"], 1);
    let live = shop.app.client.journals(None).await.unwrap().journals;
    let resources: Vec<&str> = doc["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    for j in &live {
        let text = format!("{}/journals/{}/text", shop.app.base, j.slug);
        assert!(resources.contains(&text.as_str()), "{text} is listed");
    }
    let item = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["journal"]["slug"] == slug.as_str())
        .unwrap();
    assert_eq!(item["journal"]["priceUnits"], "3000000");
    assert_eq!(item["journal"]["signatures"], 2);
    assert_eq!(item["accepts"][0]["amount"], "300000");
    assert_eq!(item["input"]["routeTemplate"], "/api/journals/:slug/text");
    let config = shop.app.client.config().await.unwrap();
    assert_eq!(
        doc["receiptSigner"].as_str(),
        config.receipt_signer.as_deref()
    );

    let meta = shop.app.client.registration(id).await.unwrap();
    assert!(meta.x402_support);
    let endpoints: Vec<(&str, &str)> = meta
        .services
        .iter()
        .map(|s| (s.name.as_str(), s.endpoint.as_str()))
        .collect();
    let text = format!("{}/journals/{slug}/text", shop.app.base);
    assert!(
        endpoints.contains(&("x402", text.as_str())),
        "{endpoints:?}"
    );
    let burn = format!("{}/pay/burn", shop.app.base);
    assert!(endpoints.contains(&("x402-pay-burn", burn.as_str())));
}

#[actix_web::test]
async fn a_fee_receipt_names_the_fee_and_its_amount_not_the_text() {
    let shop = Shop::open().await;
    let (id, slug) = shop.person_journal(0, "2.5").await;
    let config = shop.app.client.config().await.unwrap();
    let receipt_key: Address = config.receipt_signer.unwrap().parse().unwrap();
    let text = format!("{}/journals/{slug}/text", shop.app.base);
    let fee = format!(
        "{}/pay/burn?journalId={id}&step=fee&amount=250000",
        shop.app.base
    );
    let http = reqwest::Client::new();

    // The fee paid on the text's URL.
    let buyer = shop.buyer(1);
    let signer = buyer.signer().unwrap();
    let url = format!("{text}?payer={}", buyer.address.to_checksum(None));
    let (_, _, c, ..) = get(&http, &url, None).await;
    let (s, body, _, settled, _) = get(&http, &url, Some((&c.unwrap(), &signer))).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let receipt = receipt_of(&settled.unwrap());
    assert_eq!(offer_receipt::recover(&receipt).unwrap(), receipt_key);
    assert_eq!(
        receipt.payload.resource_url, fee,
        "the fee step and its amount"
    );
    assert!(!receipt.payload.resource_url.contains("/text"));

    // The fee paid on /pay/burn names the same.
    let buyer = shop.buyer(2);
    let signer = buyer.signer().unwrap();
    let burn = format!("{}/pay/burn", shop.app.base);
    let ask = || {
        http.post(&burn)
            .json(&serde_json::json!({ "journalId": id }))
    };
    let resp = ask().send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::PAYMENT_REQUIRED);
    let c: PaymentRequired =
        x402::decode_header(resp.headers()[x402::HEADER_REQUIRED].to_str().unwrap()).unwrap();
    let p = sign_payment(&c.accepts[0], Some(c.resource.clone()), &signer, now()).unwrap();
    let resp = ask()
        .header(x402::HEADER_SIGNATURE, x402::encode_header(&p).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let settled: SettleResponse =
        x402::decode_header(resp.headers()[x402::HEADER_RESPONSE].to_str().unwrap()).unwrap();
    let receipt = receipt_of(&settled);
    assert_eq!(receipt.payload.resource_url, fee);
    assert_eq!(receipt.payload.transaction, settled.transaction);

    // The author's share, which opens the text, names the text.
    let (_, _, c, ..) = get(&http, &url_of(&text, &shop.buyer(1).address), None).await;
    let (s, _, _, settled, _) = get(
        &http,
        &url_of(&text, &shop.buyer(1).address),
        Some((&c.unwrap(), &shop.buyer(1).signer().unwrap())),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(receipt_of(&settled.unwrap()).payload.resource_url, text);
}

fn url_of(text: &str, payer: &Address) -> String {
    format!("{text}?payer={}", payer.to_checksum(None))
}

#[actix_web::test]
async fn challenges_for_named_payers_are_bounded() {
    let shop = Shop::open_with(|s| {
        s.metrics.listen = "127.0.0.1:0".into();
        s.cache.public_ttl_ms = 600_000;
    })
    .await;
    let (_, slug) = shop.person_journal(0, "2").await;
    let text = format!("{}/journals/{slug}/text", shop.app.base);
    let http = reqwest::Client::new();
    let before = crate::journals::rss_kib();
    for _ in 0..300 {
        let payer = PrivateKeySigner::random().address();
        let (s, body, c, ..) = get(&http, &url_of(&text, &payer), None).await;
        assert_eq!(s, StatusCode::PAYMENT_REQUIRED, "{body}");
        assert_eq!(c.unwrap().resource.url, url_of(&text, &payer));
    }
    let (s, ..) = get(&http, &text, None).await;
    assert_eq!(s, StatusCode::PAYMENT_REQUIRED);
    let grown = crate::journals::rss_kib().saturating_sub(before);
    eprintln!("300 payers' challenges: resident memory grew by {grown} KiB");
    let metrics = crate::metrics::scrape(&shop.app).await;
    let kept = crate::metrics::expect(&metrics, "jm_cache_entries{cache=\"payer_challenges\"}");
    assert!(kept <= 256.0, "{kept} per-payer challenges kept");
    crate::metrics::assert_series(
        &metrics,
        &[
            ("jm_cache_entries{cache=\"challenges\"}", 1.0),
            ("jm_cache_entries{cache=\"journals\"}", 1.0),
        ],
    );
}

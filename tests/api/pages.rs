//! The public site: every `url` the API hands out answers a page; pages, feeds and the sitemap
//! agree with the API; an owner's page shows the text; nothing is fetched from elsewhere.

use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, CONTENT_ENCODING, CONTENT_TYPE};

use crate::helpers::TestApp;
use crate::pay::Shop;

/// The site's root address of a test app (its `/api` base without `/api`).
fn root(app: &TestApp) -> String {
    app.base.trim_end_matches("/api").to_string()
}

/// A page's status, content type and text.
async fn page(app: &TestApp, path: &str, cookie: Option<&str>) -> (StatusCode, String, String) {
    let mut rb = app.http.get(format!("{}{path}", root(app)));
    if let Some(c) = cookie {
        rb = rb.header("cookie", c);
    }
    let resp = rb.send().await.expect("request");
    let status = resp.status();
    let ct = resp
        .headers()
        .get(CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ct, resp.text().await.unwrap())
}

/// Every address the page's markup loads (scripts, styles, images, frames), not its links.
fn loaded(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for tag in [
        "<script", "<link", "<img", "<iframe", "<source", "<video", "<audio",
    ] {
        for (i, _) in html.match_indices(tag) {
            let end = html[i..].find('>').map(|e| i + e).unwrap_or(html.len());
            let el = &html[i..end];
            if el.starts_with("<link")
                && !el.contains("rel=\"stylesheet\"")
                && !el.contains("rel=\"icon\"")
            {
                continue; // canonical and alternate links are addresses, not loads
            }
            for attr in ["src=\"", "href=\""] {
                if let Some(s) = el.find(attr) {
                    let v = &el[s + attr.len()..];
                    out.push(v[..v.find('"').unwrap_or(v.len())].to_string());
                }
            }
        }
    }
    out
}

fn path_of(url: &str) -> &str {
    let after = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    after.find('/').map(|i| &after[i..]).unwrap_or("/")
}

#[actix_web::test]
async fn every_url_the_api_hands_out_is_a_page() {
    let app = TestApp::spawn().await;
    let list = app.client.journals(None).await.unwrap().journals;
    assert!(!list.is_empty(), "the demo has journals");
    let origin = app.settings.origin().to_string();
    for j in &list {
        assert!(j.url.starts_with(&origin), "{} under {origin}", j.url);
        let (status, ct, html) = page(&app, path_of(&j.url), None).await;
        assert_eq!(status, StatusCode::OK, "{}", j.url);
        assert!(ct.starts_with("text/html"), "{ct}");
        let escaped_title = j.title.replace('&', "&amp;").replace('"', "&quot;");
        assert!(html.contains(&escaped_title), "{} names its title", j.url);
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"{}\">", j.url)),
            "{} is its own canonical address",
            j.url
        );
        assert!(html.contains("property=\"og:title\""));
        assert!(
            html.contains(&format!("Buy for {} USDG", j.price_usdg)),
            "{}",
            j.url
        );
        let detail = app.client.journal(&j.slug).await.unwrap();
        assert!(detail.body.is_none());
        // Evidence in citation order, each linking to its entry's page, which answers.
        let mut at = 0;
        for e in &detail.evidence {
            let link = format!("href=\"/entry/{}\"", e.id);
            let found = html[at..]
                .find(&link)
                .unwrap_or_else(|| panic!("{} lists {} after the earlier evidence", j.url, e.id));
            at += found + link.len();
        }
        let e = &detail.evidence[0];
        assert!(e.url.starts_with(&origin));
        let (status, _, entry_html) = page(&app, path_of(&e.url), None).await;
        assert_eq!(status, StatusCode::OK, "{}", e.url);
        let says = app.client.entry(&e.id).await.unwrap().source.says;
        let first_words: String = says
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            entry_html.contains(&first_words.replace('&', "&amp;")),
            "the entry page says what its source says"
        );
        // The paid text is not on the public page.
        let full = app.client.journal(&j.slug).await.unwrap();
        assert!(full.body.is_none());
    }

    let (status, _, home) = page(&app, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    for j in list.iter().take(12) {
        assert!(
            home.contains(&format!("href=\"/journal/{}\"", j.slug)),
            "home lists {}",
            j.slug
        );
    }
    assert!(home.contains("href=\"/company/NVDA\""));
    assert!(home.contains("type=\"application/rss+xml\""));

    let (status, _, company) = page(&app, "/company/nvda", None).await;
    assert_eq!(status, StatusCode::OK, "a ticker in any case");
    for j in list.iter().filter(|j| j.company.ticker == "NVDA") {
        assert!(company.contains(&format!("href=\"/journal/{}\"", j.slug)));
    }
    for e in app
        .client
        .search_entries("NVDA")
        .await
        .unwrap()
        .iter()
        .take(5)
    {
        assert!(company.contains(&format!("href=\"/entry/{}\"", e.id)));
    }

    let run = app.client.swarm().await.unwrap();
    let (status, _, swarm) = page(&app, "/swarm", None).await;
    assert_eq!(status, StatusCode::OK);
    let mut at = 0;
    for l in &run.log {
        let line = format!("<time datetime=\"{}\">", l.ts);
        let found = swarm[at..].find(&line).expect("log lines in time order");
        at += found + line.len();
    }
    assert!(!run.log.is_empty());

    let (status, _, _) = page(&app, "/token", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[actix_web::test]
async fn feeds_and_the_sitemap_list_what_is_public() {
    let app = TestApp::spawn().await;
    let list = app.client.journals(None).await.unwrap().journals;
    let (status, ct, rss) = page(&app, "/journals.rss", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(ct.starts_with("application/rss+xml"), "{ct}");
    assert!(rss.starts_with("<?xml"));
    for j in &list {
        assert!(
            rss.contains(&format!("<link>{}</link>", j.url)),
            "{}",
            j.url
        );
    }
    assert_eq!(rss.matches("<item>").count(), list.len());

    let (status, _, entries_rss) = page(&app, "/company/NVDA/entries.rss", None).await;
    assert_eq!(status, StatusCode::OK);
    let nvda = app.client.search_entries("NVDA").await.unwrap();
    assert_eq!(entries_rss.matches("<item>").count(), nvda.len());

    let (status, ct, map) = page(&app, "/sitemap.xml", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(ct.starts_with("application/xml"), "{ct}");
    for j in &list {
        assert!(map.contains(&format!("<loc>{}</loc>", j.url)), "{}", j.url);
    }
    for e in app.client.entries().await.unwrap().iter().take(10) {
        assert!(map.contains(&format!("/entry/{}</loc>", e.id)), "{}", e.id);
    }
    let (status, _, robots) = page(&app, "/robots.txt", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(robots.contains("/sitemap.xml"));
}

#[actix_web::test]
async fn unknown_pages_are_404_pages() {
    let app = TestApp::spawn().await;
    for path in [
        "/journal/no-such-journal",
        "/journal/%3Cscript%3E",
        "/journal/",
        "/journal/a/b",
        "/entry/JM-NVDA-990101-01",
        "/company/XYZQ",
        "/company/XYZQ/entries.rss",
        "/assets/nothing.js",
    ] {
        let (status, ct, html) = page(&app, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(ct.starts_with("text/html"), "{path}: {ct}");
        assert!(html.contains("<h1>404 Not Found</h1>"), "{path}: {html}");
        assert!(
            !html.contains("<script>"),
            "{path} reflects nothing unescaped"
        );
    }
    // A page asked with another method is 405 with Allow, like the API's paths.
    let j = app.client.journals(None).await.unwrap().journals.remove(0);
    let resp = app
        .http
        .post(format!("{}/journal/{}", root(&app), j.slug))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(resp.headers()["allow"], "GET");
    crate::shape::assert_error_body(&resp.json().await.unwrap());
    // A path the site does not have stays the API's JSON 404.
    let resp = app.fetch(format!("{}/elsewhere", root(&app))).await;
    crate::shape::assert_error_answer(resp, StatusCode::NOT_FOUND).await;
}

#[actix_web::test]
async fn pages_load_nothing_from_elsewhere_and_stay_light() {
    let app = TestApp::spawn().await;
    let j = app.client.journals(None).await.unwrap().journals.remove(0);
    for path in [
        "/".to_string(),
        format!("/journal/{}", j.slug),
        "/swarm".into(),
        "/desk".into(),
    ] {
        let (_, _, html) = page(&app, &path, None).await;
        let loads = loaded(&html);
        assert!(!loads.is_empty(), "{path} loads its stylesheet");
        for l in loads {
            assert!(
                l.starts_with('/') && !l.starts_with("//") || l.starts_with("data:"),
                "{path} loads {l} from elsewhere"
            );
            if !l.starts_with("data:") {
                let (status, _, _) = page(&app, &l, None).await;
                assert_eq!(status, StatusCode::OK, "{l}");
            }
        }
        assert!(html.contains("name=\"viewport\""), "{path} fits a phone");
    }
    // The journal page's HTML and CSS, as sent to a browser that accepts gzip.
    let (_, _, html) = page(&app, &format!("/journal/{}", j.slug), None).await;
    let css = loaded(&html)
        .into_iter()
        .find(|l| l.contains(".css"))
        .unwrap();
    let mut total = 0;
    for path in [format!("/journal/{}", j.slug), css] {
        let resp = app
            .http
            .get(format!("{}{path}", root(&app)))
            .header(ACCEPT_ENCODING, "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(
            resp.headers().get(CONTENT_ENCODING).unwrap(),
            "gzip",
            "{path}"
        );
        total += resp.bytes().await.unwrap().len();
    }
    assert!(
        total < 40 * 1024,
        "a journal page weighs {total} bytes compressed"
    );
}

#[actix_web::test]
async fn an_owner_reads_the_text_on_the_page_and_a_purchase_shows_at_once() {
    // Pages cached for a minute: only the purchase's invalidation can show the new reader.
    let shop = Shop::open_with(|s| s.cache.public_ttl_ms = 60_000).await;
    let app = &shop.app;
    let (_, slug, _) = shop.swarm_journal().await;
    let before = app.client.journal(&slug).await.unwrap().item.readers;
    let (_, _, public) = page(app, &format!("/journal/{slug}"), None).await;
    assert!(
        public.contains(&format!("{before} readers")),
        "no reader yet"
    );

    let buyer = shop.client();
    let signer = shop.buyer(0).signer().unwrap();
    buyer.buy(&slug, &signer).await.unwrap();
    let cookie = buyer.session().expect("the purchase signed the buyer in");

    let body = app.client.journal(&slug).await.unwrap();
    assert!(body.body.is_none());
    let (status, _, owned) = page(app, &format!("/journal/{slug}"), Some(&cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(owned.contains("You own this journal."));
    assert!(owned.contains("<article class=\"text\""));
    // A reader sees how each sentence of record rests on the entries; the public page does not
    // (it would show the text).
    assert!(owned.contains("How each sentence rests on the entries"));
    assert!(owned.contains("<tr class=\"supported\""));
    assert!(!owned.contains("id=\"buy-button\""));
    // Another reader still sees the public page, with the new reader counted (the cache was
    // emptied by the purchase).
    let (_, _, public) = page(app, &format!("/journal/{slug}"), None).await;
    let readers = |n: i64| format!("{n} {}", if n == 1 { "reader" } else { "readers" });
    assert!(public.contains(&readers(before + 1)), "readers updated");
    assert!(!public.contains("You own this journal."));
    assert!(!public.contains("How each sentence rests on the entries"));

    // A person's journal's page names its card image, which answers.
    let (_, pslug) = shop.person_journal(0, "2").await;
    let (_, _, html) = page(app, &format!("/journal/{pslug}"), None).await;
    let at = html
        .find("property=\"og:image\" content=\"")
        .expect("an og:image");
    let rest = &html[at + "property=\"og:image\" content=\"".len()..];
    let image = &rest[..rest.find('"').unwrap()];
    let resp = app
        .fetch(image.replace(&app.settings.origin().to_string(), &root(app)))
        .await;
    assert_eq!(resp.status(), StatusCode::OK, "{image}");
    assert_eq!(resp.headers()[CONTENT_TYPE], "image/svg+xml");

    // The buyer's history page lists it; without a session it asks to sign in.
    let (_, _, history) = page(app, "/history", Some(&cookie)).await;
    assert!(history.contains(&format!("href=\"/journal/{slug}\"")));
    let (_, _, anonymous) = page(app, "/history", None).await;
    assert!(anonymous.contains("Sign in with your wallet"));
}

#[test]
fn loads_are_told_from_links() {
    let html = r#"<link rel="canonical" href="https://x/a"><link rel="stylesheet" href="/s.css"><script src="/w.js" defer></script><a href="https://elsewhere/">x</a>"#;
    assert_eq!(
        loaded(html),
        vec!["/w.js".to_string(), "/s.css".to_string()]
    );
}

/// The headers of a GET of `url`, with the cookie when given: status and headers.
async fn headers_of(
    app: &TestApp,
    url: &str,
    cookie: Option<&str>,
) -> (StatusCode, reqwest::header::HeaderMap) {
    let mut rb = app.http.get(url);
    if let Some(c) = cookie {
        rb = rb.header("cookie", c);
    }
    let resp = rb.send().await.expect("request");
    (resp.status(), resp.headers().clone())
}

fn header<'a>(h: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    h.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

/// A page's protections: its scripts and styles from this site only, never framed, never
/// sniffed, and no address of it sent to other sites.
fn assert_page_policy(what: &str, h: &reqwest::header::HeaderMap) {
    let csp = header(h, "content-security-policy");
    for part in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'none'",
    ] {
        assert!(csp.contains(part), "{what}: {part:?} in {csp:?}");
    }
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
    assert_eq!(header(h, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(h, "referrer-policy"), "same-origin", "{what}");
}

fn assert_private(what: &str, h: &reqwest::header::HeaderMap) {
    assert_eq!(header(h, "cache-control"), "private, no-store", "{what}");
    assert!(
        header(h, "vary").to_ascii_lowercase().contains("cookie"),
        "{what}: Vary {:?}",
        header(h, "vary")
    );
}

#[actix_web::test]
async fn pages_have_a_strict_policy_and_personal_answers_are_never_stored() {
    let shop = Shop::open().await;
    let app = &shop.app;
    let site = root(app);
    let (_, slug, _) = shop.swarm_journal().await;
    let (pid, pslug) = shop.person_journal(0, "2").await;

    // Every page, public or personal, found or not; the API's answers too.
    for path in [
        "/".to_string(),
        format!("/journal/{slug}"),
        "/desk".into(),
        "/history".into(),
        "/journal/no-such-journal".into(),
        "/assets/wallet.js".into(),
        "/api/journals".into(),
    ] {
        let (_, h) = headers_of(app, &format!("{site}{path}"), None).await;
        assert_page_policy(&path, &h);
    }

    // The buyer of the swarm journal, signed in by the purchase.
    let buyer = shop.client();
    let signer = shop.buyer(0).signer().unwrap();
    buyer.buy(&slug, &signer).await.unwrap();
    let cookie = buyer.session().expect("the purchase signed the buyer in");
    let id = app.client.journal(&slug).await.unwrap().item.journal_id;
    for path in [
        "/me".to_string(),
        "/me/desk".into(),
        "/me/history".into(),
        format!("/journal/{id}/body"),
        format!("/journals/{slug}"),
    ] {
        let (status, h) = headers_of(app, &format!("{}{path}", app.base), Some(&cookie)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_private(&path, &h);
    }
    // The body's id is written as the id is: with a leading zero it names nothing.
    let (status, h) = headers_of(
        app,
        &format!("{}/journal/0{id}/body", app.base),
        Some(&cookie),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_private("/journal/0{id}/body", &h);
    // A personal answer refused is not stored either.
    let (status, h) = headers_of(app, &format!("{}/me/desk", app.base), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_private("/me/desk signed out", &h);
    // The public detail is the same address: it varies with the cookie.
    let (_, h) = headers_of(app, &format!("{}/journals/{slug}", app.base), None).await;
    assert!(header(&h, "vary").to_ascii_lowercase().contains("cookie"));
    assert_ne!(header(&h, "cache-control"), "private, no-store");

    // The author's draft.
    let author = shop.client();
    author
        .login(&shop.chain.account("author", 0).signer().unwrap())
        .await
        .unwrap();
    let cookie = author.session().unwrap();
    let url = format!("{}/journal/{pid}/draft", app.base);
    let (status, h) = headers_of(app, &url, Some(&cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert_private("draft", &h);

    // The text bought on its own URL (no cookie at all): the paid answer is private.
    use journal_market_x402::{self as x402, PaymentRequired};
    let url = format!("{}/journals/{pslug}/text", app.base);
    let resp = app.http.get(&url).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::PAYMENT_REQUIRED);
    let c: PaymentRequired =
        x402::decode_header(resp.headers()[x402::HEADER_REQUIRED].to_str().unwrap()).unwrap();
    let signer = shop.buyer(1).signer().unwrap();
    let p = journal_market_client::payer::sign_payment(
        &c.accepts[0],
        Some(c.resource.clone()),
        &signer,
        crate::pay::now(),
    )
    .unwrap();
    let resp = app
        .http
        .get(&url)
        .header(x402::HEADER_SIGNATURE, x402::encode_header(&p).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_private("the paid fee on /text", resp.headers());
}

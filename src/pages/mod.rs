//! The public site: server-rendered HTML at the addresses the API hands out (`url` of journals
//! and entries, a vote's endpoint, the registration file's links), beside `/api` at the origin's
//! root. Readable without JavaScript; the wallet scripts only act (buy, sign in, publish, vote).
//!
//! Public pages are cached as the bytes sent, in the public caches every write empties; a
//! page that depends on the session (an owner's journal, the desk, the history) never is.

use std::future::Future;

use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use alloy::primitives::Address;
use journal_market_api::TokenLedger;
use maud::Markup;

pub use error::{PageError, PageResult, error_page, not_found_page};

use self::layout::Links;
use crate::answers::resource;
use crate::session::Viewer;
use crate::state::AppState;

pub mod account;
pub mod assets;
pub mod chart;
pub mod error;
pub mod feeds;
pub mod layout;
pub mod parts;
pub mod views;

const HTML: &str = "text/html; charset=utf-8";
const RSS: &str = "application/rss+xml; charset=utf-8";
const XML: &str = "application/xml; charset=utf-8";

pub fn configure(cfg: &mut web::ServiceConfig) {
    // Matched in order, and each pattern with a `{…}` costs a regex run: the hottest page is
    // a static prefix whose handler reads the slug itself.
    cfg.service(web::scope("/journal").default_service(web::to(journal)))
        .service(resource("/", "GET").route(web::get().to(home)))
        .service(resource("/entry/{accession}", "GET").route(web::get().to(entry)))
        .service(resource("/company/{ticker}", "GET").route(web::get().to(company)))
        .service(
            resource("/company/{ticker}/entries.rss", "GET")
                .route(web::get().to(company_entries_rss)),
        )
        .service(resource("/swarm", "GET").route(web::get().to(swarm)))
        .service(resource("/token", "GET").route(web::get().to(token)))
        .service(resource("/desk", "GET").route(web::get().to(desk)))
        .service(resource("/history", "GET").route(web::get().to(history)))
        .service(resource("/journals.rss", "GET").route(web::get().to(journals_rss)))
        .service(resource("/sitemap.xml", "GET").route(web::get().to(sitemap)))
        .service(resource("/robots.txt", "GET").route(web::get().to(robots)));
    assets::configure(cfg);
}

fn links(state: &AppState) -> Links<'_> {
    Links {
        origin: state.site.origin(),
        api: state.site.api_prefix(),
    }
}

/// A public page: from the page cache, or rendered once and kept there.
async fn cached<F, Fut>(
    state: &AppState,
    key: String,
    content_type: &'static str,
    render: F,
) -> PageResult
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<String, PageError>>,
{
    let bytes = state
        .catalog
        .caches()
        .pages
        .get_or_try(&key, || async { render().await.map(Bytes::from) })
        .await?;
    Ok(HttpResponse::Ok().content_type(content_type).body(bytes))
}

/// A page made for one session: no shared cache may keep it.
fn personal(html: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(HTML)
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .insert_header((header::VARY, "Cookie"))
        .body(html)
}

async fn home(state: web::Data<AppState>) -> PageResult {
    cached(&state, "/".into(), HTML, || async {
        let journals = state.catalog.journal_items(None).await?;
        let entries = state.catalog.newest_entry_rows().await?;
        let companies = state.catalog.companies().await?;
        Ok(views::home(&links(&state), &journals, &entries, &companies).into_string())
    })
    .await
}

/// `/journal/{slug or id}`.
async fn journal(state: web::Data<AppState>, req: HttpRequest, viewer: Viewer) -> PageResult {
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return Ok(crate::answers::not_allowed(&req, "GET"));
    }
    // Anything but one segment is no journal's key (the catalogue refuses it as not found).
    let slug = req.path().strip_prefix("/journal/").unwrap_or_default();
    let l = links(&state);
    // An owner's page first; everyone else gets the public page, from the cache when it is
    // there (a reader without a session costs one cache lookup).
    // One page per journal in the cache, by id, whether asked by slug or id (a key that is not
    // canonical, `/journal/0007`, is not found).
    let live = state.catalog.live(slug).await?;
    if let Some(wallet) = viewer.0 {
        let live = state.catalog.with_tallies(live.clone()).await?;
        if state.purchases.access(wallet, &live).await?.reads() {
            return Ok(personal(
                views::journal(&l, &live.detail, Some((&live.body, &live.support))).into_string(),
            ));
        }
    }
    let key = format!("/journal#{}", live.id);
    let mut resp = cached(&state, key, HTML, || async {
        let live = state.catalog.with_tallies(live).await?;
        Ok(views::journal(&l, &live.detail, None).into_string())
    })
    .await?;
    // The same address shows the text to its owners.
    resp.headers_mut()
        .insert(header::VARY, HeaderValue::from_static("Cookie"));
    Ok(resp)
}

async fn entry(state: web::Data<AppState>, accession: web::Path<String>) -> PageResult {
    let key = format!("/entry/{accession}");
    cached(&state, key, HTML, || async {
        let e = state.catalog.entry(accession.as_str()).await?;
        Ok(views::entry(&links(&state), &e).into_string())
    })
    .await
}

async fn company(state: web::Data<AppState>, ticker: web::Path<String>) -> PageResult {
    let c = state.catalog.company(ticker.as_str()).await?;
    cached(&state, format!("/company/{}", c.ticker), HTML, || async {
        let journals = state.catalog.journal_items(Some(&c.ticker)).await?;
        let entries = state.catalog.search_rows(&c.ticker).await?;
        let quotes = &state.onchain.quotes;
        let quote = if !quotes.knows(&c.ticker) {
            views::Quote::None(format!("No stock token of {} on this chain.", c.ticker))
        } else {
            match quotes.mid(&c.ticker).await {
                Ok(m) => views::Quote::Mid(m),
                Err(e) => views::Quote::None(format!("No quote right now: {e}.")),
            }
        };
        Ok(views::company(&links(&state), &c, &journals, &entries, &quote).into_string())
    })
    .await
}

async fn company_entries_rss(state: web::Data<AppState>, ticker: web::Path<String>) -> PageResult {
    let c = state.catalog.company(ticker.as_str()).await?;
    let key = format!("/company/{}/entries.rss", c.ticker);
    cached(&state, key, RSS, || async {
        let rows = state.catalog.search_rows(&c.ticker).await?;
        Ok(feeds::company_entries(state.site.origin(), &c, &rows))
    })
    .await
}

async fn swarm(state: web::Data<AppState>) -> PageResult {
    cached(&state, "/swarm".into(), HTML, || async {
        let run = state.catalog.swarm_run().await?;
        Ok(views::swarm(&links(&state), &run).into_string())
    })
    .await
}

async fn token(state: web::Data<AppState>) -> PageResult {
    // The indexer empties no page cache: the time-to-live bounds how far the page trails the
    // ledger's own last answer, and the chart's read of the swaps runs once per page kept.
    cached(&state, "/token".into(), HTML, || async {
        let bytes = state.onchain.token.answer().await?;
        let ledger: Option<TokenLedger> = serde_json::from_slice(&bytes)
            .map_err(|e| PageError(crate::error::DomainError::internal(e)))?;
        let chart = match &ledger {
            Some(l) => state.onchain.token.chart(l.block).await?,
            None => None,
        };
        Ok(views::token(&links(&state), ledger.as_ref(), chart.as_ref()).into_string())
    })
    .await
}

/// A page about the signed-in viewer: what `load` reads for them (nothing when signed out),
/// drawn by `draw`, never cached.
async fn about_viewer<T, E, Fut>(
    viewer: Viewer,
    load: impl FnOnce(Address) -> Fut,
    draw: impl FnOnce(Option<&T>) -> Markup,
) -> PageResult
where
    Fut: Future<Output = Result<T, E>>,
    PageError: From<E>,
{
    let read = match viewer.0 {
        Some(w) => Some(load(w).await?),
        None => None,
    };
    Ok(personal(draw(read.as_ref()).into_string()))
}

async fn desk(state: web::Data<AppState>, viewer: Viewer) -> PageResult {
    let l = links(&state);
    about_viewer(viewer, |w| state.accounts.desk(w), |d| account::desk(&l, d)).await
}

async fn history(state: web::Data<AppState>, viewer: Viewer) -> PageResult {
    let l = links(&state);
    about_viewer(
        viewer,
        |w| state.accounts.history(w),
        |h| account::history(&l, h),
    )
    .await
}

async fn journals_rss(state: web::Data<AppState>) -> PageResult {
    cached(&state, "/journals.rss".into(), RSS, || async {
        let list = state.catalog.journal_items(None).await?;
        Ok(feeds::journals(state.site.origin(), &list))
    })
    .await
}

async fn sitemap(state: web::Data<AppState>) -> PageResult {
    cached(&state, "/sitemap.xml".into(), XML, || async {
        let map = state.catalog.sitemap().await?;
        Ok(feeds::sitemap(state.site.origin(), &map))
    })
    .await
}

async fn robots(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(feeds::robots(state.site.origin()))
}

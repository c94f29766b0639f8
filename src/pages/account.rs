//! The signed-in wallet's pages: the writing desk and the reading history. Without a session
//! each is a sign-in page (the wallet script signs the sign-in message and reloads).

use journal_market_api::{Desk, History};
use maud::{Markup, html};

use super::layout::{Head, Links, day, page, short_address, usdg};

fn signin(l: &Links, what: &str) -> Markup {
    html! {
        section.panel #signin aria-labelledby="signin-title" data-api=(l.api) {
            h2 #signin-title { "Sign in with your wallet" }
            p { "Your " (what) " belongs to your wallet. Signing the sign-in message costs nothing and moves no funds." }
            button #signin-button type="button" disabled { "Sign in with a wallet" }
            p.status #signin-status role="status" aria-live="polite" {}
            noscript { p { "Signing in needs a browser wallet and JavaScript." } }
        }
    }
}

/// A page of the signed-in wallet, kept from search engines: `body` under the wallet's address,
/// or the sign-in box (`what` names the page in it) without a session.
fn wallet_page(
    l: &Links,
    mut head: Head,
    scripts: &[&str],
    what: &str,
    signed_in: Option<(&str, Markup)>,
) -> Markup {
    head.private = true;
    page(
        l,
        &head,
        scripts,
        html! {
            h1 { (head.title) }
            @match signed_in {
                None => { (signin(l, what)) }
                Some((address, body)) => {
                    p.meta { "Signed in as " code title=(address) { (short_address(address)) } }
                    (body)
                }
            }
        },
    )
}

pub fn desk(l: &Links, desk: Option<&Desk>) -> Markup {
    let head = Head::new(
        "Writing desk",
        "Your journals: drafts, audits, registrations, reads and earnings.",
        "/desk",
    );
    let body = desk.map(|d| {
        let written = html! {
            dl.facts {
                dt { "Earned" } dd { (usdg(d.totals.earned_units)) " USDG" }
                dt { "Live journals" } dd { (d.totals.live) }
                dt { "Reads" } dd { (d.totals.reads) }
            }
            h2 { "Your journals" }
            @if d.written.is_empty() {
                p { "You have not written a journal yet." }
            } @else {
                div.scroll {
                    table {
                        thead { tr {
                            th scope="col" { "Title" } th scope="col" { "Status" }
                            th scope="col" { "Reads" } th scope="col" { "Earned" } th scope="col" { "Votes" }
                            th scope="col" { span.skip-label { "Action" } }
                        } }
                        tbody {
                            @for w in &d.written {
                                tr {
                                    td {
                                        @match (&w.slug, w.status.as_str()) {
                                            (Some(slug), "live") => { a href={ "/journal/" (slug) } { (w.title) } }
                                            _ => { (w.title) }
                                        }
                                        " " span.meta { (w.ticker) " · #" (w.id) }
                                    }
                                    td { (w.status) }
                                    td { (w.reads) }
                                    td { (usdg(w.earned)) " USDG" }
                                    td { "▲ " (w.up) " ▼ " (w.down) }
                                    td {
                                        @if w.status != "live" {
                                            button.secondary.edit type="button" data-edit=(w.id) disabled
                                                aria-label={ "Edit " (w.title) } { "Edit" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            div #editor {}
        };
        (d.address.as_str(), written)
    });
    wallet_page(
        l,
        head,
        &["/assets/wallet.js", "/assets/desk.js"],
        "desk",
        body,
    )
}

pub fn history(l: &Links, history: Option<&History>) -> Markup {
    let head = Head::new(
        "Reading history",
        "The journals your wallet bought and the votes it cast.",
        "/history",
    );
    let body = history.map(|h| {
        let read = html! {
            h2 { "Bought" }
            @if h.unlocks.is_empty() {
                p { "You have not bought a journal yet." }
            } @else {
                ul.cards {
                    @for u in &h.unlocks {
                        li {
                            h3 { a href={ "/journal/" (u.slug) } { (u.title) } }
                            p.meta {
                                (u.ticker) " · by " (u.author_name) " · paid " (usdg(u.paid_units)) " USDG on "
                                time datetime=(u.paid_at) { (day(&u.paid_at)) }
                            }
                        }
                    }
                }
            }
            h2 { "Votes" }
            @if h.votes.is_empty() {
                p { "You have not voted yet." }
            } @else {
                ul.cards {
                    @for v in &h.votes {
                        li {
                            a href={ "/journal/" (v.slug) } { (v.title) }
                            " " span.meta { @if v.value > 0 { "▲ up" } @else { "▼ down" } " · " (day(&v.created_at)) }
                        }
                    }
                }
            }
        };
        (h.address.as_str(), read)
    });
    wallet_page(l, head, &["/assets/wallet.js"], "history", body)
}

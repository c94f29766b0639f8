//! The public pages' markup: home, company, journal, entry, swarm and token. Pure functions of
//! what the services read, so each is unit-tested without a server.

use journal_market_api::{
    Company, EntryDetail, EntryRow, EntrySearchRow, JournalDetail, JournalListItem, SwarmRun,
    TokenLedger,
};
use maud::{Markup, html};

use super::layout::{
    Head, Links, count, day, describe, figure, money, page, short_address, trusted,
};
use super::parts::{author, entry_item, journal_cards, search_item, signatures, verified_stamp};
use crate::domain::render::to_html;
use crate::domain::swap_buckets::SwapBuckets;

pub fn home(
    l: &Links,
    journals: &[JournalListItem],
    entries: &[EntryRow],
    companies: &[Company],
) -> Markup {
    let mut head = Head::new(
        "Journal Market",
        "Journals about companies that cite a free archive of sourced entries. Read the archive free; buy a journal's text in USDG with a wallet.",
        "/",
    );
    head.feeds
        .push(("New journals".into(), format!("{}/journals.rss", l.origin)));
    page(
        l,
        &head,
        &[],
        html! {
            h1 { "Company journals that cite their sources" }
            p.dek {
                "Every claim in a journal points to an entry of the archive, which is free to read. "
                "An audit agent checks each person's draft against the entries it cites before it goes on sale."
            }
            section aria-labelledby="new-journals" {
                h2 #new-journals { "New journals" }
                (journal_cards(&journals[..journals.len().min(12)]))
            }
            section aria-labelledby="new-entries" {
                h2 #new-entries { "New entries" }
                @if entries.is_empty() {
                    p { "The archive is empty." }
                } @else {
                    ul.cards { @for e in entries.iter().take(20) { (entry_item(e)) } }
                }
            }
            section aria-labelledby="companies" {
                h2 #companies { "Companies" }
                ul {
                    @for c in companies {
                        li { a href={ "/company/" (c.ticker) } { (c.name) " (" (c.ticker) ")" } }
                    }
                }
            }
        },
    )
}

/// The stock token's quote as the company page shows it: a price, or why there is none.
pub enum Quote {
    Mid(f64),
    None(String),
}

pub fn company(
    l: &Links,
    c: &Company,
    journals: &[JournalListItem],
    entries: &[EntrySearchRow],
    quote: &Quote,
) -> Markup {
    let path = format!("/company/{}", c.ticker);
    let title = format!("{} ({})", c.name, c.ticker);
    let description = format!(
        "Journals and archive entries about {}: {} journals, {} entries.",
        c.name,
        journals.len(),
        entries.len()
    );
    let mut head = Head::new(&title, &description, &path);
    head.feeds.push((
        format!("{} entries", c.ticker),
        format!("{}/company/{}/entries.rss", l.origin, c.ticker),
    ));
    page(
        l,
        &head,
        &[],
        html! {
            h1 { (title) }
            dl.facts {
                dt { "Stock token" }
                dd {
                    @match quote {
                        Quote::Mid(m) => { (figure(*m, 4)) " USDG (mid price)" }
                        Quote::None(why) => { (why) }
                    }
                }
            }
            section aria-labelledby="journals" {
                h2 #journals { "Journals" }
                (journal_cards(journals))
            }
            section aria-labelledby="entries" {
                h2 #entries { "Entries" }
                @if entries.is_empty() {
                    p { "No entry about " (c.name) " yet." }
                } @else {
                    ul.cards { @for e in entries { (search_item(e)) } }
                }
                p.meta { a href={ "/company/" (c.ticker) "/entries.rss" } { "RSS of these entries" } }
            }
        },
    )
}

/// What the journal page knows of its reader.
pub enum Reader {
    /// No session, or one that did not buy it: the public page (cached).
    Public,
    /// A wallet that reads the text: its own page (never cached).
    Owner,
}

/// A journal's page; `text`, for those who may read it: the text and how each of its sentences
/// of record rests on the cited entries (the audit's support map).
pub fn journal(
    l: &Links,
    j: &JournalDetail,
    text: Option<(&str, &[journal_market_audit::Support])>,
) -> Markup {
    let i = &j.item;
    let path = format!("/journal/{}", i.slug);
    let mut head = Head::new(&i.title, &i.preview, &path);
    head.og_type = "article";
    // The registration file's card: a person's journal has one (the swarm registers none).
    if !i.author.swarm {
        head.image = Some(format!(
            "{}{}/meta/{}/image.svg",
            l.origin, l.api, i.journal_id
        ));
    }

    let description = describe(&i.preview);
    head.description = &description;
    let steps = if i.signatures == 1 {
        "One signature pays the whole price.".to_string()
    } else {
        "Two signatures: the first pays the 10% fee, the second the author's 90%.".to_string()
    };
    page(
        l,
        &head,
        &["/assets/wallet.js"],
        html! {
            article {
                p.meta { a href={ "/company/" (i.company.ticker) } { (i.company.name) " (" (i.company.ticker) ")" } }
                h1 { (i.title) }
                p.dek { (i.preview) }
                p.meta {
                    "By " (author(&i.author)) " · "
                    time datetime=(i.published_at) { (day(&i.published_at)) } " · "
                    (i.read_minutes) " min read · " (count(i.entries_cited, "entry", "entries")) " cited"
                    @if let (Some(from), Some(to)) = (&j.covers.from, &j.covers.to) {
                        " · covers " (from) " to " (to)
                    }
                }
                @match text {
                    Some((text, support)) => {
                        section.panel #buy aria-labelledby="owned" {
                            h2 #owned { "Your copy" }
                            p.status.ok role="status" { "You own this journal." }
                        }
                        article.text aria-label="Journal text" { (trusted(to_html(text, l.origin))) }
                        (rests_on(support))
                    }
                    None => {
                        section.panel #buy aria-labelledby="buy-title"
                            data-slug=(i.slug) data-journal-id=(i.journal_id) data-price-units=(i.price_units)
                            data-signatures=(i.signatures) data-api=(l.api) {
                            h2 #buy-title { "Buy for " (figure(i.price_usdg, 6)) " USDG" }
                            p { (signatures(i.signatures)) ", in USDG on chain 4663. " (steps) }
                            div.actions {
                                button #buy-button type="button" disabled { "Buy for " (figure(i.price_usdg, 6)) " USDG" }
                                " "
                                button.secondary #signin-button type="button" disabled { "Already bought? Sign in" }
                            }
                            p.status #buy-status role="status" aria-live="polite" {}
                            noscript {
                                p {
                                    "Buying needs a browser wallet and JavaScript. Agents and x402 clients buy at "
                                    code { (l.api) "/journals/" (i.slug) "/text" } "."
                                }
                            }
                        }
                        div #text {}
                    }
                }
                section aria-labelledby="audit" {
                    h2 #audit { "Audit" }
                    p {
                        strong { (j.audit.verdict) } " · score " (figure(j.audit.score, 0)) "/100"
                    }
                    @if !j.audit.summary.is_empty() { p { (j.audit.summary) } }
                    @if !j.audit.issues.is_empty() {
                        ul.issues {
                            @for is in &j.audit.issues {
                                li class=(is.severity) { strong { (is.severity) } " " code { (is.check) } ": " (is.detail) }
                            }
                        }
                    }
                }
                section aria-labelledby="evidence" {
                    h2 #evidence { "Evidence" }
                    ol.evidence {
                        @for e in &j.evidence {
                            li value=(e.n) {
                                a href={ "/entry/" (e.id) } { (e.title) } " "
                                span.meta { (e.date) " · " (e.kind) " · " (e.source) " · " (e.id) }
                                @for q in &e.quotes { blockquote { (q) } }
                            }
                        }
                    }
                }
                section aria-labelledby="readers" {
                    h2 #readers { "Readers and votes" }
                    p { (count(i.readers, "reader", "readers")) " · ▲ " (i.votes.up) " up · ▼ " (i.votes.down) " down" }
                    @if !i.author.swarm && j.token_id.is_some() {
                        div #vote data-slug=(i.slug) data-token-id=[j.token_id] {
                            p.meta { "Readers who bought it vote onchain with their wallet." }
                            button.secondary #vote-up type="button" disabled { "Vote up" } " "
                            button.secondary #vote-down type="button" disabled { "Vote down" }
                            p.status #vote-status role="status" aria-live="polite" {}
                        }
                    }
                }
                section aria-labelledby="onchain" {
                    h2 #onchain { "Onchain" }
                    dl.facts {
                        @if let Some(id) = j.token_id {
                            dt { "Identity" }
                            dd {
                                "token " (id) " · "
                                a href={ (l.api) "/meta/" (i.journal_id) } { "registration file" }
                                @if !j.token_final { " (not final yet)" }
                            }
                        }
                        @if let Some(tx) = &j.mint_tx { dt { "Registered in" } dd { code title=(tx) { (short_address(tx)) } } }
                        @if let Some(h) = &j.content_hash { dt { "Content hash" } dd { code { (h) } } }
                        @if let Some(p) = j.stock_token_price_at_publication {
                            dt { "Stock token at publication" } dd { (figure(p, 4)) " USDG" }
                        }
                        @if let Some(holds) = j.author_holds_stock_token {
                            dt { "Author holds the stock token" } dd { @if holds { "yes" } @else { "no" } }
                        }
                    }
                }
            }
        },
    )
}

pub fn entry(l: &Links, e: &EntryDetail) -> Markup {
    let path = format!("/entry/{}", e.id);
    let description = describe(&e.summary);
    let mut head = Head::new(&e.title, &description, &path);
    head.og_type = "article";
    page(
        l,
        &head,
        &[],
        html! {
            article {
                p.meta { a href={ "/company/" (e.company.ticker) } { (e.company.name) " (" (e.company.ticker) ")" } }
                h1 { (e.title) }
                p.meta {
                    time datetime=(e.date_of_record) { (e.date_of_record) } " · " (e.kind) " · desk " (e.desk)
                    " · " (verified_stamp(e.verified))
                }
                p.dek { (e.summary) }
                section aria-labelledby="source" {
                    h2 #source { "What the source says" }
                    blockquote { (e.source.says) }
                    p.meta {
                        "Source: " a href=(e.source.url) rel="nofollow noopener" { (e.source.name) }
                    }
                }
                dl.facts {
                    dt { "Accession" } dd { code { (e.id) } }
                    @if let Some(s) = &e.story { dt { "Story" } dd { (s) } }
                    dt { "Filed" } dd { time datetime=(e.filed_at) { (e.filed_at) } }
                    dt { "Claims check" } dd {
                        @if e.verified { "passed: every claim matches the source" } @else { "not passed yet" }
                    }
                }
            }
        },
    )
}

pub fn swarm(l: &Links, run: &SwarmRun) -> Markup {
    let head = Head::new(
        "The swarm's latest sitting",
        "The automated agents' latest sitting: what they looked at, what they filed, and its log line by line.",
        "/swarm",
    );
    page(
        l,
        &head,
        &["/assets/swarm.js"],
        html! {
            h1 { "The swarm" }
            @match &run.sitting {
                None => { p { "No sitting has finished yet." } }
                Some(s) => {
                    p.dek { "Sitting " (s.id) " of " (s.date) }
                    dl.facts {
                        dt { "Started" } dd { time datetime=(s.started_at) { (s.started_at) } }
                        dt { "Finished" } dd { time datetime=(s.finished_at) { (s.finished_at) } }
                        dt { "Leads" } dd { (s.leads) }
                        dt { "Filed" } dd { (s.filed) }
                        dt { "Spend" } dd { (figure(s.spend_usd, 2)) " USD" }
                        @if !s.note.is_empty() { dt { "Note" } dd { (s.note) } }
                    }
                    h2 { "Log" }
                    p { button.secondary #replay type="button" hidden { "Replay the log" } }
                    ol.log #log {
                        @for l in &run.log {
                            li {
                                time datetime=(l.ts) { (l.ts.get(11..19).unwrap_or(&l.ts)) }
                                span.desk { (l.desk) }
                                span class=(l.level) { (l.message) }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// The ledger's figures, and its swaps over time (`chart`, read up to the ledger's block).
pub fn token(l: &Links, t: Option<&TokenLedger>, chart: Option<&SwapBuckets>) -> Markup {
    let head = Head::new(
        "Token ledger",
        "The community token's ledger, indexed from the chain: swaps, fees, burns, holders.",
        "/token",
    );
    page(
        l,
        &head,
        &[],
        html! {
            h1 { "Token ledger" }
            @match t {
                None => { p { "No community token is configured on this service." } }
                Some(t) => {
                    p.meta {
                        "Indexed to block " (t.block.map(|b| b.to_string()).unwrap_or_else(|| "–".into()))
                        @if !t.caught_up { " (catching up)" }
                        @if let Some(at) = &t.updated_at { " · updated " (at) }
                    }
                    dl.facts {
                        dt { "Token" } dd { code { (t.ca) } }
                        dt { "Pool" } dd { code { (t.pool) } }
                        dt { "Price" } dd { (opt_usd(t.price_usd)) }
                        dt { "Market cap" } dd { (opt_usd(t.market_cap_usd)) }
                        dt { "Volume, 24 h" } dd { (opt_usd(t.volume24h_usd)) }
                        dt { "Swaps" } dd { (t.swaps) }
                        dt { "Volume" } dd { (figure(t.volume_weth, 6)) " WETH" }
                        dt { "Fees" } dd { (figure(t.fees_weth, 6)) " WETH and " (figure(t.fees_dove, 2)) " tokens (" (opt_usd(t.fees_usd)) ")" }
                        dt { "Committed to buybacks" } dd { (figure(t.committed_weth, 6)) " WETH (" (opt_usd(t.committed_usd)) ")" }
                        dt { "Burned" } dd { (figure(t.burned, 2)) " tokens (" (figure(t.burned_pct, 4)) "%)" }
                        dt { "Holders" } dd { (t.holders_total) }
                        dt { "Pool fee" } dd { (figure(t.pool_fee_pct, 2)) "%, creator share " (figure(t.creator_share_pct, 2)) "%, buyback " (figure(t.buyback_pct, 2)) "%" }
                    }
                    @if let Some(c) = chart { (super::chart::swaps(c)) }
                    h2 { "Latest burns" }
                    @if t.burns.is_empty() {
                        p { "No burn yet." }
                    } @else {
                        div.scroll {
                            table {
                                thead { tr { th scope="col" { "Block" } th scope="col" { "Amount" } th scope="col" { "Transaction" } } }
                                tbody {
                                    @for b in &t.burns {
                                        tr { td { (b.block) } td { (figure(b.amount, 2)) } td { code title=(b.tx) { (short_address(&b.tx)) } } }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// Each sentence of record of a text with its judgement and the entry sentence it rests on.
fn rests_on(support: &[journal_market_audit::Support]) -> Markup {
    html! {
        @if !support.is_empty() {
            section aria-labelledby="support" {
                h2 #support { "How each sentence rests on the entries" }
                div.scroll {
                    table.support {
                        thead { tr {
                            th scope="col" { "Sentence" } th scope="col" { "Judgement" }
                            th scope="col" { "Rests on" }
                        } }
                        tbody {
                            @for s in support {
                                tr class=(s.judgement.as_str()) {
                                    td { (s.sentence) }
                                    td {
                                        (s.judgement.as_str())
                                        @if !s.missing.is_empty() { ": not found " (s.missing.join(", ")) }
                                    }
                                    td { a href={ "/entry/" (s.entry) } { (s.entry) } " " (s.quote) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn opt_usd(v: Option<f64>) -> String {
    v.map(|v| format!("{} USD", money(v)))
        .unwrap_or_else(|| "–".into())
}

/// A page for an error: its status as the heading, the sentence the API would send.
pub fn error(status: u16, reason: &str, message: &str) -> Markup {
    let title = format!("{status} {reason}");
    let head = Head {
        private: true,
        ..Head::new(&title, message, "/")
    };
    page(
        &Links {
            origin: "",
            api: "",
        },
        &head,
        &[],
        html! {
            h1 { (title) }
            p { (message) }
            p { a href="/" { "Back to the newest journals" } }
        },
    )
}

//! Pieces several pages show: a journal's card, an entry's line, an author's name.

use journal_market_api::{Author, EntryRow, EntrySearchRow, JournalListItem};
use maud::{Markup, html};

use super::layout::{count, day, figure, short_address};

pub fn author(a: &Author) -> Markup {
    html! {
        @if a.swarm {
            span { (a.name) " (the swarm)" }
        } @else {
            span { (a.name) }
            @if let Some(w) = &a.wallet {
                " " span.meta title=(w) { (short_address(w)) }
            }
        }
    }
}

/// "1 signature" / "2 signatures": what a purchase asks of the wallet.
pub fn signatures(n: u8) -> String {
    if n == 1 {
        "1 signature".into()
    } else {
        format!("{n} signatures")
    }
}

pub fn journal_card(j: &JournalListItem, heading: &str) -> Markup {
    html! {
        li {
            @if heading == "h2" {
                h2 { a href={ "/journal/" (j.slug) } { (j.title) } }
            } @else {
                h3 { a href={ "/journal/" (j.slug) } { (j.title) } }
            }
            p.meta {
                a href={ "/company/" (j.company.ticker) } { (j.company.ticker) } " · "
                (author(&j.author)) " · "
                time datetime=(j.published_at) { (day(&j.published_at)) }
            }
            p { (j.preview) }
            p.meta {
                strong { (figure(j.price_usdg, 6)) " USDG" } " · " (signatures(j.signatures))
                " · audit " (figure(j.audit_score, 0)) "/100 · "
                (j.read_minutes) " min · " (count(j.entries_cited, "entry", "entries")) " cited · "
                (count(j.readers, "reader", "readers")) " · ▲ " (j.votes.up) " ▼ " (j.votes.down)
            }
        }
    }
}

pub fn journal_cards(list: &[JournalListItem]) -> Markup {
    html! {
        @if list.is_empty() {
            p { "No journal is on sale yet." }
        } @else {
            ul.cards { @for j in list { (journal_card(j, "h3")) } }
        }
    }
}

fn stamp(verified: bool) -> Markup {
    html! {
        @if verified { span.tag.verified { "verified" } } @else { span.tag { "filed" } }
    }
}

pub fn entry_item(e: &EntryRow) -> Markup {
    html! {
        li {
            h3 { a href={ "/entry/" (e.id) } { (e.title) } }
            p.meta {
                a href={ "/company/" (e.ticker) } { (e.ticker) } " · "
                time datetime=(e.date_of_record) { (e.date_of_record) } " · "
                (e.kind) " · " (e.source_name) " · " (stamp(e.stamp == "verified"))
            }
        }
    }
}

pub fn search_item(e: &EntrySearchRow) -> Markup {
    html! {
        li {
            h3 { a href={ "/entry/" (e.id) } { (e.title) } }
            p.meta {
                time datetime=(e.date_of_record) { (e.date_of_record) } " · "
                (e.kind) " · " (e.source_name)
            }
            p { (e.summary) }
        }
    }
}

pub fn verified_stamp(verified: bool) -> Markup {
    stamp(verified)
}

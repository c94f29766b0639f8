//! The causal and temporal links between the clauses of a sentence (`because`, `which is
//! why`, `after`), and where a source sentence bears one out.

use super::judge::found;
use super::offers::Offer;
use super::times::time_frame;
use super::units::Unit;
use crate::builtin::tokens::Tok;

/// A link between two clauses: the first clause is the reason for the second, or came before
/// or after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Link {
    Causal,
    Temporal,
}

/// Link words; a causal link is not carried by a temporal one (`after` does not say
/// `because`), a temporal one is by a causal one.
const LINKS: &[(&[&str], Link)] = &[
    (&["because"], Link::Causal),
    (&["why"], Link::Causal),
    (&["therefore"], Link::Causal),
    (&["hence"], Link::Causal),
    (&["thus"], Link::Causal),
    (&["consequently"], Link::Causal),
    (&["due", "to"], Link::Causal),
    (&["owing", "to"], Link::Causal),
    (&["thanks", "to"], Link::Causal),
    (&["as", "a", "result"], Link::Causal),
    (&["so", "that"], Link::Causal),
    (&["led", "to"], Link::Causal),
    (&["leading", "to"], Link::Causal),
    (&["caused"], Link::Causal),
    (&["causing"], Link::Causal),
    (&["driven", "by"], Link::Causal),
    (&["resulting"], Link::Causal),
    (&["after"], Link::Temporal),
    (&["once"], Link::Temporal),
    (&["following"], Link::Temporal),
    (&["since"], Link::Temporal),
    (&["before"], Link::Temporal),
    (&["until"], Link::Temporal),
    (&["prior", "to"], Link::Temporal),
    (&["subsequently"], Link::Temporal),
    (&["amid"], Link::Temporal),
];

/// The links of a sentence: (first token, last token, kind).
pub(super) fn links(toks: &[Tok]) -> Vec<(usize, usize, Link)> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        // `the following decade` is a time frame, and `our following event` an adjective, not a
        // link.
        let determined = i > 0
            && matches!(
                toks[i - 1].word.as_str(),
                "the" | "a" | "an" | "our" | "its" | "their" | "his" | "her" | "this" | "that"
            );
        if time_frame(toks, i).is_some() || determined {
            continue;
        }
        for (words, link) in LINKS {
            let end = i + words.len();
            if end <= toks.len()
                && words
                    .iter()
                    .enumerate()
                    .all(|(k, w)| toks[i + k].word == *w)
            {
                out.push((i, end - 1, *link));
            }
        }
    }
    out
}

/// A link is found in a source sentence that has a link of its kind (a temporal one also in a
/// causal one) and holds units of both the clauses it joins.
pub(super) fn link_found(
    link: Link,
    at: usize,
    units: &[Unit],
    toks: &[Tok],
    offers: &[&Offer],
) -> bool {
    let before: Vec<&Unit> = units.iter().filter(|u| u.at < at).collect();
    let after: Vec<&Unit> = units.iter().filter(|u| u.at > at).collect();
    offers.iter().any(|o| {
        let kind = o
            .links
            .iter()
            .any(|l| *l == link || (link == Link::Temporal && *l == Link::Causal));
        let one = [*o];
        let holds = |side: &[&Unit]| side.is_empty() || side.iter().any(|u| found(u, toks, &one));
        kind && holds(&before) && holds(&after)
    })
}

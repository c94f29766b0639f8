//! The causal and temporal links between the clauses of a sentence (`because`, `which is
//! why`, `after`); where a source sentence bears one out is judged in `judge.rs`.

use super::times::time_frame;
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
    (&["followed"], Link::Temporal),
    (&["follows"], Link::Temporal),
    (&["preceded"], Link::Temporal),
    (&["precedes"], Link::Temporal),
    (&["since"], Link::Temporal),
    (&["before"], Link::Temporal),
    (&["until"], Link::Temporal),
    (&["prior", "to"], Link::Temporal),
    (&["subsequently"], Link::Temporal),
    (&["amid"], Link::Temporal),
];

/// Verbs of what is scheduled after `due to` (`due to ship`, `due to report`).
const SCHEDULED: &[&str] = &[
    "ship", "launch", "start", "begin", "arrive", "open", "close", "report", "be", "expire", "end",
    "deliver", "come", "release", "take",
];

/// `due to` and a verb of [`SCHEDULED`] at `i` (`samples due to ship next quarter`): a
/// schedule, as `will` tells one, no cause.
pub(super) fn scheduled(toks: &[Tok], i: usize) -> bool {
    toks[i].word == "due"
        && toks.get(i + 1).is_some_and(|t| t.word == "to")
        && toks
            .get(i + 2)
            .is_some_and(|t| SCHEDULED.contains(&t.word.as_str()))
}

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
        if time_frame(toks, i).is_some() || determined || scheduled(toks, i) {
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

/// News a market moves on (`The shares moved 5% on the report`).
pub(super) const OCCASIONS: &[&str] = &[
    "report",
    "reports",
    "news",
    "announcement",
    "results",
    "filing",
    "disclosure",
    "post",
];

/// The news of `toks` that something happened on (`moved 5% on the report`): it bears out
/// `after the report`.
pub(super) fn occasions(toks: &[Tok]) -> impl Iterator<Item = &str> {
    toks.windows(3)
        .filter(|w| {
            w[0].word == "on" && w[1].word == "the" && OCCASIONS.contains(&w[2].word.as_str())
        })
        .map(|w| w[2].word.as_str())
}

//! Two phrases that trade places around the same words: a draft's sentence that keeps a source
//! sentence's act and moves what stood on either side of it to the other (`lower cell costs
//! outweighed price cuts and tariff costs` for `price cuts and tariff costs outweighed lower
//! cell costs`; `hardware revenue rose 16%, while content and services revenue fell` for the
//! other way round). Common nouns as well as names: the roles check's names do not reach them.

use super::clause::{SIDES, SYMMETRIC, be_passive, verb};
use super::speakers::saying;
use super::tokens::Tok;

/// The longest phrase read on either side.
const SIDE: usize = 4;

/// The anchored tokens of `toks`: indices of the words alignment compares.
fn anchored(toks: &[Tok]) -> Vec<usize> {
    (0..toks.len())
        .filter(|&i| !toks[i].anchor.is_empty())
        .collect()
}

/// Whether the tokens `a..b` of `toks` say who acts or which side leads: a verb (not a
/// passive's) or a comparison's word, and no word that says the same of both sides.
fn directed(toks: &[Tok], a: usize, b: usize) -> bool {
    let words = &toks[a..b];
    let symmetric = words.iter().any(|t| SYMMETRIC.contains(&t.word.as_str()));
    let acts = (a..b)
        .any(|i| (verb(toks, i) && !be_passive(toks, i)) || SIDES.contains(&toks[i].word.as_str()));
    acts && !symmetric && !words.iter().any(|t| t.word == "by")
}

/// Words that open a phrase of when or where, which a draft may move to the front (`after a
/// five-day bootcamp`, `on November 29`): no party.
const ADVERBIAL: &[&str] = &[
    "after",
    "before",
    "on",
    "in",
    "at",
    "since",
    "during",
    "until",
    "following",
    "from",
    "over",
    "amid",
    "within",
];

/// Whether the phrase of `toks` from `from` to `to` (its anchored words) is a party's: not a
/// phrase of when or where, not who says it (`CNBC writes`, `@nvidia posted`).
fn party(toks: &[Tok], from: usize, to: usize) -> bool {
    let opener = toks[..from]
        .iter()
        .rev()
        .find(|t| !matches!(t.word.as_str(), "a" | "an" | "the" | "its" | "their"))
        .is_some_and(|t| ADVERBIAL.contains(&t.word.as_str()));
    let near = toks[from.saturating_sub(1)..(to + 2).min(toks.len())]
        .iter()
        .any(|t| saying(&t.word) || SPEECH_LEADS.contains(&t.word.as_str()));
    !opener && !near
}

/// Verbs of speech [`saying`] does not hold.
const SPEECH_LEADS: &[&str] = &[
    "writes", "wrote", "posted", "says", "said", "reported", "reports",
];

/// The two phrases of the source sentence `s` that the draft's `d` sets the other way round
/// about the same words, as written in `s`; `None` when there are none.
pub(super) fn transposed(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    let (da, sa) = (anchored(d), anchored(s));
    let key = |toks: &[Tok], ix: &[usize]| -> Vec<String> {
        ix.iter().map(|&i| toks[i].anchor.clone()).collect()
    };
    let (dk, sk) = (key(d, &da), key(s, &sa));
    for j in 0..sk.len() {
        for q in 0..dk.len() {
            if sk[j] != dk[q] || (j > 0 && q > 0 && sk[j - 1] == dk[q - 1]) {
                continue;
            }
            // The shared words, as long as they run on in both.
            let m = (0..)
                .take_while(|&k| j + k < sk.len() && q + k < dk.len() && sk[j + k] == dk[q + k])
                .count();
            for a in 1..=SIDE.min(j).min(dk.len() - q - m) {
                for b in 1..=SIDE.min(q).min(sk.len() - j - m) {
                    // In `s`: A, the shared words, B; in `d`: B, the shared words, A.
                    let first = &sk[j - a..j];
                    let second = &sk[j + m..j + m + b];
                    if first == second || dk[q + m..q + m + a] != *first || dk[q - b..q] != *second
                    {
                        continue;
                    }
                    // The words between the phrases, whole: in `s` from A's end to B's start,
                    // in `d` from B's end to A's start.
                    let (s_from, s_to) = (sa[j - 1] + 1, sa[j + m]);
                    let (d_from, d_to) = (da[q - 1] + 1, da[q + m]);
                    let parties = party(s, sa[j - a], sa[j - 1])
                        && party(s, sa[j + m], sa[j + m + b - 1])
                        && party(d, da[q - b], da[q - 1])
                        && party(d, da[q + m], da[q + m + a - 1]);
                    if parties && directed(s, s_from, s_to) && directed(d, d_from, d_to) {
                        let text = |toks: &[Tok], from: usize, to: usize| {
                            toks[from..=to]
                                .iter()
                                .map(|t| t.raw.as_str())
                                .collect::<Vec<_>>()
                                .join(" ")
                        };
                        return Some((
                            text(s, sa[j - a], sa[j - 1]),
                            text(s, sa[j + m], sa[j + m + b - 1]),
                        ));
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn moved(d: &str, s: &str) -> Option<(String, String)> {
        transposed(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn phrases_traded_around_an_act_are_read() {
        let s = "Margin slipped to 15% as price cuts and tariff costs outweighed lower cell costs.";
        let d = "Margin slipped to 15% as lower cell costs outweighed price cuts and tariff costs.";
        assert!(moved(d, s).is_some());
        let s =
            "Xbox content and services revenue rose 16%, while hardware revenue fell about 20%.";
        let d =
            "Xbox hardware revenue rose 16%, while content and services revenue fell about 20%.";
        assert!(moved(d, s).is_some());
        let s =
            "International commercial revenue grew only about 15%, well behind the U.S. business.";
        let d =
            "The U.S. business grew only about 15%, well behind international commercial revenue.";
        assert!(moved(d, s).is_some());
    }

    #[test]
    fn the_same_roles_in_other_words_are_not_read() {
        let s = "Price cuts and tariff costs outweighed lower cell costs.";
        assert!(moved(s, s).is_none());
        // Passive, and symmetric words.
        assert!(
            moved(
                "Lower cell costs were outweighed by price cuts.",
                "Price cuts outweighed lower cell costs."
            )
            .is_none()
        );
        assert!(
            moved(
                "Dell partnered with NVIDIA on racks.",
                "NVIDIA partnered with Dell on racks."
            )
            .is_none()
        );
        // Clauses in the other order keep their own words.
        let s = "Hardware revenue fell 20%, while services revenue rose 16%.";
        let d = "Services revenue rose 16%, while hardware revenue fell 20%.";
        assert!(moved(d, s).is_none());
        // A phrase of when, and who says it, moved to the other end.
        let s = "CNBC writes that Fannie Mae expanded its use of AIP after a five-day bootcamp.";
        let d = "After a five-day bootcamp, Fannie Mae expanded its use of AIP, CNBC writes.";
        assert!(moved(d, s).is_none());
    }
}

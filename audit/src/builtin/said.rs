//! Who said which clause: a sentence that tells what two speakers said (`@BradSmi posted that
//! Azure grew 38%, and Amy Hood said growth would have been higher with more capacity`) with
//! the speakers traded between the clauses (`Amy Hood posted that Azure grew 38%, and Brad
//! Smith said growth would have been higher`). Each speaker is the run of capitalised words (or
//! the handle) right before a verb of saying; what they said runs to the next speaker.

use super::clause::capital;
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::words::{is_stop, stem};

/// One speaker's words in a sentence.
struct Said {
    /// The speaker's words, lower case (`amy hood`, `bradsmi`).
    who: Vec<String>,
    /// The stems of what they said.
    what: Vec<String>,
}

/// (first word of the speaker, the verb) of each verb of saying after a name.
fn spans(toks: &[Tok]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for k in 1..toks.len() {
        // `NVIDIA said to have booked` is hearsay, no speaker.
        // The cheap tests first: a capitalised word before, then a verb of saying.
        let hearsay = toks.get(k + 1).is_some_and(|t| t.word == "to");
        if !toks[k - 1].raw.starts_with(char::is_uppercase)
            || hearsay
            || !capital(&toks[k - 1])
            || !saying(&toks[k].word)
        {
            continue;
        }
        let mut at = k - 1;
        while at > 0 && capital(&toks[at - 1]) {
            at -= 1;
        }
        spans.push((at, k));
    }
    spans
}

/// Whether `toks` tells what two speakers or more said.
pub(super) fn tells_two(toks: &[Tok]) -> bool {
    spans(toks).len() >= 2
}

fn said(toks: &[Tok], spans: &[(usize, usize)]) -> Vec<Said> {
    spans
        .iter()
        .enumerate()
        .map(|(n, &(at, k))| {
            // To the next speaker, within the sentence (a summary's sentences may be read as
            // one run).
            let next = spans.get(n + 1).map_or(toks.len(), |&(next, _)| next);
            let end = (k + 1..next)
                .find(|&e| toks[e].kind == Kind::Break && toks[e].word == ".")
                .unwrap_or(next);
            let what = toks[k + 1..end.max(k + 1)]
                .iter()
                .filter(|t| t.kind != Kind::Break && t.word.len() >= 3 && !is_stop(&t.word))
                .map(|t| stem(&t.word))
                .collect();
            Said {
                who: toks[at..k].iter().map(|t| t.word.clone()).collect(),
                what,
            }
        })
        .collect()
}

/// One speaker may be the other: a word of one is a word of the other, or begins a handle of
/// the other (`brad` of `bradsmi`).
fn one(a: &[String], b: &[String]) -> bool {
    let within = |x: &[String], y: &[String]| {
        x.iter().filter(|w| w.len() >= 3).any(|w| {
            y.iter()
                .any(|v| v == w || (v.len() > w.len() && v.starts_with(w.as_str())))
        })
    };
    within(a, b) || within(b, a)
}

fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|w| b.contains(w)).count()
}

/// The speaker the draft `d` gives words the source `s` has another of its speakers say, and
/// that other speaker: both sentences tell two speakers or more, the draft names the other
/// speaker too, and the draft's clause shares clearly more words with the other speaker's
/// clause than with its own speaker's.
pub(super) fn speakers_traded(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    // The cheap test first: most sentences tell one speaker or none.
    let (dspans, sspans) = (spans(d), spans(s));
    if dspans.len() < 2 || sspans.len() < 2 {
        return None;
    }
    let (ds, ss) = (said(d, &dspans), said(s, &sspans));
    for x in &ds {
        let Some(own) = ss.iter().find(|y| one(&x.who, &y.who)) else {
            continue;
        };
        let Some(other) = ss
            .iter()
            .filter(|y| !one(&x.who, &y.who))
            .max_by_key(|y| shared(&x.what, &y.what))
        else {
            continue;
        };
        // A trade: the other speaker is one the draft names too, as someone else.
        let named = ds
            .iter()
            .any(|z| !one(&z.who, &x.who) && one(&z.who, &other.who));
        if named && shared(&x.what, &other.what) >= shared(&x.what, &own.what) + 2 {
            return Some((x.who.join(" "), other.who.join(" ")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn traded(d: &str, s: &str) -> Option<(String, String)> {
        speakers_traded(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn speakers_traded_between_clauses_are_read() {
        let s = "@BradSmi posted that Azure and other cloud services grew 38% in constant currency, and Amy Hood said growth would have been higher with more capacity.";
        let d = "Amy Hood posted that Azure and other cloud services grew 38% in constant currency, and Brad Smith said growth would have been higher with more capacity.";
        assert_eq!(
            traded(d, s),
            Some(("amy hood".to_string(), "bradsmi".to_string()))
        );
        // Each speaker with their own words, in either order.
        let d = "Brad Smith posted that Azure and other cloud services grew 38% in constant currency, and Amy Hood said growth would have been higher with more capacity.";
        assert_eq!(traded(d, s), None);
        let d = "Amy Hood said growth would have been higher with more capacity, and Brad Smith posted that Azure and other cloud services grew 38% in constant currency.";
        assert_eq!(traded(d, s), None);
        // Hearsay is no speaker, and a speaker the draft does not name is traded with no one.
        let s = "The Company reports that CoWoS-L packaging capacity remains the pacing item for Blackwell output, with NVIDIA said to have booked about 60% of next year's supply.";
        let d = "In an 8-K filed with the SEC, NVIDIA disclosed that CoWoS-L packaging capacity remains the pacing item for Blackwell output, with NVIDIA said to have booked about 60% of next year's supply.";
        assert_eq!(traded(d, s), None);
    }
}

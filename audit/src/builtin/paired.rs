//! Words traded between two names: what stands right after each of two names of the source
//! stands after the other in the draft (`the Rubin CPU and the Vera GPU` for `the Rubin GPU and
//! the Vera CPU`); and objects traded between two verbs of one sentence (`trimmed his rating
//! but kept his near-term estimates` for `trimmed near-term estimates but kept a positive
//! rating`). Not any words near two other words: tried, it sent back dozens of faithful
//! reorderings. A verb's object is the first thing after it, past its article, possessive and
//! modifiers; a passive or a reordering keeps each verb with its own.

use super::tokens::{Kind, Tok};
use super::wordnet;

/// The pairs of `toks` (by their stems): a name inside the sentence (a capital not first)
/// and the word of a thing right after it (no verb: `Palantir signed` pairs nothing).
fn pairs(toks: &[Tok]) -> Vec<(&str, &str)> {
    toks.windows(2)
        .enumerate()
        .filter(|(i, w)| {
            *i > 0
                && w[0].raw.starts_with(char::is_uppercase)
                && !w[0].anchor.is_empty()
                && w[1].kind == Kind::Word
                && !w[1].anchor.is_empty()
                && w[1].anchor != w[0].anchor
                && !wordnet::is_verb(&wordnet::lemma(&w[1].word))
        })
        .map(|(_, w)| (w[0].anchor.as_str(), w[1].anchor.as_str()))
        .collect()
}

/// What may stand between a verb and its object's head (`kept his near-term estimates`).
const BEFORE_OBJECT: &[&str] = &[
    "the", "a", "an", "his", "her", "its", "their", "our", "some",
];

/// The pairs of `toks` (by their stems) of a verb in the past tense and its object's head: the
/// first noun after it, within three words past [`BEFORE_OBJECT`] and modifiers.
fn objects(toks: &[Tok]) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        // The cheap tests first: most words are no verb in the past tense.
        if t.kind != Kind::Word
            || t.anchor.is_empty()
            || t.word.ends_with("ing")
            || t.word.ends_with('s')
        {
            continue;
        }
        let lemma = wordnet::lemma(&t.word);
        if lemma == t.word || !wordnet::is_verb(&lemma) {
            continue;
        }
        // A modifier: a hyphenated word or an adjective with a word after it (`a positive
        // rating`; `positive` is a noun too).
        let rest = &toks[i + 1..];
        let head = rest.iter().enumerate().take(4).find(|(k, n)| {
            let modifier = (n.word.contains('-') || wordnet::is_adjective(&n.word))
                && rest.get(k + 1).is_some_and(|m| m.kind == Kind::Word);
            n.kind != Kind::Word || !(BEFORE_OBJECT.contains(&n.word.as_str()) || modifier)
        });
        let head = head.map(|(_, h)| h);
        if let Some(h) = head.filter(|h| {
            h.kind == Kind::Word
                && !h.anchor.is_empty()
                && wordnet::is_noun(&wordnet::lemma(&h.word))
        }) {
            out.push((t.anchor.as_str(), h.anchor.as_str()));
        }
    }
    out
}

/// Two words of the draft `d` whose pairs the source `s` has the other way round: `d` pairs
/// `a` with `x` and `b` with `y` where `s` pairs `a` with `y` and `b` with `x`, and neither of
/// the draft's pairs; the two words.
pub(super) fn traded<'d>(d: &'d [Tok], s: &[Tok]) -> Option<(&'d str, &'d str)> {
    crossed(d, &pairs(d), &pairs(s)).or_else(|| {
        // A trade needs two pairs in the draft: the source's are read only then.
        let ours = objects(d);
        if ours.len() < 2 {
            return None;
        }
        crossed(d, &ours, &objects(s))
    })
}

/// Two pairs of `ours` (of the draft `d`) that `theirs` has crossed; their second words.
fn crossed<'d>(
    d: &'d [Tok],
    ours: &[(&str, &str)],
    theirs: &[(&str, &str)],
) -> Option<(&'d str, &'d str)> {
    let has = |ps: &[(&str, &str)], p: (&str, &str)| ps.contains(&p);
    for (k, &(a, x)) in ours.iter().enumerate() {
        if has(theirs, (a, x)) {
            continue;
        }
        for &(b, y) in &ours[k + 1..] {
            if a == b || x == y || b == x || a == y || has(theirs, (b, y)) {
                continue;
            }
            if has(theirs, (a, y)) && has(theirs, (b, x)) {
                let word = |stem: &str| {
                    d.iter()
                        .find(|t| t.anchor == stem)
                        .map_or("", |t| t.raw.as_str())
                };
                return Some((word(x), word(y)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn trade(d: &str, s: &str) -> Option<(String, String)> {
        traded(&tokenize(d), &tokenize(s)).map(|(x, y)| (x.to_string(), y.to_string()))
    }

    #[test]
    fn words_traded_between_two_names_are_read() {
        let s = "@NVIDIADC posted that the Rubin GPU and the Vera CPU have taped out at TSMC.";
        let d = "@NVIDIADC posted that the Rubin CPU and the Vera GPU have taped out at TSMC.";
        assert!(trade(d, s).is_some());
    }

    #[test]
    fn objects_traded_between_two_verbs_are_read() {
        let s = "Bloomberg reports that Vivek Arya at BofA Securities trimmed near-term estimates for AMD but kept a positive rating.";
        let d = "Bloomberg reports that Vivek Arya at BofA Securities trimmed his rating on AMD but kept his near-term estimates.";
        assert!(trade(d, s).is_some());
        // Each verb with its own object, in either order or voice.
        let d = "Vivek Arya kept a positive rating on AMD but trimmed his near-term estimates, Bloomberg reports.";
        assert!(trade(d, s).is_none());
        let d =
            "Near-term estimates for AMD were trimmed, though Vivek Arya kept a positive rating.";
        assert!(trade(d, s).is_none());
    }

    #[test]
    fn the_same_pairs_in_other_order_are_not_read() {
        let s = "@NVIDIADC posted that the Rubin GPU and the Vera CPU have taped out at TSMC.";
        let d = "The Vera CPU and the Rubin GPU have taped out at TSMC, @NVIDIADC posted.";
        assert!(trade(d, s).is_none());
        assert!(trade(s, s).is_none());
        // A verb after a name pairs nothing: signing a partnership is either side's.
        let s = "The UK Ministry of Defence signed a strategic partnership with Palantir covering targeting.";
        let d = "Palantir signed a strategic partnership with the UK Ministry of Defence covering targeting.";
        assert!(trade(d, s).is_none());
    }
}

//! Words traded between two names: what stands right after each of two names of the source
//! stands after the other in the draft (`the Rubin CPU and the Vera GPU` for `the Rubin GPU and
//! the Vera CPU`). Not words near two other words (`trimmed his rating … kept his near-term
//! estimates`): tried, it sent back dozens of faithful reorderings.

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

/// Two words of the draft `d` whose pairs the source `s` has the other way round: `d` pairs
/// `a` with `x` and `b` with `y` where `s` pairs `a` with `y` and `b` with `x`, and neither of
/// the draft's pairs; the two words.
pub(super) fn traded<'d>(d: &'d [Tok], s: &[Tok]) -> Option<(&'d str, &'d str)> {
    let (ours, theirs) = (pairs(d), pairs(s));
    let has = |ps: &[(&str, &str)], p: (&str, &str)| ps.contains(&p);
    for (k, &(a, x)) in ours.iter().enumerate() {
        if has(&theirs, (a, x)) {
            continue;
        }
        for &(b, y) in &ours[k + 1..] {
            if a == b || x == y || b == x || a == y || has(&theirs, (b, y)) {
                continue;
            }
            if has(&theirs, (a, y)) && has(&theirs, (b, x)) {
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

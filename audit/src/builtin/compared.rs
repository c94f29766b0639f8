//! Two things a comparison sets the other way round: `matters more for this year than for
//! 2027` where the entry has `matters more for 2027 than for this year`. What stands between
//! the comparative word and `than` is one side, what follows `than` to the clause's end the
//! other; both sides' words, exchanged, with the same comparative word, is the swap.

use super::tokens::{Kind, Tok};

/// Comparative words a comparison with `than` turns on.
const COMPARATIVES: &[&str] = &[
    "more", "less", "fewer", "higher", "lower", "larger", "smaller", "bigger", "faster", "slower",
    "greater", "better", "worse", "earlier", "later",
];

/// The anchors of `ts`: its words that say something.
fn words(ts: &[Tok]) -> Vec<&str> {
    ts.iter()
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
        .collect()
}

/// The comparative word and the two sides' words (anchors) of the first comparison of `toks`.
fn comparison(toks: &[Tok]) -> Option<(&str, Vec<&str>, Vec<&str>)> {
    let than = toks.iter().position(|t| t.word == "than")?;
    let start = toks[..than]
        .iter()
        .rposition(|t| COMPARATIVES.contains(&t.word.as_str()))?;
    let left = words(&toks[start + 1..than]);
    let end = toks[than + 1..]
        .iter()
        .position(|t| t.kind == Kind::Break)
        .map_or(toks.len(), |k| than + 1 + k);
    // The side after `than` is as long as the one before it (`than for this year, and …`).
    let right: Vec<&str> = words(&toks[than + 1..end])
        .into_iter()
        .take(left.len().max(1))
        .collect();
    (!left.is_empty() && !right.is_empty()).then(|| (toks[start].word.as_str(), left, right))
}

/// The draft `d`'s comparison with its sides the other way round from the source `s`'s: the
/// draft's two sides, as written.
pub(super) fn compared_turned(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    let (dw, dl, dr) = comparison(d)?;
    let (sw, sl, sr) = comparison(s)?;
    let same = |a: &[&str], b: &[&str]| {
        let mut a = a.to_vec();
        let mut b = b.to_vec();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    };
    (dw == sw && same(&dl, &sr) && same(&dr, &sl) && !same(&dl, &dr))
        .then(|| (dl.join(" "), dr.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    #[test]
    fn sides_of_a_comparison_turned_are_read() {
        let s =
            tokenize("Wamsi Mohan said the development matters more for 2027 than for this year.");
        let d =
            tokenize("Wamsi Mohan said the development matters more for this year than for 2027.");
        assert!(compared_turned(&d, &s).is_some());
        assert!(compared_turned(&s, &s).is_none());
        // Another comparison, or another word, is no swap.
        let d =
            tokenize("Wamsi Mohan said the development matters less for this year than for 2027.");
        assert!(compared_turned(&d, &s).is_none());
    }
}

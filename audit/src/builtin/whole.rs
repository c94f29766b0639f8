//! What a share is of: a draft's sentence that turns a percentage's part and whole inside out
//! (`About 78% of the iPhones assembled in India are shipped to the United States` where the
//! entry has `Assembly in India now accounts for about 78% of iPhones shipped to the United
//! States`). The whole is what follows `N% of`, to a break or a verb of being; the part is the
//! rest of the sentence.

use super::tokens::{Kind, Tok};

/// Words that end the whole after `N% of`: what comes after is said of it.
const ENDS: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "will", "would", "that", "which",
];

/// The anchors of the whole after the percentage of `toks` (when it has exactly one followed
/// by `of`), and of the rest of the sentence.
fn whole(toks: &[Tok]) -> Option<(Vec<&str>, Vec<&str>)> {
    let percent = |k: usize| {
        toks[k].kind == Kind::Number && toks[k].raw.ends_with('%')
            || (toks[k].word == "percent" && k > 0 && toks[k - 1].kind == Kind::Number)
    };
    let mut found =
        (0..toks.len().saturating_sub(1)).filter(|&k| percent(k) && toks[k + 1].word == "of");
    let at = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let end = (at + 2..toks.len())
        .find(|&k| toks[k].kind == Kind::Break || ENDS.contains(&toks[k].word.as_str()))
        .unwrap_or(toks.len());
    let anchors = |range: &mut dyn Iterator<Item = usize>| -> Vec<&str> {
        range
            .filter(|&k| !toks[k].anchor.is_empty() && toks[k].kind == Kind::Word)
            .map(|k| toks[k].anchor.as_str())
            .collect()
    };
    let of = anchors(&mut (at + 2..end));
    let rest = anchors(&mut (0..at).chain(end..toks.len()));
    Some((of, rest))
}

/// A word the draft `d` counts the share of that the source `s` has on the part's side, while a
/// word of the source's whole stands on the draft's part side: the draft's word first.
pub(super) fn inside_out<'a>(d: &'a [Tok], s: &[Tok]) -> Option<&'a str> {
    let (d_of, d_rest) = whole(d)?;
    let (s_of, s_rest) = whole(s)?;
    let moved_in = d_of
        .iter()
        .find(|w| s_rest.contains(w) && !s_of.contains(w) && !d_rest.contains(w))?;
    let moved_out = s_of
        .iter()
        .any(|w| d_rest.contains(w) && !d_of.contains(w) && !s_rest.contains(w));
    moved_out.then_some(*moved_in)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    const S: &str = "Assembly in India now accounts for about 78% of iPhones shipped to the United States, according to documents seen by the outlet.";

    fn turned(d: &str) -> Option<String> {
        inside_out(&tokenize(d), &tokenize(S)).map(str::to_string)
    }

    #[test]
    fn a_share_turned_inside_out_is_read() {
        assert!(
            turned("About 78% of the iPhones assembled in India are shipped to the United States, according to documents seen by the outlet.")
                .is_some()
        );
        assert!(turned(S).is_none());
        assert!(
            turned("About 78% of iPhones shipped to the United States are now assembled in India, documents seen by the outlet show.")
                .is_none()
        );
    }
}

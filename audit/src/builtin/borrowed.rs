//! A lone name borrowed: a draft's sentence that restates a source sentence with one of its
//! names replaced by another (`32 games for the Finals` where the sentence says `for the
//! Lakers`, `Finals` taken from the entry's next sentence). Default deny rests such a sentence
//! on two source sentences, each name found in one; the sentence it restates says another name
//! at that place.

use super::tokens::{Kind, Tok, matched};

/// Words of a source's span beside a replaced name, at most: a substitution, not a rewording.
const SPAN: usize = 4;

fn capital(t: &Tok) -> bool {
    t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase) && !t.anchor.is_empty()
}

/// Runs of capitalised words (past the sentence's first word) in `toks[from..to]`: token
/// ranges.
fn runs(toks: &[Tok], from: usize, to: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = from.max(1);
    while i < to {
        let at = i;
        while i < to && capital(&toks[i]) {
            i += 1;
        }
        if i > at {
            out.push((at, i));
        } else {
            i += 1;
        }
    }
    out
}

fn words(toks: &[Tok], (a, b): (usize, usize)) -> String {
    toks[a..b]
        .iter()
        .map(|t| t.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The names of the draft's sentence `d` that stand where the source sentence `s` it restates
/// has another name (between the same matched words, nothing else of substance between them),
/// with that name: (`Finals`, `Lakers`). Not a name the entries' titles give (`topic`: lower
/// case words), which may stand for the subject under another name.
pub(super) fn borrowed(
    d: &[Tok],
    s: &[Tok],
    topic: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let pairs = matched(d, s);
    let count = |toks: &[Tok], w: &str| toks.iter().filter(|t| t.word == w).count();
    // A name's word the source holds as a name too (its first word, or capitalised): a
    // common word of the source (`movement`) does not bear out a name (`Movement`).
    let in_s = |t: &Tok| {
        s.iter()
            .enumerate()
            .any(|(k, u)| u.word == t.word && (k == 0 || capital(u)))
    };
    let mut out = Vec::new();
    // The words of a run the source sentence does not hold, each stretch on its own: `Buffy
    // the Slayers Slayer` has `Slayers` where the source has `Vampire`.
    let stretches = runs(d, 0, d.len()).into_iter().flat_map(|(a, b)| {
        let mut parts = Vec::new();
        let mut k = a;
        while k < b {
            let from = k;
            while k < b && !in_s(&d[k]) && !topic(&d[k].word) {
                k += 1;
            }
            if k > from {
                parts.push((from, k));
            } else {
                k += 1;
            }
        }
        parts
    });
    for (a, b) in stretches {
        let before = pairs.iter().rfind(|(i, _)| *i < a);
        let after = pairs.iter().find(|(i, _)| *i >= b);
        // The draft's span holds the name and stop words only.
        let d_from = before.map_or(0, |p| p.0 + 1);
        let d_to = after.map_or(d.len(), |p| p.0);
        if (d_from..d_to).any(|k| (k < a || k >= b) && !d[k].anchor.is_empty()) {
            continue;
        }
        let (Some(&(_, s_from)), s_to) = (before, after.map_or(s.len(), |p| p.1)) else {
            continue;
        };
        if s_to <= s_from + 1 || s_to - s_from - 1 > SPAN {
            continue;
        }
        // The source's name there, not said as often in the draft: replaced, not moved.
        let theirs = runs(s, s_from + 1, s_to);
        if let Some(&r) = theirs.iter().find(|&&(x, y)| {
            s[x..y]
                .iter()
                .all(|t| count(d, &t.word) < count(s, &t.word))
        }) {
            out.push((words(d, (a, b)), words(s, r)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn of(d: &str, s: &str) -> Vec<(String, String)> {
        borrowed(&tokenize(d), &tokenize(s), &|w| w == "magic")
    }

    #[test]
    fn a_name_in_place_of_another_is_read() {
        let s = "He returned in 1996 to play 32 games for the Lakers before retiring.";
        assert_eq!(
            of(
                "He returned in 1996 to play 32 games for the Finals before retiring.",
                s
            ),
            vec![("Finals".to_string(), "Lakers".to_string())]
        );
        let s = "They have taped out at TSMC and remain on track.";
        assert_eq!(
            of("They have taped out at Bernstein and remain on track.", s),
            vec![("Bernstein".to_string(), "TSMC".to_string())]
        );
    }

    #[test]
    fn names_added_or_worded_otherwise_are_not_borrowed() {
        let s = "He played 32 games for the Lakers before retiring.";
        assert!(of(s, s).is_empty());
        // A name added beside the source's, and one the titles give.
        assert!(
            of(
                "He played 32 games for the Los Angeles Lakers before retiring.",
                s
            )
            .is_empty()
        );
        assert!(of("He played 32 games for Magic before retiring.", s).is_empty());
        // A name's word in place of another's, and a name for a common word.
        let s = "Buffy the Vampire Slayer is an American television series.";
        assert_eq!(
            of(
                "Buffy the Slayers Slayer is an American television series.",
                s
            ),
            vec![("Slayers".to_string(), "Vampire".to_string())]
        );
        let s = "This meant that Art from this movement focused on being beautiful: Art for Art's sake.";
        assert_eq!(
            of(
                "This meant that Movement from this movement focused on being beautiful: Art for Art's sake.",
                s
            ),
            vec![("Movement".to_string(), "Art".to_string())]
        );
        // Where the source has no name at that place, it is another check's.
        let t = "He played 32 games for the team before retiring.";
        assert!(of("He played 32 games for the Lakers before retiring.", t).is_empty());
    }
}

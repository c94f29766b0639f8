//! Where a thing goes: a draft's sentence that keeps a source sentence's act and its place but
//! turns the way it goes (`accelerators shipped from parts of the Middle East` for `shipped to
//! parts of the Middle East`). The same word before the preposition and the same word after
//! it, the preposition turned.

use super::tokens::{Kind, Tok};

/// Prepositions of where a thing goes, each with the one of where it comes from.
const WAYS: &[(&str, &str)] = &[
    ("to", "from"),
    ("into", "from"),
    ("toward", "from"),
    ("towards", "from"),
    ("into", "out"),
];

fn opposite(a: &str, b: &str) -> bool {
    WAYS.iter()
        .any(|&(to, from)| (a == to && b == from) || (a == from && b == to))
}

/// The first word alignment compares after token `i`, within a few words (`to parts of`).
fn object(toks: &[Tok], i: usize) -> Option<&str> {
    toks[i + 1..]
        .iter()
        .take(3)
        .take_while(|t| t.kind != Kind::Break)
        .find(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
}

/// The source's words and the draft's (`shipped to`, `shipped from`) where the draft turns the
/// way of the source's act about the same place; `None` when it does not.
pub(super) fn turned_way(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    // A word and the preposition after it, with what that preposition leads to.
    let pairs = |toks: &[Tok]| -> Vec<(usize, String, String, Option<String>)> {
        (1..toks.len())
            .filter(|&i| !toks[i - 1].anchor.is_empty() && toks[i - 1].kind == Kind::Word)
            .filter(|&i| {
                WAYS.iter()
                    .any(|&(a, b)| toks[i].word == a || toks[i].word == b)
            })
            .map(|i| {
                (
                    i,
                    toks[i - 1].anchor.clone(),
                    toks[i].word.clone(),
                    object(toks, i).map(str::to_string),
                )
            })
            .collect()
    };
    let (dp, sp) = (pairs(d), pairs(s));
    for (i, head, way, what) in &dp {
        let Some(what) = what else { continue };
        for (j, s_head, s_way, s_what) in &sp {
            if head != s_head || s_what.as_ref() != Some(what) || !opposite(way, s_way) {
                continue;
            }
            // The draft says the source's way of it too (`moved from X to Y` reordered).
            let kept = dp
                .iter()
                .any(|(_, h, w, o)| h == head && w == s_way && o.as_ref() == Some(what));
            if !kept {
                let text = |toks: &[Tok], k: usize| format!("{} {}", toks[k - 1].raw, toks[k].raw);
                return Some((text(s, *j), text(d, *i)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn way(d: &str, s: &str) -> Option<(String, String)> {
        turned_way(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn a_way_turned_about_the_same_place_is_read() {
        let s = "New export rules tighten licensing for advanced accelerators shipped to parts of the Middle East.";
        let d = "New export rules tighten licensing for advanced accelerators shipped from parts of the Middle East.";
        assert_eq!(
            way(d, s),
            Some(("shipped to".to_string(), "shipped from".to_string()))
        );
        assert!(way(s, s).is_none());
    }

    #[test]
    fn the_same_way_in_other_words_or_order_is_not_read() {
        let s = "Revenue grew from $10 billion to $12 billion.";
        assert!(way("Revenue grew to $12 billion from $10 billion.", s).is_none());
        let s = "Apple moved production from China to India.";
        assert!(way("Apple moved production to India from China.", s).is_none());
        // Another place: the names check's, not this one's.
        let s = "Shipments to China rose.";
        assert!(way("Shipments from Japan rose.", s).is_none());
    }
}

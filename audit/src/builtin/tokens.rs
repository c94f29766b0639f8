//! Sentences as token lists: words (with their case as written), numbers and the punctuation
//! that ends a clause. Alignment and the meaning checks work on these.

use super::words::{is_stop, stem};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Word,
    Number,
    /// `,` `;` `:` `(` `)` and dashes: where a clause ends.
    Break,
}

#[derive(Debug, Clone)]
pub(super) struct Tok {
    /// Lower case, a possessive `'s` removed.
    pub(super) word: String,
    /// What alignment compares: the stem of a content word, the digits of a number; empty for
    /// stop words and punctuation.
    pub(super) anchor: String,
    pub(super) kind: Kind,
    /// As written (a possessive `'s` removed).
    pub(super) raw: String,
    /// Whether a possessive `'s` was removed: it ends a name (`the Pentagon's Maven Smart
    /// System` names two).
    pub(super) possessive: bool,
}

fn push_word(out: &mut Vec<Tok>, raw: &str) {
    let stripped = raw
        .strip_suffix("'s")
        .or_else(|| raw.strip_suffix("\u{2019}s"));
    let possessive = stripped.is_some();
    let raw = stripped.unwrap_or(raw);
    let word = raw.to_lowercase();
    let anchor = if word.len() >= 3 && !is_stop(&word) {
        stem(&word)
    } else {
        String::new()
    };
    out.push(Tok {
        word,
        anchor,
        kind: Kind::Word,
        raw: raw.to_string(),
        possessive,
    });
}

/// The tokens of `text`. A word keeps inner `-`, `'`, `.`, `&` between letters (`U.S`,
/// `CoWoS-L`, `S&P`); a number keeps its decimal point and loses its thousands commas.
pub(super) fn tokenize(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let mut digits = String::new();
            while i < chars.len() {
                let d = chars[i];
                let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
                if d.is_ascii_digit() || (d == '.' && next_digit) {
                    digits.push(d);
                } else if !(d == ',' && next_digit) {
                    break;
                }
                i += 1;
            }
            // Letters glued to a number (`3x`, `10b5`, `2nm`) make one word of it.
            if chars.get(i).is_some_and(|c| c.is_alphabetic()) {
                let start = i;
                while i < chars.len() && chars[i].is_alphanumeric() {
                    i += 1;
                }
                let tail: String = chars[start..i].iter().collect();
                push_word(&mut out, &format!("{digits}{tail}"));
            } else {
                // A percentage keeps its sign as written: what it counts (`14%`, `13 %`).
                let percent = chars[i..].iter().find(|c| **c != ' ') == Some(&'%');
                out.push(Tok {
                    word: digits.clone(),
                    anchor: digits.trim_end_matches(".0").to_string(),
                    kind: Kind::Number,
                    raw: if percent {
                        format!("{digits}%")
                    } else {
                        digits
                    },
                    possessive: false,
                });
            }
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() {
                let d = chars[i];
                let inner = matches!(d, '-' | '\'' | '\u{2019}' | '.' | '&')
                    && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
                if d.is_alphanumeric() || inner {
                    i += 1;
                } else {
                    break;
                }
            }
            let raw: String = chars[start..i].iter().collect();
            push_word(&mut out, &raw);
        } else {
            if matches!(c, ',' | ';' | ':' | '(' | ')' | '\u{2014}' | '\u{2013}') {
                out.push(Tok {
                    word: c.to_string(),
                    anchor: String::new(),
                    kind: Kind::Break,
                    raw: c.to_string(),
                    possessive: false,
                });
            }
            i += 1;
        }
    }
    out
}

/// Pairs of token indices, one in `a` and one in `b`, whose anchors are equal, in order in both
/// (a longest common subsequence of the anchors): where one sentence restates the other.
pub(super) fn matched(a: &[Tok], b: &[Tok]) -> Vec<(usize, usize)> {
    let ia: Vec<usize> = (0..a.len()).filter(|&i| !a[i].anchor.is_empty()).collect();
    let ib: Vec<usize> = (0..b.len()).filter(|&j| !b[j].anchor.is_empty()).collect();
    let (n, m) = (ia.len(), ib.len());
    let mut table = vec![0u16; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if a[ia[i]].anchor == b[ib[j]].anchor {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n && j < m {
        if a[ia[i]].anchor == b[ib[j]].anchor {
            out.push((ia[i], ib[j]));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Words between a negation and what it bears on (`no longer`, `not yet fully`).
const NOT_HEADS: &[&str] = &[
    "longer",
    "yet",
    "ever",
    "always",
    "fully",
    "really",
    "necessarily",
    "currently",
    "immediately",
];

/// Tokens a region may reach past its nearest matched anchor when the other side has none.
const REACH: usize = 4;

/// What must follow a cue, matched in the other sentence, for it to be compared there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    /// The word it bears on (the first content word after it: `not` → `build`): a negation of
    /// a word the other sentence does not have cannot be compared.
    Head,
    /// Some matched word within reach after it (`plans to bring about 70,000 GPUs`: `70,000`).
    Next,
    /// Nothing: a direction word stands for itself.
    Any,
}

/// The tokens of the other sentence that stand where token `i` of this one (`toks`) stands:
/// between the other sentence's counterparts of the nearest matched anchors before and after
/// `i`; `None` when `scope` is not met, or when no anchor on either side is matched.
pub(super) fn counterpart(
    toks: &[Tok],
    pairs: &[(usize, usize)],
    i: usize,
    other_len: usize,
    flip: bool,
    scope: Scope,
) -> Option<std::ops::Range<usize>> {
    let side = |p: &(usize, usize)| if flip { (p.1, p.0) } else { *p };
    let before = pairs.iter().map(side).rfind(|(x, _)| *x < i);
    let after = pairs.iter().map(side).find(|(x, _)| *x > i);
    let next = after.map(|(x, _)| x);
    match scope {
        Scope::Head => {
            let head = (i + 1..toks.len().min(i + 1 + REACH)).find(|&j| {
                !toks[j].anchor.is_empty() && !NOT_HEADS.contains(&toks[j].word.as_str())
            });
            if head.is_none() || next != head {
                return None;
            }
        }
        Scope::Next if next.is_none_or(|x| x > i + REACH) => return None,
        _ => {}
    }
    match (before, after) {
        (Some((_, b)), Some((_, a))) if b < a => Some(b + 1..a),
        (Some((_, b)), None) => Some(b + 1..(b + 1 + REACH).min(other_len)),
        (None, Some((_, a))) => Some(a.saturating_sub(REACH)..a),
        _ => None,
    }
}

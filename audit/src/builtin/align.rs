//! Alignment: which sentences of the cited entries a draft's sentence restates, by the content
//! words (stems) and numbers they share.

use foldhash::HashSet;

use super::cues::{Cue, cues};
use super::sentences::abbreviation_at;
use super::tokens::{Tok, tokenize};

/// A sentence read once: its tokens, its cues and the set of its anchors.
#[derive(Debug)]
pub(super) struct Parsed {
    pub(super) text: String,
    pub(super) toks: Vec<Tok>,
    pub(super) cues: Vec<(usize, Cue)>,
    pub(super) bag: HashSet<String>,
}

pub(super) fn parse(text: &str, draft: bool) -> Parsed {
    let toks = tokenize(text);
    let cues = cues(&toks, draft);
    let bag = toks
        .iter()
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.clone())
        .collect();
    Parsed {
        text: text.to_string(),
        toks,
        cues,
        bag,
    }
}

/// Share of the smaller sentence's anchors that the other holds, at and above which a draft's
/// sentence restates a source's sentence.
pub const ALIGN_AT: f64 = 0.5;
/// Anchors two sentences must share to be aligned (two suffice when one of them has four or
/// fewer).
pub const ALIGN_SHARED: usize = 3;

/// How closely `d` restates `s`: shared anchors over the smaller sentence's anchors, or `None`
/// when they are not aligned.
pub(super) fn score(d: &Parsed, s: &Parsed) -> Option<f64> {
    let small = d.bag.len().min(s.bag.len());
    if small == 0 {
        return None;
    }
    let shared = d.bag.iter().filter(|w| s.bag.contains(*w)).count();
    let enough = shared >= ALIGN_SHARED || (shared >= 2 && small <= 4);
    let share = shared as f64 / small as f64;
    (enough && share >= ALIGN_AT).then_some(share)
}

/// Splits a source's text into sentences: at `.`, `!` or `?` followed by white space and a
/// character that is not a lower-case letter (so `U.S. commercial` and `Inc. entered` stay
/// whole).
pub(super) fn source_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if !matches!(b, b'.' | b'!' | b'?') {
            continue;
        }
        // A closing quotation mark or bracket after the stop belongs to the sentence.
        let rest = &text[i + 1..];
        let closer = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\u{201d}' | '\'' | '\u{2019}' | ')'))
            .map_or(0, char::len_utf8);
        let rest = &rest[closer..];
        let Some(first) = rest.chars().next() else {
            continue;
        };
        let after = rest.trim_start();
        let next = after.chars().next();
        // A sentence whose subject was cut off (`… on July 5, 2015. is a Japanese television
        // drama`, as some public evidence reads) starts after the stop all the same.
        let cut_off = ["is ", "was ", "are ", "were "]
            .iter()
            .any(|v| after.starts_with(v));
        if first.is_whitespace()
            && (cut_off || next.is_some_and(|c| !c.is_lowercase()))
            && !(b == b'.' && abbreviation_at(text, i))
        {
            let end = i + 1 + closer;
            let s = text[start..end].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = end;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out
}

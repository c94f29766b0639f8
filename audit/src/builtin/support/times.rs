//! Where a sentence's words say when, or who said it: time frames (`next quarter`), dates of
//! record, names of a cited post's handle, and the words of provenance (`a 10-Q filing showed`).

use foldhash::{HashSet, HashSetExt};

use crate::builtin::dates::{is_month, is_short_month};
use crate::builtin::speakers::{aside_before, saying};
use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordclass::ordinal;

/// The time frame that token `i` opens (`this year`, `the coming weeks`, `next quarter`), as a
/// key: which way from now, and the period; or a part of the year by its rank (`the second
/// half`).
pub(super) fn time_frame(toks: &[Tok], i: usize) -> Option<String> {
    let period = toks.get(i + 1)?.word.trim_end_matches('s');
    // `the first half`, `the third quarter`: a part of the year by its rank, which another
    // `first` of the sentence (`the first gigawatt`) does not bear out.
    if let Some(n) = ordinal(&toks[i].word)
        && matches!(period, "half" | "quarter")
    {
        return Some(format!("t:o{n}:{period}"));
    }
    let way = match toks[i].word.as_str() {
        "this" | "current" => "this",
        "next" | "coming" | "following" | "upcoming" => "next",
        "last" | "previous" | "prior" | "past" => "last",
        _ => return None,
    };
    matches!(
        period,
        "year" | "quarter" | "month" | "week" | "decade" | "half" | "season" | "day"
    )
    .then(|| format!("t:{way}:{period}"))
}

/// Whether token `i` is part of a date (a month, a day beside it): the date checks judge those
/// against the entries' dates of record.
pub(super) fn in_date(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let day = t.kind == Kind::Number || t.word.starts_with(|c: char| c.is_ascii_digit());
    if t.kind == Kind::Word && !day {
        // A month's short name only before its day (`Sept. 26`).
        let short = is_short_month(&t.word)
            && toks
                .get(i + 1)
                .is_some_and(|n| n.kind == Kind::Number && n.raw.len() <= 2);
        return (is_month(&t.word) || short) && t.raw.starts_with(char::is_uppercase);
    }
    let near_month = |j: Option<usize>| {
        j.and_then(|j| toks.get(j)).is_some_and(|n| {
            (is_month(&n.word) || is_short_month(&n.word)) && n.raw.starts_with(char::is_uppercase)
        })
    };
    // A day beside its month; a year is a figure (the year of record needs no source).
    // `22nd` of `November 22nd` too.
    let short = t.anchor.len() <= 2 || ordinal(&t.word).is_some_and(|n| n <= 31);
    short && (near_month(i.checked_sub(1)) || near_month(Some(i + 1)))
}

/// The tokens of names (consecutive capitalised words) one word of which is in the handle of a
/// post cited (`Shyam Sankar` of `@ssankar`).
pub(super) fn handle_names(toks: &[Tok], handle: &dyn Fn(&str) -> bool) -> HashSet<usize> {
    let capital = |t: &Tok| t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase);
    let mut out = HashSet::new();
    let mut i = 0;
    while i < toks.len() {
        let start = i;
        while i < toks.len() && capital(&toks[i]) {
            i += 1;
        }
        if (start..i).any(|k| toks[k].word.len() >= 3 && handle(&toks[k].word)) {
            out.extend(start..i);
        }
        i = i.max(start + 1);
    }
    out
}

/// Tokens near a word of saying or of provenance (`a 10-Q filing showed`, `according to The
/// Verge`): where a sentence says who said it. Not past `that`, where what was said begins
/// (`a filing showed that GB300 Form racks …` states `Form` as a fact), nor past a comma.
pub(super) fn frame(toks: &[Tok], from: &dyn Fn(&str) -> bool) -> HashSet<usize> {
    let mut out = HashSet::new();
    for (i, t) in toks.iter().enumerate() {
        // `on` only as in `on X`: not `the ceiling on the Disclosure Smart System`.
        let on = t.word == "on" && toks.get(i + 1).is_some_and(|n| from(&n.word));
        // A capitalised word inside a sentence is a name, no verb of speech (`the United
        // States`).
        let name = i > 0 && t.raw.starts_with(char::is_uppercase);
        if (saying(&t.word) && !name)
            || matches!(
                t.word.as_str(),
                "filing" | "post" | "report" | "disclosure" | "statement" | "documents"
                    // What a filing is furnished under (`furnished under Regulation FD`).
                    | "furnished" | "furnishes"
                    // Whom a company did not answer (`requests for comment from either outlet`).
                    | "comment"
            )
            || on
        {
            // Within its clause.
            let start = (i.saturating_sub(4)..i)
                .rev()
                .find(|&k| toks[k].kind == Kind::Break)
                .map_or(i.saturating_sub(4), |k| k + 1);
            let mut end = (i + 1..(i + 4).min(toks.len()))
                .find(|&k| toks[k].word == "that" || toks[k].kind == Kind::Break)
                .unwrap_or((i + 4).min(toks.len()));
            // A name the clause ends in is whole (`cited by the Financial Times`).
            while end > i + 1
                && end < toks.len()
                && toks[end - 1].raw.starts_with(char::is_uppercase)
                && toks[end].kind == Kind::Word
                && toks[end].raw.starts_with(char::is_uppercase)
            {
                end += 1;
            }
            out.extend(start..end);
            // Past an aside of where it has it, to the name before it (`Reuters, citing three
            // employees, writes`).
            if let Some(open) = aside_before(toks, start) {
                let from = (open.saturating_sub(4)..open)
                    .rev()
                    .find(|&k| toks[k].kind == Kind::Break)
                    .map_or(open.saturating_sub(4), |k| k + 1);
                out.extend(from..open);
            }
        }
    }
    out
}

/// The number of a filing's form (`10` of `10-Q`, `8` of `8-K`): a word of where a statement
/// comes from.
pub(super) fn form_number(toks: &[Tok], i: usize) -> bool {
    toks[i].kind == Kind::Number
        && toks
            .get(i + 1)
            .is_some_and(|n| matches!(n.word.as_str(), "q" | "k" | "f"))
}

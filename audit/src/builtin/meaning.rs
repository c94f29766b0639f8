//! Reading meaning: a draft's sentence against the source sentences it restates. Where the two
//! line up (their shared words, in order), the draft must keep the source's negation, direction
//! and hedges there, and not add a negation or turn a direction around.

use std::ops::Range;

use super::align::Parsed;
use super::cues::Cue;
use super::tokens::{Kind, Scope, Tok, counterpart, matched};
use crate::report::Check;

/// A mismatch between the draft's sentence and one of the source sentences it restates.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Mismatch {
    pub(super) check: Check,
    /// What differs, in a few words.
    pub(super) what: String,
    /// Which of the aligned source sentences it differs from.
    pub(super) source: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Match,
    Mismatch,
    Unknown,
}

fn region_has(p: &Parsed, r: &Range<usize>, want: impl Fn(Cue) -> bool) -> bool {
    p.cues.iter().any(|(i, c)| r.contains(i) && want(*c))
}

/// The word of a region that carries `want`, as written, for a finding's detail.
fn word_of(p: &Parsed, r: &Range<usize>, want: Cue) -> String {
    p.cues
        .iter()
        .find(|(i, c)| r.contains(i) && *c == want)
        .map(|(i, _)| p.toks[*i].raw.clone())
        .unwrap_or_default()
}

/// Whether the draft negates the object of the word right after region `r` (the counterpart of
/// the word a source's negation bears on): `has filed nothing` restates `has not filed
/// anything`.
fn negated_object(d: &Parsed, r: &Range<usize>) -> bool {
    let object = r.end + 1..(r.end + 3).min(d.toks.len());
    d.cues.iter().any(|(i, c)| {
        *c == Cue::Negation
            && object.contains(i)
            && OBJECT_NEGATIONS.contains(&d.toks[*i].word.as_str())
    })
}

/// Whether the draft's object negation at `at` (`has filed nothing`) stands where the source
/// negates the verb before it (`has not filed anything`).
fn negated_verb(d_toks: &[Tok], at: usize, p: &Pair<'_>) -> bool {
    if !OBJECT_NEGATIONS.contains(&d_toks[at].word.as_str()) {
        return false;
    }
    let Some(&(_, verb)) = p.pairs.iter().rfind(|(x, _)| *x < at && at - *x <= 2) else {
        return false;
    };
    region_has(p.source, &(verb.saturating_sub(3)..verb), |c| {
        c == Cue::Negation
    })
}

/// Whether the draft's negation at `at` opens its clause on the subject (`Neither post gave
/// further figures`) where the source sentence's one negation stands on the object (`The post
/// gave no further detail`).
fn negated_subject(d_toks: &[Tok], at: usize, p: &Pair<'_>) -> bool {
    opens_negated(d_toks, at) && negations(p.source) == 1
}

/// The negation at `at` opens its clause on the subject (`Neither post`, `No figures`).
fn opens_negated(toks: &[Tok], at: usize) -> bool {
    (at == 0 || toks[at - 1].kind == Kind::Break)
        && matches!(toks[at].word.as_str(), "neither" | "no" | "none")
}

/// The draft's one negation opens its clause on the subject: see [`negated_subject`].
fn subject_negated(d: &Parsed) -> bool {
    negations(d) == 1
        && d.cues
            .iter()
            .any(|(i, c)| *c == Cue::Negation && opens_negated(&d.toks, *i))
}

fn negations(p: &Parsed) -> usize {
    p.cues.iter().filter(|(_, c)| *c == Cue::Negation).count()
}

/// Negations that stand on a verb's object rather than on the verb.
const OBJECT_NEGATIONS: &[&str] = &["nothing", "no", "none", "nobody", "never"];

/// One aligned pair: the draft's sentence, a source sentence and their matched anchors.
struct Pair<'a> {
    source: &'a Parsed,
    pairs: Vec<(usize, usize)>,
}

/// A draft's cue judged against every aligned source sentence: a mismatch when some sentence
/// contradicts it and none agrees.
fn judge_draft_cue(
    d_toks: &[Tok],
    at: usize,
    cue: Cue,
    aligned: &[Pair<'_>],
) -> Option<(usize, Range<usize>)> {
    let mut first_mismatch = None;
    for (k, p) in aligned.iter().enumerate() {
        // An empty region is informative for a negation (the source has no room for one),
        // not for a direction.
        let negation = cue == Cue::Negation;
        let scope = if negation { Scope::Head } else { Scope::Any };
        let Some(r) = counterpart(d_toks, &p.pairs, at, p.source.toks.len(), false, scope)
            .filter(|r| negation || !r.is_empty())
        else {
            continue;
        };
        let v = match cue {
            Cue::Negation => {
                if region_has(p.source, &r, |c| c == Cue::Negation)
                    || negated_verb(d_toks, at, p)
                    || negated_subject(d_toks, at, p)
                {
                    Verdict::Match
                } else {
                    Verdict::Mismatch
                }
            }
            Cue::Direction(f, up) => {
                if region_has(p.source, &r, |c| c == Cue::Direction(f, up)) {
                    Verdict::Match
                } else if region_has(p.source, &r, |c| c == Cue::Direction(f, !up)) {
                    Verdict::Mismatch
                } else {
                    Verdict::Unknown
                }
            }
            Cue::Hedge => Verdict::Unknown,
        };
        match v {
            Verdict::Match => return None,
            Verdict::Mismatch if first_mismatch.is_none() => first_mismatch = Some((k, r)),
            _ => {}
        }
    }
    first_mismatch
}

/// Every mismatch of the draft's sentence `d` with the source sentences it restates.
pub(super) fn compare(d: &Parsed, aligned: &[&Parsed], titles: &[bool]) -> Vec<Mismatch> {
    let pairs: Vec<Pair<'_>> = aligned
        .iter()
        .map(|s| Pair {
            source: s,
            pairs: matched(&d.toks, &s.toks),
        })
        .collect();
    let title = |k: usize| titles.get(k).copied().unwrap_or(false);
    let mut out = Vec::new();
    // The draft's own negations and directions.
    for &(at, cue) in &d.cues {
        let Some((k, r)) = judge_draft_cue(&d.toks, at, cue, &pairs) else {
            continue;
        };
        let mine = &d.toks[at].raw;
        let (check, what) = match cue {
            Cue::Negation => (
                Check::NegationFlipped,
                format!("the draft negates (\u{ab}{mine}\u{bb}) what the entry affirms"),
            ),
            Cue::Direction(f, up) => (
                Check::DirectionFlipped,
                format!(
                    "the draft says \u{ab}{mine}\u{bb} where the entry says \u{ab}{}\u{bb}",
                    word_of(pairs[k].source, &r, Cue::Direction(f, !up))
                ),
            ),
            Cue::Hedge => continue,
        };
        out.push(Mismatch {
            check,
            what,
            source: k,
        });
    }
    // The sources' negations and hedges the draft restates without them: of the sentences it
    // restates, not of one it only touches (`No figures were given` beside the sentence a draft
    // restates with the word `figure` in it), so a sentence sharing under a third of the words
    // the best-restated one shares is left out.
    let draft_hedged = d.cues.iter().any(|(_, c)| *c == Cue::Hedge);
    let best = pairs.iter().map(|p| p.pairs.len()).max().unwrap_or(0);
    for (k, p) in pairs.iter().enumerate() {
        if p.pairs.len() * 3 < best {
            continue;
        }
        // A headline's hedge (`points to large expected move`) is not the draft's to keep when
        // it restates at least as closely a sentence of the entry's text that has none.
        let plain = |(j, q): (usize, &Pair<'_>)| {
            !title(j)
                && q.pairs.len() >= p.pairs.len()
                && !q.source.cues.iter().any(|(_, c)| *c == Cue::Hedge)
        };
        let headline_only = title(k) && pairs.iter().enumerate().any(plain);
        for &(at, cue) in &p.source.cues {
            if cue == Cue::Hedge && headline_only {
                continue;
            }
            let want = match cue {
                Cue::Negation => Cue::Negation,
                Cue::Hedge if !draft_hedged => Cue::Hedge,
                _ => continue,
            };
            let scope = if want == Cue::Negation {
                Scope::Head
            } else {
                Scope::Next
            };
            let Some(r) = counterpart(&p.source.toks, &p.pairs, at, d.toks.len(), true, scope)
            else {
                continue;
            };
            // A negation where the source hedges (`is weighing` / `has not yet decided`) does
            // not raise certainty.
            if region_has(d, &r, |c| {
                c == want || (want == Cue::Hedge && c == Cue::Negation)
            }) || (want == Cue::Negation && negated_object(d, &r))
                || (want == Cue::Negation && subject_negated(d) && negations(p.source) == 1)
            {
                continue;
            }
            let theirs = &p.source.toks[at].raw;
            let (check, what) = if want == Cue::Negation {
                (
                    Check::NegationFlipped,
                    format!("the draft drops the entry's negation (\u{ab}{theirs}\u{bb})"),
                )
            } else {
                (
                    Check::CertaintyRaised,
                    format!(
                        "the draft states as certain what the entry hedges (\u{ab}{theirs}\u{bb})"
                    ),
                )
            };
            if !out.iter().any(|m: &Mismatch| m.check == check) {
                out.push(Mismatch {
                    check,
                    what,
                    source: k,
                });
            }
        }
    }
    out
}

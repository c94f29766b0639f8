//! The words that carry a sentence's meaning beyond its facts: negation, direction (and its
//! antonyms), certainty, and attribution to a source. Each is a cue at a token.

use foldhash::{HashMap, HashSet};
use std::sync::OnceLock;

use super::lexicon::{
    ANONYMOUS, ATTRIBUTING_PHRASES, ATTRIBUTING_WORDS, CITED_SOURCES, DOWN, DRAFT_HEDGES, Family,
    HEDGES, NAMED, NEGATING_VERBS, NEGATIONS, PLAN_NOUN, UP, UP_DOWN_NEXT,
};
use super::tokens::{Kind, Tok, tokenize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cue {
    Negation,
    /// A direction word: its family and whether it points up (`true`) or down.
    Direction(Family, bool),
    /// A word that makes a statement less than certain: may, could, plans to, expects, …
    Hedge,
}

fn word_at(toks: &[Tok], i: usize) -> &str {
    toks.get(i).map(|t| t.word.as_str()).unwrap_or("")
}

/// The word lists as sets, built once: every token of every sentence is looked up.
struct Lexicon {
    negations: HashSet<&'static str>,
    negating_verbs: HashSet<&'static str>,
    hedges: HashSet<&'static str>,
    draft_hedges: HashSet<&'static str>,
    directions: HashMap<&'static str, (Family, bool)>,
}

fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| Lexicon {
        negations: NEGATIONS.iter().copied().collect(),
        negating_verbs: NEGATING_VERBS.iter().copied().collect(),
        hedges: HEDGES.iter().copied().collect(),
        draft_hedges: DRAFT_HEDGES.iter().copied().collect(),
        // The first listing of a word wins, as a search of the lists in order did.
        directions: DOWN
            .iter()
            .map(|&(w, f)| (w, (f, false)))
            .chain(UP.iter().map(|&(w, f)| (w, (f, true))))
            .collect(),
    })
}

/// The cue at token `i`, if any. `draft` adds the forecasting verbs a draft may hedge with.
fn cue_at(toks: &[Tok], i: usize, draft: bool) -> Option<Cue> {
    let t = &toks[i];
    if t.kind != Kind::Word {
        return None;
    }
    let w = t.word.as_str();
    let prev = if i > 0 { word_at(toks, i - 1) } else { "" };
    let next = word_at(toks, i + 1);
    let next_is_number = toks.get(i + 1).is_some_and(|n| n.kind == Kind::Number)
        || (matches!(next, "about" | "roughly" | "nearly" | "around")
            && toks.get(i + 2).is_some_and(|n| n.kind == Kind::Number));
    // `not only`, `no doubt`: no negation.
    if (w == "not" && next == "only") || (w == "no" && next == "doubt") {
        return None;
    }
    let lex = lexicon();
    // `has yet to appear` has not appeared; `furnished rather than deemed filed` was not
    // deemed filed (in a sentence of no other negation: `not verified, so treated as reported
    // rather than confirmed` negates once).
    let rather = w == "rather"
        && next == "than"
        && !toks
            .iter()
            .any(|t| lex.negations.contains(t.word.as_str()) || t.word.ends_with("n't"));
    if lex.negations.contains(w) || w.ends_with("n't") || (w == "yet" && next == "to") || rather {
        return Some(Cue::Negation);
    }
    if lex.negating_verbs.contains(w) && next == "to" || (w == "denied" || w == "denies") {
        return Some(Cue::Negation);
    }
    if w == "longer" && prev == "no" {
        return None;
    }
    // `could not`: a negation, not a hedge.
    if matches!(w, "may" | "might" | "could" | "would") && next == "not" {
        return None;
    }
    // `May 4` is a date; `may` after a capital is the month too.
    if w == "may" && (t.raw.starts_with('M') || next_is_number) {
        return None;
    }
    if w == "plan" && next == "to" && !PLAN_NOUN.contains(&prev) {
        return Some(Cue::Hedge);
    }
    if matches!(w, "plans" | "planned" | "planning") && PLAN_NOUN.contains(&prev) {
        return None;
    }
    if w == "expected" && prev == "than" {
        return None;
    }
    if matches!(w, "track" | "pace" | "course" | "schedule") && prev == "on" {
        return Some(Cue::Hedge);
    }
    if matches!(w, "target" | "targets" | "targeting") && next_is_number {
        return Some(Cue::Hedge);
    }
    // A draft's `a target of about 5,000` keeps a target's hedge too.
    if draft && matches!(w, "target" | "targets") && next == "of" {
        return Some(Cue::Hedge);
    }
    // A draft's `aimed at about 5,000` keeps a target's hedge.
    if draft && matches!(w, "aim" | "aims" | "aimed" | "aiming") && matches!(next, "at" | "to") {
        return Some(Cue::Hedge);
    }
    // `is being weighed`: a deliberation still under way, said in the passive.
    if prev == "being" && DELIBERATED.contains(&w) {
        return Some(Cue::Hedge);
    }
    if lex.hedges.contains(w) || (draft && lex.draft_hedges.contains(w)) {
        return Some(Cue::Hedge);
    }
    // `after which`: a link between two clauses (`links.rs`), no time of one thing set against
    // another's (`a trading plan, after which he owns`, where the plan was adopted `earlier`).
    if w == "after" && next == "which" {
        return None;
    }
    if next == "than" && matches!(w, "more" | "less" | "fewer") {
        return Some(Cue::Direction(Family::Bound, w == "more"));
    }
    if w == "up" || w == "down" {
        return (next_is_number || UP_DOWN_NEXT.contains(&next))
            .then_some(Cue::Direction(Family::Amount, w == "up"));
    }
    // `closes part of the gap` narrows it.
    if matches!(w, "close" | "closes" | "closed" | "closing")
        && toks[i + 1..].iter().take(4).any(|t| t.word == "gap")
    {
        return Some(Cue::Direction(Family::Amount, false));
    }
    lex.directions.get(w).map(|&(f, up)| Cue::Direction(f, up))
}

/// Every cue of a sentence, with its token index.
pub(super) fn cues(toks: &[Tok], draft: bool) -> Vec<(usize, Cue)> {
    (0..toks.len())
        .filter_map(|i| cue_at(toks, i, draft).map(|c| (i, c)))
        .collect()
}

/// Whether a source sentence attributes what it says to someone (a person who said it, people
/// familiar, documents seen, an outlet's report, …) rather than stating it as the entry's own
/// record.
pub(super) fn attributed(lower: &str) -> bool {
    let padded = format!(" {lower} ");
    anonymous(lower) || NAMED.iter().any(|p| padded.contains(p))
}

/// Whether a source sentence has what it says from unnamed or second-hand sources.
pub(super) fn anonymous(lower: &str) -> bool {
    let padded = format!(" {lower} ");
    ANONYMOUS.iter().any(|p| padded.contains(p))
}

/// Whether a draft's sentence names where its statement comes from, or hedges it.
pub(super) fn attributes(text: &str) -> bool {
    attributes_by_phrase(&text.to_lowercase()) || attributes_by_word(text)
}

/// Whether a draft's sentence names unnamed sources (`according to`, `people familiar`,
/// `supply-chain sources`, `citing two people`): phrases a restated claim does not hold unless
/// it keeps the source.
pub(super) fn attributes_by_phrase(lower: &str) -> bool {
    if anonymous(lower) || ATTRIBUTING_PHRASES.iter().any(|p| lower.contains(p)) {
        return true;
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|w| w[0] == "citing" && CITED_SOURCES.contains(&w[1]))
}

/// Whether a draft's sentence (as written, its case kept) has a word of attribution or hedging
/// (`said`, `reported`, `may`) that attributes: not a word of a name (`the United States`,
/// `Consumer Reports`), a report to someone (`the team now reports to Ashok Elluswamy`, not
/// `is said to have`), a participle of time (`incidents reported since June`) nor a thing
/// shown (`showed employees a prototype`).
pub(super) fn attributes_by_word(text: &str) -> bool {
    let toks = tokenize(text);
    let word = |i: usize| toks.get(i).map_or("", |t| t.word.as_str());
    toks.iter().enumerate().any(|(i, t)| {
        let w = t.word.as_str();
        if t.kind != Kind::Word || !ATTRIBUTING_WORDS.contains(&w) {
            return false;
        }
        let in_name = i > 0 && t.raw.starts_with(char::is_uppercase);
        let passive = i > 0
            && matches!(
                word(i - 1),
                "be" | "been" | "being" | "is" | "are" | "was" | "were"
            );
        let reports_to = matches!(w, "reports" | "reported") && word(i + 1) == "to" && !passive;
        let since = word(i + 1) == "since";
        let shown = matches!(w, "showed" | "shows") && word(i + 1) != "that";
        !(in_name || reports_to || since || shown)
    })
}

/// Participles of deciding not yet done: after `being` they hedge (`is being considered`).
const DELIBERATED: &[&str] = &[
    "weighed",
    "considered",
    "explored",
    "evaluated",
    "discussed",
    "studied",
    "reviewed",
    "examined",
    "assessed",
    "negotiated",
    "mulled",
];

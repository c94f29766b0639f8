//! The units a draft's sentence states: its names, things, acts, comparisons, figures, time
//! frames and directions, each with the keys that find it.

use foldhash::HashSet;

use super::keys::{degree, direction_key, word_key};
use super::links::{links, scheduled};
use super::numbers::{Bound, FIGURE_WORDS, bound_before, counted, number_at, shorthand};
use super::times::{form_number, frame, handle_names, in_date, time_frame};
use super::wordlists::{
    ANNOUNCING, COMPARING, LIMITING, RECORDS, REFERENTS, SHELL_NOUNS, STRICT_WORDS, SUPERLATIVES,
    TITLES,
};
use crate::builtin::cues::{Cue, cues};
use crate::builtin::speakers::{cited_material, saying, speaker_chains};
use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordclass::{adverb_base, decade, ordinal};
use crate::builtin::wordnet;

/// The key of a draft's `will`, and of a source sentence's.
pub(super) const WILL: &str = "m:will";
/// The key of a source sentence that hedges with a modal verb (`may`, `might`, `could`).
pub(super) const HEDGED: &str = "m:hedged";

/// One thing a draft's sentence states, and the keys any one of which finds it.
#[derive(Debug)]
pub(super) struct Unit {
    /// Token index where it stands.
    pub(super) at: usize,
    /// As written, for the finding.
    pub(super) text: String,
    pub(super) keys: Vec<String>,
    /// Must be found: a name, a figure, a bound, a comparison or superlative, a time frame, a
    /// direction. One other word of a sentence otherwise borne out may be a rewording
    /// ([`LOOSE_MISSING`](super::LOOSE_MISSING)).
    pub(super) strict: bool,
    /// A name: the names of a sentence must stand together in one sentence it rests on.
    pub(super) name: bool,
    /// A bounded number: `more than 77` is also found in an exact `78`.
    pub(super) range: Option<(Bound, f64, String)>,
}

impl Unit {
    /// A bounded figure, a rank or a time frame: what a sentence states of its own statement.
    pub(super) fn framed(&self) -> bool {
        self.range.is_some()
            || self
                .keys
                .iter()
                .any(|k| ["b:", "t:", "o:"].iter().any(|p| k.starts_with(p)))
    }

    /// A name, a figure, a rank or a time frame: what identifies the statement.
    pub(super) fn specific(&self) -> bool {
        self.name
            || self.keys.iter().any(|k| {
                ["n:", "b:", "t:", "o:", "dec:"]
                    .iter()
                    .any(|p| k.starts_with(p))
            })
    }
}

/// What needs no source sentence.
#[derive(Clone, Copy)]
pub(in crate::builtin) struct Known<'a> {
    /// A word or number (lower case) anywhere: the company's names.
    pub(in crate::builtin) word: &'a dyn Fn(&str) -> bool,
    /// A word of the handle of a post cited: the name it is part of.
    pub(in crate::builtin) handle: &'a dyn Fn(&str) -> bool,
    /// A word of where the entries come from (`10-Q`, `The Verge`), in the words that say who
    /// said it.
    pub(in crate::builtin) from: &'a dyn Fn(&str) -> bool,
}

/// The units of a draft's sentence.
pub(super) fn units(toks: &[Tok], k: &Known<'_>) -> Vec<Unit> {
    let Known {
        word: known,
        handle,
        from,
    } = *k;
    let bound_words: HashSet<usize> = (0..toks.len())
        .filter(|&i| number_at(toks, i).is_some())
        .filter_map(|i| bound_before(toks, i).map(|(_, s)| s..i))
        .flatten()
        .collect();
    let link_words: HashSet<usize> = links(toks)
        .into_iter()
        .flat_map(|(a, b, _)| a..=b)
        .collect();
    let named = handle_names(toks, handle);
    let frame = frame(toks, from);
    // Who it says said it is found also where a source sentence says who said it.
    let speaking: HashSet<usize> = speaker_chains(toks).into_iter().flatten().collect();
    let negations: Vec<usize> = cues(toks, true)
        .into_iter()
        .filter(|(_, c)| *c == Cue::Negation)
        .map(|(i, _)| i)
        .collect();
    // A negation its context bears out (`had not been reported before`, of `the first time`).
    let mut out: Vec<Unit> = negations
        .iter()
        .filter(|&&i| !known(&toks[i].word))
        .map(|&i| Unit {
            at: i,
            text: toks[i].raw.clone(),
            keys: vec!["neg".to_string()],
            strict: true,
            name: false,
            range: None,
        })
        .collect();
    // `will` states as certain what a source may hedge (`may`, `could`): judged in `judge`.
    out.extend(
        toks.iter()
            .enumerate()
            .filter(|(_, t)| matches!(t.word.as_str(), "will" | "shall"))
            .map(|(i, t)| Unit {
                at: i,
                text: t.raw.clone(),
                keys: vec![WILL.to_string()],
                strict: true,
                name: false,
                range: None,
            }),
    );
    for (i, t) in toks.iter().enumerate() {
        // A bound is no word of where an entry comes from: `the Census Bureau of at least 2012
        // reported` bounds the `2012` of `the Census Bureau of 2012 reported`.
        // (Only a number is bounded: `under Regulation FD` bounds nothing.)
        let bounded = t.kind == Kind::Number && bound_before(toks, i).is_some();
        let origin = frame.contains(&i) && from(&t.word) && !bounded;
        // A bounded date (`to over 19 October 1963`, `at least November 22`) states a bound the
        // date checks do not judge: the same bound must stand before the same day.
        if let Some(u) = bounded_date(toks, i) {
            out.push(u);
            continue;
        }
        if bound_words.contains(&i)
            || negations.contains(&i)
            || link_words.contains(&i)
            || named.contains(&i)
            || origin
            || in_date(toks, i)
            // A number that needs no source (the year of record), unless it is bounded: `at
            // least 2012` states more than `2012`.
            || (t.kind == Kind::Number && known(&t.anchor) && bound_before(toks, i).is_none())
            // A count in words the context bears out (`Two Apple senior vice presidents`).
            // (Only a small count: a number word of a name, `Hundred Years' War`, is judged as
            // a number.)
            || (matches!(t.word.as_str(), "two" | "three" | "four")
                && known(&t.word)
                && bound_before(toks, i).is_none())
            || (frame.contains(&i) && form_number(toks, i))
        {
            continue;
        }
        // A number, in digits or in words (`nine` is `9`).
        if let Some(n) = number_at(toks, i) {
            let mut keys = vec![format!("n:{n}")];
            keys.extend(decade(toks, i).map(|d| format!("dec:{d}")));
            let mut text = t.raw.clone();
            let mut range = None;
            if let Some((b, start)) = bound_before(toks, i) {
                keys = vec![b.key(&n)];
                let words: Vec<&str> = toks[start..i].iter().map(|t| t.raw.as_str()).collect();
                text = format!("{} {}", words.join(" "), t.raw);
                range = n.parse::<f64>().ok().map(|n| (b, n, counted(toks, i)));
            }
            out.push(Unit {
                at: i,
                text,
                keys,
                strict: true,
                name: false,
                range,
            });
            continue;
        }
        // A multiple bounded (`over 3x`, `more than 10x`): the figure checks judge `3x`, not
        // its bound.
        if t.kind == Kind::Word
            && shorthand(&t.word)
            && let Some((b, start)) = bound_before(toks, i)
        {
            let words: Vec<&str> = toks[start..=i].iter().map(|t| t.raw.as_str()).collect();
            out.push(Unit {
                at: i,
                text: words.join(" "),
                keys: vec![b.key(&t.word)],
                strict: true,
                name: false,
                range: None,
            });
            continue;
        }
        match t.kind {
            Kind::Number => {}
            Kind::Word => {
                let span_known = known(&t.word) && toks.get(i + 1).is_some_and(|n| known(&n.word));
                if span_known {
                    // `The next day`, where the entries are a day apart: the context's.
                } else if let Some(frame) = time_frame(toks, i) {
                    out.push(Unit {
                        at: i,
                        text: format!("{} {}", t.raw, toks[i + 1].raw),
                        keys: vec![frame],
                        strict: true,
                        name: false,
                        range: None,
                    });
                } else if let Some(mut u) = word_unit(toks, i, known) {
                    if speaking.contains(&i) {
                        u.keys.push(format!("p:{}", t.word));
                    }
                    out.push(u);
                }
            }
            Kind::Break => {}
        }
    }
    out
}

/// The bound of a date's first word (`over 19 October`, `at least November 22`) as a unit:
/// its key is the bound of that word (a day's number, or the month).
fn bounded_date(toks: &[Tok], i: usize) -> Option<Unit> {
    if !in_date(toks, i) || (i > 0 && in_date(toks, i - 1)) {
        return None;
    }
    let (b, start) = bound_before(toks, i)?;
    let t = &toks[i];
    let value = number_at(toks, i).unwrap_or_else(|| t.word.clone());
    let words: Vec<&str> = toks[start..=i].iter().map(|t| t.raw.as_str()).collect();
    Some(Unit {
        at: i,
        text: words.join(" "),
        keys: vec![b.key(&value)],
        strict: true,
        name: false,
        range: None,
    })
}

fn word_unit(toks: &[Tok], i: usize, known: &dyn Fn(&str) -> bool) -> Option<Unit> {
    let t = &toks[i];
    let w = t.word.as_str();
    let comparing = COMPARING.contains(&w);
    // A capitalised `Corporation` is a name of its own unless it follows the company's (`NVIDIA
    // Corporation`).
    let before = |k: usize| i.checked_sub(k).map_or("", |j| toks[j].word.as_str());
    // `the chipmaker`, `the automaker`: the company by what it makes, as `the maker` is.
    let referent = (REFERENTS.contains(&w)
        || (w.len() > 5 && w.ends_with("maker") && before(1) == "the"))
        && !(i > 0 && t.raw.starts_with(char::is_uppercase) && !known(&toks[i - 1].word));
    let shell = SHELL_NOUNS.contains(&w)
        && matches!(before(1), "the" | "this" | "that")
        && ANNOUNCING.contains(&before(2));
    if (t.anchor.is_empty() && !comparing)
        || referent
        || shell
        || FIGURE_WORDS.contains(&w)
        || shorthand(w)
        || saying(w)
        || known(w)
        || w.split(['-', '/']).all(|p| p.is_empty() || known(p))
    {
        return None;
    }
    // A contraction of a pronoun or a verb (`We'll`, `they're`, `I've`) is no name and states
    // nothing a source must hold: its words are function words. (`won't` and `isn't` are
    // negations, judged as such.)
    if let Some((_, tail)) = w.split_once(['\'', '\u{2019}'])
        && matches!(tail, "ll" | "re" | "ve" | "d" | "m")
    {
        return None;
    }
    if let Some((_, stands)) = TITLES.iter().find(|(t, _)| *t == w) {
        return Some(Unit {
            at: i,
            text: t.raw.clone(),
            // As written: `chief` bears out `executive` as a word, not as a title.
            keys: std::iter::once(&w)
                .chain(stands.iter())
                .map(|k| format!("r:{k}"))
                .collect(),
            strict: true,
            name: false,
            range: None,
        });
    }
    let lemma = wordnet::lemma(w);
    let d = degree(w, &lemma);
    if let Some(n) = ordinal(w) {
        // A rank: `fifth` is not `second`; `22nd` is `twenty-second`; WordNet's synonyms
        // still apply (`fourth` of `quarter`). `at first` is `initially`.
        let mut keys = vec![format!("o:{n}"), word_key(w, 0)];
        if n == 1 && i > 0 && toks[i - 1].word == "at" {
            keys.push(word_key("initially", 0));
        }
        return Some(Unit {
            at: i,
            text: t.raw.clone(),
            keys,
            strict: true,
            name: false,
            range: None,
        });
    }
    if let Some(d) = decade(toks, i) {
        return Some(Unit {
            at: i,
            text: t.raw.clone(),
            keys: vec![format!("dec:{d}"), format!("x:{w}")],
            strict: true,
            name: false,
            range: None,
        });
    }
    if RECORDS.contains(&w) || w.starts_with(|c: char| c.is_ascii_digit()) {
        // As written: `a record` is not borne out by `recorded`.
        return Some(Unit {
            at: i,
            text: t.raw.clone(),
            keys: vec![format!("x:{w}")],
            strict: true,
            name: false,
            range: None,
        });
    }
    let mut keys = vec![word_key(&lemma, d), word_key(w, 0)];
    // `positively` says what `positive` does.
    keys.extend(adverb_base(w).map(|a| word_key(&a, 0)));
    if !t.anchor.is_empty() && d == 0 {
        keys.push(format!("s:{}", t.anchor));
    }
    if let Some(Cue::Direction(f, up)) = cues(&toks[i..], true)
        .first()
        .filter(|(k, _)| *k == 0)
        .map(|(_, c)| *c)
    {
        keys.push(direction_key(f, up));
    }
    let direction = keys.iter().any(|k| k.starts_with("d:"));
    // A capitalised word is a name; the first word of a sentence only when it is no common word.
    let name = t.raw.starts_with(char::is_uppercase)
        && (i > 0 || !wordnet::is_word(&lemma))
        && !TITLES.iter().any(|(t, _)| *t == w);
    if name {
        // A name is found as written (or its stem: `GPUs`, `GPU`), not through the relations
        // of a common word: `Disclosure` is no name `disclosed` gives.
        keys = vec![format!("x:{w}"), format!("s:{}", t.anchor)];
    }
    // A noun names a thing: a rewording keeps it. Verbs, adjectives and adverbs may be said
    // otherwise (`received` for `achieved`).
    let thing = wordnet::only_noun(&lemma) || !wordnet::is_word(&lemma);
    // `due to ship`: a schedule, which the verb after it tells.
    if scheduled(toks, i) {
        return None;
    }
    // What a party cites as its reason (`citing gaming revenue`): the reason is the claim;
    // not another's material (`citing figures from Mercury Research`), which says who.
    if before(1) == "citing" && cited_material(toks, i) {
        return None;
    }
    let reason = before(1) == "citing"
        || (before(2) == "citing" && toks[i - 1].kind == Kind::Word && !saying(before(1)));
    let strict = reason
        || comparing
        || direction
        || name
        || thing
        || d > 0
        || STRICT_WORDS.contains(&lemma.as_ref())
        || SUPERLATIVES.contains(&lemma.as_ref())
        || LIMITING.contains(&w);
    Some(Unit {
        at: i,
        text: t.raw.clone(),
        keys,
        strict,
        name,
        range: None,
    })
}

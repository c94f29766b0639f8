//! Word knowledge from WordNet 3.0: synonyms, antonyms, hypernyms, derived forms and irregular
//! inflections of lower-case single words, read from `audit/data/wordnet.tsv` (built by
//! `scripts/wordnet-table.py`, which documents what each field holds and which senses and words
//! were kept; licence in `audit/data/WORDNET-LICENSE`).
//!
//! The table is parsed once, on first use, into borrowed slices of the embedded text.

// `related` is not wired into the engine yet; delete this attribute once it is.
#![cfg_attr(
    not(test),
    expect(dead_code, reason = "related() is not used by the engine yet")
)]

use std::borrow::Cow;
use std::sync::LazyLock;

const TABLE: &str = include_str!("../../data/wordnet.tsv");

/// How word `a` stands to word `b`, compared through their lemmas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The same lemma ("rose" and "rise", "largest" and "large").
    Same,
    /// They share one of their first two senses ("buy" and "purchase").
    Synonym,
    /// Derivationally related ("acquisition" and "acquire").
    Derived,
    /// `a` is more general than `b` ("investor" for "shareholder").
    Hypernym,
    /// `a` is more specific than `b` ("shareholder" for "investor").
    Hyponym,
    /// Opposites ("increase" and "decrease").
    Antonym,
}

const NOUN: u8 = 1;
const VERB: u8 = 2;
const ADJECTIVE: u8 = 4;
const ADVERB: u8 = 8;

/// The fields of a line, in the order of [`Entry::fields`].
const FIELDS: [&str; 5] = ["syn", "ant", "hyp", "der", "base"];
const SYN: usize = 0;
const ANT: usize = 1;
const HYP: usize = 2;
const DER: usize = 3;
const BASE: usize = 4;

#[derive(Debug, Default, Clone, Copy)]
struct Entry {
    /// Parts of speech as a bit set; 0 for an irregular form that is not a lemma itself.
    pos: u8,
    /// Start and end in [`Table::words`] of each of [`FIELDS`].
    fields: [(u32, u32); 5],
}

#[derive(Debug, Default)]
struct Table {
    /// Looked up for every word of every sentence read: foldhash, not SipHash (docs/benchmarks.md).
    entries: foldhash::HashMap<&'static str, Entry>,
    /// Every listed word of every field, one field's list after another.
    words: Vec<&'static str>,
}

static TABLE_PARSED: LazyLock<Table> = LazyLock::new(|| parse(TABLE));

fn parse(text: &'static str) -> Table {
    let mut table = Table {
        entries: foldhash::HashMap::with_capacity_and_hasher(40_000, Default::default()),
        words: Vec::with_capacity(320_000),
    };
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let Some(word) = fields.next() else { continue };
        let mut entry = Entry::default();
        for field in fields {
            let Some((name, values)) = field.split_once(':') else {
                continue;
            };
            if name == "pos" {
                entry.pos = values.bytes().fold(0, |bits, p| {
                    bits | match p {
                        b'n' => NOUN,
                        b'v' => VERB,
                        b'a' => ADJECTIVE,
                        b'r' => ADVERB,
                        _ => 0,
                    }
                });
            } else if let Some(i) = FIELDS.iter().position(|&f| f == name) {
                let start = index(table.words.len());
                table.words.extend(values.split(','));
                entry.fields[i] = (start, index(table.words.len()));
            }
        }
        table.entries.insert(word, entry);
    }
    table
}

/// A position in [`Table::words`]; the table holds far fewer than `u32::MAX` words.
fn index(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn entry(w: &str) -> Option<Entry> {
    TABLE_PARSED.entries.get(w).copied()
}

fn list(w: &str, field: usize) -> &'static [&'static str] {
    let table: &'static Table = &TABLE_PARSED;
    entry(w)
        .and_then(|e| {
            let (start, end) = e.fields[field];
            table.words.get(start as usize..end as usize)
        })
        .unwrap_or(&[])
}

/// Whether `w` (a lemma, lower case) is a word of the table: a common word, not a name.
pub(crate) fn is_word(w: &str) -> bool {
    entry(w).is_some_and(|e| e.pos != 0)
}

/// Whether `w` (a lemma) is a noun and nothing else in WordNet: a thing a sentence names,
/// which a rewording does not drop.
pub(crate) fn only_noun(w: &str) -> bool {
    entry(w).is_some_and(|e| e.pos == NOUN)
}

/// Whether `w` (a lemma) is a noun in WordNet (and maybe more).
pub(crate) fn is_noun(w: &str) -> bool {
    known(w, NOUN)
}

/// Whether `w` (a lemma) is a verb in WordNet.
pub(crate) fn is_verb(w: &str) -> bool {
    known(w, VERB)
}

/// Whether `w` (a lemma) is an adjective in WordNet.
pub(crate) fn is_adjective(w: &str) -> bool {
    known(w, ADJECTIVE)
}

/// Single-word synonyms of `w` (a lemma) from its first two senses, sorted.
pub(crate) fn synonyms(w: &str) -> &'static [&'static str] {
    list(w, SYN)
}

/// Antonyms of `w` (a lemma), sorted. Not always symmetric in the table: an adjective inherits
/// the antonym of its head synset ("huge" → "small") but not the other way round.
pub(crate) fn antonyms(w: &str) -> &'static [&'static str] {
    list(w, ANT)
}

/// Hypernyms of `w` (a lemma), up to two levels above its first two senses, sorted.
pub(crate) fn hypernyms(w: &str) -> &'static [&'static str] {
    list(w, HYP)
}

/// Derivationally related forms of `w` (a lemma), sorted.
pub(crate) fn derived(w: &str) -> &'static [&'static str] {
    list(w, DER)
}

fn known(w: &str, pos: u8) -> bool {
    entry(w).is_some_and(|e| e.pos & pos != 0)
}

/// The lemma of a lower-case word: the irregular base from WordNet's exception lists ("rose" →
/// "rise", "better" → "good"), else the verb of an -ed/-ing form, else the word itself when it is
/// a lemma, else regular inflection (-s/-es/-ies, -er/-est) tried against the known lemmas; the
/// word itself when nothing matches.
pub(crate) fn lemma(w: &str) -> Cow<'_, str> {
    if let Some(&base) = list(w, BASE).first() {
        return Cow::Borrowed(base);
    }
    if let Some(verb) = verb_stem(w) {
        return Cow::Owned(verb);
    }
    if known(w, NOUN | VERB | ADJECTIVE | ADVERB) {
        return Cow::Borrowed(w);
    }
    other_stem(w).map_or(Cow::Borrowed(w), Cow::Owned)
}

/// Every reading of `w` as a lemma: irregular bases, the verb of an -ed/-ing form, the word
/// itself, other regular stems. The first is [`lemma`]'s.
fn lemmas(w: &str) -> Vec<Cow<'_, str>> {
    let mut out: Vec<Cow<'_, str>> = Vec::new();
    out.extend(list(w, BASE).iter().map(|&b| Cow::Borrowed(b)));
    out.extend(verb_stem(w).map(Cow::Owned));
    out.push(Cow::Borrowed(w));
    out.extend(other_stem(w).map(Cow::Owned));
    let mut seen: Vec<Cow<'_, str>> = Vec::with_capacity(out.len());
    for l in out {
        if !seen.contains(&l) {
            seen.push(l);
        }
    }
    seen
}

/// The stem with a doubled final consonant undone ("stopp" → "stop"), if it ends in one.
fn undouble(stem: &str) -> Option<&str> {
    let b = stem.as_bytes();
    let n = b.len();
    // An ASCII letter last, so the cut is at a character's edge (`ꂂ` ends in two equal bytes).
    (n >= 3
        && b[n - 1].is_ascii_lowercase()
        && b[n - 1] == b[n - 2]
        && !b"aeiouy".contains(&b[n - 1]))
    .then(|| &stem[..n - 1])
}

/// The first of `candidates` that is a known lemma with one of the parts of speech `pos`.
fn first_known(candidates: &[String], pos: u8) -> Option<String> {
    candidates
        .iter()
        .find(|c| c.len() > 1 && known(c, pos))
        .cloned()
}

/// The verb of a regular -ed or -ing form: "raised" → "raise", "stopped" → "stop", "studied" →
/// "study", "rising" → "rise", "running" → "run". The "+e" reading is tried first ("rated" →
/// "rate", not "rat").
fn verb_stem(w: &str) -> Option<String> {
    let mut candidates = Vec::new();
    if let Some(stem) = w.strip_suffix("ied") {
        candidates.push(format!("{stem}y"));
    }
    if let Some(stem) = w.strip_suffix("ying") {
        candidates.push(format!("{stem}ie"));
    }
    for suffix in ["ed", "ing"] {
        if let Some(stem) = w.strip_suffix(suffix) {
            candidates.push(format!("{stem}e"));
            candidates.push(stem.to_owned());
            candidates.extend(undouble(stem).map(str::to_owned));
        }
    }
    first_known(&candidates, VERB)
}

/// The lemma of a regular plural or third person ("rates" → "rate", "taxes" → "tax", "does" →
/// "do", "companies" → "company") or of a comparative or superlative adjective ("largest" →
/// "large", "bigger" → "big", "happiest" → "happy", "faster" → "fast").
fn other_stem(w: &str) -> Option<String> {
    if let Some(stem) = w.strip_suffix("ies")
        && let Some(found) = first_known(&[format!("{stem}y")], NOUN | VERB)
    {
        return Some(found);
    }
    if !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
        && let Some(stem) = w.strip_suffix('s')
    {
        let mut candidates = Vec::new();
        if let Some(short) = stem.strip_suffix('e')
            && ["s", "x", "z", "ch", "sh", "o"]
                .iter()
                .any(|end| short.ends_with(end))
        {
            candidates.push(short.to_owned());
        }
        candidates.push(stem.to_owned());
        if let Some(found) = first_known(&candidates, NOUN | VERB) {
            return Some(found);
        }
    }
    for suffix in ["iest", "ier"] {
        if let Some(stem) = w.strip_suffix(suffix)
            && let Some(found) = first_known(&[format!("{stem}y")], ADJECTIVE)
        {
            return Some(found);
        }
    }
    for suffix in ["est", "er"] {
        if let Some(stem) = w.strip_suffix(suffix) {
            let mut candidates = vec![format!("{stem}e"), stem.to_owned()];
            candidates.extend(undouble(stem).map(str::to_owned));
            if let Some(found) = first_known(&candidates, ADJECTIVE) {
                return Some(found);
            }
        }
    }
    None
}

/// How `a` stands to `b` (both lower-case words), comparing every lemma reading of each; the
/// closest relation wins, in the order of [`Relation`]'s variants (so a synonym reading beats
/// an antonym one). `None` when WordNet relates them in none of these ways.
pub(crate) fn related(a: &str, b: &str) -> Option<Relation> {
    let (left, right) = (lemmas(a), lemmas(b));
    let mut best: Option<Relation> = None;
    for x in &left {
        for y in &right {
            if let Some(r) = relation(x, y)
                && best.is_none_or(|b| rank(r) < rank(b))
            {
                best = Some(r);
            }
        }
    }
    best
}

fn rank(r: Relation) -> u8 {
    match r {
        Relation::Same => 0,
        Relation::Synonym => 1,
        Relation::Derived => 2,
        Relation::Hypernym => 3,
        Relation::Hyponym => 4,
        Relation::Antonym => 5,
    }
}

fn relation(x: &str, y: &str) -> Option<Relation> {
    if x == y {
        return Some(Relation::Same);
    }
    let has = |list: &[&str], w: &str| list.contains(&w);
    if has(synonyms(x), y) || has(synonyms(y), x) {
        Some(Relation::Synonym)
    } else if has(derived(x), y) || has(derived(y), x) {
        Some(Relation::Derived)
    } else if has(hypernyms(y), x) {
        Some(Relation::Hypernym)
    } else if has(hypernyms(x), y) {
        Some(Relation::Hyponym)
    } else if has(antonyms(x), y) || has(antonyms(y), x) {
        Some(Relation::Antonym)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_other_scripts_keep_their_characters_whole() {
        // `ꂂ` (U+A082) ends in two equal bytes: no doubled consonant to undo.
        assert_eq!(lemma("ꂂed"), "ꂂed");
        assert_eq!(lemma("ꂂꂂing"), "ꂂꂂing");
    }

    #[test]
    fn irregular_forms_come_from_the_exception_lists() {
        assert_eq!(lemma("rose"), "rise");
        assert_eq!(lemma("fell"), "fall");
        assert_eq!(lemma("bought"), "buy");
        assert_eq!(lemma("better"), "good");
        assert_eq!(lemma("has"), "have");
    }

    #[test]
    fn regular_inflections_are_tried_against_the_lemmas() {
        assert_eq!(lemma("largest"), "large");
        assert_eq!(lemma("bigger"), "big");
        assert_eq!(lemma("happiest"), "happy");
        assert_eq!(lemma("raised"), "raise");
        assert_eq!(lemma("rated"), "rate");
        assert_eq!(lemma("stopped"), "stop");
        assert_eq!(lemma("studied"), "study");
        assert_eq!(lemma("rising"), "rise");
        assert_eq!(lemma("running"), "run");
        assert_eq!(lemma("companies"), "company");
        assert_eq!(lemma("taxes"), "tax");
        assert_eq!(lemma("rates"), "rate");
        assert_eq!(lemma("does"), "do");
        assert_eq!(lemma("shareholders"), "shareholder");
        assert_eq!(lemma("acquisitions"), "acquisition");
        assert_eq!(lemma("news"), "news");
        assert_eq!(lemma("revenue"), "revenue");
        assert_eq!(lemma("nvidia"), "nvidia");
    }

    #[test]
    fn relations_hold_between_real_words() {
        assert_eq!(related("rose", "rise"), Some(Relation::Same));
        assert_eq!(related("fell", "falls"), Some(Relation::Same));
        assert_eq!(related("largest", "large"), Some(Relation::Same));
        assert_eq!(related("acquisition", "acquire"), Some(Relation::Derived));
        assert_eq!(
            related("announced", "announcement"),
            Some(Relation::Derived)
        );
        assert_eq!(related("increase", "decrease"), Some(Relation::Antonym));
        assert_eq!(related("rose", "fell"), Some(Relation::Antonym));
        assert_eq!(related("buy", "purchase"), Some(Relation::Synonym));
        assert_eq!(related("bought", "purchased"), Some(Relation::Synonym));
        assert_eq!(related("big", "large"), Some(Relation::Synonym));
        assert_eq!(
            related("shareholder", "stockholder"),
            Some(Relation::Synonym)
        );
        assert_eq!(related("huge", "small"), Some(Relation::Antonym));
        assert_eq!(related("small", "huge"), Some(Relation::Antonym));
        assert_eq!(related("shareholder", "investor"), Some(Relation::Hyponym));
        assert_eq!(
            related("investor", "shareholders"),
            Some(Relation::Hypernym)
        );
        assert_eq!(related("revenue", "tesla"), None);
    }

    #[test]
    fn lists_are_read_from_the_table() {
        assert!(synonyms("buy").contains(&"purchase"));
        assert!(antonyms("increase").contains(&"decrease"));
        assert!(hypernyms("shareholder").contains(&"investor"));
        assert!(derived("announce").contains(&"announcement"));
        assert!(synonyms("zzzz").is_empty());
    }

    #[test]
    fn the_table_is_sorted_and_well_formed() {
        let lines: Vec<&str> = TABLE.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(lines.len() > 30_000);
        assert!(lines.windows(2).all(|w| w[0] < w[1]));
        for line in lines {
            let mut fields = line.split('\t');
            let word = fields.next().unwrap_or_default();
            assert!(
                !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{line}"
            );
            for field in fields {
                let (name, values) = field.split_once(':').unwrap_or_default();
                assert!(
                    ["pos", "syn", "ant", "hyp", "der", "base"].contains(&name),
                    "{line}"
                );
                assert!(!values.is_empty(), "{line}");
            }
        }
    }
}

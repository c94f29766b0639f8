//! What a source sentence offers a draft's units, and whether it says otherwise than a draft's
//! word.

use foldhash::{HashSet, HashSetExt};
use std::cell::RefCell;
use std::rc::Rc;

use super::keys::{degree, direction_key, word_key};
use super::links::{Link, links, occasions};
use super::numbers::{Bound, bound_before, counted, number_at, shorthand};
use super::times::{in_date, time_frame};
use super::units::{HEDGED, WILL};
use crate::builtin::clause::capital;
use crate::builtin::cues::{Cue, cues};
use crate::builtin::lexicon::{equivalents, place_of};
use crate::builtin::speakers::speaker_chains;
use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordclass::{adverb_base, decade, decade_of, ordinal};
use crate::builtin::wordnet;

/// What a source sentence offers a draft's units: stems, lemmas and the words WordNet relates
/// them to (a draft may use a synonym, a derived form or a more general word), numbers with
/// their bounds, and directions.
#[derive(Debug, Default)]
pub(in crate::builtin) struct Offer {
    /// Hashed with foldhash: building these sets is most of reading an entry (docs/benchmarks.md).
    pub(super) keys: foldhash::HashSet<Rc<str>>,
    pub(super) links: Vec<Link>,
    /// It is an entry's title, which names what the entry is about: a name found there stands
    /// beside the names of any sentence of the entry.
    pub(in crate::builtin) subject: bool,
    /// Its numbers stated without a bound, with what they count: `78 reviews` bears out `more
    /// than 77 reviews`.
    pub(super) exact: Vec<(f64, String)>,
    /// Its numbers stated with a bound, with what they count: `over 740,000 subscribers` bears
    /// out `more than 730,000 subscribers`.
    pub(super) bounded: Vec<(Bound, f64, String)>,
}

impl Offer {
    pub(super) fn has(&self, key: &str) -> bool {
        self.keys.contains(key)
    }
}

/// What the source sentence `toks` offers.
pub(in crate::builtin) fn offer(toks: &[Tok]) -> Offer {
    let mut keys = foldhash::HashSet::default();
    let speaking: HashSet<usize> = speaker_chains(toks).into_iter().flatten().collect();
    for (i, t) in toks.iter().enumerate() {
        if speaking.contains(&i) {
            // Who said it bears out who said it only: `Management's Discussion and Analysis
            // notes that` bears out no `Discussion` in what a draft states.
            keys.insert(Rc::from(format!("p:{}", t.word)));
            keys.insert(Rc::from(format!("r:{}", t.word)));
            continue;
        }
        if let Some(n) = number_at(toks, i) {
            keys.insert(Rc::from(format!("n:{n}")));
            let b = bound_before(toks, i).map(|(b, _)| b);
            // An exact figure also bears out `about` it.
            keys.insert(Rc::from(b.unwrap_or(Bound::Approx).key(&n)));
            // `three times` bears out `3x`.
            if toks.get(i + 1).is_some_and(|t| t.word == "times") {
                keys.insert(Rc::from(b.unwrap_or(Bound::Approx).key(&format!("{n}x"))));
            }
        }
        // A multiple (`3x`) and a date's first word (`19 October`, `November`) with their
        // bound: `over 3x` bears out `over 3x`, an unbounded one `about 3x`.
        if t.kind == Kind::Word && (shorthand(&t.word) || in_date(toks, i)) {
            let b = bound_before(toks, i).map(|(b, _)| b);
            keys.insert(Rc::from(b.unwrap_or(Bound::Approx).key(&t.word)));
            // `3x` bears out `three times`.
            if let Some(n) = t
                .word
                .strip_suffix('x')
                .filter(|n| shorthand(&t.word) && !n.is_empty())
            {
                keys.insert(Rc::from(format!("n:{n}")));
                keys.insert(Rc::from(b.unwrap_or(Bound::Approx).key(n)));
                keys.extend(word_keys("times").iter().cloned());
            }
        }
        if let Some(n) = ordinal(&t.word) {
            keys.insert(Rc::from(format!("o:{n}")));
            // `at first` bears out `initially`.
            if n == 1 && i > 0 && toks[i - 1].word == "at" {
                keys.extend(word_keys("initially").iter().cloned());
            }
        }
        match t.word.as_str() {
            "will" | "shall" => {
                keys.insert(Rc::from(WILL));
            }
            "may" | "might" | "could" => {
                keys.insert(Rc::from(HEDGED));
            }
            _ => {}
        }
        // A year bears out its decade (`1978`, `the 1970s`).
        if let Some(d) = decade(toks, i).or_else(|| decade_of(t)) {
            keys.insert(Rc::from(format!("dec:{d}")));
        }
        match t.kind {
            Kind::Number => {}
            Kind::Word => {
                keys.extend(time_frame(toks, i).map(Rc::from));
                for part in std::iter::once(t.word.as_str()).chain(t.word.split(['-', '/'])) {
                    keys.extend(word_keys(part).iter().cloned());
                }
                if !t.anchor.is_empty() {
                    keys.insert(Rc::from(format!("s:{}", t.anchor)));
                }
                // The word as written, for the words of a name (`United States`).
                keys.insert(Rc::from(format!("r:{}", t.word)));
                // What is of a place names the place (`Chinese regulators`: `China`); not the
                // other way: `released in Canada` says nothing `Canadian`.
                if let Some(other) = t
                    .raw
                    .starts_with(char::is_uppercase)
                    .then(|| place_of(&t.word))
                    .flatten()
                {
                    keys.insert(Rc::from(format!("r:{other}")));
                    keys.extend(word_keys(other).iter().cloned());
                }
            }
            Kind::Break => {}
        }
    }
    if analyst(toks) {
        keys.extend(word_keys("analyst").iter().cloned());
    }
    // What happened `on the report` came after it.
    for news in occasions(toks) {
        keys.insert(Rc::from(format!("occ:{news}")));
    }
    // Lead times are what buyers wait (`customers now face lead times of about 3 weeks`).
    let waits = toks
        .windows(2)
        .any(|w| w[0].word == "lead" && matches!(w[1].word.as_str(), "time" | "times"));
    if waits {
        for who in ["customer", "buyer"] {
            keys.extend(word_keys(who).iter().cloned());
        }
    }
    for (_, c) in cues(toks, false) {
        match c {
            Cue::Direction(f, up) => {
                keys.insert(Rc::from(direction_key(f, up)));
            }
            Cue::Negation => {
                keys.insert(Rc::from("neg"));
            }
            Cue::Hedge => {}
        }
    }
    // A year (`2020 coronavirus pandemic`) counts nothing.
    let year = |i: usize| {
        toks[i].kind == Kind::Number
            && toks[i].anchor.len() == 4
            && toks[i]
                .anchor
                .parse::<u32>()
                .is_ok_and(|y| (1800..=2100).contains(&y))
    };
    let exact = (0..toks.len())
        .filter(|&i| bound_before(toks, i).is_none() && !year(i))
        .filter_map(|i| Some((number_at(toks, i)?.parse::<f64>().ok()?, counted(toks, i))))
        .collect();
    let bounded = (0..toks.len())
        .filter_map(|i| {
            let (b, _) = bound_before(toks, i)?;
            Some((
                b,
                number_at(toks, i)?.parse::<f64>().ok()?,
                counted(toks, i),
            ))
        })
        .collect();
    Offer {
        keys,
        links: links(toks).into_iter().map(|(_, _, l)| l).collect(),
        subject: false,
        exact,
        bounded,
    }
}

/// Words of what an analyst says of a company: its stock, rating, price target or estimates.
const ANALYSTS_SAY: &[&str] = &["stock", "rating", "target", "estimates"];

/// Whether the sentence has a person at a firm (`Vivek Arya at BofA Securities`) saying what
/// an analyst says (`called it an important signal for the stock`): it bears out `analyst`.
fn analyst(toks: &[Tok]) -> bool {
    let at = (2..toks.len().saturating_sub(1)).any(|i| {
        toks[i].word == "at"
            && capital(&toks[i - 1])
            && capital(&toks[i - 2])
            && capital(&toks[i + 1])
    });
    at && toks.iter().any(|t| ANALYSTS_SAY.contains(&t.word.as_str()))
}

/// The words a source word bears out besides itself: its synonyms and derived forms, and the
/// more general words it is a kind of.
fn supporting(lemma: &str) -> impl Iterator<Item = &'static str> {
    wordnet::synonyms(lemma)
        .iter()
        .chain(wordnet::derived(lemma))
        .chain(wordnet::hypernyms(lemma))
        .chain(equivalents(lemma))
        .copied()
}

thread_local! {
    /// Each word's keys, worked out once per thread: the same words recur in every entry read,
    /// and their WordNet relations are most of reading one (docs/benchmarks.md). Cleared when
    /// full, so a stream of new words cannot grow it without bound.
    static WORD_KEYS: RefCell<foldhash::HashMap<String, Rc<[Rc<str>]>>> =
        RefCell::new(foldhash::HashMap::default());
}

/// The most words [`WORD_KEYS`] holds: about 450 bytes a word (nine keys on average over the
/// demo archive's 3,162 words), so at most about 9 MB a thread.
const WORD_KEYS_MAX: usize = 20_000;

/// The keys a source word offers ([`offer_word`]), from the thread's cache.
fn word_keys(word: &str) -> Rc<[Rc<str>]> {
    WORD_KEYS.with(|cache| {
        if let Some(keys) = cache.borrow().get(word) {
            return Rc::clone(keys);
        }
        let mut set = HashSet::new();
        offer_word(&mut set, word);
        let keys: Rc<[Rc<str>]> = set.into_iter().map(Rc::from).collect();
        let mut cache = cache.borrow_mut();
        if cache.len() >= WORD_KEYS_MAX {
            cache.clear();
        }
        cache.insert(word.to_string(), Rc::clone(&keys));
        keys
    })
}

fn offer_word(keys: &mut HashSet<String>, word: &str) {
    if word.is_empty() {
        return;
    }
    let lemma = wordnet::lemma(word);
    let d = degree(word, &lemma);
    keys.insert(word_key(word, 0));
    keys.insert(format!("x:{word}"));
    // `largest` bears out `larger` and `large` too, not the reverse.
    // The word's own relations too: `coming` is a lemma of its own besides `come`.
    let own = (*lemma != *word).then_some(word);
    for degree in 0..=d {
        keys.insert(word_key(&lemma, degree));
        for other in supporting(&lemma).chain(own.into_iter().flat_map(supporting)) {
            keys.insert(word_key(other, degree));
        }
    }
    // `positively` says what `positive` does.
    if let Some(base) = adverb_base(word) {
        keys.insert(word_key(&base, 0));
    }
    // What the sentence's words are the opposite of: no rewording (`accurate`, `inaccurate`).
    for opposite in wordnet::antonyms(&lemma) {
        keys.insert(format!("a:{opposite}"));
    }
    // The kinds its words are of: a draft's word of the same kind names another one.
    for kind in wordnet::hypernyms(&lemma) {
        keys.insert(format!("h:{kind}"));
    }
}

/// Whether a source sentence says otherwise than the draft's word `w`: one holds an antonym of
/// the other (WordNet's antonyms are not always listed both ways), or, for a word that is no
/// verb, another word of its kind (a shared hypernym).
pub(super) fn opposed(w: &str, offers: &[&Offer]) -> bool {
    let lemma = wordnet::lemma(w);
    // A noun or adjective of a kind the source names another of (`radio` where it says
    // `theatre, television`); verbs of one kind reword each other too often.
    let sibling = !wordnet::is_verb(&lemma);
    offers.iter().any(|o| {
        o.has(&format!("a:{lemma}"))
            || wordnet::antonyms(&lemma)
                .iter()
                .any(|a| o.has(&word_key(a, 0)))
            || (sibling
                && wordnet::hypernyms(&lemma)
                    .iter()
                    .any(|h| o.has(&format!("h:{h}"))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_keys_the_same_from_the_cache_and_the_cache_stays_bounded() {
        let mut fresh = HashSet::new();
        offer_word(&mut fresh, "revenue");
        for _ in 0..2 {
            let cached: HashSet<String> =
                word_keys("revenue").iter().map(|k| k.to_string()).collect();
            assert_eq!(cached, fresh);
        }
        for n in 0..WORD_KEYS_MAX + 10 {
            word_keys(&format!("w{n}"));
        }
        assert!(WORD_KEYS.with(|c| c.borrow().len()) <= WORD_KEYS_MAX);
    }
}

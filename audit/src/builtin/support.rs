//! Default deny: a sentence of the body that states something of record is supported only when
//! every content unit it states is found in the source sentences it rests on. Units are its
//! content words (names, things, acts, comparisons and superlatives, time frames), its numbers
//! with the bound they carry (`about`, `more than`), the causal and temporal links between its
//! clauses (`because`, `which is why`, `after`) and who it says said it. A word is found in a
//! source sentence as itself (its stem or its lemma, in the same degree: `largest` is not
//! `large`), as a WordNet synonym or derived form, as a more general word (a hypernym), or as a
//! direction word of the same family and sense. What is not found is named in the finding.

use std::collections::HashSet;

use super::cues::{Cue, cues};
use super::dates::is_month;
use super::lexicon::{EQUIVALENTS, Family};
use super::speakers::{saying, speaker_chains};
use super::tokens::{Kind, Tok};
use super::wordclass::{adverb_base, cardinal, decade, decade_of, ordinal};
use super::wordnet;

/// Source sentences one sentence of the body may rest on, at most.
pub const MAX_COVER: usize = 3;
/// Units a second or third source sentence must add to be rested on too (one is enough when it
/// is no name, figure or time frame).
pub const COVER_GAIN: usize = 2;
/// Ordinary words (not a name, figure, bound, link, comparison, time frame or direction) a
/// sentence may hold that its sources do not, as a rewording, when at least [`LOOSE_SHARE`] of
/// its units are found: a minor finding, not a major one.
pub const LOOSE_MISSING: usize = 2;
pub const LOOSE_SHARE: f64 = 0.6;

/// How a number is bounded: `about 20,000`, `more than 20,000`, `up to 20,000`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Approx,
    AtLeast,
    AtMost,
}

impl Bound {
    fn key(self, n: &str) -> String {
        let b = match self {
            Bound::Approx => "approx",
            Bound::AtLeast => "least",
            Bound::AtMost => "most",
        };
        format!("b:{n}:{b}")
    }
}

/// The words (one or two before a number) that bound it.
const BOUNDS: &[(&[&str], Bound)] = &[
    (&["about"], Bound::Approx),
    (&["around"], Bound::Approx),
    (&["roughly"], Bound::Approx),
    (&["approximately"], Bound::Approx),
    (&["nearly"], Bound::Approx),
    (&["almost"], Bound::Approx),
    (&["some"], Bound::Approx),
    (&["close", "to"], Bound::Approx),
    (&["an", "estimated"], Bound::Approx),
    (&["more", "than"], Bound::AtLeast),
    (&["over"], Bound::AtLeast),
    (&["above"], Bound::AtLeast),
    (&["at", "least"], Bound::AtLeast),
    (&["upwards", "of"], Bound::AtLeast),
    (&["in", "excess", "of"], Bound::AtLeast),
    (&["exceeding"], Bound::AtLeast),
    (&["less", "than"], Bound::AtMost),
    (&["fewer", "than"], Bound::AtMost),
    (&["under"], Bound::AtMost),
    (&["below"], Bound::AtMost),
    (&["up", "to"], Bound::AtMost),
    (&["at", "most"], Bound::AtMost),
    (&["as", "many", "as"], Bound::AtMost),
    (&["as", "much", "as"], Bound::AtMost),
];

/// The bound of the number at token `i`, and the index of its first word.
fn bound_before(toks: &[Tok], i: usize) -> Option<(Bound, usize)> {
    // `over five years` is how long, not more than five years.
    let period = toks.get(i + 1).is_some_and(|t| {
        matches!(
            t.word.trim_end_matches('s'),
            "year" | "quarter" | "month" | "week" | "day" | "decade"
        )
    });
    if period && i > 0 && toks[i - 1].word == "over" {
        return None;
    }
    // A currency sign is not a token: `about $200` reads `about 200`.
    BOUNDS.iter().find_map(|(words, b)| {
        let start = i.checked_sub(words.len())?;
        let hit = words
            .iter()
            .enumerate()
            .all(|(k, w)| toks[start + k].word == *w);
        hit.then_some((*b, start))
    })
}

/// What the number at token `i` counts: `%`, the stem of the word after it, or the scale word
/// and the word after that (`3 million users`).
fn counted(toks: &[Tok], i: usize) -> String {
    let next = |k: usize| toks.get(k).map_or("", |t| t.anchor.as_str());
    if toks[i].raw.ends_with('%') || matches!(next(i + 1), "percent" | "pct") {
        return "%".to_string();
    }
    match next(i + 1) {
        "million" | "billion" | "thousand" | "trillion" => {
            format!("{} {}", next(i + 1), next(i + 2))
        }
        w => w.to_string(),
    }
}

/// The value of the number at token `i`: its digits, or a number written as a word (`nine`).
fn number_at(toks: &[Tok], i: usize) -> Option<String> {
    let t = &toks[i];
    match t.kind {
        Kind::Number => Some(t.anchor.clone()),
        Kind::Word => cardinal(&t.word).map(|n| n.to_string()),
        Kind::Break => None,
    }
}

/// A link between two clauses: the first clause is the reason for the second, or came before
/// or after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Link {
    Causal,
    Temporal,
}

/// Link words; a causal link is not carried by a temporal one (`after` does not say
/// `because`), a temporal one is by a causal one.
const LINKS: &[(&[&str], Link)] = &[
    (&["because"], Link::Causal),
    (&["why"], Link::Causal),
    (&["therefore"], Link::Causal),
    (&["hence"], Link::Causal),
    (&["thus"], Link::Causal),
    (&["consequently"], Link::Causal),
    (&["due", "to"], Link::Causal),
    (&["owing", "to"], Link::Causal),
    (&["thanks", "to"], Link::Causal),
    (&["as", "a", "result"], Link::Causal),
    (&["so", "that"], Link::Causal),
    (&["led", "to"], Link::Causal),
    (&["leading", "to"], Link::Causal),
    (&["caused"], Link::Causal),
    (&["causing"], Link::Causal),
    (&["driven", "by"], Link::Causal),
    (&["resulting"], Link::Causal),
    (&["after"], Link::Temporal),
    (&["once"], Link::Temporal),
    (&["following"], Link::Temporal),
    (&["since"], Link::Temporal),
    (&["before"], Link::Temporal),
    (&["until"], Link::Temporal),
    (&["prior", "to"], Link::Temporal),
    (&["subsequently"], Link::Temporal),
    (&["amid"], Link::Temporal),
];

/// The links of a sentence: (first token, last token, kind).
fn links(toks: &[Tok]) -> Vec<(usize, usize, Link)> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        // `the following decade` is a time frame, and `our following event` an adjective, not a
        // link.
        let determined = i > 0
            && matches!(
                toks[i - 1].word.as_str(),
                "the" | "a" | "an" | "our" | "its" | "their" | "his" | "her" | "this" | "that"
            );
        if time_frame(toks, i).is_some() || determined {
            continue;
        }
        for (words, link) in LINKS {
            let end = i + words.len();
            if end <= toks.len()
                && words
                    .iter()
                    .enumerate()
                    .all(|(k, w)| toks[i + k].word == *w)
            {
                out.push((i, end - 1, *link));
            }
        }
    }
    out
}

/// Words that refer to the company a journal is about, or to nothing a source must state.
const REFERENTS: &[&str] = &[
    "company",
    "companies",
    "firm",
    "firm's",
    "group",
    "business",
    "maker",
    "corporation",
    "inc",
    "corp",
    "ltd",
    "plc",
    "co",
];

/// Degree of an adjective or adverb as written: `large` 0, `larger` 1, `largest` 2.
fn degree(word: &str, lemma: &str) -> u8 {
    if word == lemma {
        0
    } else if word.ends_with("est") {
        2
    } else if word.ends_with("er") && !lemma.ends_with("er") {
        1
    } else {
        0
    }
}

fn word_key(lemma: &str, degree: u8) -> String {
    match degree {
        0 => format!("w:{lemma}"),
        d => format!("w:{lemma}#{d}"),
    }
}

/// What a source sentence offers a draft's units: stems, lemmas and the words WordNet relates
/// them to (a draft may use a synonym, a derived form or a more general word), numbers with
/// their bounds, and directions.
#[derive(Debug, Default)]
pub(super) struct Offer {
    keys: HashSet<String>,
    links: Vec<Link>,
    /// It is an entry's title, which names what the entry is about: a name found there stands
    /// beside the names of any sentence of the entry.
    pub(super) subject: bool,
    /// Its numbers stated without a bound, with what they count: `78 reviews` bears out `more
    /// than 77 reviews`.
    exact: Vec<(f64, String)>,
    /// Its numbers stated with a bound, with what they count: `over 740,000 subscribers` bears
    /// out `more than 730,000 subscribers`.
    bounded: Vec<(Bound, f64, String)>,
}

impl Offer {
    pub(super) fn has(&self, key: &str) -> bool {
        self.keys.contains(key)
    }
}

fn direction_key(f: Family, up: bool) -> String {
    format!("d:{f:?}:{up}")
}

/// The time frame that token `i` opens (`this year`, `the coming weeks`, `next quarter`), as a
/// key: which way from now, and the period.
fn time_frame(toks: &[Tok], i: usize) -> Option<String> {
    let way = match toks[i].word.as_str() {
        "this" | "current" => "this",
        "next" | "coming" | "following" | "upcoming" => "next",
        "last" | "previous" | "prior" | "past" => "last",
        _ => return None,
    };
    let period = toks.get(i + 1)?.word.trim_end_matches('s');
    matches!(
        period,
        "year" | "quarter" | "month" | "week" | "decade" | "half" | "season" | "day"
    )
    .then(|| format!("t:{way}:{period}"))
}

/// What the source sentence `toks` offers.
pub(super) fn offer(toks: &[Tok]) -> Offer {
    let mut keys = HashSet::new();
    let speaking: HashSet<usize> = speaker_chains(toks).into_iter().flatten().collect();
    for (i, t) in toks.iter().enumerate() {
        if speaking.contains(&i) {
            // Who said it bears out who said it only: `Management's Discussion and Analysis
            // notes that` bears out no `Discussion` in what a draft states.
            keys.insert(format!("p:{}", t.word));
            continue;
        }
        if let Some(n) = number_at(toks, i) {
            keys.insert(format!("n:{n}"));
            let b = bound_before(toks, i).map(|(b, _)| b);
            // An exact figure also bears out `about` it.
            keys.insert(b.unwrap_or(Bound::Approx).key(&n));
        }
        if let Some(n) = ordinal(&t.word) {
            keys.insert(format!("o:{n}"));
        }
        // A year bears out its decade (`1978`, `the 1970s`).
        if let Some(d) = decade(toks, i).or_else(|| decade_of(t)) {
            keys.insert(format!("dec:{d}"));
        }
        match t.kind {
            Kind::Number => {}
            Kind::Word => {
                keys.extend(time_frame(toks, i));
                for part in std::iter::once(t.word.as_str()).chain(t.word.split(['-', '/'])) {
                    offer_word(&mut keys, part);
                }
                if !t.anchor.is_empty() {
                    keys.insert(format!("s:{}", t.anchor));
                }
            }
            Kind::Break => {}
        }
    }
    for (_, c) in cues(toks, false) {
        match c {
            Cue::Direction(f, up) => {
                keys.insert(direction_key(f, up));
            }
            Cue::Negation => {
                keys.insert("neg".to_string());
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

/// The trade's equivalents of a lemma ([`EQUIVALENTS`]).
fn equivalents(lemma: &str) -> &'static [&'static str] {
    static GROUPS: std::sync::LazyLock<
        std::collections::HashMap<&'static str, &'static [&'static str]>,
    > = std::sync::LazyLock::new(|| {
        EQUIVALENTS
            .iter()
            .flat_map(|g| g.iter().map(move |w| (*w, *g)))
            .collect()
    });
    GROUPS.get(lemma).copied().unwrap_or(&[])
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
fn opposed(w: &str, offers: &[&Offer]) -> bool {
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

/// One thing a draft's sentence states, and the keys any one of which finds it.
#[derive(Debug)]
struct Unit {
    /// Token index where it stands.
    at: usize,
    /// As written, for the finding.
    text: String,
    keys: Vec<String>,
    /// Must be found: a name, a figure, a bound, a comparison or superlative, a time frame, a
    /// direction. One other word of a sentence otherwise borne out may be a rewording
    /// ([`LOOSE_MISSING`]).
    strict: bool,
    /// A name: the names of a sentence must stand together in one sentence it rests on.
    name: bool,
    /// A bounded number: `more than 77` is also found in an exact `78`.
    range: Option<(Bound, f64, String)>,
}

impl Unit {
    /// A name, a figure, a rank or a time frame: what identifies the statement.
    fn specific(&self) -> bool {
        self.name
            || self.keys.iter().any(|k| {
                ["n:", "b:", "t:", "o:", "dec:"]
                    .iter()
                    .any(|p| k.starts_with(p))
            })
    }
}

/// Whether token `i` is part of a date (a month, a day beside it): the date checks judge those
/// against the entries' dates of record.
fn in_date(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let day = t.kind == Kind::Number || t.word.starts_with(|c: char| c.is_ascii_digit());
    if t.kind == Kind::Word && !day {
        return is_month(&t.word) && t.raw.starts_with(char::is_uppercase);
    }
    let near_month = |j: Option<usize>| {
        j.and_then(|j| toks.get(j))
            .is_some_and(|n| is_month(&n.word) && n.raw.starts_with(char::is_uppercase))
    };
    // A day beside its month; a year is a figure (the year of record needs no source).
    // `22nd` of `November 22nd` too.
    let short = t.anchor.len() <= 2 || ordinal(&t.word).is_some_and(|n| n <= 31);
    short && (near_month(i.checked_sub(1)) || near_month(Some(i + 1)))
}

/// The tokens of names (consecutive capitalised words) one word of which is in the handle of a
/// post cited (`Shyam Sankar` of `@ssankar`).
fn handle_names(toks: &[Tok], handle: &dyn Fn(&str) -> bool) -> HashSet<usize> {
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

/// What needs no source sentence.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    /// A word or number (lower case) anywhere: the company's names.
    pub(super) word: &'a dyn Fn(&str) -> bool,
    /// A word of the handle of a post cited: the name it is part of.
    pub(super) handle: &'a dyn Fn(&str) -> bool,
    /// A word of where the entries come from (`10-Q`, `The Verge`), in the words that say who
    /// said it.
    pub(super) from: &'a dyn Fn(&str) -> bool,
}

/// Tokens near a word of saying or of provenance (`a 10-Q filing showed`, `according to The
/// Verge`): where a sentence says who said it. Not past `that`, where what was said begins
/// (`a filing showed that GB300 Form racks …` states `Form` as a fact), nor past a comma.
fn frame(toks: &[Tok], from: &dyn Fn(&str) -> bool) -> HashSet<usize> {
    let mut out = HashSet::new();
    for (i, t) in toks.iter().enumerate() {
        // `on` only as in `on X`: not `the ceiling on the Disclosure Smart System`.
        let on = t.word == "on" && toks.get(i + 1).is_some_and(|n| from(&n.word));
        if saying(&t.word) || matches!(t.word.as_str(), "filing" | "post" | "report") || on {
            // Within its clause.
            let start = (i.saturating_sub(4)..i)
                .rev()
                .find(|&k| toks[k].kind == Kind::Break)
                .map_or(i.saturating_sub(4), |k| k + 1);
            let end = (i + 1..(i + 4).min(toks.len()))
                .find(|&k| toks[k].word == "that" || toks[k].kind == Kind::Break)
                .unwrap_or((i + 4).min(toks.len()));
            out.extend(start..end);
        }
    }
    out
}

/// The number of a filing's form (`10` of `10-Q`, `8` of `8-K`): a word of where a statement
/// comes from.
fn form_number(toks: &[Tok], i: usize) -> bool {
    toks[i].kind == Kind::Number
        && toks
            .get(i + 1)
            .is_some_and(|n| matches!(n.word.as_str(), "q" | "k" | "f"))
}

/// The units of a draft's sentence.
fn units(toks: &[Tok], k: &Known<'_>) -> Vec<Unit> {
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
    let mut out: Vec<Unit> = negations
        .iter()
        .map(|&i| Unit {
            at: i,
            text: toks[i].raw.clone(),
            keys: vec!["neg".to_string()],
            strict: true,
            name: false,
            range: None,
        })
        .collect();
    for (i, t) in toks.iter().enumerate() {
        let origin = frame.contains(&i) && from(&t.word);
        if bound_words.contains(&i)
            || negations.contains(&i)
            || link_words.contains(&i)
            || named.contains(&i)
            || origin
            || in_date(toks, i)
            || (t.kind == Kind::Number && known(&t.anchor))
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
        match t.kind {
            Kind::Number => {}
            Kind::Word => {
                if let Some(frame) = time_frame(toks, i) {
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

/// How a figure is written (`1.2bn dollars`, `14 percent`): the figure checks judge its value,
/// scale and unit against the entries.
const FIGURE_WORDS: &[&str] = &[
    "million", "billion", "trillion", "thousand", "bn", "mn", "dollars", "dollar", "usd",
    "percent", "pct", "cents", "euros", "pounds",
];

/// A figure written with its scale (`1.2bn`, `3x`, `400m`): the figure checks judge it. Other
/// words that start with a digit (`42nd`, `1930s`, `10b5`) are found only as written.
fn shorthand(w: &str) -> bool {
    let tail = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    tail.len() < w.len() && matches!(tail, "bn" | "b" | "m" | "mn" | "k" | "x" | "pc" | "tn")
}

/// Comparison words that are stop words elsewhere but state something here.
const COMPARING: &[&str] = &[
    "most", "least", "more", "less", "fewer", "only", "first", "next", "last", "all", "every",
];

fn word_unit(toks: &[Tok], i: usize, known: &dyn Fn(&str) -> bool) -> Option<Unit> {
    let t = &toks[i];
    let w = t.word.as_str();
    let comparing = COMPARING.contains(&w);
    // A capitalised `Corporation` is a name of its own unless it follows the company's (`NVIDIA
    // Corporation`).
    let referent = REFERENTS.contains(&w)
        && !(i > 0 && t.raw.starts_with(char::is_uppercase) && !known(&toks[i - 1].word));
    if (t.anchor.is_empty() && !comparing)
        || referent
        || FIGURE_WORDS.contains(&w)
        || shorthand(w)
        || saying(w)
        || known(w)
        || w.split(['-', '/']).all(|p| p.is_empty() || known(p))
    {
        return None;
    }
    let lemma = wordnet::lemma(w);
    let d = degree(w, &lemma);
    if let Some(n) = ordinal(w) {
        // A rank: `fifth` is not `second`; `22nd` is `twenty-second`; WordNet's synonyms
        // still apply (`fourth` of `quarter`).
        return Some(Unit {
            at: i,
            text: t.raw.clone(),
            keys: vec![format!("o:{n}"), word_key(w, 0)],
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
    let name = t.raw.starts_with(char::is_uppercase) && (i > 0 || !wordnet::is_word(&lemma));
    if name {
        // A name is found as written (or its stem: `GPUs`, `GPU`), not through the relations
        // of a common word: `Disclosure` is no name `disclosed` gives.
        keys = vec![format!("x:{w}"), format!("s:{}", t.anchor)];
    }
    // A noun names a thing: a rewording keeps it. Verbs, adjectives and adverbs may be said
    // otherwise (`received` for `achieved`).
    let thing = wordnet::only_noun(&lemma) || !wordnet::is_word(&lemma);
    let strict = comparing
        || direction
        || name
        || thing
        || d > 0
        || STRICT_WORDS.contains(&lemma.as_ref())
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

/// Words that bound how far a statement goes.
const LIMITING: &[&str] = &[
    "only",
    "barely",
    "hardly",
    "scarcely",
    "solely",
    "exclusively",
    "entirely",
    "fully",
    "always",
    "never",
    "mostly",
    "partly",
    "largely",
    "mainly",
    "nearly",
    "almost",
    "just",
    "incapable",
    "unable",
    "insignificant",
    "lack",
    "lacks",
    "lacked",
    "yet",
];

/// Words of a record or a superlative that are found only as written.
pub(super) const RECORDS: &[&str] = &[
    "record",
    "records",
    "history",
    "historic",
    "ever",
    "unprecedented",
];

/// Words that always need a source: superlatives and records, time frames.
const STRICT_WORDS: &[&str] = &[
    "record",
    "best",
    "worst",
    "biggest",
    "largest",
    "highest",
    "lowest",
    "top",
    "ever",
    "history",
    "historic",
    "unprecedented",
    "next",
    "last",
    "previous",
    "prior",
    "following",
    "second",
    "third",
    "fourth",
    "quarter",
    "year",
    "month",
    "week",
    "half",
    "annual",
    "fiscal",
    "decade",
    "daily",
    "weekly",
    "monthly",
    "quarterly",
    "yearly",
    "future",
    "past",
    "former",
    "new",
    "old",
    "early",
    "late",
    "already",
    "still",
    "again",
    "all",
    "every",
    "none",
];

/// A hyphenated word is found when it is, or when each of its parts is.
fn found(u: &Unit, toks: &[Tok], offers: &[&Offer]) -> bool {
    let any = |keys: &[String]| keys.iter().any(|k| offers.iter().any(|o| o.has(k)));
    if any(&u.keys) {
        return true;
    }
    // An exact figure of the source inside the draft's bound (a bounded source figure bears out
    // its own bound only: `more than 100` does not say `more than 50` of a threshold).
    if let Some((b, n, what)) = &u.range {
        let within = |m: f64| match b {
            Bound::AtLeast => m > *n,
            Bound::AtMost => m < *n,
            Bound::Approx => (m - n).abs() <= n.abs() * 0.1,
        };
        // A tighter bound the same way, or an approximate figure clear of the bound (`over
        // 740,000` and `approximately 40%` bear out `more than 730,000` and `more than 35%`).
        let tighter = |c: Bound, m: f64| match (b, c) {
            (Bound::AtLeast, Bound::AtLeast) => m >= *n,
            (Bound::AtMost, Bound::AtMost) => m <= *n,
            (Bound::AtLeast, Bound::Approx) => m * 0.9 > *n,
            (Bound::AtMost, Bound::Approx) => m * 1.1 < *n,
            _ => false,
        };
        // A figure the draft states itself is borne out as itself, not as this bound too.
        let own = |m: f64| {
            (0..toks.len())
                .filter_map(|i| number_at(toks, i)?.parse::<f64>().ok())
                .any(|d| d == m)
        };
        if offers.iter().any(|o| {
            o.exact
                .iter()
                .any(|(m, w)| !w.is_empty() && w == what && within(*m) && !own(*m))
                || o.bounded
                    .iter()
                    .any(|(c, m, w)| !w.is_empty() && w == what && tighter(*c, *m) && !own(*m))
        }) {
            return true;
        }
    }
    let w = &toks[u.at].word;
    w.contains(['-', '/'])
        && w.split(['-', '/']).filter(|p| p.len() >= 3).all(|p| {
            let lemma = wordnet::lemma(p);
            any(&[word_key(&lemma, 0), word_key(p, 0)])
        })
}

/// What one sentence of the body rests on, and what of it no source sentence holds.
#[derive(Debug)]
pub(super) struct Judged {
    /// Indices into the candidate sentences, best first.
    pub(super) cover: Vec<usize>,
    /// What is not found, as written (a link as its words: `which is why`).
    pub(super) missing: Vec<String>,
    /// A word not found that may be a rewording: the one word of [`LOOSE_MISSING`].
    pub(super) loose: Vec<String>,
    /// Bounded figures found only through an exact figure of a sentence it rests on (`more than
    /// 77` in `78`): their values.
    pub(super) ranged: Vec<f64>,
}

/// Judges the draft sentence `toks` against the candidate source sentences (`offers`, those of
/// the entries it cites). `known` as for [`units`]; `numbers` says whether a cited entry holds
/// a number anywhere.
pub(super) fn judge(toks: &[Tok], offers: &[&Offer], known: &Known<'_>) -> Judged {
    let units = units(toks, known);
    let cover = choose_cover(&units, toks, offers);
    let chosen: Vec<&Offer> = cover.iter().map(|&k| offers[k]).collect();
    // An entry's title names what every sentence of it is about (`2020 coronavirus pandemic in
    // Germany` of `349 cases were reported in Germany`).
    let topic: Vec<&Offer> = chosen
        .iter()
        .copied()
        .chain(offers.iter().copied().filter(|o| o.subject))
        .collect();
    let mut missing = Vec::new();
    let mut loose = Vec::new();
    for u in &units {
        if found(u, toks, &topic) {
            continue;
        }
        // A word the source says the opposite of is no rewording.
        if u.strict || opposed(&toks[u.at].word, &chosen) {
            missing.push(u.text.clone());
        } else {
            loose.push(u.text.clone());
        }
    }
    // Names found apart (`Kenneth Lonergan` in one sentence, `Pacific Rim` in another) are not
    // borne out together: those outside the sentence that holds most of them are missing.
    let subjects: Vec<&Offer> = chosen.iter().copied().filter(|o| o.subject).collect();
    let names: Vec<&Unit> = units
        .iter()
        .filter(|u| u.name && found(u, toks, &chosen) && !found(u, toks, &subjects))
        .collect();
    if names.len() >= 2 {
        let together = |o: &&Offer| names.iter().filter(|u| found(u, toks, &[*o])).count();
        if let Some(best) = chosen.iter().max_by_key(|o| together(o)) {
            missing.extend(
                names
                    .iter()
                    .filter(|u| !found(u, toks, &[*best]))
                    .map(|u| u.text.clone()),
            );
        }
    }
    // A sentence otherwise borne out may reword one ordinary word; more are a claim of its own.
    let share = 1.0 - (missing.len() + loose.len()) as f64 / units.len().max(1) as f64;
    if loose.len() > LOOSE_MISSING || share < LOOSE_SHARE {
        missing.append(&mut loose);
    }
    for (a, b, link) in links(toks) {
        if !link_found(link, a, &units, toks, &chosen) {
            let words: Vec<&str> = toks[a..=b].iter().map(|t| t.raw.as_str()).collect();
            let lead = if words == ["why"] && a >= 2 {
                format!("{} {} why", toks[a - 2].raw, toks[a - 1].raw)
            } else {
                words.join(" ")
            };
            missing.push(lead);
        }
    }
    let ranged = units
        .iter()
        .filter_map(|u| u.range.as_ref().map(|(_, n, _)| (u, *n)))
        .filter(|(u, _)| !u.keys.iter().any(|k| chosen.iter().any(|o| o.has(k))))
        .filter(|(u, _)| found(u, toks, &chosen))
        .map(|(_, n)| n)
        .collect();
    Judged {
        cover,
        missing,
        loose,
        ranged,
    }
}

/// A link is found in a source sentence that has a link of its kind (a temporal one also in a
/// causal one) and holds units of both the clauses it joins.
fn link_found(link: Link, at: usize, units: &[Unit], toks: &[Tok], offers: &[&Offer]) -> bool {
    let before: Vec<&Unit> = units.iter().filter(|u| u.at < at).collect();
    let after: Vec<&Unit> = units.iter().filter(|u| u.at > at).collect();
    offers.iter().any(|o| {
        let kind = o
            .links
            .iter()
            .any(|l| *l == link || (link == Link::Temporal && *l == Link::Causal));
        let one = [*o];
        let holds = |side: &[&Unit]| side.is_empty() || side.iter().any(|u| found(u, toks, &one));
        kind && holds(&before) && holds(&after)
    })
}

/// The source sentences a draft sentence rests on: the one that holds most of its units, then
/// up to [`MAX_COVER`] in all that each add [`COVER_GAIN`] more.
fn choose_cover(units: &[Unit], toks: &[Tok], offers: &[&Offer]) -> Vec<usize> {
    let holds: Vec<Vec<bool>> = offers
        .iter()
        .map(|o| units.iter().map(|u| found(u, toks, &[*o])).collect())
        .collect();
    let mut covered = vec![false; units.len()];
    let mut cover = Vec::new();
    while cover.len() < MAX_COVER {
        // Units it adds, and of those the ones that are no name.
        let gain = |k: usize| {
            let added = || {
                holds[k]
                    .iter()
                    .zip(&covered)
                    .enumerate()
                    .filter(|(_, (h, c))| **h && !**c)
            };
            (
                added().count(),
                added().filter(|(u, _)| !units[*u].specific()).count(),
            )
        };
        let Some(best) = (0..offers.len())
            .filter(|k| !cover.contains(k))
            .max_by_key(|&k| (gain(k), std::cmp::Reverse(k)))
        else {
            break;
        };
        // The first that holds any; then one that adds [`COVER_GAIN`] units, or one that is no
        // name, figure or time (one standing alone elsewhere is not this statement's).
        let (all, plain) = gain(best);
        let enough = if cover.is_empty() {
            all >= 1
        } else {
            all >= COVER_GAIN || plain >= 1
        };
        if !enough {
            break;
        }
        for (c, h) in covered.iter_mut().zip(&holds[best]) {
            *c |= *h;
        }
        cover.push(best);
    }
    cover
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    fn judged(draft: &str, sources: &[&str]) -> Vec<String> {
        let offers: Vec<Offer> = sources.iter().map(|s| offer(&tokenize(s))).collect();
        let refs: Vec<&Offer> = offers.iter().collect();
        let known = Known {
            word: &|w| w == "nvidia",
            handle: &|_| false,
            from: &|_| false,
        };
        judge(&tokenize(draft), &refs, &known).missing
    }

    #[test]
    fn verbatim_and_reworded_restatements_are_supported() {
        let src = "NVIDIA and the government of the United Kingdom agreed to build a national AI factory with about 20,000 Blackwell GPUs.";
        assert!(judged(src, &[src]).is_empty());
        assert!(
            judged(
                "The government of the United Kingdom and NVIDIA agreed to build a national AI factory with roughly 20,000 Blackwell GPUs.",
                &[src]
            )
            .is_empty()
        );
        let fell = "Regulatory-credit revenue fell to about $200 million after U.S. emissions penalties were eliminated.";
        assert!(
            judged(
                "Regulatory-credit revenue dropped to about $200 million once U.S. emissions penalties were eliminated.",
                &[fell]
            )
            .is_empty()
        );
    }

    #[test]
    fn additions_are_unsupported() {
        let src = "NVIDIA agreed to build a national AI factory with about 20,000 Blackwell GPUs.";
        let sup = judged(
            "NVIDIA agreed to build a national AI factory with about 20,000 Blackwell GPUs, the largest such deal in the company's history.",
            &[src],
        );
        assert!(sup.contains(&"largest".to_string()), "{sup:?}");
        let bound = judged(
            "NVIDIA agreed to build a national AI factory with more than 20,000 Blackwell GPUs.",
            &[src],
        );
        assert_eq!(bound, vec!["more than 20000".to_string()]);
        let a = "Revenue rose 10% in the quarter.";
        let b = "The chief executive resigned in May.";
        let why = judged(
            "Revenue rose 10% in the quarter, which is why the chief executive resigned.",
            &[a, b],
        );
        assert_eq!(why, vec!["which is why".to_string()]);
        assert!(
            judged(
                "The large order was filled.",
                &["The largest order was filled."]
            )
            .is_empty()
        );
        assert_eq!(
            judged(
                "The largest order was filled.",
                &["The large order was filled."]
            ),
            vec!["largest".to_string()]
        );
    }

    #[test]
    fn numbers_ranks_and_opposites_are_read() {
        let src = "The first season consists of ten episodes and received positive reviews.";
        assert!(judged("The first season consists of 10 episodes.", &[src]).is_empty());
        assert!(judged("The first season was positively reviewed.", &[src]).is_empty());
        assert_eq!(
            judged("The first season consists of under nine episodes.", &[src]),
            vec!["under nine".to_string()]
        );
        assert_eq!(
            judged("The fifth season consists of ten episodes.", &[src]),
            vec!["fifth".to_string()]
        );
        // `negative` would pass as a rewording of one word, but the source says the opposite.
        assert_eq!(
            judged("The first season received negative reviews.", &[src]),
            vec!["negative".to_string()]
        );
        // Another of its kind (a shared hypernym) is no rewording either.
        let work = "She works in theatre, television, and film.";
        assert_eq!(
            judged("She works in radio.", &[work]),
            vec!["radio".to_string()]
        );
        // A tighter bound bears out a looser one; a figure the draft states is its own.
        let subs = "The channel has over 740,000 subscribers, up from 14% of 5 million.";
        assert!(judged("The channel has more than 730,000 subscribers.", &[subs]).is_empty());
        assert_eq!(
            judged(
                "The channel has at least 13% of 5 million, up from 14%.",
                &[subs]
            ),
            vec!["at least 13%".to_string()]
        );
        // A year counts nothing: `more than 400 cases` is not `2020 coronavirus`.
        let year = "2020 coronavirus pandemic: 349 cases.";
        assert_eq!(
            judged("More than 400 coronavirus cases.", &[year]),
            vec!["More than 400".to_string()]
        );
        // Ten episodes over ten years is no bound.
        let long = "It ran ten episodes over ten years.";
        assert!(judged(long, &[long]).is_empty());
    }

    #[test]
    fn titles_and_second_sentences() {
        let mut title = offer(&tokenize("2020 coronavirus pandemic in Bulgaria"));
        title.subject = true;
        let cases = offer(&tokenize("As of 5 April, there are 531 confirmed cases."));
        let known = Known {
            word: &|_| false,
            handle: &|_| false,
            from: &|_| false,
        };
        let d = tokenize("There are 531 confirmed cases of coronavirus.");
        // The title's words are the topic of every sentence of its entry.
        assert!(judge(&d, &[&cases, &title], &known).missing.is_empty());
        // A second sentence adding one plain word is rested on; one adding a lone name is not.
        let both = ["The film was shot in Miami.", "It premiered at Telluride."];
        assert!(judged("The film was shot in Miami and premiered.", &both).is_empty());
        let swapped = judged("The film was shot in Telluride.", &both);
        assert_eq!(swapped, vec!["Telluride".to_string()]);
    }

    #[test]
    fn names_are_found_as_names() {
        let src = "In an 8-K, NVIDIA disclosed that it recorded a charge tied to H20 inventory.";
        assert!(judged("NVIDIA recorded a charge tied to H20 inventory.", &[src]).is_empty());
        // A name is not borne out by a common word's derived form, nor by who said it.
        let swapped = judged(
            "NVIDIA recorded a charge tied to Disclosure inventory.",
            &[src],
        );
        assert!(swapped.contains(&"Disclosure".to_string()), "{swapped:?}");
        let said = "Management's Discussion and Analysis notes that Dell shipped 5,000 racks.";
        assert!(
            judged(
                "Management's Discussion and Analysis notes that Dell shipped 5,000 racks.",
                &[said]
            )
            .is_empty()
        );
        let content = judged("Discussion shipped 5,000 racks.", &[said]);
        assert_eq!(content, vec!["Discussion".to_string()]);
    }
}

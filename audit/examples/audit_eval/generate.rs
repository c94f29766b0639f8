//! The generated drafts: three entries of one company restated, one paragraph each; in a
//! faithful draft every restatement keeps the entry's meaning (some in other words), in a
//! faulty one the target paragraph changes it in one way.

use std::collections::{BTreeMap, HashSet};

use journal_market_audit::Submission;

use crate::archive::{Entry, Fact, Lead, short};
use crate::mutate::{self, cap, decap};

/// Drafts per generated kind and half, at most.
pub const CAP: usize = 40;

pub const FAITHFUL_KINDS: &[&str] = &[
    "verbatim",
    "source-verbatim",
    "reordered",
    "synonyms",
    "said-for-told",
];
pub const FAULT_KINDS: &[&str] = &[
    "negation",
    "antonym",
    "up-down",
    "attribution",
    "certainty",
    "scale",
    "name",
    "date",
    "superlative",
    "invented-cause",
    "changed-bound",
    "shifted-time",
    "swapped-entity",
    "misattribution",
];

/// Kinds made since round 6, drawn only where they say (`main.rs`: the tuning half's tickers
/// and public tuning evidence for tuning, the rest for round 6's held-out set), so that the
/// earlier halves draw what they drew before.
pub const NEW_KINDS: &[&str] = &["swapped-roles"];

/// Tickers the engine is tuned on; the others make the report half.
pub const TUNE_TICKERS: &[&str] = &["NVDA", "MSFT", "PLTR"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Half {
    Tune,
    /// AAPL, AMD and TSLA: the report half of the first two rounds, looked at twice and tuning
    /// data since the third round.
    Report,
    /// The third round's held-out drafts (`heldout.rs`, hand-written round 3), printed with
    /// `--heldout`: looked at once at the end of round 3, tuning data since round 4.
    Heldout,
    /// The third round's held-out drafts made from the public data's evidence (`heldout.rs`),
    /// printed with `--heldout`; tuning data since round 4.
    HeldoutPublic,
    /// The same making from the public data's tuning half (round 3's tuning, `--public`).
    TunePublic,
    /// The fourth round's held-out drafts (`heldout4.rs`, hand-written round 4), printed with
    /// `--heldout4`: looked at once at the end of round 4, tuning data since round 5.
    Heldout4,
    /// The fourth round's held-out drafts made from public evidence no earlier draft cites
    /// (`heldout4.rs`), printed only with `--heldout4`; tuning data since round 5.
    Heldout4Public,
    /// The fifth round's held-out drafts (`heldout5.rs`, hand-written round 5), printed with
    /// `--heldout5`: looked at once at the end of round 5, tuning data since round 6.
    Heldout5,
    /// The fifth round's held-out drafts made from public evidence of the middle of each file
    /// no earlier draft cites (`heldout5.rs`), printed with `--heldout5`; tuning data since
    /// round 6.
    Heldout5Public,
    /// The sixth round's held-out drafts (`heldout6.rs`, hand-written round 6), printed with
    /// `--heldout6`: looked at once at the end of round 6, tuning data since round 7.
    Heldout6,
    /// The sixth round's held-out drafts made from public evidence no earlier draft cites
    /// (`heldout6.rs`), printed with `--heldout6`; tuning data since round 7.
    Heldout6Public,
    /// The seventh round's held-out drafts (`heldout7.rs`, hand-written round 7), printed with
    /// `--heldout7`: looked at once at the end of round 7, tuning data since round 8.
    Heldout7,
    /// The seventh round's held-out drafts made from public evidence no earlier draft cites
    /// (`heldout7.rs`), printed with `--heldout7`; tuning data since round 8.
    Heldout7Public,
    /// The eighth round's held-out drafts (hand-written round 8 only: the demo archive has no
    /// undrawn swapped entity left), printed with `--heldout8`: looked at once at the end of
    /// round 8, tuning data since round 9.
    Heldout8,
    /// The ninth round's held-out drafts (hand-written round 9, written by a reader who never
    /// saw the engine), printed with `--heldout9`: looked at once at the end of round 9, tuning
    /// data since round 10.
    Heldout9,
    /// The tenth round's held-out drafts (hand-written round 10, by a reader who never saw the
    /// engine), printed with `--heldout10`: looked at once at the end of round 10, tuning data
    /// since round 11.
    Heldout10,
    /// The eleventh round's held-out drafts (hand-written round 11, by a reader who never saw
    /// the engine), printed with `--heldout11`: looked at once at the end of round 11, tuning
    /// data since round 12.
    Heldout11,
    /// The twelfth round's held-out drafts (hand-written round 12, by a reader who never saw
    /// the engine), printed with `--heldout12`: looked at once at the end of round 12, tuning
    /// data since round 13.
    Heldout12,
    /// The thirteenth round's held-out drafts (hand-written round 13, by a reader who never saw
    /// the engine), printed with `--heldout13`: looked at once at the end of round 13, tuning
    /// data since round 14.
    Heldout13,
    /// The fourteenth round's held-out drafts (hand-written round 14, by a reader who never saw
    /// the engine), printed with `--heldout14`: looked at once at the end of round 14, tuning
    /// data since round 15.
    Heldout14,
    /// The fifteenth round's held-out drafts (hand-written round 15, by a reader who never saw
    /// the engine), printed with `--heldout15`: looked at once at the end of round 15, tuning
    /// data since round 16.
    Heldout15,
    /// The sixteenth round's held-out drafts (hand-written round 16, by readers who never saw
    /// the engine), printed with `--heldout16`: looked at once at the end of round 16, tuning
    /// data since round 17.
    Heldout16,
    /// The seventeenth round's held-out drafts (hand-written during round 16 by a reader who
    /// never saw the engine, kept for round 17), printed with `--heldout17`: looked at once at
    /// the end of round 17, tuning data since round 18.
    Heldout17,
    /// The eighteenth round's held-out drafts (hand-written during round 17 by a reader who
    /// never saw the engine, kept for round 18), printed with `--heldout18`: looked at once at
    /// the end of round 18, tuning data since round 19.
    Heldout18,
    /// The nineteenth round's held-out drafts (hand-written during round 18 by two readers who
    /// never saw the engine, kept for round 19), printed with `--heldout19`: looked at once at
    /// the end of round 19, tuning data since round 20.
    Heldout19,
    /// The twentieth round's held-out drafts (hand-written during round 19 by three readers who
    /// never saw the engine, kept for round 20), printed with `--heldout20`: looked at once at
    /// the end of round 20, tuning data since round 21.
    Heldout20,
    /// The twenty-first round's held-out drafts (hand-written during round 20 by two readers
    /// who never saw the engine, kept for round 21), printed with `--heldout21`: looked at once
    /// at the end of round 21, tuning data since round 22.
    Heldout21,
    /// The twenty-second round's held-out drafts (hand-written during round 21 by two readers
    /// who never saw the engine, kept for round 22), printed with `--heldout22`: looked at once
    /// at the end of round 22, tuning data since round 23.
    Heldout22,
    /// The twenty-third round's held-out drafts (hand-written during round 22 by two readers
    /// who never saw the engine, kept for round 23), printed only with `--heldout23`, their
    /// misses never listed.
    Heldout23,
}

pub fn half_of(ticker: &str) -> Half {
    if TUNE_TICKERS.contains(&ticker) {
        Half::Tune
    } else {
        Half::Report
    }
}

#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub kind: String,
    pub faithful: bool,
    pub handwritten: bool,
    /// A hand-written draft of the second round (written after the report half was first
    /// measured, to measure the engine on drafts it was not fixed for).
    pub second_round: bool,
    pub half: Half,
    /// The sentence that differs from the entry (or restates it, in a faithful draft).
    pub target: String,
    pub sub: Submission,
    /// A generated draft's target entry (accession) and the number of its fact.
    pub fact: Option<(String, usize)>,
}

#[derive(Clone, Copy)]
enum Style {
    /// The entry's summary as it stands.
    Summary,
    /// "On August 14, Reuters reported that …".
    Dated,
    /// "Reuters reported that …".
    Plain,
}

fn lead_phrase(lead: &Lead, verb: &str) -> Option<String> {
    Some(match lead {
        Lead::Outlet { outlet, .. } => format!("{outlet} {verb} that"),
        Lead::Post { who: Some(n) } => format!("{n} {verb} on X that"),
        Lead::Post { who: None } => format!("the company {verb} on X that"),
        Lead::Filing { form } => {
            let article = if form.starts_with('8') { "an" } else { "a" };
            format!("{article} {form} filing {verb} that")
        }
        Lead::Bare => return None,
    })
}

fn default_verb(lead: &Lead) -> &'static str {
    match lead {
        Lead::Outlet { .. } => "reported",
        Lead::Post { who: Some(_) } => "posted",
        Lead::Post { who: None } => "said",
        _ => "showed",
    }
}

/// The fact with its lead, `text` standing for the fact's words.
fn with_lead(lead: &Lead, verb: &str, text: &str, date: Option<&str>) -> String {
    let said = match lead_phrase(lead, verb) {
        Some(l) => format!("{l} {text}"),
        None => decap(text),
    };
    match date {
        Some(d) => format!("On {d}, {said}"),
        None => cap(&said),
    }
}

fn restate(e: &Entry, f: &Fact, style: Style) -> String {
    let verb = default_verb(&f.lead);
    match style {
        Style::Summary if f.main => e.source.summary.trim_end_matches('.').to_string(),
        Style::Dated => with_lead(&f.lead, verb, &f.text, Some(&e.date())),
        _ => with_lead(&f.lead, verb, &f.text, None),
    }
}

fn style_of(n: usize) -> Style {
    [Style::Dated, Style::Plain, Style::Summary][n % 3]
}

/// The statement with the fact's own words replaced by `text`, in a style picked by `n`.
fn restate_as(e: &Entry, f: &Fact, text: &str, n: usize) -> String {
    let date = (n.is_multiple_of(2)).then(|| e.date());
    with_lead(&f.lead, default_verb(&f.lead), text, date.as_deref())
}

fn reordered(e: &Entry, f: &Fact, n: usize) -> Option<String> {
    let t = cap(&f.text);
    Some(match &f.lead {
        Lead::Outlet { people, .. } if n.is_multiple_of(2) => {
            format!("According to {people}, {}", f.text)
        }
        Lead::Outlet { outlet, people } => {
            format!("{t}, {outlet} reported on {}, citing {people}", e.date())
        }
        Lead::Post { who } => format!(
            "{t}, {} said on X on {}",
            who.as_deref().unwrap_or("the company"),
            e.date()
        ),
        Lead::Filing { form } => format!("{t}, according to a {form} filing"),
        Lead::Bare => {
            let at = [
                ", under ",
                ", with ",
                ", while ",
                ", after ",
                ", mostly ",
                ", including ",
                ", starting ",
                ", citing ",
                ", compared with ",
                ", removing ",
            ]
            .iter()
            .find_map(|m| f.text.find(m))?;
            let clause = &f.text[at + 2..];
            format!("{}, {}", cap(clause), decap(&f.text[..at]))
        }
    })
}

fn said_for_told(e: &Entry, f: &Fact, n: usize) -> Option<String> {
    if f.text.contains(" told the ") {
        let text = f.text.replace(" told the ", " said at the ");
        return Some(restate_as(e, f, &text, n));
    }
    if f.text.contains(", said the development ") {
        let text = f
            .text
            .replace(", said the development ", ", wrote that the development ");
        return Some(restate_as(e, f, &text, n));
    }
    if f.text.contains("filed an 8-K saying") {
        let text = f
            .text
            .replace("filed an 8-K saying", "filed an 8-K stating");
        return Some(restate_as(e, f, &text, n));
    }
    let verb = match &f.lead {
        Lead::Outlet { .. } => ["said", "wrote", "reports"][n % 3],
        Lead::Post { .. } => ["said", "wrote"][n % 2],
        Lead::Filing { .. } => "said",
        Lead::Bare => return None,
    };
    let date = (n.is_multiple_of(2)).then(|| e.date());
    Some(with_lead(&f.lead, verb, &f.text, date.as_deref()))
}

/// A sentence of the entry's source text as it stands (without its final stop).
fn source_sentence(e: &Entry, n: usize) -> Option<String> {
    // Not after an abbreviation (`the U.S. and China`, `J.P. Morgan`, `Inc.`).
    let mut pieces: Vec<String> = Vec::new();
    for p in e.source.says.split_inclusive(". ") {
        let glued = pieces.last().is_some_and(|l| {
            let last = l.split_whitespace().last().unwrap_or_default();
            last.trim_end_matches('.').contains('.') || ["Inc.", "Corp.", "Co."].contains(&last)
        });
        match pieces.last_mut() {
            Some(l) if glued => l.push_str(p),
            _ => pieces.push(p.to_string()),
        }
    }
    let all: Vec<&str> = pieces
        .iter()
        .map(|s| s.trim())
        .filter(|s| s.split_whitespace().count() >= 4)
        .collect();
    let s = all.get(n % all.len().max(1))?;
    Some(s.trim_end_matches('.').to_string())
}

/// The target sentence of a draft of `kind` about fact `f` of `e`; `None` when the kind does
/// not apply to the fact.
fn target(kind: &str, e: &Entry, f: &Fact, n: usize) -> Option<String> {
    let changed = |text: Option<String>| text.map(|t| restate_as(e, f, &t, n));
    match kind {
        "verbatim" => Some(restate(e, f, style_of(n))),
        "reordered" => reordered(e, f, n),
        "synonyms" => match mutate::up_down_wording(&f.text) {
            Some((same, _)) => Some(restate_as(e, f, &same, n)),
            None => changed(mutate::synonyms(&f.text)),
        },
        "said-for-told" => said_for_told(e, f, n),
        "negation" => changed(mutate::negation(&f.text)),
        "antonym" => changed(mutate::antonym(&f.text)),
        "up-down" => match mutate::up_down_wording(&f.text) {
            Some((_, other)) => Some(restate_as(e, f, &other, n)),
            None => changed(mutate::up_from(&f.text)),
        },
        // A claim that names its own speaker (`X told the conference`) keeps an attribution.
        "attribution" => match &f.lead {
            Lead::Outlet { .. }
                if f.main
                    && ![" told ", " said ", " says "]
                        .iter()
                        .any(|v| f.text.contains(v)) =>
            {
                Some(if n.is_multiple_of(2) {
                    format!("On {}, {}", e.date(), f.text)
                } else {
                    cap(&f.text)
                })
            }
            _ => None,
        },
        "certainty" => changed(mutate::certainty(&f.text)),
        "source-verbatim" => source_sentence(e, n),
        "superlative" => changed(mutate::superlative(&f.text, n)),
        "invented-cause" => {
            let other = e.facts.iter().find(|g| g.text != f.text)?;
            changed(mutate::invented_cause(&f.text, &other.text, n))
        }
        "changed-bound" => changed(mutate::changed_bound(&f.text, n)),
        "shifted-time" => changed(mutate::shifted_time(&f.text)),
        "swapped-entity" => changed(mutate::swapped_entity(&f.text, e, short(&e.ticker))),
        "swapped-roles" => changed(crate::roles::swapped_roles(&f.text)),
        // Another speaker for what an outlet reported: the company itself (not where the
        // report has the company say it: `AMD says the MI350 series …`).
        "misattribution" => match &f.lead {
            Lead::Outlet { .. }
                if f.main
                    && ![" says", " said"]
                        .iter()
                        .any(|v| f.text.contains(&format!("{}{v}", short(&e.ticker)))) =>
            {
                Some(format!("{} said that {}", short(&e.ticker), decap(&f.text)))
            }
            _ => None,
        },
        "scale" => changed(mutate::scale(&f.text)),
        "name" => changed(mutate::name(&f.text, e)),
        "date" => match mutate::moved_day(&f.text) {
            Some(t) => Some(restate_as(e, f, &t, n)),
            None => Some(with_lead(
                &f.lead,
                default_verb(&f.lead),
                &f.text,
                Some(&mutate::moved_date(e)),
            )),
        },
        _ => None,
    }
}

const HEADINGS: &[&str] = &[
    "What the record says",
    "The filings",
    "What to watch",
    "The numbers",
    "Where the story stands",
];

const ANALYSIS: &[&str] = &[
    "That matters because investors have spent most of the year debating the outlook.",
    "The pattern is familiar from earlier cycles: announcements first, revenue later, and margins last.",
    "It is worth separating what the company said from what suppliers and customers said.",
    "The sell side has mostly treated this as noise; the archive suggests it deserves more attention.",
    "Management has been consistent on this point for several quarters.",
    "Taken together, the entries point in one direction, even if the timing remains uncertain.",
];

/// A draft of three paragraphs: the target sentence about `list[at]`, and two neighbours.
fn draft(list: &[&Entry], at: usize, target: &str, n: usize) -> Submission {
    let mut picked = vec![at];
    let main = |i: usize| list[i].facts.first().map(|f| f.text.clone());
    for k in 1..list.len() {
        for i in [at.wrapping_sub(k), at + k] {
            if picked.len() < 3
                && i < list.len()
                && !picked.iter().any(|&p| main(p) == main(i))
                && !list[i].facts.is_empty()
            {
                picked.push(i);
            }
        }
    }
    let slot = n % picked.len();
    picked.swap(0, slot);
    let mut body = String::new();
    let mut dek = String::new();
    for (k, &i) in picked.iter().enumerate() {
        let e = list[i];
        let sentence = if i == at {
            target.to_string()
        } else {
            let f = &e.facts[0];
            if dek.is_empty() {
                dek = format!("{}.", cap(&f.text));
            }
            restate(e, f, style_of(n + k + 1))
        };
        let cited = if n.is_multiple_of(2) {
            format!("{sentence} [{}].", e.id)
        } else {
            format!("{sentence}. [{}]", e.id)
        };
        if k != 1 {
            body.push_str(&format!("## {}\n", HEADINGS[(n + k) % HEADINGS.len()]));
        }
        body.push_str(&format!(
            "{cited} {}\n\n",
            ANALYSIS[(n + k) % ANALYSIS.len()]
        ));
    }
    if dek.chars().count() < 120 {
        dek.push_str(" The archive shows how the record moved over the season, entry by entry.");
    }
    let ticker = list[at].ticker.clone();
    Submission {
        title: format!("{}: the record this season", short(&ticker)),
        company: crate::archive::company(&ticker),
        ticker,
        dek,
        body,
        sources: picked.iter().map(|&i| list[i].source.clone()).collect(),
    }
}

/// A draft to be: its id, the ticker's entries, the target entry, its fact and the target
/// sentence.
type Candidate<'a> = (String, &'a [&'a Entry], usize, usize, String);

/// Every generated draft, at most [`CAP`] of each kind and half, the tickers taking turns.
pub fn cases(entries: &[Entry]) -> Vec<Case> {
    let all: Vec<&Entry> = entries.iter().collect();
    generated(
        &all,
        &[Half::Tune, Half::Report],
        &half_of,
        &|_, _, _| false,
        0,
        "",
    )
}

/// The generated drafts of `entries`, each ticker in the half `half_for` gives it; `seed`
/// shifts every choice a kind makes by its number (style, verb, phrase of a list), and `prefix`
/// starts each id; `skip(kind, accession, fact)` leaves a fact out of a kind.
pub fn generated(
    entries: &[&Entry],
    halves: &[Half],
    half_for: &dyn Fn(&str) -> Half,
    skip: &dyn Fn(&str, &str, usize) -> bool,
    seed: usize,
    prefix: &str,
) -> Vec<Case> {
    let kinds: Vec<&str> = FAITHFUL_KINDS.iter().chain(FAULT_KINDS).copied().collect();
    generated_kinds(&kinds, entries, halves, half_for, skip, seed, prefix)
}

/// [`generated`] of the `kinds` named only; each kind shifts its choices by its place in the
/// list of every kind, as in [`generated`].
pub fn generated_kinds(
    kinds: &[&str],
    entries: &[&Entry],
    halves: &[Half],
    half_for: &dyn Fn(&str) -> Half,
    skip: &dyn Fn(&str, &str, usize) -> bool,
    seed: usize,
    prefix: &str,
) -> Vec<Case> {
    let mut by_ticker: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries {
        by_ticker.entry(e.ticker.as_str()).or_default().push(e);
    }
    let mut out = Vec::new();
    let every = FAITHFUL_KINDS.iter().chain(FAULT_KINDS).chain(NEW_KINDS);
    for (k, kind) in every.enumerate() {
        if !kinds.contains(kind) {
            continue;
        }
        for &half in halves {
            // Candidates of each ticker in date order, then interleaved.
            let mut per: Vec<Vec<Candidate>> = Vec::new();
            for (ticker, list) in by_ticker.iter().filter(|(t, _)| half_for(t) == half) {
                let mut c = Vec::new();
                for (i, e) in list.iter().enumerate() {
                    for (j, f) in e.facts.iter().enumerate() {
                        let n = i + j + k + seed;
                        if skip(kind, &e.id, j) {
                            continue;
                        }
                        if let Some(t) = target(kind, e, f, n) {
                            c.push((format!("{ticker}-{i}-{j}"), list.as_slice(), i, j, t));
                        }
                    }
                }
                per.push(c);
            }
            let mut seen = HashSet::new();
            let mut taken = 0;
            'fill: for round in 0.. {
                let mut any = false;
                for c in &per {
                    let Some((id, list, i, j, t)) = c.get(round) else {
                        continue;
                    };
                    any = true;
                    if taken == CAP {
                        break 'fill;
                    }
                    if !seen.insert(t.clone()) {
                        continue;
                    }
                    taken += 1;
                    out.push(Case {
                        id: format!("{prefix}{kind}/{id}"),
                        kind: kind.to_string(),
                        faithful: FAITHFUL_KINDS.contains(kind),
                        handwritten: false,
                        second_round: false,
                        half,
                        target: t.clone(),
                        sub: draft(list, *i, t, round + k + seed),
                        fact: Some((list[*i].id.clone(), *j)),
                    });
                }
                if !any {
                    break;
                }
            }
        }
    }
    out
}

//! The checks of one sentence of the body against the entries that cover it: its figures,
//! quotations and dates must be theirs, and where it restates one of their sentences it must
//! keep that sentence's meaning (negation, direction, certainty, attribution, names).

use foldhash::HashSet;

use super::align::{Parsed, parse, score};
use super::borrowed;
use super::context;
use super::cues::{Cue, attributes, attributes_by_phrase, attributes_by_word};
use super::dates::date_refs;
use super::figures::{
    Figure, Kind as FigureKind, exchanged, figures, same, time_moved, unit_clash,
};
use super::hedges::HEDGE_WORDS;
use super::implied;
use super::meaning::compare;
use super::names;
use super::quotes::quotations;
use super::read::{Part, Read, SourceSentence};
use super::roles;
use super::said;
use super::speakers;
use super::support::{self, Offer};
use super::tokens::{Kind, Tok, matched};
use super::words::{content_words, handles, normal};
use super::{DRIFT_MAJOR, DRIFT_MIN_WORDS, DRIFT_MINOR, clip, has_month_day, issue, short};
use crate::report::{Check, Issue, Judgement, Severity, Support};

/// Source sentences a draft's sentence is compared with, at most (the best aligned).
const MAX_ALIGNED: usize = 4;

/// A source sentence a draft's sentence restates.
pub(super) struct Aligned<'a> {
    pub(super) read: &'a Read<'a>,
    pub(super) sentence: &'a SourceSentence,
    pub(super) score: f64,
    /// Share of the draft sentence's words the source sentence holds.
    pub(super) coverage: f64,
}

fn coverage(d: &Parsed, s: &Parsed) -> f64 {
    let shared = d.bag.iter().filter(|w| s.bag.contains(*w)).count();
    shared as f64 / d.bag.len().max(1) as f64
}

/// The sentences of `reads` that `d` restates, best first.
pub(super) fn align<'a>(d: &Parsed, reads: &[&'a Read<'a>]) -> Vec<Aligned<'a>> {
    let mut all = align_all(d, reads);
    all.truncate(MAX_ALIGNED);
    all
}

fn align_all<'a>(d: &Parsed, reads: &[&'a Read<'a>]) -> Vec<Aligned<'a>> {
    let mut out: Vec<Aligned<'a>> = reads
        .iter()
        .flat_map(|r| {
            r.sentences.iter().filter_map(move |s| {
                score(d, &s.parsed).map(|score| Aligned {
                    read: r,
                    sentence: s,
                    score,
                    coverage: coverage(d, &s.parsed),
                })
            })
        })
        .collect();
    // Of equal scores, the sentence that holds more of the draft's; then the summary and the
    // source text before the title (stable otherwise).
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.coverage.total_cmp(&a.coverage))
            .then((a.sentence.part == Part::Title).cmp(&(b.sentence.part == Part::Title)))
    });
    out
}

/// One sentence of the body with what covers it.
pub(super) struct Claim<'a> {
    pub(super) text: &'a str,
    /// It has citations of its own (not only its paragraph's).
    pub(super) own: bool,
    /// The covering citations, as written: `A, B`.
    pub(super) ids: String,
    pub(super) reads: Vec<&'a Read<'a>>,
    /// Names the company's entries use throughout (its own name), lower case.
    pub(super) company: &'a [String],
    /// The words of the company's name (`tesla`), lower case: known where the entries leave
    /// the company implied ([`implied`]).
    pub(super) owner: &'a [String],
    /// Words the draft or the entries write in lower case somewhere.
    pub(super) lower_case: &'a HashSet<String>,
    /// Its paragraph is marked as the author's analysis.
    pub(super) analysis: bool,
    /// The sentence before it in its paragraph attributes what it says and cites the same
    /// entries: this one goes on with that report.
    pub(super) carried: bool,
    /// The sentence before it in its paragraph.
    pub(super) previous: Option<&'a str>,
    /// The sentence before it in the draft, in any paragraph, with the entries it cites.
    pub(super) prior: Option<(&'a str, Vec<&'a Read<'a>>)>,
}

/// The attributed sentence a draft's sentence restates best, when it restates no unattributed
/// sentence (other than a title) as well: an entry that states a claim in its own voice
/// somewhere (a company's post, a filing) may be restated without attribution.
fn attribution_dropped<'a>(aligned: &'a [Aligned<'a>]) -> Option<&'a Aligned<'a>> {
    // By how much of the draft's sentence each holds: a short sentence of the entry's own
    // (`The shares moved 4% on the report.`) does not outweigh the attributed claim.
    let best = |attributed: bool| {
        aligned
            .iter()
            .filter(|a| a.sentence.part != Part::Title && a.sentence.attributed == attributed)
            .max_by(|a, b| a.coverage.total_cmp(&b.coverage))
    };
    let own_voice = best(false).map_or(f64::MIN, |a| a.coverage);
    best(true).filter(|a| a.coverage > own_voice)
}

/// The draft sentence's words, as written, without those it shares (in order) with a source
/// sentence it restates from unnamed sources: `told` in `regulators have told companies to
/// pause` belongs to the claim, and does not attribute it. (From a named source, the shared
/// words may be the attribution itself: `Reuters says that`.)
fn own_words(d: &Parsed, s: &Parsed) -> String {
    let shared: HashSet<usize> = matched(&d.toks, &s.toks)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    d.toks
        .iter()
        .enumerate()
        .filter(|(i, _)| !shared.contains(i))
        .map(|(_, t)| t.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How much of a sentence a finding quotes.
const CLIP: usize = 160;

/// A whole number of things an entry writes glued to them (`a 22-actuator hand`, which the
/// figures leave out with `8-K`): `22 actuators` is borne out.
fn glued_in(f: &Figure, reads: &[&Read<'_>]) -> bool {
    let Some(thing) = f.after.first().filter(|w| w.len() >= 3) else {
        return false;
    };
    let plain = f.kind == FigureKind::Number && f.text.chars().all(|c| c.is_ascii_digit());
    let one = thing.strip_suffix('s').unwrap_or(thing);
    let written = format!("{} {one}", f.text);
    plain
        && reads.iter().any(|r| {
            let b = r.text.as_bytes();
            r.text.match_indices(&written).any(|(i, _)| {
                let end = i + written.len();
                (i == 0 || b[i - 1] == b' ') && matches!(b.get(end), None | Some(b' ' | b's'))
            })
        })
}

/// The findings of one covered sentence, and the source sentences that support it.
pub(super) fn check(c: &Claim<'_>) -> (Vec<Issue>, Vec<Support>) {
    let mut issues = Vec::new();
    let ids = &c.ids;
    let figs = figures(c.text);
    let quotes = quotations(c.text);
    let factual = !figs.is_empty() || !quotes.is_empty() || has_month_day(c.text);
    let d = parse(c.text, true);
    let aligned = align(&d, &c.reads);
    // The company named where its entries leave it unsaid is known in this sentence.
    let implied = d.toks.iter().any(|t| c.owner.contains(&t.word)) && {
        let sentences: Vec<(&[Tok], bool)> = candidates(c)
            .iter()
            .map(|(r, s)| (s.parsed.toks.as_slice(), r.filed))
            .collect();
        implied::implied(&d.toks, &sentences, c.owner)
    };
    let company =
        |w: &str| c.company.iter().any(|n| n == w) || (implied && c.owner.iter().any(|n| n == w));
    let against = |a: &Aligned<'_>| {
        format!(
            "\u{ab}{}\u{bb} [{ids}]; [{}] says \u{ab}{}\u{bb}",
            clip(c.text, CLIP),
            a.read.source.accession,
            clip(&a.sentence.parsed.text, CLIP)
        )
    };

    let of_record = c.own || (!c.analysis && (factual || !aligned.is_empty()));
    let judged = of_record.then(|| judge(c, &d, &company));
    let source_figs: Vec<_> = c.reads.iter().flat_map(|r| r.figures.iter()).collect();
    for f in &figs {
        // A bound (`more than 77 reviews`) borne out by an exact figure of the entries (`78
        // reviews`) is no figure of its own.
        if judged.as_ref().is_some_and(|j| j.ranged.contains(&f.value)) {
            continue;
        }
        if !source_figs.iter().any(|g| same(f, g)) && !glued_in(f, &c.reads) {
            issues.push(issue(
                Severity::Major,
                Check::UnsupportedFigure,
                format!(
                    "{} is in none of the cited entries [{ids}]: \u{ab}{}\u{bb}",
                    f.text,
                    short(c.text)
                ),
            ));
        } else if let Some(what) = unit_clash(f, &source_figs) {
            issues.push(issue(
                Severity::Major,
                Check::FigureUnit,
                format!("{what}: \u{ab}{}\u{bb} [{ids}]", clip(c.text, CLIP)),
            ));
        } else if let Some((when, theirs)) = time_moved(f, &source_figs) {
            issues.push(issue(
                Severity::Major,
                Check::FigureUnit,
                format!(
                    "the draft puts {} at {when}, where the entry has {theirs} then: \u{ab}{}\u{bb} [{ids}]",
                    f.text,
                    clip(c.text, CLIP)
                ),
            ));
        }
    }
    if let Some((a, b)) = exchanged(&figs, &source_figs) {
        let (la, lb) = (a.lead.as_deref(), b.lead.as_deref());
        issues.push(issue(
            Severity::Major,
            Check::RolesSwapped,
            format!(
                "the draft trades the places of {} and {}: the cited entries have \u{ab}{}\u{bb} before {} and \u{ab}{}\u{bb} before {}, not the other way round: \u{ab}{}\u{bb} [{ids}]",
                a.text,
                b.text,
                la.unwrap_or_default(),
                b.text,
                lb.unwrap_or_default(),
                a.text,
                clip(c.text, CLIP)
            ),
        ));
    }
    for q in &quotes {
        let nq = normal(q);
        if !c.reads.iter().any(|r| r.text.contains(&nq)) {
            issues.push(issue(
                Severity::Major,
                Check::UnverifiedQuote,
                format!(
                    "the quotation \u{201c}{}\u{201d} is not in the cited entries [{ids}]",
                    short(q)
                ),
            ));
        }
    }
    // Dates: a day of a month must be a date of the entries wherever it stands; a month or a
    // year alone only where the sentence restates one of their sentences.
    for date in date_refs(c.text) {
        if date.day.is_none() && aligned.is_empty() {
            continue;
        }
        if !c
            .reads
            .iter()
            .any(|r| r.dates.iter().any(|s| date.within(s)))
        {
            let records: Vec<String> = c
                .reads
                .iter()
                .filter_map(|r| r.dates.first().map(|d| d.show()))
                .collect();
            issues.push(issue(
                Severity::Major,
                Check::UnsupportedDate,
                format!(
                    "{} is no date of the cited entries (of record: {}): \u{ab}{}\u{bb} [{ids}]",
                    date.show(),
                    records.join(", "),
                    clip(c.text, CLIP)
                ),
            ));
        }
    }

    let lower = format!("{} ", c.text.to_lowercase());
    // A claim of record resting on an unconfirmed source: the entry's claim itself, or a
    // sentence of it that says it is unconfirmed.
    let hedged_source = if aligned.is_empty() {
        c.reads.iter().any(|r| r.hedged)
    } else {
        let hedged = |a: &Aligned<'_>| a.sentence.hedged || (a.sentence.lead && a.read.hedged);
        // Another cited entry that says it of record (a filing beside a sourced report)
        // confirms it: no aligned sentence of that entry is hedged, nor the entry itself.
        let confirmed = aligned.iter().any(|a| {
            !a.read.hedged
                && !aligned
                    .iter()
                    .any(|b| std::ptr::eq(b.read, a.read) && hedged(b))
        });
        aligned.iter().any(hedged) && !confirmed
    };
    let hedge_dropped = c.own
        && factual
        && hedged_source
        && !c.carried
        && !attributes(c.text)
        && !HEDGE_WORDS.iter().any(|h| lower.contains(h));
    if hedge_dropped {
        issues.push(issue(
            Severity::Major,
            Check::HedgeDropped,
            format!(
                "a cited entry is unconfirmed but the sentence states it as fact: \u{ab}{}\u{bb}",
                short(c.text)
            ),
        ));
    } else if let Some(a) = attribution_dropped(&aligned)
        && !c.carried
        && !attributes_by_phrase(&lower)
        // A speaker the entry's sentence names keeps the attribution (`Bloomberg writes that`).
        && !speakers::speakers(&d.toks)
            .iter()
            .any(|name| name.iter().any(|w| a.sentence.speakers.contains(w)))
        && !attributes_by_word(&if a.sentence.anonymous {
            own_words(&d, &a.sentence.parsed)
        } else {
            c.text.to_string()
        })
    {
        issues.push(issue(
            Severity::Major,
            Check::AttributionDropped,
            format!(
                "the draft states as fact what the entry attributes to its sources: {}",
                against(a)
            ),
        ));
    }

    if !aligned.is_empty() {
        let sentences: Vec<&Parsed> = aligned.iter().map(|a| &a.sentence.parsed).collect();
        let titles: Vec<bool> = aligned
            .iter()
            .map(|a| a.sentence.part == Part::Title)
            .collect();
        // A sentence that points back (`The company repeated the figures in a post`) tells
        // what the sentence before tells, judged there: not the negations and hedges of the
        // entry's other sentences it shares a word with (`No figures beyond the post were
        // given`). Its own negation is still its own.
        let own_negation = d.cues.iter().any(|(_, cue)| *cue == Cue::Negation);
        let retold = !own_negation && context::points_back(&context_of(c, &d));
        for m in compare(&d, &sentences, &titles) {
            if retold && matches!(m.check, Check::NegationFlipped | Check::CertaintyRaised) {
                continue;
            }
            issues.push(issue(
                Severity::Major,
                m.check,
                format!("{}: {}", m.what, against(&aligned[m.source])),
            ));
        }
        if let Some(issue) = roles_swapped(&d, &aligned, &against) {
            issues.push(issue);
        }
        // A name of the entry's text, or of where it comes from (`SEC EDGAR`).
        let word = |w: &str| {
            company(w)
                || c.reads
                    .iter()
                    .any(|r| r.lower_words.contains(w) || r.provenance.contains(w))
        };
        let handles: Vec<String> = c.reads.iter().flat_map(|r| r.handles.clone()).collect();
        let known = names::Known {
            word: &word,
            handles: &handles,
            lower_case: c.lower_case,
        };
        for name in names::unsupported(&d, &known) {
            issues.push(issue(
                Severity::Major,
                Check::UnsupportedName,
                format!(
                    "{name} is named in none of the cited entries: {}",
                    against(&aligned[0])
                ),
            ));
        }
    }

    if c.own {
        let words = content_words(c.text);
        if words.len() >= DRIFT_MIN_WORDS {
            let shared = words
                .iter()
                .filter(|w| c.reads.iter().any(|r| r.words.contains(*w)))
                .count();
            let share = shared as f64 / words.len() as f64;
            if share < DRIFT_MINOR {
                issues.push(issue(
                    if share < DRIFT_MAJOR {
                        Severity::Major
                    } else {
                        Severity::Minor
                    },
                    Check::ClaimDrift,
                    format!(
                        "the cited entries [{ids}] share {:.0}% of this sentence's words: \u{ab}{}\u{bb}",
                        share * 100.0,
                        short(c.text)
                    ),
                ));
            }
        }
    }
    let Some(judged) = judged else {
        return (issues, Vec::new());
    };
    let support = rest(c, &d, judged, &aligned, &mut issues);
    (issues, support)
}

/// Who does what to whom turned around against a sentence the draft's restates (the best
/// aligned first); not against a title, whose headline participles drop their `was`
/// (`Copilot bundled into Microsoft 365`).
fn roles_swapped(
    d: &Parsed,
    aligned: &[Aligned<'_>],
    against: &dyn Fn(&Aligned<'_>) -> String,
) -> Option<Issue> {
    let sentences = aligned.iter().filter(|a| a.sentence.part != Part::Title);
    let swapped = |a: &Aligned<'_>, what: String| {
        issue(
            Severity::Major,
            Check::RolesSwapped,
            format!("{what}: {}", against(a)),
        )
    };
    if let Some(found) = sentences
        .into_iter()
        .find_map(|a| roles::swapped(&d.toks, &a.sentence.parsed.toks).map(|what| swapped(a, what)))
    {
        return Some(found);
    }
    // Speakers traded between two sentences of an entry's summary (`Bloomberg reported that …
    // . Joshua Buchalter at TD Cowen called it …`), which the draft tells in one.
    if !said::tells_two(&d.toks) {
        return None;
    }
    let mut seen: Vec<&str> = Vec::new();
    aligned.iter().find_map(|a| {
        let accession = a.read.source.accession.as_str();
        if seen.contains(&accession) {
            return None;
        }
        seen.push(accession);
        // Each sentence closed by a full stop, which the tokens leave out.
        let stop = Tok {
            word: ".".into(),
            anchor: String::new(),
            kind: Kind::Break,
            raw: ".".into(),
            possessive: false,
        };
        let summary: Vec<Tok> = a
            .read
            .sentences
            .iter()
            .filter(|s| s.part == Part::Summary)
            .flat_map(|s| s.parsed.toks.iter().cloned().chain([stop.clone()]))
            .collect();
        said::speakers_traded(&d.toks, &summary).map(|(x, y)| {
            swapped(
                a,
                format!("the draft has \u{ab}{x}\u{bb} say what the entry has \u{ab}{y}\u{bb} say"),
            )
        })
    })
}

/// Checks that mean a source sentence says otherwise.
const CONTRADICTING: &[Check] = &[
    Check::RolesSwapped,
    Check::NegationFlipped,
    Check::DirectionFlipped,
    Check::CertaintyRaised,
    Check::AttributionDropped,
    Check::HedgeDropped,
    Check::FigureUnit,
    Check::UnsupportedDate,
];

/// Default deny: judges a sentence of record against every sentence of the entries it cites,
/// adds an `unsupported-content` finding for what none of those it rests on holds, and answers
/// the sentences it rests on with its judgement.
/// Every sentence of the entries a sentence rests on may be one of, with its entry.
fn candidates<'a>(c: &Claim<'a>) -> Vec<(&'a Read<'a>, &'a SourceSentence)> {
    c.reads
        .iter()
        .flat_map(|r| r.sentences.iter().map(move |s| (*r, s)))
        .collect()
}

/// What stands around the sentence `d` of the claim `c`.
fn context_of<'a>(c: &'a Claim<'a>, d: &'a Parsed) -> context::Context<'a> {
    context::Context {
        text: c.text,
        toks: &d.toks,
        reads: &c.reads,
        previous: c.previous,
        prior: c.prior.as_ref().map(|(t, r)| (*t, r.as_slice())),
    }
}

/// Default deny's reading of the sentence `d` against every sentence of the entries it cites.
fn judge(c: &Claim<'_>, d: &Parsed, company: &dyn Fn(&str) -> bool) -> support::Judged {
    let offers: Vec<&Offer> = candidates(c).iter().map(|(_, s)| &s.offer).collect();
    let handle = |w: &str| {
        w.len() >= 3
            && c.reads
                .iter()
                .any(|r| r.handles.iter().any(|h| h.contains(w)))
    };
    let context = context::borne_out(&context_of(c, d));
    // The company's names, and the year of record of an entry (`On August 2, 2026, …`).
    let word = |w: &str| {
        company(w)
            || handle(w)
            || context.contains(&w)
            || c.reads.iter().any(|r| {
                r.dates
                    .first()
                    .and_then(|d| d.year)
                    .is_some_and(|y| y.to_string() == w)
            })
    };
    let from = |w: &str| c.reads.iter().any(|r| r.provenance.contains(w));
    let known = support::Known {
        word: &word,
        handle: &handle,
        from: &from,
    };
    let entries: Vec<usize> = c
        .reads
        .iter()
        .enumerate()
        .flat_map(|(e, r)| r.sentences.iter().map(move |_| e))
        .collect();
    support::judge(&d.toks, &offers, &entries, &known)
}

fn rest(
    c: &Claim<'_>,
    d: &Parsed,
    judged: support::Judged,
    aligned: &[Aligned<'_>],
    issues: &mut Vec<Issue>,
) -> Vec<Support> {
    let candidates = candidates(c);
    if let Some(clause) = &judged.mixed {
        issues.push(issue(
            Severity::Major,
            Check::RolesSwapped,
            format!(
                "the draft joins in one clause names and figures that no one cited entry tells together: \u{ab}{clause}\u{bb} of \u{ab}{}\u{bb} [{}]",
                clip(c.text, CLIP),
                c.ids
            ),
        ));
    }
    let mut missing = judged.missing;
    for name in speakers::speakers(&d.toks) {
        let said = name.iter().any(|who| {
            c.reads.iter().any(|r| {
                r.handles.iter().any(|h| h.contains(who.as_str()))
                    || r.provenance.contains(who)
                    || r.sentences.iter().any(|s| s.speakers.contains(who))
            })
        });
        if !said {
            missing.push(format!("{} (as who said it)", name.join(" ")));
        }
    }
    // A handle is one of the entries' as written whole (`@Tesla_Optimus` is no `@Tesla_AI`,
    // though its words are in the entry; `@AMD` no `@AMDServer`).
    for h in handles(c.text) {
        let held = c
            .reads
            .iter()
            .any(|r| r.handles.contains(&h) || handles(&r.source.publisher).contains(&h));
        if !held {
            missing.push(format!("@{h} (as who said it)"));
        }
    }
    let mut rests: Vec<(&Read<'_>, &SourceSentence)> =
        judged.cover.iter().map(|&k| candidates[k]).collect();
    // A name that stands where the sentence it rests on first names another (a lone name
    // borrowed from another sentence of the entry); not one a title gives.
    let topic = |w: &str| {
        candidates
            .iter()
            .any(|(_, s)| s.part == Part::Title && s.parsed.toks.iter().any(|t| t.word == w))
    };
    if let Some((_, s)) = rests.first() {
        for (name, instead) in borrowed::borrowed(&d.toks, &s.parsed.toks, &topic) {
            missing.push(format!("{name} (where the entry says {instead})"));
        }
    }
    if rests.is_empty() {
        rests.extend(aligned.first().map(|a| (a.read, a.sentence)));
        rests.extend(candidates.first().filter(|_| aligned.is_empty()).copied());
    }
    if let Some((r, s)) = rests.first().filter(|_| !missing.is_empty()) {
        let words: Vec<String> = missing.iter().map(|m| format!("\u{ab}{m}\u{bb}")).collect();
        issues.push(issue(
            Severity::Major,
            Check::UnsupportedContent,
            format!(
                "\u{ab}{}\u{bb} [{}] states what the cited entries do not: {}; nearest: [{}] \u{ab}{}\u{bb}",
                clip(c.text, CLIP),
                c.ids,
                words.join(", "),
                r.source.accession,
                clip(&s.parsed.text, CLIP)
            ),
        ));
    }
    if let Some((r, s)) = rests
        .first()
        .filter(|_| missing.is_empty() && !judged.loose.is_empty())
    {
        issues.push(issue(
            Severity::Minor,
            Check::UnsupportedContent,
            format!(
                "\u{ab}{}\u{bb} [{}] words \u{ab}{}\u{bb} as the cited entries do not; nearest: [{}] \u{ab}{}\u{bb}",
                clip(c.text, CLIP),
                c.ids,
                judged.loose.join(", "),
                r.source.accession,
                clip(&s.parsed.text, CLIP)
            ),
        ));
    }
    let judgement = if issues.iter().any(|i| CONTRADICTING.contains(&i.check)) {
        Judgement::Contradicted
    } else if issues.iter().any(|i| i.severity <= Severity::Major) {
        Judgement::Unsupported
    } else {
        Judgement::Supported
    };
    rests
        .into_iter()
        .map(|(r, s)| Support {
            sentence: c.text.to_string(),
            entry: r.source.accession.clone(),
            quote: s.parsed.text.clone(),
            judgement,
            missing: missing.clone(),
        })
        .collect()
}

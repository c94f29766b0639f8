//! Words of a draft's sentence that what stands around it bears out, though no source sentence
//! holds them: `the same figures` of the sentence before, `made by` the owner an entry names,
//! `ahead` or `behind` by the order of two figures an entry sets side by side, `by a wide
//! margin` for `well behind`, `already` before an act under way, `lost … to` for `left for`,
//! `posted the same news` (or `repeated the point`, `later`) where an entry this sentence
//! cites tells what the one the sentence before cites does, a noun of kind after a name
//! (`EPYC processors`), `the filing adds`, and `new` of what an entry calls `additional`.

use super::figures::{figures, same};
use super::lexicon::{HEDGES, NEGATIONS};
use super::read::Read;
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::words::content_words;

/// What a sentence's context is: its text and words, the entries it cites, the sentence before
/// it in its paragraph.
pub(super) struct Context<'a> {
    pub(super) text: &'a str,
    pub(super) toks: &'a [Tok],
    pub(super) reads: &'a [&'a Read<'a>],
    pub(super) previous: Option<&'a str>,
    /// The sentence before it in the draft, in any paragraph, with the entries it cites.
    pub(super) prior: Option<(&'a str, &'a [&'a Read<'a>])>,
}

/// One reading of a sentence's context: whether it bears out its words.
type Reading = fn(&Context<'_>) -> bool;

/// The words of the sentence its context bears out.
pub(super) fn borne_out<'a>(c: &Context<'a>) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = ordered_by_figures(c).to_vec();
    out.extend(restated(c));
    out.extend(kinds_of_named(c));
    out.extend(ordered_by_day(c));
    out.extend_from_slice(counted_by_entries(c));
    let readings: [(Reading, &[&str]); 10] = [
        (same_figures, RESTATED),
        (added_by_source, &["adds", "added"]),
        (new_as_additional, &["new"]),
        (made_by_owner, MAKERS),
        (margin_widely, WIDE_MARGIN),
        (already_under_way, &["already"]),
        (lost_to, &["lost"]),
        (first_time, FIRST_TIME),
        (first_report, &["first", "public"]),
        (weighed_option, OPTIONS),
    ];
    for (reading, words) in readings {
        if reading(c) {
            out.extend_from_slice(words);
        }
    }
    out
}

/// Counts a sentence may make of the entries it cites, one thing each (`Two Apple senior vice
/// presidents sold shares [A] [B]`, `All three sales`), with the words that go with them.
const COUNTS: &[(&str, usize, &[&str])] = &[
    ("two", 2, &["two", "both"]),
    ("both", 2, &["both"]),
    ("three", 3, &["three", "all"]),
    ("four", 4, &["four", "all"]),
];

/// What follows a count that makes it a measure, not a count of things (`two years earlier`,
/// `three times`).
const MEASURES: &[&str] = &[
    "years", "months", "weeks", "days", "quarters", "times", "million", "billion", "percent",
    "points", "hours",
];

/// A count of things that is the number of entries the sentence cites: each tells of one.
fn counted_by_entries(c: &Context<'_>) -> &'static [&'static str] {
    let toks = c.toks;
    let cited = c.reads.len();
    for (k, t) in toks.iter().enumerate() {
        let Some((_, n, words)) = COUNTS.iter().find(|(w, _, _)| *w == t.word) else {
            continue;
        };
        let counts_things = toks
            .get(k + 1)
            .is_some_and(|n| n.kind == Kind::Word && !MEASURES.contains(&n.word.as_str()));
        if *n == cited && counts_things {
            return words;
        }
    }
    &[]
}

/// What [`first_time`] bears out: the adverb and its negation.
const FIRST_TIME: &[&str] = &["before", "previously", "earlier", "not", "never", "no"];

/// `not … before` where a cited entry tells of the first time (`The figure had not been
/// reported before`, for `It is the first time the figure has been reported`).
fn first_time(c: &Context<'_>) -> bool {
    // As an adverb: `before` or `earlier` that ends its clause (not `before the call`).
    let toks = c.toks;
    let adverb = (0..toks.len()).any(|i| match toks[i].word.as_str() {
        "previously" => true,
        "before" | "earlier" => toks.get(i + 1).is_none_or(|n| n.kind == Kind::Break),
        _ => false,
    });
    adverb
        && c.toks.iter().any(|t| NEGATIONS.contains(&t.word.as_str()))
        && c.reads.iter().any(|r| {
            r.sentences.iter().any(|s| {
                s.parsed
                    .toks
                    .windows(2)
                    .any(|w| w[0].word == "first" && w[1].word == "time")
            })
        })
}

/// Verbs of weighing a course not yet taken.
const WEIGHING: &[&str] = &[
    "weighing",
    "weighs",
    "weighed",
    "considering",
    "considers",
    "considered",
    "exploring",
    "explores",
    "explored",
    "evaluating",
    "evaluates",
    "evaluated",
];
/// Nouns that name what is weighed (`weighing that option`): what [`weighed_option`] bears out.
const OPTIONS: &[&str] = &["option", "options", "possibility", "idea", "step", "move"];

/// `that option` of what is weighed, where the sentence and an entry it cites weigh it with
/// the same verb (`which says the company is weighing that option`).
fn weighed_option(c: &Context<'_>) -> bool {
    let toks = c.toks;
    let named = toks.windows(2).any(|w| {
        matches!(
            w[0].word.as_str(),
            "that" | "this" | "the" | "such" | "an" | "each"
        ) && OPTIONS.contains(&w[1].word.as_str())
    });
    named
        && toks.iter().any(|t| {
            WEIGHING.contains(&t.word.as_str())
                && c.reads.iter().any(|r| {
                    r.sentences
                        .iter()
                        .any(|s| s.parsed.toks.iter().any(|u| u.word == t.word))
                })
        })
}

/// Nouns and verbs of reporting a thing for the first time (`the first public report of the
/// figure`, `first reported`).
const REPORTING: &[&str] = &["report", "reported", "reporting", "disclosure", "disclosed"];

/// `first` of a report where a cited entry says it is the first time the thing has been
/// reported (`in the first public report of that figure`): not a first of anything else.
fn first_report(c: &Context<'_>) -> bool {
    let toks = c.toks;
    let of_report = toks.iter().enumerate().any(|(i, t)| {
        t.word == "first"
            && toks[i + 1..]
                .iter()
                .take(2)
                .any(|n| REPORTING.contains(&n.word.as_str()))
    });
    of_report
        && c.reads.iter().any(|r| {
            r.sentences.iter().any(|s| {
                let words = &s.parsed.toks;
                words
                    .windows(2)
                    .any(|w| w[0].word == "first" && w[1].word == "time")
                    && words.iter().any(|t| t.word == "reported")
            })
        })
}

/// Words that say a margin is wide (`by a wide margin`).
const WIDE: &[&str] = &["wide", "large", "big", "broad", "considerable"];
/// [`WIDE`] and `margin`: what [`margin_widely`] bears out.
const WIDE_MARGIN: &[&str] = &["wide", "large", "big", "broad", "considerable", "margin"];

/// Words that name the figures of the sentence before after `same` (`reported the same
/// figures`).
const RESTATED: &[&str] = &["figures", "figure", "numbers", "results", "totals"];

/// Nouns a draft names where it has what it says from (`the filing adds`).
const TELLERS: &[&str] = &[
    "filing",
    "report",
    "post",
    "statement",
    "document",
    "release",
    "article",
    "story",
];

/// The sentence ends by telling where it has what it says (`…, the filing adds.`): `adds` is
/// a word of saying there, not of amount.
fn added_by_source(c: &Context<'_>) -> bool {
    // The last words, past a closing full stop.
    let mut tail = c
        .toks
        .iter()
        .rev()
        .skip_while(|t| t.kind == Kind::Break && t.word != ",")
        .map(|t| t.word.as_str());
    let ends = matches!(tail.next(), Some("adds" | "added"))
        && tail.next().is_some_and(|w| TELLERS.contains(&w))
        && tail.next() == Some("the")
        && tail.next() == Some(",");
    // Or opens with it (`The filing adds that …`).
    let word = |k: usize| c.toks.get(k).map_or("", |t| t.word.as_str());
    let opens = word(0) == "the"
        && TELLERS.contains(&word(1))
        && matches!(word(2), "adds" | "added")
        && word(3) == "that";
    ends || opens
}

/// `new` where a cited entry's sentence has the thing the sentence speaks of as `additional`
/// (`a further share repurchase program, and the new authorisation`, for `an additional share
/// repurchase program`).
fn new_as_additional(c: &Context<'_>) -> bool {
    let has = |w: &str| c.toks.iter().any(|t| t.word == w);
    has("new")
        && c.reads.iter().any(|r| {
            r.sentences.iter().any(|s| {
                let st = &s.parsed.toks;
                // The thing: a word of the three after it (`additional share repurchase
                // program`).
                (0..st.len()).any(|k| {
                    st[k].word == "additional"
                        && st[k + 1..(k + 4).min(st.len())]
                            .iter()
                            .any(|t| t.kind == Kind::Word && has(&t.word))
                })
            })
        })
}

/// Verbs that tell again what was told before (`repeated the point`).
const TOLD_AGAIN: &[&str] = &["repeated", "reiterated", "echoed", "flagged", "restated"];
/// What names what the sentence before tells (`repeated the point`), [`TOLD_AGAIN`] and `also`:
/// what [`restated`] bears out.
const RETOLD: &[&str] = &[
    "news",
    "timetable",
    "schedule",
    "point",
    "milestone",
    "details",
    "announcement",
    "update",
    "figures",
    "figure",
    "numbers",
    "repeated",
    "reiterated",
    "echoed",
    "flagged",
    "restated",
    "also",
];
/// A source sentence holds this share of another's words: it tells the same.
const SAME_TELLING: f64 = 0.75;
/// The sentence before holds this share of its source sentence's words: it tells that one.
const TELLS: f64 = 0.5;

/// Whether the sentence points back to what the sentence before it tells, as [`restated`]
/// reads it.
pub(super) fn points_back(c: &Context<'_>) -> bool {
    !restated(c).is_empty()
}

/// The sentence points back to what the sentence before it tells (`@AMDInstinct posted the
/// same timetable`, `NVIDIA repeated the point in an 8-K`, `Reuters later reported the same`),
/// and a sentence of an entry it cites tells what a sentence of another the sentence before
/// cites does, the one the sentence before tells: the pointing words are borne out, with what
/// follows `same` (`the same initiation and rationale`); `later` is [`ordered_by_day`]'s.
fn restated<'a>(c: &Context<'a>) -> Vec<&'a str> {
    let toks = c.toks;
    let Some((before, earlier)) = c.prior else {
        return Vec::new();
    };
    let points = toks
        .iter()
        .any(|t| t.word == "same" || TOLD_AGAIN.contains(&t.word.as_str()));
    if !points {
        return Vec::new();
    }
    let before_words = content_words(before);
    let share = |of: &[String], within: &[String]| {
        of.iter().filter(|w| within.contains(w)).count() as f64 / of.len().max(1) as f64
    };
    let told = earlier.iter().any(|a| {
        a.sentences.iter().any(|sa| {
            let wa = content_words(&sa.parsed.text);
            wa.len() >= 4
                && share(&before_words, &wa) >= TELLS
                && c.reads.iter().any(|b| {
                    b.source.accession != a.source.accession
                        && b.sentences
                            .iter()
                            .any(|sb| share(&wa, &content_words(&sb.parsed.text)) >= SAME_TELLING)
                })
        })
    });
    if !told {
        return Vec::new();
    }
    let mut out: Vec<&'a str> = RETOLD.to_vec();
    // What follows `same`, to a break or a word of saying: the names of what was told.
    for (i, t) in toks.iter().enumerate() {
        if t.word != "same" {
            continue;
        }
        out.extend(
            toks[i + 1..]
                .iter()
                .take_while(|n| n.kind == Kind::Word && !saying(&n.word))
                .map(|n| n.word.as_str()),
        );
    }
    out
}

/// The day of record of an entry, counted from 1970-01-01.
fn day_of(r: &Read<'_>) -> Option<i64> {
    let d = r.dates.first()?;
    let (y, m, day) = (i64::from(d.year?), i64::from(d.month?), i64::from(d.day?));
    // Days from the civil date (H. Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The fewest and the most days from every entry of `earlier` to every entry of `later`, when
/// each of `later` is of a later day than each of `earlier`.
fn gaps(later: &[&Read<'_>], earlier: &[&Read<'_>]) -> Option<(i64, i64)> {
    let mut all = Vec::new();
    for b in later {
        for a in earlier {
            all.push(day_of(b)? - day_of(a)?);
        }
    }
    let (least, most) = (*all.iter().min()?, *all.iter().max()?);
    (least > 0).then_some((least, most))
}

/// Words that order a sentence after the one before it (`Microsoft later recorded`, `In a later
/// post`, `has since trimmed`, `Its 10-Q, which followed`), and before it (`In an earlier
/// 10-Q, the company had already said`).
const AFTERWARDS: &[&str] = &["later", "since", "subsequently", "afterwards", "followed"];
const BEFOREHAND: &[&str] = &["earlier", "previously", "already"];

/// How far apart a span says two days are: its words, and the fewest and most days it may
/// mean (`a week later`, `weeks later`, `the next day`).
const SPANS: &[(&[&str], i64, i64)] = &[
    (&["next", "day"], 1, 1),
    (&["following", "day"], 1, 1),
    (&["a", "day"], 1, 1),
    (&["days"], 2, 13),
    (&["a", "week"], 5, 9),
    (&["weeks"], 10, 70),
    (&["a", "month"], 24, 38),
    (&["months"], 45, 400),
];

/// [`AFTERWARDS`] where every entry the sentence cites is of a later day than every entry the
/// sentence before cites, [`BEFOREHAND`] where of an earlier one; not `later` of a time frame
/// (`later this year`). With them, the words of a span that fits the days between the entries
/// (`A week later` of entries six days apart; not `Weeks later` of two days).
fn ordered_by_day(c: &Context<'_>) -> Vec<&'static str> {
    let Some((_, earlier)) = c.prior else {
        return Vec::new();
    };
    let toks = c.toks;
    let framed = |i: usize| {
        toks.get(i + 1).is_some_and(|n| {
            matches!(
                n.word.as_str(),
                "this" | "that" | "next" | "in" | "on" | "than" | "year" | "quarter" | "month"
            )
        })
    };
    let has = |words: &[&str]| {
        toks.iter()
            .enumerate()
            .any(|(i, t)| words.contains(&t.word.as_str()) && !framed(i))
    };
    let after = gaps(c.reads, earlier);
    let before = gaps(earlier, c.reads);
    let (words, (least, most)) = match (after, before) {
        (Some(g), _) => (AFTERWARDS, g),
        (_, Some(g)) => (BEFOREHAND, g),
        _ => return Vec::new(),
    };
    // A span, with the word it measures or on its own (`The next day, Bloomberg wrote`).
    let mut out: Vec<&'static str> = Vec::new();
    for (span, fewest, farthest) in SPANS {
        let n = span.len();
        let at = (0..toks.len().saturating_sub(n - 1))
            .find(|&i| (0..n).all(|k| toks[i + k].word == span[k]));
        let Some(i) = at else {
            continue;
        };
        let measured = toks
            .get(i + n)
            .is_some_and(|t| words.contains(&t.word.as_str()));
        let alone = span.last() == Some(&"day") && words == AFTERWARDS;
        if (measured || alone) && *fewest <= least && most <= *farthest {
            out.extend_from_slice(span);
        }
    }
    if has(words) || !out.is_empty() {
        out.extend_from_slice(words);
    }
    out
}

/// Nouns that say what kind of thing a name before them names (`EPYC processors`, `Model Y
/// vehicles`): what the name is, not news of its own; `account` and `handle` after a handle.
const KINDS: &[&str] = &[
    "vehicles",
    "vehicle",
    "cars",
    "car",
    "processors",
    "processor",
    "chips",
    "chip",
    "technology",
    "technologies",
    "products",
    "product",
    "devices",
    "device",
    "hardware",
    "software",
    "accelerators",
    "accelerator",
    "robots",
    "robot",
];

/// The nouns of [`KINDS`] right after a name an entry the sentence cites holds (a capital or a
/// handle): the kind of thing it is.
fn kinds_of_named(c: &Context<'_>) -> Vec<&'static str> {
    let (toks, reads) = (c.toks, c.reads);
    (1..toks.len())
        .filter_map(move |i| {
            let (name, kind) = (&toks[i - 1], toks[i].word.as_str());
            // A handle is written without its `@` here (`its @nvidia account`).
            if matches!(kind, "account" | "handle") {
                return reads
                    .iter()
                    .any(|r| r.handles.contains(&name.word))
                    .then_some(if kind == "account" {
                        "account"
                    } else {
                        "handle"
                    });
            }
            // The cheap test first: most words follow no capital.
            if !name.raw.starts_with(char::is_uppercase) {
                return None;
            }
            let kind = KINDS.iter().find(|k| **k == kind)?;
            reads
                .iter()
                .any(|r| r.lower_words.contains(&name.word))
                .then_some(*kind)
        })
        .collect()
}

/// Words that put the figure before them above the one after (`up 41%, well ahead of the 14%
/// rise`), and below it.
const AHEAD: &[&str] = &[
    "ahead",
    "outpacing",
    "outpaced",
    "above",
    "faster",
    "exceeding",
];
const BEHIND: &[&str] = &[
    "behind", "trailing", "trailed", "lagging", "lagged", "below", "slower",
];
/// Words of a source sentence that set two figures side by side.
const SIDE_BY_SIDE: &[&str] = &["compared", "against", "versus", "while", "whereas"];

/// The words of [`AHEAD`] or [`BEHIND`] the sentence's figures bear out: a sentence of a cited
/// entry sets the figure before the word beside the one after (`41% this year, compared with a
/// 14% rise`), and the first is the larger (`ahead`) or the smaller (`behind`).
fn ordered_by_figures(c: &Context<'_>) -> &'static [&'static str] {
    // ASCII only, so that an index of the lowered text is one of the text.
    let lower = c.text.to_ascii_lowercase();
    for (words, larger) in [(AHEAD, true), (BEHIND, false)] {
        for w in words {
            let Some(at) = lower.match_indices(w).map(|(i, _)| i).find(|&i| {
                let before = lower[..i].chars().next_back();
                let after = lower[i + w.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            }) else {
                continue;
            };
            let (Some(a), Some(b)) = (
                figures(&c.text[..at]).pop(),
                figures(&c.text[at..]).into_iter().next(),
            ) else {
                continue;
            };
            let ordered = if larger {
                a.value > b.value
            } else {
                a.value < b.value
            };
            let beside = c.reads.iter().any(|r| {
                r.sentences.iter().any(|s| {
                    let f = figures(&s.parsed.text);
                    f.iter().any(|g| same(&a, g))
                        && f.iter().any(|g| same(&b, g))
                        && s.parsed
                            .toks
                            .iter()
                            .any(|t| SIDE_BY_SIDE.contains(&t.word.as_str()))
                })
            });
            if a.kind == b.kind && ordered && beside {
                return words;
            }
        }
    }
    &[]
}

/// `already` before an act a sentence of a cited entry tells as under way or done (`is sampling
/// to customers ahead of a 2026 launch`, `has shipped`), not as planned or hedged: the act is
/// there by now.
fn already_under_way(c: &Context<'_>) -> bool {
    let toks = c.toks;
    let Some(i) = toks.iter().position(|t| t.word == "already") else {
        return false;
    };
    let Some(act) = toks[i + 1..].iter().find(|t| t.word != "been") else {
        return false;
    };
    let planned = |w: &str| HEDGES.contains(&w) || matches!(w, "will" | "plans" | "plan");
    c.reads.iter().any(|r| {
        r.sentences.iter().any(|s| {
            let st = &s.parsed.toks;
            !st.iter().any(|t| planned(&t.word))
                && (1..st.len()).any(|j| {
                    st[j].word == act.word
                        && matches!(
                            st[j - 1].word.as_str(),
                            "is" | "are" | "has" | "have" | "now"
                        )
                })
        })
    })
}

/// `lost … to` one a sentence of a cited entry has someone leave for (`Apple has lost a
/// researcher to a rival AI lab` for `a senior Apple researcher has left for a rival AI lab`):
/// the same departure told from the one left.
fn lost_to(c: &Context<'_>) -> bool {
    let toks = c.toks;
    let after_article = |t: &[Tok], k: usize| {
        let skip = t
            .get(k)
            .is_some_and(|x| matches!(x.word.as_str(), "a" | "an" | "the"));
        t.get(k + usize::from(skip)).map(|x| x.word.clone())
    };
    let Some(i) = toks.iter().position(|t| t.word == "lost") else {
        return false;
    };
    let Some(to) = (i + 1..toks.len().min(i + 10)).find(|&k| toks[k].word == "to") else {
        return false;
    };
    let Some(whom) = after_article(toks, to + 1) else {
        return false;
    };
    c.reads.iter().any(|r| {
        r.sentences.iter().any(|s| {
            let st = &s.parsed.toks;
            (1..st.len()).any(|j| {
                matches!(st[j - 1].word.as_str(), "left" | "departed" | "defected")
                    && st[j].word == "for"
                    && after_article(st, j + 1).is_some_and(|w| w == whom)
            })
        })
    })
}

/// Words that say a comparison is wide before the word that compares (`well behind`).
const WIDELY: &[&str] = &["well", "far", "much", "way"];
/// Words that compare two things, after which [`WIDELY`] says by how much.
const COMPARED: &[&str] = &[
    "behind",
    "ahead",
    "below",
    "above",
    "short",
    "trailing",
    "outpacing",
];

/// The sentence says a comparison is wide as `by a wide margin` (`wide`, `large`, `big`,
/// `broad`, `considerable`, `margin`) where a sentence of a cited entry says it with `well`,
/// `far` or `much` before its word that compares (`well behind the U.S. business`).
fn margin_widely(c: &Context<'_>) -> bool {
    let said = c.toks.windows(4).any(|w| {
        w[0].word == "by"
            && w[1].word == "a"
            && WIDE.contains(&w[2].word.as_str())
            && w[3].word == "margin"
    });
    said && c.reads.iter().any(|r| {
        r.sentences.iter().any(|s| {
            s.parsed.toks.windows(2).any(|w| {
                WIDELY.contains(&w[0].word.as_str()) && COMPARED.contains(&w[1].word.as_str())
            })
        })
    })
}

/// Verbs of who made a thing: `fittings made by a supplier` tells `a supplier's fittings`.
const MAKERS: &[&str] = &["made", "built", "produced", "manufactured", "supplied"];

/// The sentence says a thing was made by one an entry it cites names as the thing's owner
/// (`fittings made by a supplier` of `a supplier's quick-disconnect fittings`): the verb is
/// that possessive's.
fn made_by_owner(c: &Context<'_>) -> bool {
    let toks = c.toks;
    (1..toks.len()).any(|i| {
        if !MAKERS.contains(&toks[i].word.as_str())
            || toks.get(i + 1).is_none_or(|t| t.word != "by")
        {
            return false;
        }
        let article = toks
            .get(i + 2)
            .is_some_and(|t| matches!(t.word.as_str(), "a" | "an" | "the" | "one"));
        let Some(maker) = toks.get(i + 2 + usize::from(article)) else {
            return false;
        };
        let thing = &toks[i - 1].word;
        c.reads.iter().any(|r| {
            r.sentences.iter().any(|s| {
                let st = &s.parsed.toks;
                (0..st.len()).any(|j| {
                    st[j].possessive
                        && st[j].word == maker.word
                        && st[j + 1..(j + 5).min(st.len())]
                            .iter()
                            .any(|t| &t.word == thing)
                })
            })
        })
    })
}

/// The sentence speaks of `the same figures` as the one before, and the entries it cites hold
/// every figure of that one: what the words stand for is borne out.
fn same_figures(c: &Context<'_>) -> bool {
    let said = c
        .toks
        .windows(2)
        .any(|w| w[0].word == "same" && RESTATED.contains(&w[1].word.as_str()));
    let before = c.previous.map(figures).unwrap_or_default();
    said && !before.is_empty()
        && before
            .iter()
            .all(|f| c.reads.iter().any(|r| r.figures.iter().any(|g| same(f, g))))
}

//! The judgement: the source sentences a draft's sentence rests on, and what of it they do not
//! hold.

use super::crossed;
use super::keys::word_key;
use super::links::{Link, OCCASIONS, links};
use super::numbers::{Bound, number_at};
use super::offers::{Offer, opposed};
use super::times::{frame, in_date};
use super::units::{HEDGED, Known, Unit, WILL, units};
use super::wordlists::{SUPERLATIVES, TITLES};
use super::{COVER_GAIN, LOOSE_MISSING, LOOSE_SHARE, MAX_COVER};
use crate::builtin::clause::be_passive;
use crate::builtin::converse::{GETS, Way, way};
use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordnet;
use crate::builtin::words::stem;

/// How far from a bound a source's figure may be and bear it out: `more than 730,000` of `over
/// 740,000`, `more than 35%` of `approximately 40%`, not of `78%`.
const NEAR: f64 = 1.25;

/// A hyphenated word is found when it is, or when each of its parts is.
pub(super) fn found(u: &Unit, toks: &[Tok], offers: &[&Offer]) -> bool {
    let any = |keys: &[String]| keys.iter().any(|k| offers.iter().any(|o| o.has(k)));
    if any(&u.keys) {
        return true;
    }
    // An exact figure of the source inside the draft's bound (a bounded source figure bears out
    // its own bound only: `more than 100` does not say `more than 50` of a threshold).
    if let Some((b, n, what)) = &u.range {
        // Near the bound: `more than 18%` restates no `78%` (of another sentence, or of the
        // title), though it is true of it.
        let near = |m: f64| m.abs() <= n.abs() * NEAR && m.abs() * NEAR >= n.abs();
        let within = |m: f64| match b {
            Bound::AtLeast => m > *n && near(m),
            Bound::AtMost => m < *n && near(m),
            Bound::Approx => (m - n).abs() <= n.abs() * 0.1,
        };
        // A tighter bound the same way, or an approximate figure clear of the bound (`over
        // 740,000` and `approximately 40%` bear out `more than 730,000` and `more than 35%`).
        let tighter = |c: Bound, m: f64| match (b, c) {
            (Bound::AtLeast, Bound::AtLeast) => m >= *n && near(m),
            (Bound::AtMost, Bound::AtMost) => m <= *n && near(m),
            (Bound::AtLeast, Bound::Approx) => m * 0.9 > *n && near(m),
            (Bound::AtMost, Bound::Approx) => m * 1.1 < *n && near(m),
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
    // By its lemma, or by its stem where WordNet's lemma is another word (`years` is a noun of
    // its own: `five-year` of `over five years`).
    let w = &toks[u.at].word;
    w.contains(['-', '/'])
        && w.split(['-', '/']).filter(|p| p.len() >= 3).all(|p| {
            let lemma = wordnet::lemma(p);
            any(&[
                word_key(&lemma, 0),
                word_key(p, 0),
                format!("s:{}", stem(p)),
            ])
        })
}

/// What one sentence of the body rests on, and what of it no source sentence holds.
#[derive(Debug)]
pub(in crate::builtin) struct Judged {
    /// Indices into the candidate sentences, best first.
    pub(in crate::builtin) cover: Vec<usize>,
    /// What is not found, as written (a link as its words: `which is why`).
    pub(in crate::builtin) missing: Vec<String>,
    /// A word not found that may be a rewording: the one word of [`LOOSE_MISSING`].
    pub(in crate::builtin) loose: Vec<String>,
    /// Bounded figures found only through an exact figure of a sentence it rests on (`more than
    /// 77` in `78`): their values.
    pub(in crate::builtin) ranged: Vec<f64>,
    /// A clause whose names and figures no one cited entry holds together, though each is in
    /// one of them: what the entries tell of two things, crossed (`raised their price to
    /// $29.99 a month` of one entry's plans and another's figure).
    pub(in crate::builtin) mixed: Option<String>,
}

/// Judges the draft sentence `toks` against the candidate source sentences (`offers`, those of
/// the entries it cites; `entries[k]` is the cited entry `offers[k]` is of). `known` as for
/// [`units`].
pub(in crate::builtin) fn judge(
    toks: &[Tok],
    offers: &[&Offer],
    entries: &[usize],
    known: &Known<'_>,
) -> Judged {
    let units = units(toks, known);
    let cover = choose_cover(&units, toks, offers, entries);
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
    let turned: Vec<usize> = units
        .iter()
        .filter(|u| negated(toks, u.at) && said_opposite(&toks[u.at].word, &chosen))
        .map(|u| u.at)
        .collect();
    for u in &units {
        // The title names what the entry is about; its figures, bounds, ranks and time frames
        // are no sentence's unless it rests on the title itself.
        if found(u, toks, if u.framed() { &chosen } else { &topic }) {
            continue;
        }
        // `will` where the source hedges (`may`, `could`) raises its certainty; elsewhere the
        // future is the other words' to bear out.
        if u.keys.iter().any(|k| k == WILL) {
            if chosen.iter().any(|o| o.has(HEDGED)) {
                missing.push(u.text.clone());
            }
            continue;
        }
        // `does not include` says what `excludes` does: a negated word whose opposite an
        // unnegated source sentence holds, and its negation, are borne out together.
        if turned
            .iter()
            .any(|&k| k == u.at || (k > u.at && k <= u.at + 2 && negation(&toks[u.at])))
        {
            continue;
        }
        // `cheaper cells` are cells of `lower cell costs`.
        if said_as_cost(&toks[u.at].word, &chosen) {
            continue;
        }
        // `was granted` is what its subject received.
        if given_to_subject(toks, u.at) && chosen.iter().any(|o| received(o)) {
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
    // borne out together: those outside the sentence that holds most of them are missing. A
    // clause joined with `, and` or `;` that one sentence holds whole is borne out on its own
    // (`… in the U.S. and China, and Apple did not respond to a request for comment`).
    let subjects: Vec<&Offer> = chosen.iter().copied().filter(|o| o.subject).collect();
    let clause = clauses(toks);
    let whole = |c: usize| {
        let of: Vec<&Unit> = units.iter().filter(|u| clause[u.at] == c).collect();
        c > 0
            && chosen
                .iter()
                .any(|o| of.iter().all(|u| found(u, toks, &[*o])))
    };
    let apart: Vec<usize> = (1..=clause.last().copied().unwrap_or(0))
        .filter(|&c| whole(c))
        .collect();
    // Who did not comment is who the entry says did not (`OpenAI did not respond to a request
    // for comment` where the entry has AMD not respond): a name in a clause of no comment
    // stands in a sentence of no comment.
    for c in 0..=clause.last().copied().unwrap_or(0) {
        let of: Vec<&Tok> = (0..toks.len())
            .filter(|&k| clause[k] == c)
            .map(|k| &toks[k])
            .collect();
        let silent = of.iter().any(|t| t.anchor == "comment")
            && of
                .iter()
                .any(|t| matches!(t.word.as_str(), "not" | "declined" | "declines" | "no"));
        if !silent {
            continue;
        }
        for u in units.iter().filter(|u| u.name && clause[u.at] == c) {
            let said = chosen
                .iter()
                .any(|o| o.has("s:comment") && found(u, toks, &[*o]));
            if !said && found(u, toks, &chosen) && !missing.contains(&u.text) {
                missing.push(u.text.clone());
            }
        }
    }
    let names: Vec<&Unit> = units
        .iter()
        .filter(|u| u.name && found(u, toks, &chosen) && !found(u, toks, &subjects))
        .filter(|u| !apart.contains(&clause[u.at]))
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
    // A superlative stands with what it ranks: `its biggest commitment` is not borne out by a
    // `largest driver` in another sentence.
    for (k, u) in units.iter().enumerate() {
        if !SUPERLATIVES.contains(&toks[u.at].word.as_str()) || missing.contains(&u.text) {
            continue;
        }
        let Some(head) = units[k + 1..]
            .iter()
            .find(|h| h.at > u.at && h.at <= u.at + 3 && toks[h.at].kind == Kind::Word)
        else {
            continue;
        };
        let apart = found(head, toks, &chosen)
            && !chosen
                .iter()
                .any(|o| found(u, toks, &[*o]) && found(head, toks, &[*o]));
        if apart {
            missing.push(u.text.clone());
            continue;
        }
        // And with where it ranks it: `the highest multiple in the Nasdaq 100` is not borne out
        // by `the highest multiple in the S&P 500` and a `Nasdaq 100` in another sentence.
        let scope = units[k + 1..].iter().find(|n| {
            n.name
                && n.at > head.at
                && n.at <= head.at + 3
                && toks[head.at + 1..n.at]
                    .iter()
                    .all(|t| matches!(t.word.as_str(), "in" | "of" | "on" | "the" | "among"))
                && toks[head.at + 1].word != "the"
        });
        if let Some(scope) = scope
            && found(scope, toks, &chosen)
            && !missing.contains(&scope.text)
            && !chosen.iter().any(|o| {
                found(u, toks, &[*o]) && found(head, toks, &[*o]) && found(scope, toks, &[*o])
            })
        {
            missing.push(scope.text.clone());
        }
    }
    // The words of one name (`American States`, `El Ever Theatre`, `104th Dogs`) stand together
    // in one sentence it rests on or in a title: not each somewhere in the entry. The company's
    // names need no source, but where one stands in those sentences it stands with the rest.
    for (a, b) in name_runs(toks, known) {
        let holds = |o: &Offer, k: usize| {
            let t = &toks[k];
            // An officer's title by the word it stands for (`CFO` of `chief financial officer`).
            let title = TITLES
                .iter()
                .find(|(w, _)| *w == t.word)
                .is_some_and(|(_, stands)| stands.iter().any(|s| o.has(&format!("r:{s}"))));
            title
                || o.has(&format!("r:{}", t.word))
                || (!t.anchor.is_empty() && o.has(&format!("s:{}", t.anchor)))
                || units.iter().any(|u| u.at == k && found(u, toks, &[o]))
        };
        let need: Vec<usize> = (a..b)
            .filter(|&k| !(known.word)(&toks[k].word) || topic.iter().any(|o| holds(o, k)))
            .collect();
        if need.len() < 2 {
            continue;
        }
        let text: Vec<&str> = toks[a..b].iter().map(|t| t.raw.as_str()).collect();
        let text = text.join(" ");
        if !topic.iter().any(|o| need.iter().all(|&k| holds(o, k))) && !missing.contains(&text) {
            missing.push(text);
        }
    }
    // A sentence otherwise borne out may reword one ordinary word; more are a claim of its own.
    // (`will` counts no unit here: it is judged only against a hedge.)
    let counted = units
        .iter()
        .filter(|u| !u.keys.iter().any(|k| k == WILL))
        .count();
    let share = 1.0 - (missing.len() + loose.len()) as f64 / counted.max(1) as f64;
    if loose.len() > LOOSE_MISSING || share < LOOSE_SHARE {
        missing.append(&mut loose);
    }
    for (a, b, link) in links(toks) {
        // `moved 5% after the report` where the source has it move `on the report`.
        let occasion = toks[a].word == "after"
            && toks.get(a + 1).is_some_and(|t| t.word == "the")
            && toks.get(a + 2).is_some_and(|t| {
                OCCASIONS.contains(&t.word.as_str())
                    && chosen.iter().any(|o| o.has(&format!("occ:{}", t.word)))
            });
        // `has since trimmed`, where the sentence before tells what came first; `A press
        // release link followed the post`, where the source has the company `later` link one.
        let ordered = a == b
            && ((known.word)(&toks[a].word)
                || (matches!(toks[a].word.as_str(), "followed" | "follows")
                    && chosen.iter().any(|o| o.has("r:later"))));
        if !occasion && !ordered && !link_found(link, a, &units, toks, &chosen) {
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
    let mixed = crossed::mixed_clause(toks, &units, offers, entries, known);
    Judged {
        cover,
        missing,
        loose,
        ranged,
        mixed,
    }
}

/// A comparison of price (`cheaper`, `costlier`) and, in one source sentence, the words that
/// say it of costs (`lower cell costs`, `higher costs`).
const AS_COST: &[(&str, &[&str])] = &[
    ("cheaper", &["lower", "reduced", "falling", "declining"]),
    ("costlier", &["higher", "rising", "increased"]),
    ("pricier", &["higher", "rising", "increased"]),
];

/// Whether `word` compares a price and a sentence of `offers` says the same of costs.
fn said_as_cost(word: &str, offers: &[&Offer]) -> bool {
    AS_COST.iter().any(|(w, ways)| {
        *w == word
            && offers.iter().any(|o| {
                (o.has("r:cost") || o.has("r:costs"))
                    && ways.iter().any(|m| o.has(&format!("r:{m}")))
            })
    })
}

/// Whether the word at `at` is the passive of a verb of giving (`OpenAI was granted a
/// warrant`): its subject gets.
fn given_to_subject(toks: &[Tok], at: usize) -> bool {
    be_passive(toks, at) && way(&toks[at].word) == Some(Way::Out)
}

/// Whether a source sentence has a verb of getting (`received`, `obtained`).
fn received(o: &Offer) -> bool {
    GETS.iter().any(|g| o.has(&word_key(g, 0)))
}

/// Whether the word at `at` is negated right before it (`does not include`, `never met`).
fn negated(toks: &[Tok], at: usize) -> bool {
    toks[at.saturating_sub(2)..at].iter().any(negation)
}

fn negation(t: &Tok) -> bool {
    matches!(t.word.as_str(), "not" | "n't" | "never")
}

/// Whether a source sentence with no negation holds a word WordNet gives as the opposite of
/// `w` (`excludes` of `include`; not `does not exclude`).
fn said_opposite(w: &str, offers: &[&Offer]) -> bool {
    let lemma = wordnet::lemma(w);
    offers
        .iter()
        .any(|o| !o.has("neg") && o.has(&format!("a:{lemma}")))
}

/// Each token's clause, counted from 0: a new one after `;`, or after a comma before `and`,
/// `but`, `while` or `which` (`the stock, which the paper says has risen about 18% …`).
fn clauses(toks: &[Tok]) -> Vec<usize> {
    let mut c = 0;
    let mut out = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        let joined = i > 0
            && toks[i - 1].kind == Kind::Break
            && (toks[i - 1].raw == ";"
                || matches!(t.word.as_str(), "and" | "but" | "while" | "which"));
        if joined {
            c += 1;
        }
        out.push(c);
    }
    out
}

/// The names of two words or more of a draft sentence: runs of consecutive capitalised words
/// (a rank in digits before one too: `104th Congress`), without the sentence's first word when
/// it is a common word, nor words of where an entry comes from (`The
/// Verge`), of a post's handle, or of a date (`On August 14`). Token ranges.
fn name_runs(toks: &[Tok], known: &Known<'_>) -> Vec<(usize, usize)> {
    // Where an entry comes from is named only near a verb of speech (`The Verge reported`).
    let frame = frame(toks, known.from);
    let part = |i: usize| {
        let t = &toks[i];
        let capital = t.raw.starts_with(char::is_uppercase);
        let rank = t.raw.starts_with(|c: char| c.is_ascii_digit())
            && t.raw.chars().any(char::is_alphabetic)
            && toks
                .get(i + 1)
                .is_some_and(|n| n.raw.starts_with(char::is_uppercase));
        t.kind == Kind::Word
            && (capital || rank)
            && !(frame.contains(&i) && (known.from)(&t.word))
            && !(known.handle)(&t.word)
            && !in_date(toks, i)
            && !(i == 0 && (t.anchor.is_empty() || wordnet::is_word(&wordnet::lemma(&t.word))))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let start = i;
        while i < toks.len() && part(i) {
            i += 1;
        }
        if i - start >= 2 {
            out.push((start, i));
        }
        i = i.max(start + 1);
    }
    out
}

/// The source sentences a draft sentence rests on: the one that holds most of its units, then
/// up to [`MAX_COVER`] in all that each add [`COVER_GAIN`] more.
fn choose_cover(units: &[Unit], toks: &[Tok], offers: &[&Offer], entries: &[usize]) -> Vec<usize> {
    let holds: Vec<Vec<bool>> = offers
        .iter()
        .map(|o| units.iter().map(|u| found(u, toks, &[*o])).collect())
        .collect();
    // Of sentences that hold as many units, the one that holds more of the draft's own words
    // (a verbatim restatement over the summary that words it alike): the words no unit asks
    // for (the company's name) still stand where the sentence rests.
    let verbatim: Vec<usize> = offers
        .iter()
        .map(|o| {
            toks.iter()
                .filter(|t| o.has(&format!("r:{}", t.word)))
                .count()
        })
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
            .max_by_key(|&k| (gain(k), verbatim[k], std::cmp::Reverse(k)))
        else {
            break;
        };
        // The first that holds any; then one that adds [`COVER_GAIN`] units, or one that is no
        // name, figure or time (one standing alone elsewhere is not this statement's), or one
        // of another cited entry than those rested on (a sentence citing two reports, `moves
        // of about 8% and about 7%`, takes a figure of each).
        let (all, plain) = gain(best);
        let another = !cover.iter().any(|&k| entries.get(k) == entries.get(best));
        let enough = if cover.is_empty() {
            all >= 1
        } else {
            all >= COVER_GAIN
                || plain >= 1
                || (all >= 1 && another)
                || (all >= 1 && clause_held(&holds[best], &covered, units, toks))
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

/// A figure the sentence `held` adds stands there with most of its own clause of the draft (none
/// of the draft's breaks between them), at least two more of its units, found there too though
/// found elsewhere already: `The shares moved 8% on the report, and they have risen 41%` rests
/// on `The shares moved 8% on the report.` beside the sentence of the 41%. A time frame or a
/// bound is no such figure (`5,000 robots this year` takes no `this year` of another sentence),
/// and the clause's names and time frames must not already rest elsewhere.
fn clause_held(held: &[bool], covered: &[bool], units: &[Unit], toks: &[Tok]) -> bool {
    let clause = |at: usize| toks[..at].iter().filter(|t| t.kind == Kind::Break).count();
    units.iter().enumerate().any(|(a, u)| {
        let figure = u.keys.iter().any(|k| k.starts_with("n:")) && !u.framed();
        let others: Vec<usize> = (0..units.len())
            .filter(|&b| b != a && clause(units[b].at) == clause(u.at))
            .collect();
        let found = others.iter().filter(|&&b| held[b]).count();
        // The rest of the statement rests elsewhere, on another clause: no name, figure or time
        // frame of this clause is found yet, and another clause has more of its units found
        // (`Eva Green made her film debut in 2006` takes no `2006` of another film).
        let covered_in = |c: usize| {
            (0..units.len())
                .filter(|&b| covered[b] && clause(units[b].at) == c)
                .count()
        };
        let here = covered_in(clause(u.at));
        let elsewhere = (0..units.len())
            .map(|b| clause(units[b].at))
            .any(|c| c != clause(u.at) && covered_in(c) > here);
        let alone = elsewhere && !others.iter().any(|&b| covered[b] && units[b].specific());
        figure && held[a] && !covered[a] && alone && found >= 2 && found * 2 >= others.len()
    })
}

/// Adverbs that may lead a link opening its clause (`…, also after the close`).
const LEADING_ADVERBS: &[&str] = &["also", "again", "likewise", "similarly", "both", "each"];

/// A link is found in a source sentence that has a link of its kind (a temporal one also in a
/// causal one) and holds most units of each of the clauses it joins.
fn link_found(link: Link, at: usize, units: &[Unit], toks: &[Tok], offers: &[&Offer]) -> bool {
    // A link that opens its clause (`After X, Y`) joins two clauses after it; so does one an
    // adverb leads (`…, also after the close,`).
    let opens_at = |k: usize| k == 0 || toks[k - 1].kind == Kind::Break;
    let opens =
        opens_at(at) || (LEADING_ADVERBS.contains(&toks[at - 1].word.as_str()) && opens_at(at - 1));
    // Inside a clause it joins that clause to what follows, not the clauses before a break
    // (`sold 16,761 shares, and owns 4,338,000 shares after the transactions`); right after a
    // break, the clause before it (`fell 5%, after the cut`).
    let start = toks[..at.saturating_sub(1)]
        .iter()
        .rposition(|t| t.kind == Kind::Break)
        .map_or(0, |b| b + 1);
    let clause: Vec<&Unit> = units
        .iter()
        .filter(|u| u.at >= start && u.at < at && !opens)
        .collect();
    // A clause with nothing the entries hold (`to come after`) leans on the clauses before it.
    let before: Vec<&Unit> = if clause.iter().any(|u| found(u, toks, offers)) {
        clause
    } else {
        units.iter().filter(|u| u.at < at && !opens).collect()
    };
    // Inside a clause it leads to that clause's end (`on September 19 after the market close,
    // according to a post`); opening one, to both clauses after it.
    let end = toks[at + 1..]
        .iter()
        .position(|t| t.kind == Kind::Break)
        .map_or(toks.len(), |b| at + 1 + b);
    let after: Vec<&Unit> = units
        .iter()
        .filter(|u| u.at > at && (opens || u.at < end))
        .collect();
    // One thing the entry tells of, named as known (`owns 8,146,000 shares after the sales`,
    // where the entry has `Following the reported transactions … owns 8,146,000 shares` and
    // tells the sales elsewhere): the link's sentence need only hold the clause before it.
    let definite = !opens
        && after.len() == 1
        && toks
            .get(at + 1)
            .is_some_and(|t| ["the", "its", "their", "those", "these"].contains(&t.word.as_str()))
        && found(after[0], toks, offers);
    offers.iter().any(|o| {
        let kind = o
            .links
            .iter()
            .any(|l| *l == link || (link == Link::Temporal && *l == Link::Causal));
        let one = [*o];
        // Each clause the link joins mostly in that sentence: of its units the sentences
        // rested on hold, at least half there (a link of the source joining other clauses,
        // with one word of this clause in it, is not this one: `as a result … benzodiazepines`
        // against `prescribed benzodiazepines because …`).
        let holds = |side: &[&Unit]| {
            let known: Vec<&&Unit> = side.iter().filter(|u| found(u, toks, offers)).collect();
            let here = known.iter().filter(|u| found(u, toks, &one)).count();
            side.is_empty() || (here > 0 && here * 2 >= known.len())
        };
        kind && holds(&before) && (holds(&after) || definite)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::support::offer;
    use crate::builtin::tokens::tokenize;

    fn judged(draft: &str, sources: &[&str]) -> Vec<String> {
        let offers: Vec<Offer> = sources.iter().map(|s| offer(&tokenize(s))).collect();
        let refs: Vec<&Offer> = offers.iter().collect();
        let known = Known {
            word: &|w| w == "nvidia",
            handle: &|_| false,
            from: &|_| false,
        };
        judge(&tokenize(draft), &refs, &[], &known).missing
    }

    #[test]
    fn at_first_is_initially() {
        let s = "Tesla's robotaxi service expanded to Phoenix, initially with safety monitors in the passenger seat.";
        let d = "Tesla's robotaxi service expanded to Phoenix, at first with safety monitors in the passenger seat.";
        assert!(judged(d, &[s]).is_empty());
        assert!(judged(s, &[d]).is_empty());
        // A rank is no `at first`.
        let d = "Tesla's robotaxi service expanded to Phoenix, the first with safety monitors in the passenger seat.";
        assert_eq!(judged(d, &[s]), ["first"]);
    }

    #[test]
    fn a_sentence_citing_two_entries_takes_a_figure_of_each() {
        let known = Known {
            word: &|w| w == "nvidia",
            handle: &|_| false,
            from: &|_| false,
        };
        let sources = [
            "NVIDIA shares moved about 8% in a session as investors weighed the outlook.",
            "NVIDIA shares moved about 7% in a session as investors weighed the outlook.",
        ];
        let offers: Vec<Offer> = sources.iter().map(|s| offer(&tokenize(s))).collect();
        let refs: Vec<&Offer> = offers.iter().collect();
        let d = tokenize("NVIDIA shares moved about 8% and about 7% in a session.");
        assert!(judge(&d, &refs, &[0, 1], &known).missing.is_empty());
        // Two sentences of one entry: a figure standing alone elsewhere is not this one's.
        assert_eq!(judge(&d, &refs, &[0, 0], &known).missing, ["about 7%"]);
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
    fn a_compound_of_the_source_words_is_supported() {
        let src =
            "Microsoft agreed to buy about $9 billion of GPU capacity from Nebius over five years.";
        let d = "Microsoft agreed to a five-year purchase of about $9 billion of GPU capacity from Nebius.";
        assert!(judged(d, &[src]).is_empty(), "{:?}", judged(d, &[src]));
        let d = "Microsoft agreed to a five-month purchase of about $9 billion of GPU capacity from Nebius.";
        assert_eq!(judged(d, &[src]), vec!["five-month"]);
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
        // A link of the source that joins other clauses, one word of the draft's in it.
        let a = "In 1977 benzodiazepines were the most prescribed medications.";
        let b = "The elderly are at risk of adverse effects, and as a result, benzodiazepines are listed as inappropriate.";
        let because = judged(
            "In 1977 benzodiazepines were the most prescribed medications because the elderly are at risk of adverse effects.",
            &[a, b],
        );
        assert_eq!(because, vec!["because".to_string()]);
        let joined = "The elderly are at risk of adverse effects, and as a result, benzodiazepines are listed as inappropriate.";
        assert!(judged(joined, &[b]).is_empty());
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
    fn a_contraction_is_no_name() {
        let src = "We'll share more at our next event.";
        for draft in [
            "We'll share more at our next event.",
            "We\u{2019}ll share more at our next event.",
            "The post said: We'll share more at our next event.",
        ] {
            let missing = judged(draft, &[src]);
            assert!(missing.is_empty(), "{draft}: {missing:?}");
        }
        assert!(judged(src, &["We will share more at our next event."]).is_empty());
    }

    #[test]
    fn will_for_a_hedge_is_unsupported() {
        let src = "H. pylori infection may be an important cause of gastric cancer.";
        assert_eq!(
            judged(
                "H. pylori infection will be an important cause of gastric cancer.",
                &[src]
            ),
            vec!["will".to_string()]
        );
        // Where the source does not hedge, `will` is the other words' to bear out.
        let plain = "The company pays a dividend to shareholders.";
        let will = judged("The company will pay a dividend to shareholders.", &[plain]);
        assert!(will.is_empty(), "{will:?}");
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
        assert!(judge(&d, &[&cases, &title], &[], &known).missing.is_empty());
        // A second sentence adding one plain word is rested on; one adding a lone name is not.
        let both = ["The film was shot in Miami.", "It premiered at Telluride."];
        assert!(judged("The film was shot in Miami and premiered.", &both).is_empty());
        let swapped = judged("The film was shot in Telluride.", &both);
        assert_eq!(swapped, vec!["Telluride".to_string()]);
    }

    #[test]
    fn bounded_dates_and_multiples_need_their_bound() {
        let served = "He served from 10 January 1957 to 19 October 1963.";
        assert!(judged(served, &[served]).is_empty());
        assert_eq!(
            judged(
                "He served from 10 January 1957 to over 19 October 1963.",
                &[served]
            ),
            vec!["over 19".to_string()]
        );
        let held = "It was held from 19 January to 10 February 2013.";
        assert_eq!(
            judged(
                "It was held from 19 January to at least 10 February 2013.",
                &[held]
            ),
            vec!["at least 10".to_string()]
        );
        let rack =
            "NVIDIA detailed the rack, promising 3x the inference throughput of GB300 NVL72.";
        assert!(judged(rack, &[rack]).is_empty());
        assert_eq!(
            judged(
                "NVIDIA detailed the rack, promising over 3x the inference throughput of GB300 NVL72.",
                &[rack]
            ),
            vec!["over 3x".to_string()]
        );
    }

    #[test]
    fn the_words_of_one_name_stand_together() {
        let both = [
            "The film was released in the United States on January 21, 2011.",
            "No Strings Attached is a 2011 American romantic comedy film.",
        ];
        assert!(judged(both[0], &both).is_empty());
        let swapped = judged(
            "The film was released in the American States on January 21, 2011.",
            &both,
        );
        assert!(
            swapped.contains(&"American States".to_string()),
            "{swapped:?}"
        );
        // A title names what the entry is about, not a name of one of its sentences.
        let known = Known {
            word: &|_| false,
            handle: &|_| false,
            from: &|_| false,
        };
        let mut title = offer(&tokenize("Blue Dog Coalition"));
        title.subject = true;
        let formed = offer(&tokenize(
            "It was formed in 1995 during the 104th Congress to give more conservative members a unified voice.",
        ));
        let d = tokenize(
            "It was formed in 1995 during the 104th Dogs to give more conservative members a unified voice.",
        );
        let missing = judge(&d, &[&formed, &title], &[], &known).missing;
        assert!(missing.contains(&"104th Dogs".to_string()), "{missing:?}");
        let d = tokenize("It was formed in 1995 during the 104th Congress.");
        assert!(
            judge(&d, &[&formed, &title], &[], &known)
                .missing
                .is_empty()
        );
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

    #[test]
    fn a_link_joins_its_own_clause() {
        let sold =
            "Vaibhav Taneja sold 16,761 shares of common stock under a Rule 10b5-1 trading plan.";
        let owns = "Following the reported transactions the reporting person directly owns 4,338,000 shares.";
        let d = "Vaibhav Taneja sold 16,761 shares under a Rule 10b5-1 trading plan, and directly owns 4,338,000 shares after the transactions.";
        assert!(
            judged(d, &[sold, owns]).is_empty(),
            "{:?}",
            judged(d, &[sold, owns])
        );
        // The clause the link joins must still stand with a link in the entry.
        let d = "Vaibhav Taneja sold 16,761 shares under a Rule 10b5-1 trading plan after he directly owned 4,338,000 shares.";
        assert!(judged(d, &[sold, owns]).contains(&"after".to_string()));
    }

    #[test]
    fn lead_times_are_what_buyers_face() {
        let s = "Lead times for the iPhone 17 Pro Max stretched to about 3 weeks in the U.S. and China.";
        let d = "Buyers in the U.S. and China now face lead times of about 3 weeks for the iPhone 17 Pro Max.";
        assert!(!judged(d, &[s]).contains(&"Buyers".to_string()));
        let s =
            "Shipments of the iPhone 17 Pro Max stretched to about 3 weeks in the U.S. and China.";
        assert!(judged(d, &[s]).contains(&"Buyers".to_string()));
    }

    #[test]
    fn followed_is_a_link_of_time() {
        let s = "The shares moved 4% on the report.";
        let d = "The report followed a 4% move in the shares.";
        assert!(judged(d, &[s]).contains(&"followed".to_string()));
        let s = "The shares moved 4% after the report.";
        let d = "A 4% move in the shares followed the report.";
        assert!(judged(d, &[s]).is_empty(), "{:?}", judged(d, &[s]));
    }

    #[test]
    fn a_verb_of_passing_a_mark_bounds_its_figure() {
        let src = "Palantir closed 204 deals of at least $1 million, including several above $10 million.";
        let d = "Palantir closed 204 deals worth at least $1 million each, several of which exceeded $10 million.";
        assert!(judged(d, &[src]).is_empty(), "{:?}", judged(d, &[src]));
        let d = "Palantir closed 204 deals worth at least $1 million each, several of which exceeded $20 million.";
        assert!(!judged(d, &[src]).is_empty());
        let src = "Paid Copilot seats passed 21 million.";
        assert!(judged("Paid Copilot seats have gone past 21 million.", &[src]).is_empty());
        assert!(!judged("Paid Copilot seats have gone past 31 million.", &[src]).is_empty());
    }

    #[test]
    fn a_superlative_stands_with_what_it_ranks() {
        let pledge = "Apple expanded its U.S. investment pledge to $600 billion over four years.";
        let services = "Services revenue remained the largest driver of change.";
        let d = "Apple expanded its U.S. investment pledge to $600 billion over four years, its biggest commitment.";
        assert!(judged(d, &[pledge, services]).contains(&"biggest".to_string()));
        let d = "Apple expanded its U.S. investment commitment to $600 billion over four years.";
        assert!(
            judged(d, &[pledge, services]).is_empty(),
            "{:?}",
            judged(d, &[pledge, services])
        );
        let d = "Services revenue was again the biggest driver of change.";
        assert!(!judged(d, &[pledge, services]).contains(&"biggest".to_string()));
    }
}

//! Two things told the other way round about a word that orders them: events (`Fannie Mae's
//! five-day bootcamp came after it expanded its use of AIP` where the entry has `Fannie Mae
//! expanded its use of AIP after a five-day bootcamp`, or `before` where the entry has `after`
//! with the events in the same places), what leads (`demand is running ahead of the company's
//! investment` for `the company is investing ahead of demand`), what becomes what (`the
//! Army consolidated an enterprise agreement into dozens of contracts` for the other way) and
//! what includes what (`its chip supply program, including a U.S. investment pledge` for `its
//! U.S. investment pledge, including a domestic chip supply program`).

use super::tokens::{Kind, Tok};

/// Words that order two things, each with what it says of the thing before it: `A after B`,
/// `A followed B` and `A following B` all put `A` later. A link followed by `by` says the
/// other way (`A followed by B`, `A driven by B`).
const LINKS: &[(&str, Sense)] = &[
    ("after", Sense::Later),
    ("following", Sense::Later),
    ("followed", Sense::Later),
    ("follows", Sense::Later),
    ("before", Sense::Earlier),
    ("preceded", Sense::Earlier),
    ("precedes", Sense::Earlier),
    ("ahead", Sense::Ahead),
    ("behind", Sense::Behind),
    ("trailing", Sense::Behind),
    ("drove", Sense::Causes),
    ("drives", Sense::Causes),
    ("driven", Sense::Causes),
    ("into", Sense::Into),
    ("including", Sense::Includes),
    ("as", Sense::Meanwhile),
];

/// Words after `as` that make no clause of what follows (`as well`, `as a result`, `as part
/// of`, `as long as`), and before it (`such as`, `the same as`).
const NOT_A_CLAUSE_AFTER: &[&str] = &[
    "a",
    "an",
    "well",
    "much",
    "many",
    "part",
    "of",
    "long",
    "soon",
    "far",
    "if",
    "though",
    "to",
    "for",
    "low",
    "high",
    "little",
    "recently",
    "early",
    "late",
    "expected",
    "planned",
    "usual",
    "previously",
    "such",
    "it",
    "its",
    "chief",
    "head",
    "president",
];
const NOT_A_CLAUSE_BEFORE: &[&str] = &["such", "as", "same", "known", "so", "twice", "just"];

/// What a link says of the thing before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sense {
    Later,
    Earlier,
    Ahead,
    Behind,
    Causes,
    CausedBy,
    Into,
    /// `A, including B`: B is part of A.
    Includes,
    /// `A as B`: A with B, as B goes (`a warrant that vests as milestones are met`).
    Meanwhile,
}

impl Sense {
    /// What the link says read the other way round (`A after B` is `B before A`); `None` for
    /// one that has no word for it here.
    fn opposite(self) -> Option<Sense> {
        match self {
            Sense::Later => Some(Sense::Earlier),
            Sense::Earlier => Some(Sense::Later),
            Sense::Ahead => Some(Sense::Behind),
            Sense::Behind => Some(Sense::Ahead),
            Sense::Causes => Some(Sense::CausedBy),
            Sense::CausedBy => Some(Sense::Causes),
            Sense::Into | Sense::Includes | Sense::Meanwhile => None,
        }
    }
}

/// The anchors of `toks`.
fn anchors(toks: &[Tok]) -> Vec<&str> {
    toks.iter()
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
        .collect()
}

/// Words that open a clause: the earlier event is not looked for past them.
const OPENERS: &[&str] = &["that", "which", "who", "while", "whereas", "because", "but"];

/// The one link of `toks` (its index and sense), when it has exactly one. A passive's `by`
/// turns the sense (`driven by`, `followed by`); `driven` is a link only so.
fn link(toks: &[Tok]) -> Option<(usize, Sense)> {
    let sense = |i: usize| {
        let w = toks[i].word.as_str();
        let (_, sense) = LINKS.iter().find(|(l, _)| *l == w)?;
        let by = toks.get(i + 1).is_some_and(|t| t.word == "by");
        if w == "driven" && !by {
            return None;
        }
        // `as` before a clause only.
        if w == "as"
            && (toks.get(i + 1).is_none_or(|t| {
                t.kind != Kind::Word || NOT_A_CLAUSE_AFTER.contains(&t.word.as_str())
            }) || (i > 0 && NOT_A_CLAUSE_BEFORE.contains(&toks[i - 1].word.as_str())))
        {
            return None;
        }
        if by { sense.opposite() } else { Some(*sense) }
    };
    // `as` counts only in a sentence with no other link.
    let found: Vec<(usize, Sense)> = (0..toks.len())
        .filter_map(|i| Some((i, sense(i)?)))
        .collect();
    let others: Vec<&(usize, Sense)> = found
        .iter()
        .filter(|(_, s)| *s != Sense::Meanwhile)
        .collect();
    match (others.as_slice(), found.as_slice()) {
        ([one], _) => Some(**one),
        ([], [one]) => Some(*one),
        _ => None,
    }
}

/// The anchors of the clause on each side of the link at `i`: back to a break or a clause's
/// opener, on to a break. A link that opens its clause orders the clause after the next break
/// (`after yields improved, leaks were traced`); one right after a break, the clause before
/// it (`revenue rose 93%, driven by AIP deployments`). A lone `it` after the link is the first
/// word of the clause before (`that demand remains strong and that the company is investing
/// ahead of it`).
fn sides(toks: &[Tok], i: usize) -> (Vec<&str>, Vec<&str>) {
    let ends = |t: &Tok| t.kind == Kind::Break || OPENERS.contains(&t.word.as_str());
    let opener = (0..i).rev().find(|&k| ends(&toks[k]));
    let mut before = anchors(&toks[opener.map_or(0, |k| k + 1)..i]);
    // Past an aside to its subject: `demand, which remains strong, is running ahead of`.
    if let Some(k) = opener.filter(|&k| toks[k].word == ",") {
        let aside = (0..k).rev().find(|&m| toks[m].kind == Kind::Break);
        if let Some(m) = aside.filter(|&m| {
            toks[m].word == ","
                && toks
                    .get(m + 1)
                    .is_some_and(|t| matches!(t.word.as_str(), "which" | "who"))
        }) {
            let from = (0..m).rev().find(|&p| ends(&toks[p]));
            before.extend(anchors(&toks[from.map_or(0, |p| p + 1)..m]));
        }
    }
    // A lone `it` that opens the clause before the link is the first word of the clause before
    // (`that demand remains strong and that it is running ahead of the company's investing`).
    let start = opener.map_or(0, |k| k + 1);
    if toks.get(start).is_some_and(|t| t.word == "it") && start > 0 {
        let earlier = (0..start - 1)
            .rev()
            .find(|&k| ends(&toks[k]))
            .and_then(|from| {
                toks[from + 1..start - 1]
                    .iter()
                    .find(|t| !t.anchor.is_empty())
            });
        before.extend(earlier.map(|t| t.anchor.as_str()));
    }
    let close = (i + 1..toks.len()).find(|&k| toks[k].kind == Kind::Break);
    let mut after = anchors(&toks[i + 1..close.unwrap_or(toks.len())]);
    if before.is_empty() {
        match opener {
            Some(k) if toks[k].kind == Kind::Break => {
                let from = (0..k).rev().find(|&m| ends(&toks[m]));
                before = anchors(&toks[from.map_or(0, |m| m + 1)..k]);
            }
            _ => {
                if let Some(c) = close {
                    let end = (c + 1..toks.len()).find(|&k| toks[k].kind == Kind::Break);
                    before = anchors(&toks[c + 1..end.unwrap_or(toks.len())]);
                }
            }
        }
    }
    let rest: Vec<&str> = toks[i + 1..]
        .iter()
        .map(|t| t.word.as_str())
        .filter(|w| *w != "of")
        .take(1)
        .collect();
    if after.is_empty() && rest == ["it"] {
        let earlier = opener.and_then(|o| {
            let from = (0..o).rev().find(|&k| ends(&toks[k]))?;
            toks[from + 1..o].iter().find(|t| !t.anchor.is_empty())
        });
        after.extend(earlier.map(|t| t.anchor.as_str()));
    }
    (before, after)
}

/// The draft `d`'s link word when it orders the source `s`'s two events the other way: a word
/// of each side of the source's link on the other side of the same link in the draft, or on
/// the same side of the opposite link. `None` when either sentence has no link or more than
/// one, or a side is empty.
pub(super) fn reordered<'a>(d: &'a [Tok], s: &[Tok]) -> Option<&'a str> {
    let (i, dw) = link(d)?;
    let (j, sw) = link(s)?;
    let opposite = sw.opposite() == Some(dw);
    if dw != sw && !opposite {
        return None;
    }
    let (db, da) = sides(d, i);
    let (sb, sa) = sides(s, j);
    if db.is_empty() || da.is_empty() || sb.is_empty() || sa.is_empty() {
        return None;
    }
    // A word only on one side in each sentence.
    let moved = |from: &[&str], from_other: &[&str], to: &[&str], to_other: &[&str]| {
        from.iter()
            .any(|w| !from_other.contains(w) && to.contains(w) && !to_other.contains(w))
    };
    let turned = if opposite {
        moved(&sb, &sa, &db, &da) && moved(&sa, &sb, &da, &db)
    } else {
        moved(&sb, &sa, &da, &db) && moved(&sa, &sb, &db, &da)
    };
    turned.then_some(d[i].word.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn order(d: &str, s: &str) -> Option<String> {
        reordered(&tokenize(d), &tokenize(s)).map(str::to_string)
    }

    const S: &str = "@PalantirTech posted that Fannie Mae expanded its use of AIP across operations after a five-day bootcamp.";

    #[test]
    fn events_told_the_other_way_round_are_read() {
        let d = "@PalantirTech posted that Fannie Mae's five-day bootcamp came after it expanded its use of AIP across operations.";
        assert_eq!(order(d, S), Some("after".to_string()));
        let d = "@PalantirTech posted that Fannie Mae expanded its use of AIP across operations before a five-day bootcamp.";
        assert_eq!(order(d, S), Some("before".to_string()));
    }

    #[test]
    fn a_lone_it_before_the_link_is_the_clause_before() {
        let s = "David Glazer told the conference that demand remains strong and that the company is investing ahead of it.";
        let d = "David Glazer told the conference that demand remains strong and that it is running ahead of the company's investing.";
        assert_eq!(order(d, s), Some("ahead".to_string()));
        let d = "David Glazer told the conference that demand remains strong and that the company is investing ahead of it, Reuters says.";
        assert!(order(d, s).is_none());
    }

    #[test]
    fn events_in_their_order_are_not_read() {
        assert!(order(S, S).is_none());
        let d = "After a five-day bootcamp, Fannie Mae expanded its use of AIP across operations, @PalantirTech posted.";
        assert!(order(d, S).is_none());
        let d = "@PalantirTech posted that Fannie Mae held a five-day bootcamp before it expanded its use of AIP across operations.";
        assert!(order(d, S).is_none());
    }

    #[test]
    fn what_leads_and_what_becomes_what_are_read() {
        let s = "Jean Hu told the conference that demand remains strong and that the company is investing ahead of demand.";
        let d = "Jean Hu told the conference that demand remains strong and is running ahead of the company's investment.";
        assert_eq!(order(d, s), Some("ahead".to_string()));
        assert!(order(s, s).is_none());
        let s = "The U.S. Army consolidated dozens of contracts into an enterprise agreement worth up to $10 billion.";
        let d = "The U.S. Army consolidated an enterprise agreement worth up to $10 billion into dozens of contracts.";
        assert_eq!(order(d, s), Some("into".to_string()));
        let d = "Dozens of contracts were consolidated by the U.S. Army into an enterprise agreement worth up to $10 billion.";
        assert!(order(d, s).is_none());
        let s = "Apple expanded its U.S. investment pledge to $600 billion, including a domestic chip supply program.";
        let d = "Apple expanded its domestic chip supply program to $600 billion, including a U.S. investment pledge.";
        assert_eq!(order(d, s), Some("including".to_string()));
        let d = "Including a domestic chip supply program, Apple's U.S. investment pledge was expanded to $600 billion.";
        assert!(order(d, s).is_none());
        // `it` stands for the clause before's first word.
        let s = "Ryan Taylor told the conference that demand remains strong and that the company is investing ahead of it.";
        let d = "Ryan Taylor told the conference that demand remains strong and is running ahead of the company's investment.";
        assert_eq!(order(d, s), Some("ahead".to_string()));
        let d = "Ryan Taylor told the conference that demand, which remains strong, is running ahead of the company's investment.";
        assert_eq!(order(d, s), Some("ahead".to_string()));
        let d = "Ryan Taylor told the conference that demand remains strong and that the company's investment is trailing it.";
        assert_eq!(order(d, s), Some("trailing".to_string()));
        let d = "Ryan Taylor told the conference that demand remains strong and that the company is investing ahead of demand.";
        assert!(order(d, s).is_none());
    }

    #[test]
    fn what_goes_as_another_goes_is_read() {
        let s = "OpenAI received a warrant for up to 160 million AMD shares that vests as deployment milestones are met.";
        let d = "OpenAI received a warrant for up to 160 million AMD shares, with deployment milestones set to be met as the shares vest.";
        assert_eq!(order(d, s), Some("as".to_string()));
        assert!(order(s, s).is_none());
        let d = "As deployment milestones are met, a warrant OpenAI received for up to 160 million AMD shares vests.";
        assert!(order(d, s).is_none());
        // No clause after it: no link.
        let d = "OpenAI received a warrant for up to 160 million AMD shares as well as deployment milestones.";
        assert!(order(d, s).is_none());
    }

    #[test]
    fn links_that_open_or_follow_a_clause_and_their_other_words_are_read() {
        // A link that opens its clause orders the clause after the break.
        let s = "Reuters reported that Blackwell Ultra yields improved through the quarter after earlier liquid-cooling leaks were traced to a supplier.";
        let d = "Reuters reported that after Blackwell Ultra yields improved through the quarter, liquid-cooling leaks were traced to a supplier.";
        assert_eq!(order(d, s), Some("after".to_string()));
        let d = "Reuters reported that after earlier liquid-cooling leaks were traced to a supplier, Blackwell Ultra yields improved through the quarter.";
        assert!(order(d, s).is_none());
        // `followed` says what `after` says; `followed by` the other way.
        let s = "CNBC reports that AMD took a charge of about $800 million for MI308 inventory after new export licence requirements.";
        let d = "CNBC reports that new export licence requirements followed AMD's charge of about $800 million for MI308 inventory.";
        assert_eq!(order(d, s), Some("followed".to_string()));
        let d = "CNBC reports that AMD's charge of about $800 million for MI308 inventory followed new export licence requirements.";
        assert!(order(d, s).is_none());
        let d = "CNBC reports that new export licence requirements were followed by AMD's charge of about $800 million for MI308 inventory.";
        assert!(order(d, s).is_none());
        // A link right after a break orders the clause before it.
        let s = "U.S. commercial revenue rose 93% from a year earlier, driven by AIP deployments that began in bootcamps.";
        let d = "Bloomberg writes that AIP deployments that began in bootcamps were driven by a 93% rise from a year earlier in U.S. commercial revenue.";
        assert_eq!(order(d, s), Some("driven".to_string()));
        let d = "AIP deployments that began in bootcamps drove a 93% rise from a year earlier in U.S. commercial revenue.";
        assert!(order(d, s).is_none());
        let d = "Driven by AIP deployments that began in bootcamps, U.S. commercial revenue rose 93% from a year earlier.";
        assert!(order(d, s).is_none());
    }
}

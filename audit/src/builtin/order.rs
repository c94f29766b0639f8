//! Two things told the other way round about a word that orders them: events (`Fannie Mae's
//! five-day bootcamp came after it expanded its use of AIP` where the entry has `Fannie Mae
//! expanded its use of AIP after a five-day bootcamp`, or `before` where the entry has `after`
//! with the events in the same places), what leads (`demand is running ahead of the company's
//! investment` for `the company is investing ahead of demand`) and what becomes what (`the
//! Army consolidated an enterprise agreement into dozens of contracts` for the other way).

use super::tokens::{Kind, Tok};

/// Words that order two things, each with the one that says the other way (none for `into`).
const LINKS: &[(&str, &str)] = &[
    ("after", "before"),
    ("before", "after"),
    ("following", "before"),
    ("ahead", "behind"),
    ("ahead", "trailing"),
    ("behind", "ahead"),
    ("trailing", "ahead"),
    ("into", ""),
];

/// Words that open a clause: the earlier event is not looked for past them.
const OPENERS: &[&str] = &["that", "which", "who", "while", "whereas", "because", "but"];

/// The one link of `toks` (its index and word), when it has exactly one.
fn link(toks: &[Tok]) -> Option<(usize, &str)> {
    let mut found = (0..toks.len()).filter(|&i| LINKS.iter().any(|(w, _)| *w == toks[i].word));
    let first = found.next()?;
    found
        .next()
        .is_none()
        .then(|| (first, toks[first].word.as_str()))
}

/// The anchors of the clause on each side of the link at `i`: back to a break or a clause's
/// opener, on to a break. A lone `it` after the link is the first word of the clause before
/// (`that demand remains strong and that the company is investing ahead of it`).
fn sides(toks: &[Tok], i: usize) -> (Vec<&str>, Vec<&str>) {
    let ends = |t: &Tok| t.kind == Kind::Break || OPENERS.contains(&t.word.as_str());
    let opener = (0..i).rev().find(|&k| ends(&toks[k]));
    let before = toks[opener.map_or(0, |k| k + 1)..i]
        .iter()
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
        .collect();
    let mut after: Vec<&str> = toks[i + 1..]
        .iter()
        .take_while(|t| t.kind != Kind::Break)
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
        .collect();
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
    let opposite = LINKS.iter().any(|(w, o)| *w == sw && *o == dw);
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
    turned.then_some(dw)
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
        // `it` stands for the clause before's first word.
        let s = "Ryan Taylor told the conference that demand remains strong and that the company is investing ahead of it.";
        let d = "Ryan Taylor told the conference that demand remains strong and is running ahead of the company's investment.";
        assert_eq!(order(d, s), Some("ahead".to_string()));
        let d = "Ryan Taylor told the conference that demand remains strong and that the company's investment is trailing it.";
        assert_eq!(order(d, s), Some("trailing".to_string()));
        let d = "Ryan Taylor told the conference that demand remains strong and that the company is investing ahead of demand.";
        assert!(order(d, s).is_none());
    }
}

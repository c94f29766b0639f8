//! Whose figure a figure is: a draft's sentence that restates a comparison with its figures
//! given to the other side (`The Nasdaq 100 has risen 41%, ahead of NVIDIA's 19% gain` for
//! `Shares of NVIDIA have risen 41%, compared with a 19% rise in the Nasdaq 100`). A
//! percentage belongs to the name nearest it in its clause; the clauses of a comparison are
//! cut at the words that set one side against the other.

use super::clause::{Name, SIDES, near};
use super::tokens::{Kind, Tok};

/// Words that open a clause about the name before it (`the Nasdaq 100, which has climbed 27%`).
const RELATIVE: &[&str] = &["which", "who", "whose"];

fn cut(t: &Tok) -> bool {
    t.kind == Kind::Break || SIDES.contains(&t.word.as_str())
}

/// Each percentage of `toks` that stands once, with the key of the name it belongs to: the
/// nearest in its clause (none on a tie); in a clause without a name, the name before a
/// relative clause, or the sentence's first name for a participle's clause after a break
/// (`Palantir shares have trailed the index, rising 17%`).
fn owners<'n>(toks: &[Tok], names: &'n [Name]) -> Vec<(String, &'n str)> {
    let percent = |t: &Tok| t.kind == Kind::Number && t.raw.ends_with('%');
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate().filter(|(_, t)| percent(t)) {
        if toks.iter().filter(|u| percent(u) && u.raw == t.raw).count() > 1 {
            continue;
        }
        let start = toks[..i].iter().rposition(cut).map_or(0, |k| k + 1);
        let end = toks[i + 1..]
            .iter()
            .position(cut)
            .map_or(toks.len(), |k| i + 1 + k);
        let distance = |n: &Name| {
            if n.end <= i {
                i - n.end
            } else {
                n.at.saturating_sub(i)
            }
        };
        let mut inside: Vec<(usize, &Name)> = names
            .iter()
            .filter(|n| n.at >= start && n.end <= end)
            .map(|n| (distance(n), n))
            .collect();
        inside.sort_by_key(|(d, _)| *d);
        let owner = match inside.as_slice() {
            [(a, _), (b, _), ..] if a == b => None,
            [(_, n), ..] => Some(*n),
            [] => {
                let opener = toks.get(start).map_or("", |t| t.word.as_str());
                let after_break = start > 0 && toks[start - 1].kind == Kind::Break;
                if RELATIVE.contains(&opener) {
                    names.iter().rfind(|n| n.end < start)
                } else if after_break && opener.ends_with("ing") && opener.len() > 5 {
                    names.first().filter(|n| n.end < start)
                } else {
                    None
                }
            }
        };
        if let Some(n) = owner {
            out.push((t.raw.clone(), n.key.as_str()));
        }
    }
    out
}

/// A percentage the draft's sentence `d` gives to one name and the source sentence `s` to
/// another, both names standing in both sentences: (the figure, the draft's name, the
/// source's).
pub(super) fn given(
    d: &[Tok],
    s: &[Tok],
    dn: &[Name],
    sn: &[Name],
) -> Option<(String, String, String)> {
    // Only a comparison in both: elsewhere the nearest name is no owner (`78% of the iPhones
    // shipped to the United States are assembled in India`).
    let compares = |toks: &[Tok]| toks.iter().any(|t| SIDES.contains(&t.word.as_str()));
    if !compares(d) || !compares(s) {
        return None;
    }
    let theirs = owners(s, sn);
    owners(d, dn).into_iter().find_map(|(f, x)| {
        let (_, y) = theirs.iter().find(|(g, _)| *g == f)?;
        let both = sn.iter().any(|n| near(&n.key, x)) && dn.iter().any(|n| near(&n.key, y));
        (!near(x, y) && both).then(|| (f, x.to_string(), y.to_string()))
    })
}

/// Words between a possessive and its figure (`Apple's roughly $20 billion`).
const BEFORE_FIGURE: &[&str] = &[
    "about",
    "roughly",
    "nearly",
    "approximately",
    "around",
    "some",
    "almost",
    "over",
    "under",
    "up",
    "to",
    "more",
    "less",
    "than",
    "at",
    "least",
    "most",
    "just",
    "a",
    "an",
];

/// Each figure of `toks` that stands once after a name's possessive, with that name's key:
/// `Apple's roughly $20 billion` is Apple's.
fn possessors<'n>(toks: &[Tok], names: &'n [Name]) -> Vec<(String, &'n str)> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != Kind::Number || toks.iter().filter(|u| u.raw == t.raw).count() > 1 {
            continue;
        }
        let Some(k) = toks[..i]
            .iter()
            .rposition(|u| !BEFORE_FIGURE.contains(&u.word.as_str()))
        else {
            continue;
        };
        if !toks[k].possessive || i - k > 4 {
            continue;
        }
        if let Some(n) = names.iter().find(|n| n.at <= k && k < n.end) {
            let scale = toks.get(i + 1).filter(|u| u.kind == Kind::Word);
            let figure = scale.map_or(t.raw.clone(), |u| format!("{} {}", t.raw, u.raw));
            out.push((figure, n.key.as_str()));
        }
    }
    out
}

/// A figure the draft's sentence `d` gives by a possessive to one name and the source
/// sentence `s` to another, both names standing in both sentences (`Google's roughly $20
/// billion a year in payments from Apple` for `Apple's roughly $20 billion a year in Google
/// payments`): (the figure, the draft's name, the source's).
pub(super) fn possessed(
    d: &[Tok],
    s: &[Tok],
    dn: &[Name],
    sn: &[Name],
) -> Option<(String, String, String)> {
    let theirs = possessors(s, sn);
    possessors(d, dn).into_iter().find_map(|(f, x)| {
        let (_, y) = theirs.iter().find(|(g, _)| *g == f)?;
        let both = sn.iter().any(|n| near(&n.key, x)) && dn.iter().any(|n| near(&n.key, y));
        (!near(x, y) && both).then(|| (f, x.to_string(), y.to_string()))
    })
}

#[cfg(test)]
mod tests {
    use crate::builtin::roles::swapped;
    use crate::builtin::tokens::tokenize;

    fn swap(d: &str, s: &str) -> Option<String> {
        swapped(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn a_comparison_with_its_figures_given_to_the_other_side_is_read() {
        let s = "Shares of NVIDIA have risen 41% this year, compared with a 19% rise in the Nasdaq 100.";
        let d = "The Nasdaq 100 has risen 41% this year, ahead of NVIDIA's 19% gain.";
        assert!(swap(d, s).is_some_and(|w| w.contains("41%")));
        let s = "Shares of Microsoft have climbed 27% this year, compared with a 19% rise in the Nasdaq 100.";
        let d = "Microsoft's 19% gain this year lags the Nasdaq 100, which has climbed 27%.";
        assert!(swap(d, s).is_some());
        let s = "Shares of Palantir have gained roughly a third this year, compared with a 17% rise in the Nasdaq 100.";
        let d = "Palantir shares have trailed the Nasdaq 100 this year, rising 17% while the index gained roughly a third.";
        assert!(swap(d, s).is_some());
    }

    #[test]
    fn a_figure_given_by_a_possessive_to_the_other_name_is_read() {
        let s =
            "A court ruling leaves Apple's roughly $20 billion a year in Google payments intact.";
        let d = "A court ruling leaves Google's roughly $20 billion a year in payments from Apple intact.";
        assert!(swap(d, s).is_some_and(|w| w.contains("20 billion")));
        // The same owner, and an owner the source does not name (the names check's).
        let d = "A court ruling leaves intact Apple's roughly $20 billion a year in payments from Google.";
        assert!(swap(d, s).is_none());
        let d =
            "A court ruling leaves Samsung's roughly $20 billion a year in Google payments intact.";
        assert!(swap(d, s).is_none());
    }

    #[test]
    fn figures_kept_with_their_side_or_outside_a_comparison_are_not_read() {
        let s = "Shares of NVIDIA have risen 41% this year, compared with a 19% rise in the Nasdaq 100.";
        let d = "NVIDIA shares are up 41% this year, ahead of the Nasdaq 100's 19% rise.";
        assert!(swap(d, s).is_none());
        // No comparison: the name nearest a figure need not be its owner.
        let s = "Apple asked suppliers to raise iPhone 17 production by about 10% for the holiday quarter.";
        let d = "Suppliers were asked by Apple to raise iPhone 17 production by about 10% for the holiday quarter.";
        assert!(swap(d, s).is_none());
    }
}

//! The draft's company named where its own entries leave it unsaid or call it `the company`:
//! `Tesla's regulatory-credit revenue` for `regulatory-credit revenue`, `Palantir is investing`
//! for `the company is investing`, `Tesla vice president of vehicle engineering Lars Moravy`
//! for `Lars Moravy, vice president of vehicle engineering`. Anywhere else the name needs a
//! source like any other: a name put in the place of another party's is still found.

use super::clause::{AUX, be_passive, capital};
use super::tokens::{Kind, Tok};
use super::wordnet;

/// Words of a company's legal name a draft leaves out (`Tesla, Inc.` is `Tesla`).
const LEGAL: &[&str] = &[
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "ltd",
    "limited",
    "plc",
    "llc",
    "holdings",
    "group",
    "sa",
    "ag",
    "nv",
    "se",
    "the",
    "and",
    "of",
];

/// Words of a job the company's name may stand before: `Tesla vice president`, `the Apple
/// chief financial officer`.
const TITLES: &[&str] = &[
    "vice",
    "president",
    "chief",
    "senior",
    "executive",
    "head",
    "director",
    "officer",
    "chairman",
    "chairwoman",
    "chair",
    "ceo",
    "cfo",
    "coo",
    "cto",
    "founder",
    "co-founder",
    "general",
    "spokesperson",
    "spokesman",
    "spokeswoman",
    "treasurer",
];

/// The words of the company's name a draft may call it by, lower case: `Tesla, Inc.` gives
/// `tesla`; `Palantir Technologies Inc.` gives `palantir` and `technologies`.
pub(super) fn name_words(company: &str) -> Vec<String> {
    company
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !LEGAL.contains(&w.as_str()))
        .collect()
}

/// Whether `d` names the company (words `name`) and each time where one of the source
/// sentences `sources` (each with whether it is of the company's own filing) leaves it implied.
pub(super) fn implied(d: &[Tok], sources: &[(&[Tok], bool)], name: &[String]) -> bool {
    let named = |t: &Tok| t.kind == Kind::Word && name.contains(&t.word);
    // Runs of the name's words: `Palantir Technologies` is one.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in (0..d.len()).filter(|&i| named(&d[i])) {
        match runs.last_mut() {
            Some((_, end)) if *end == i && !d[i - 1].possessive => *end = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    !runs.is_empty()
        && runs.iter().all(|&(a, b)| {
            sources.iter().any(|&(s, filed)| {
                owns(d, b, s, name) || the_company(d, (a, b), s) || (filed && acts(d, b, s))
            })
        })
}

/// The name that ends before `b` owns what follows it (`Tesla's regulatory-credit revenue`,
/// `NVIDIA's own backlog`) or comes before a job (`Tesla vice president`), and the source has
/// what follows with no other owner: `regulatory-credit revenue fell`, `Lars Moravy, vice
/// president`, `the company's revenue`; not `a supplier's quick-disconnect fittings`.
fn owns(d: &[Tok], b: usize, s: &[Tok], name: &[String]) -> bool {
    let at = if d.get(b).is_some_and(|t| t.word == "own") {
        b + 1
    } else {
        b
    };
    let Some(next) = d.get(at).filter(|t| t.kind == Kind::Word) else {
        return false;
    };
    if !d[b - 1].possessive && !TITLES.contains(&next.word.as_str()) {
        return false;
    }
    // What the name owns: its words up to the first that is no content word.
    let phrase: Vec<&str> = d[at..]
        .iter()
        .take_while(|t| t.kind == Kind::Word && !t.anchor.is_empty())
        .map(|t| t.word.as_str())
        .collect();
    // The phrase of the source's word `k` has no other owner: no possessive or name before it
    // that the draft's phrase does not have.
    let free = |k: usize| {
        let mut j = k;
        while j > 0
            && s[j - 1].kind == Kind::Word
            && !s[j - 1].possessive
            && !s[j - 1].anchor.is_empty()
        {
            j -= 1;
        }
        (j == 0 || unowned(&s[j - 1], name))
            && s[j..k]
                .iter()
                .all(|t| !capital(t) || name.contains(&t.word) || phrase.contains(&t.word.as_str()))
    };
    let at_of = |w: &str| -> Vec<usize> {
        (0..s.len())
            .filter(|&k| s[k].kind == Kind::Word && s[k].word == w)
            .collect()
    };
    at_of(&next.word).into_iter().any(free)
        && phrase.iter().all(|w| {
            let at = at_of(w);
            at.is_empty() || at.into_iter().any(free)
        })
}

/// Whether the word before a phrase leaves the phrase to the company: no name or possessive of
/// another party (`Google's payments`, `Samsung Display`), or the company's own.
fn unowned(before: &Tok, name: &[String]) -> bool {
    match before.kind {
        Kind::Break => true,
        Kind::Number => false,
        Kind::Word if name.contains(&before.word) => true,
        Kind::Word if before.possessive => before.word == "company",
        Kind::Word => !capital(before) || before.word == "the",
    }
}

/// The source calls the company `the company` where the draft names it: the same word after
/// (`the company is investing`, `Palantir is investing`) or before (`said the company`).
fn the_company(d: &[Tok], (a, b): (usize, usize), s: &[Tok]) -> bool {
    // `NVIDIA shares` or `NVIDIA's stock` where the source has `the stock` (`a clear positive
    // for the stock`).
    let equity = |t: Option<&Tok>| t.is_some_and(|t| matches!(t.word.as_str(), "stock" | "shares"));
    if equity(d.get(b))
        && (1..s.len()).any(|k| matches!(s[k - 1].word.as_str(), "the" | "its") && equity(s.get(k)))
    {
        return true;
    }
    (1..s.len())
        .filter(|&k| s[k].word == "company" && !s[k].possessive && s[k - 1].word == "the")
        .any(|k| {
            let after = matches!((d.get(b), s.get(k + 1)), (Some(x), Some(y)) if x.word == y.word);
            let before = a >= 1 && k >= 2 && d[a - 1].word == s[k - 2].word;
            after || before
        })
}

/// The name that ends before `b` is the subject of an act its filing tells in the passive with
/// no agent (`NVIDIA discusses revenue` for `revenue is discussed in Management's Discussion
/// and Analysis`): in its own document that is the company's act.
fn acts(d: &[Tok], b: usize, s: &[Tok]) -> bool {
    let Some(v) = (b..d.len()).find(|&k| !AUX.contains(&d[k].word.as_str())) else {
        return false;
    };
    let lemma = wordnet::lemma(&d[v].word);
    d[v].kind == Kind::Word
        && wordnet::is_verb(&lemma)
        && !be_passive(d, v)
        && (0..s.len()).any(|k| {
            s[k].kind == Kind::Word
                && wordnet::lemma(&s[k].word) == lemma
                && be_passive(s, k)
                && s.get(k + 1).is_none_or(|t| t.word != "by")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn stands(d: &str, s: &str, company: &str) -> bool {
        implied(&tokenize(d), &[(&tokenize(s), false)], &name_words(company))
    }

    #[test]
    fn the_legal_words_of_a_name_are_left_out() {
        assert_eq!(name_words("Tesla, Inc."), ["tesla"]);
        assert_eq!(
            name_words("Palantir Technologies Inc."),
            ["palantir", "technologies"]
        );
        assert_eq!(name_words("NVIDIA Corporation"), ["nvidia"]);
        assert!(name_words("").is_empty());
    }

    #[test]
    fn the_company_owns_what_its_entry_leaves_unowned() {
        let s = "CNBC says that regulatory-credit revenue fell to about $200 million.";
        assert!(stands(
            "Tesla's regulatory-credit revenue fell to about $200 million.",
            s,
            "Tesla, Inc."
        ));
        assert!(stands(
            "NVIDIA's multi-year backlog grew.",
            "A set of agreements adds GPUs to the multi-year backlog.",
            "NVIDIA Corporation"
        ));
        assert!(stands(
            "NVIDIA's own multi-year backlog grew.",
            "A set of agreements adds GPUs to the multi-year backlog.",
            "NVIDIA Corporation"
        ));
        assert!(stands(
            "Apple's services revenue grew.",
            "The company's services revenue grew.",
            "Apple Inc."
        ));
    }

    #[test]
    fn another_partys_phrase_is_not_the_companys() {
        assert!(!stands(
            "Apple's payments rose.",
            "Google's payments rose.",
            "Apple Inc."
        ));
        // The phrase's head owned by another party in the source.
        assert!(!stands(
            "Leaks in a supplier's racks were traced to NVIDIA's own NVL72 quick-disconnect fittings.",
            "Leaks in the NVL72 racks were traced to a supplier's quick-disconnect fittings.",
            "NVIDIA Corporation"
        ));
        assert!(!stands(
            "Apple's display panels shipped.",
            "Samsung display panels shipped.",
            "Apple Inc."
        ));
        // Named where the entry names no one and nothing is owned.
        assert!(!stands(
            "Dan Ives at Apple called it a headwind.",
            "Dan Ives at Wedbush called it a headwind.",
            "Apple Inc."
        ));
        assert!(!stands("Revenue rose.", "Revenue rose.", "Apple Inc."));
    }

    #[test]
    fn a_job_may_carry_the_companys_name() {
        let s = "Lars Moravy, vice president of vehicle engineering, told the conference that demand remains strong.";
        assert!(stands(
            "Tesla vice president of vehicle engineering Lars Moravy told the conference that demand remains strong.",
            s,
            "Tesla, Inc."
        ));
        assert!(stands(
            "John Ternus, Apple's senior vice president of hardware engineering, spoke.",
            "John Ternus, senior vice president of hardware engineering, spoke.",
            "Apple Inc."
        ));
        // Not a job the source gives another party.
        assert!(!stands(
            "Tesla vice president Lars Moravy spoke.",
            "SpaceX vice president Lars Moravy spoke.",
            "Tesla, Inc."
        ));
    }

    #[test]
    fn the_company_may_be_named() {
        assert!(stands(
            "Demand remains strong and Palantir is investing ahead of it.",
            "Demand remains strong and the company is investing ahead of it.",
            "Palantir Technologies Inc."
        ));
        assert!(!stands(
            "Demand remains strong and Palantir is investing ahead of it.",
            "Demand remains strong and Anduril is investing ahead of it.",
            "Palantir Technologies Inc."
        ));
    }

    #[test]
    fn the_companys_shares_are_the_stock() {
        let s = "Vivek Arya at BofA Securities called it a clear positive for the stock.";
        let d = "Vivek Arya at BofA Securities called it a clear positive for NVIDIA shares.";
        assert!(stands(d, s, "NVIDIA Corporation"));
        let d = "Vivek Arya at BofA Securities called it a clear positive for NVIDIA's stock.";
        assert!(stands(d, s, "NVIDIA Corporation"));
        let s = "Vivek Arya at BofA Securities called it a clear positive for the sector.";
        assert!(!stands(d, s, "NVIDIA Corporation"));
    }

    #[test]
    fn the_company_acts_where_its_filing_leaves_the_act_without_agent() {
        let filed = |d: &str, s: &str, filing: bool| {
            implied(
                &tokenize(d),
                &[(&tokenize(s), filing)],
                &name_words("NVIDIA Corporation"),
            )
        };
        let s = "Revenue and data-center revenue are discussed in Management's Discussion and Analysis.";
        let d = "In its quarterly report, NVIDIA discusses revenue and data-center revenue in Management's Discussion and Analysis.";
        assert!(filed(d, s, true));
        // Not in another's text, nor for an act with its agent, nor for the company acted on.
        assert!(!filed(d, s, false));
        let s = "Revenue and data-center revenue are discussed by analysts in their notes.";
        assert!(!filed("NVIDIA discusses revenue in its notes.", s, true));
        let s = "Shipments to China were restricted.";
        assert!(!filed("Shipments of NVIDIA were restricted.", s, true));
    }
}

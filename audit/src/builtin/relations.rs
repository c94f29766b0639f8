//! Who is related to whom: a draft's sentence that exchanges the other party of a relation
//! with the one who has it. The relations read are stakes (`OpenAI holds about 27% of
//! Microsoft` where the entry has `gives Microsoft about a 27% stake in OpenAI`), gaps and leads
//! (`closes part of CUDA's software gap with ROCm` for `ROCm … closes part of the software gap
//! with CUDA`), the one a thing is for (`for AMD`), one of a group (`with AMD among the first`),
//! whose a counted thing is (`$250 billion of OpenAI services`), whose shares (`160 million
//! OpenAI shares`) and who is asked (`Tesla's request to NHTSA` for `NHTSA asked Tesla`). The
//! other party is the name after a relation's noun and preposition (`stake in`, `gap with`,
//! `lead over`, `request to`), after `asked` or a percentage and `of`, or before `shares`. A relation is compared only with one of its own kind; a name in a list or inside a
//! title is no party.

use super::tokens::{Kind, Tok};
use super::wordnet;

/// Nouns that relate two parties, with the preposition before the other one; relations of one
/// kind say the same of their parties.
const RELATIONS: &[(&str, &str, Relation)] = &[
    ("stake", "in", Relation::Stake),
    ("interest", "in", Relation::Stake),
    ("holding", "in", Relation::Stake),
    ("ownership", "in", Relation::Stake),
    ("gap", "with", Relation::Gap),
    ("gap", "to", Relation::Gap),
    ("lead", "over", Relation::Lead),
    ("edge", "over", Relation::Lead),
    ("advantage", "over", Relation::Lead),
    ("share", "of", Relation::Part),
    ("request", "to", Relation::Asked),
    ("requests", "to", Relation::Asked),
];

/// What the name after a relation is to the one who has it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Relation {
    /// The company held (`a 27% stake in OpenAI`, `27% of Microsoft`).
    Stake,
    /// The one ahead (`the software gap with CUDA`).
    Gap,
    /// The one behind (`a lead over AMD`).
    Lead,
    /// The one it is for (`deployment for OpenAI`).
    For,
    /// One of a group (`with Oracle among the first large deployments`).
    Among,
    /// Whose a counted thing is (`$250 billion of Azure services`).
    Counted,
    /// The company whose shares (`160 million AMD shares`, `shares of AMD`).
    Shares,
    /// The one asked (`asked Tesla for data`, `a request to Tesla`).
    Asked,
    /// Whose whole a share is of (`its share of OpenAI's results`).
    Part,
}

/// The relations of `toks`, each with its other party (its first word, lower case).
fn relations(toks: &[Tok]) -> Vec<(Relation, &str)> {
    let upper = |k: usize| {
        toks.get(k)
            .is_some_and(|t| t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase))
    };
    // A name, not one of a list (`for England and Scotland`).
    let capital = |k: usize| {
        let end = (k..toks.len()).find(|&e| !upper(e)).unwrap_or(toks.len());
        let listed = toks
            .get(end)
            .is_some_and(|t| matches!(t.word.as_str(), "and" | "or" | "&"));
        (upper(k) && !listed).then(|| toks[k].word.as_str())
    };
    // Past an article and one describing word (`in the restructured OpenAI`).
    let name = |mut k: usize| {
        if toks
            .get(k)
            .is_some_and(|t| matches!(t.word.as_str(), "the" | "a" | "an"))
        {
            k += 1;
        }
        // Whose it is passed over: `with AMD's ROCm 7 release` relates ROCm.
        if toks.get(k).is_some_and(|t| t.possessive) && upper(k + 1) {
            k += 1;
        }
        capital(k).or_else(|| {
            let plain = toks
                .get(k)
                .is_some_and(|t| t.kind == Kind::Word && !t.anchor.is_empty());
            if plain { capital(k + 1) } else { None }
        })
    };
    // `27% of`, `27 percent of`.
    let percent = |k: usize| {
        let t = &toks[k];
        (t.kind == Kind::Number && t.raw.ends_with('%'))
            || (t.word == "percent" && k > 0 && toks[k - 1].kind == Kind::Number)
    };
    let among = |i: usize| {
        i >= 2 && toks[i].word == "among" && toks[i - 2].word == "with" && capital(i - 1).is_some()
    };
    // `160 million`, `$250 billion`: a count.
    let count = |k: usize| {
        toks[k].kind == Kind::Number
            || matches!(
                toks[k].word.as_str(),
                "million" | "billion" | "trillion" | "thousand"
            )
    };
    (1..toks.len())
        .filter_map(|i| {
            if among(i) {
                return Some((Relation::Among, toks[i - 1].word.as_str()));
            }
            // Whom a request goes to: `asked Tesla for data`, as `a request to Tesla`.
            if matches!(toks[i].word.as_str(), "asked" | "asks" | "ask") {
                return Some((Relation::Asked, name(i + 1)?));
            }
            // `AMD shares` after a count, with nothing else before the noun.
            if matches!(toks[i].word.as_str(), "shares" | "stock") && i >= 2 && count(i - 2) {
                return Some((Relation::Shares, capital(i - 1)?));
            }
            let relation = if toks[i].word == "of" && percent(i - 1) {
                Relation::Stake
            } else if toks[i].word == "of" && toks[i - 1].word == "shares" {
                Relation::Shares
            } else if toks[i].word == "of" && count(i - 1) {
                Relation::Counted
            } else if toks[i].word == "for" {
                Relation::For
            } else {
                // The noun right before, or before `that CUDA has` (`the gap that CUDA has
                // with ROCm`).
                let held = i >= 4
                    && matches!(toks[i - 1].word.as_str(), "has" | "have" | "had")
                    && upper(i - 2)
                    && matches!(toks[i - 3].word.as_str(), "that" | "which");
                let noun = if held { i - 4 } else { i - 1 };
                RELATIONS
                    .iter()
                    .find(|(n, prep, _)| toks[noun].word == *n && toks[i].word == *prep)?
                    .2
            };
            // Not inside a title (`Respect for Acting`, `A Challenge for the Actor`): after a
            // word in title case, not a code (`MI450 for AMD`).
            let titled = upper(i - 1)
                && toks[i - 1]
                    .raw
                    .chars()
                    .skip(1)
                    .all(|c| c.is_ascii_lowercase());
            (!titled).then_some(())?;
            Some((relation, name(i + 1)?))
        })
        .collect()
}

/// The one other party of relation `r` in `found`, when it has exactly one.
fn one<'a>(found: &[(Relation, &'a str)], r: Relation) -> Option<&'a str> {
    let mut of = found.iter().filter(|(k, _)| *k == r).map(|(_, n)| *n);
    let first = of.next()?;
    of.all(|n| n == first).then_some(first)
}

/// The other party of a relation of the draft `d` and the source `s`'s one of the same kind,
/// when they differ and each stands in both sentences: the parties the other way round.
///
/// The one a thing is for need not stand in the source sentence (`deployment for AMD`, where
/// the entry's sentence names AMD only in `@AMDServer`): the draft names the source's one
/// elsewhere, so it moved. And the one a thing is for may be the source's one it is from
/// (`revenue for OpenAI` for `revenue from the OpenAI agreement`).
pub(super) fn relation_turned<'a>(d: &'a [Tok], s: &'a [Tok]) -> Option<(&'a str, &'a str)> {
    let (ours, theirs) = (relations(d), relations(s));
    let has = |toks: &[Tok], w: &str| toks.iter().any(|t| t.word == w);
    ours.iter()
        .find_map(|&(r, _)| {
            let (a, b) = (one(&ours, r)?, one(&theirs, r)?);
            (a != b && (has(s, a) || r == Relation::For) && has(d, b)).then_some((a, b))
        })
        .or_else(|| {
            let a = one(&ours, Relation::For)?;
            (one(&theirs, Relation::For).is_none() && from_in(d, s, a)).then_some(("for", "from"))
        })
}

/// Whether the source `s` has the noun the draft `d` has before `for <name>` followed by
/// `from` and that name (`revenue from the OpenAI agreement`).
fn from_in(d: &[Tok], s: &[Tok], name: &str) -> bool {
    let nouns: Vec<&str> = d
        .windows(3)
        .filter(|w| w[1].word == "for" && w[2].word == name && !w[0].anchor.is_empty())
        .map(|w| w[0].word.as_str())
        .collect();
    s.windows(4).any(|w| {
        nouns.contains(&w[0].word.as_str())
            && w[1].word == "from"
            && (w[2].word == name
                || (matches!(w[2].word.as_str(), "the" | "its" | "a" | "an") && w[3].word == name))
    })
}

/// Who pays whom in `toks` (payer, payee; first words, lower case): `Apple pays Google`,
/// `payments from Google to Apple`, `Google's payments to Apple`, and `Apple's roughly $20
/// billion a year in Google payments` (what Google pays Apple).
fn payment(toks: &[Tok]) -> Option<(&str, &str)> {
    let upper = |k: usize| {
        toks.get(k)
            .is_some_and(|t| t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase))
    };
    let word = |k: usize| toks[k].word.as_str();
    (0..toks.len()).find_map(|i| match word(i) {
        "pays" | "paid" | "pay" | "paying" if i > 0 && upper(i - 1) && upper(i + 1) => {
            // Not a passive (`was paid by`).
            (i < 2 || !matches!(word(i - 2), "was" | "were" | "is" | "are" | "be"))
                .then(|| (word(i - 1), word(i + 1)))
        }
        "payments" | "payment" => {
            // `payments from Google to Apple`, `Google's payments to Apple`.
            if toks.get(i + 1).is_some_and(|t| t.word == "from")
                && upper(i + 2)
                && toks.get(i + 3).is_some_and(|t| t.word == "to")
                && upper(i + 4)
            {
                return Some((word(i + 2), word(i + 4)));
            }
            if i > 0
                && toks[i - 1].possessive
                && upper(i - 1)
                && toks.get(i + 1).is_some_and(|t| t.word == "to")
                && upper(i + 2)
            {
                return Some((word(i - 1), word(i + 2)));
            }
            // `Apple's roughly $20 billion a year in payments to Google`: whose they are pays.
            if i >= 1
                && word(i - 1) == "in"
                && toks.get(i + 1).is_some_and(|t| t.word == "to")
                && upper(i + 2)
            {
                let payer = (i.saturating_sub(10)..i - 1)
                    .rev()
                    .find(|&k| toks[k].possessive && upper(k))?;
                return Some((word(payer), word(i + 2)));
            }
            // `Apple's … in Google payments`: the name before is who pays; whose they are,
            // within a few words before, is paid.
            if i >= 2 && upper(i - 1) && !toks[i - 1].possessive && word(i - 2) == "in" {
                let payee = (i.saturating_sub(10)..i - 2)
                    .rev()
                    .find(|&k| toks[k].possessive && upper(k))?;
                return Some((word(i - 1), word(payee)));
            }
            None
        }
        _ => None,
    })
}

/// Who asks whom to act in `toks` (asker, asked; first words, lower case): `Apple asked
/// suppliers to raise`, `a request from suppliers that Apple raise`, `Apple's request to
/// suppliers`. A party is a name or a plural noun (`suppliers`).
fn asking(toks: &[Tok]) -> Option<(&str, &str)> {
    let party = |k: usize| {
        toks.get(k).is_some_and(|t| {
            t.kind == Kind::Word
                && (t.raw.starts_with(char::is_uppercase)
                    || (t.word.len() > 4
                        && t.word.ends_with('s')
                        && !t.word.ends_with("ss")
                        && wordnet::is_noun(&wordnet::lemma(&t.word))))
        })
    };
    let word = |k: usize| toks[k].word.as_str();
    let next = |k: usize, w: &str| toks.get(k).is_some_and(|t| t.word == w);
    (1..toks.len()).find_map(|i| match word(i) {
        "asked" | "asks" | "ask" | "urged" | "urges" | "pressed" | "presses" | "pushed" => {
            (party(i - 1) && party(i + 1) && (next(i + 2, "to") || next(i + 2, "for")))
                .then(|| (word(i - 1), word(i + 1)))
        }
        "request" | "requests" => {
            // `a request from suppliers that Apple raise`.
            if next(i + 1, "from") && party(i + 2) && next(i + 3, "that") && party(i + 4) {
                return Some((word(i + 2), word(i + 4)));
            }
            // `Apple's request to suppliers`.
            (toks[i - 1].possessive && party(i - 1) && next(i + 1, "to") && party(i + 2))
                .then(|| (word(i - 1), word(i + 2)))
        }
        _ => None,
    })
}

/// Who asks whom, the draft `d`'s the other way round from the source `s`'s: the draft's asker
/// and the one it asks.
pub(super) fn asking_turned<'a>(d: &'a [Tok], s: &[Tok]) -> Option<(&'a str, &'a str)> {
    let (da, db) = asking(d)?;
    let (sa, sb) = asking(s)?;
    (da == sb && db == sa && da != db).then_some((da, db))
}

/// Who pays whom, the draft `d`'s the other way round from the source `s`'s: the draft's payer
/// and payee.
pub(super) fn payment_turned<'a>(d: &'a [Tok], s: &[Tok]) -> Option<(&'a str, &'a str)> {
    let (dp, dr) = payment(d)?;
    let (sp, sr) = payment(s)?;
    (dp == sr && dr == sp && dp != dr).then_some((dp, dr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    const S: &str = "Microsoft's quarterly report says Microsoft and OpenAI signed a new definitive agreement that gives Microsoft about a 27% stake in the restructured OpenAI.";

    fn turned(d: &str) -> Option<(String, String)> {
        relation_turned(&tokenize(d), &tokenize(S)).map(|(a, b)| (a.to_string(), b.to_string()))
    }

    #[test]
    fn a_stake_given_to_the_company_held_is_read() {
        let d = "Microsoft's quarterly report describes the new agreement with OpenAI, under which the restructured OpenAI holds about 27% of Microsoft.";
        assert_eq!(turned(d), Some(("microsoft".into(), "openai".into())));
        let d = "Under the new agreement, OpenAI gives Microsoft a stake in OpenAI of about 27%.";
        assert!(turned(d).is_none());
        let d = "Microsoft holds about 27% of the restructured OpenAI under the new agreement with OpenAI.";
        assert!(turned(d).is_none());
        let d = "Microsoft and OpenAI signed a new agreement, Microsoft's quarterly report says.";
        assert!(turned(d).is_none());
    }

    #[test]
    fn who_asks_whom_is_read() {
        let s = tokenize(
            "Apple's quarterly report says Apple asked suppliers to raise iPhone 17 production by about 10% for the holiday quarter.",
        );
        let d = tokenize(
            "Apple's quarterly report describes a request from suppliers that Apple raise iPhone 17 production by about 10%.",
        );
        assert_eq!(asking_turned(&d, &s), Some(("suppliers", "apple")));
        let d = tokenize(
            "Apple's quarterly report describes a request from Apple that suppliers raise iPhone 17 production by about 10%.",
        );
        assert!(asking_turned(&d, &s).is_none());
        let d = tokenize("Suppliers asked Apple to raise iPhone 17 production by about 10%.");
        assert_eq!(asking_turned(&d, &s), Some(("suppliers", "apple")));
    }

    #[test]
    fn who_pays_whom_is_read() {
        let s = tokenize(
            "A court ruling on search defaults leaves Apple's roughly $20 billion a year in Google payments intact but under closer scrutiny.",
        );
        let d = tokenize(
            "A court ruling on search defaults leaves intact the roughly $20 billion a year that Apple pays Google.",
        );
        assert_eq!(payment_turned(&d, &s), Some(("apple", "google")));
        let d = tokenize(
            "A court ruling on search defaults leaves intact the roughly $20 billion a year that Google pays Apple.",
        );
        assert!(payment_turned(&d, &s).is_none());
        let d = tokenize(
            "The ruling leaves intact payments from Google to Apple of roughly $20 billion a year.",
        );
        assert!(payment_turned(&d, &s).is_none());
        let d = tokenize(
            "The ruling leaves intact Apple's payments to Google of roughly $20 billion a year.",
        );
        assert_eq!(payment_turned(&d, &s), Some(("apple", "google")));
        let d = tokenize(
            "The ruling leaves Apple's roughly $20 billion a year in payments to Google intact.",
        );
        assert_eq!(payment_turned(&d, &s), Some(("apple", "google")));
    }

    #[test]
    fn a_gap_to_the_one_behind_is_read() {
        let s = tokenize(
            "The ROCm 7 release adds distributed-inference support and closes part of the software gap with CUDA.",
        );
        let d = tokenize(
            "The ROCm 7 release adds distributed-inference support and closes part of CUDA's software gap with ROCm.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("rocm", "cuda")));
        // Another relation says the other way of its parties: no comparison.
        let d = tokenize("The ROCm 7 release cuts part of CUDA's lead over ROCm.");
        assert!(relation_turned(&d, &s).is_none());
        let d = tokenize("With the ROCm 7 release, AMD closes part of its software gap with CUDA.");
        assert!(relation_turned(&d, &s).is_none());
        // Whose the other party is does not stand for it.
        let d = tokenize(
            "CUDA has closed part of its software gap with AMD's ROCm 7 release, which adds distributed-inference support.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("rocm", "cuda")));
        // Whom a request goes to.
        let s = tokenize(
            "The Company reports that the National Highway Traffic Safety Administration asked Tesla for data on 5 robotaxi incidents.",
        );
        let d = tokenize(
            "Tesla's request to the National Highway Traffic Safety Administration for data on 5 robotaxi incidents was disclosed.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("national", "tesla")));
        let d = tokenize(
            "The National Highway Traffic Safety Administration's request to Tesla for data on 5 robotaxi incidents was disclosed.",
        );
        assert!(relation_turned(&d, &s).is_none());
        let s = tokenize(
            "The ROCm 7 release adds distributed-inference support and closes part of the software gap with CUDA.",
        );
        // The one who has it told in a clause between (`the gap that CUDA has with ROCm`).
        let d = tokenize(
            "The ROCm 7 release adds distributed-inference support and closes part of the software gap that CUDA has with ROCm.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("rocm", "cuda")));
        let d =
            tokenize("The ROCm 7 release closes part of the software gap that ROCm has with CUDA.");
        assert!(relation_turned(&d, &s).is_none());
    }

    #[test]
    fn whom_it_is_for_and_who_is_among_are_read_but_not_of_a_list() {
        let s = tokenize(
            "AMD's quarterly report says the first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026.",
        );
        let d = tokenize(
            "AMD's quarterly report says OpenAI is scheduled to deploy the first gigawatt of MI450 for AMD in the second half of 2026.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("amd", "openai")));
        // The one it is for, named in the source sentence only in a handle.
        let s = tokenize(
            "@AMDServer posted that the first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026.",
        );
        let d = tokenize(
            "@AMDServer posted that OpenAI's first gigawatt of MI450 deployment for AMD is scheduled for the second half of 2026.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("amd", "openai")));
        let d = tokenize(
            "@AMDServer posted that AMD's first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026.",
        );
        assert!(relation_turned(&d, &s).is_none());
        // The one it is from made the one it is for.
        let s = tokenize(
            "@LisaSu posted that analysts model roughly $100 billion of cumulative revenue from the OpenAI agreement over four years.",
        );
        let d = tokenize(
            "@LisaSu posted that analysts model roughly $100 billion of cumulative revenue for OpenAI from its AMD agreement over four years.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("for", "from")));
        let d = tokenize(
            "@LisaSu posted that analysts model roughly $100 billion of cumulative revenue for AMD from the OpenAI agreement over four years.",
        );
        assert!(relation_turned(&d, &s).is_none());
        let s = tokenize(
            "AMD's quarterly report says MI355X accelerator shipments are ramping, with Oracle among the first large deployments.",
        );
        let d = tokenize(
            "AMD's quarterly report says Oracle's MI355X accelerator shipments are ramping, with AMD among the first large deployments.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("amd", "oracle")));
        let s =
            tokenize("He was a major advocate of a single parliament for England and Scotland.");
        let d =
            tokenize("He was a major advocate of a single parliament for Scotland and England.");
        assert!(relation_turned(&d, &s).is_none());
        let d = tokenize(
            "With Haskel Frankel, and A Challenge for the Actor, she became an acting teacher.",
        );
        let s = tokenize("She became an acting teacher and wrote Respect for Acting.");
        assert!(relation_turned(&d, &s).is_none());
    }

    #[test]
    fn whose_shares_and_whose_counted_thing_are_read() {
        let s = tokenize(
            "OpenAI received a warrant for up to 160 million AMD shares that vests as deployment milestones are met.",
        );
        let d = tokenize(
            "A warrant for up to 160 million OpenAI shares, vesting as milestones are met, has been issued to AMD.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("openai", "amd")));
        let d = tokenize("OpenAI received a warrant for up to 160 million shares of AMD.");
        assert!(relation_turned(&d, &s).is_none());
        let s =
            tokenize("OpenAI committed to purchase an additional $250 billion of Azure services.");
        let d = tokenize(
            "A commitment to purchase an additional $250 billion of OpenAI services was made by Azure.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("openai", "azure")));
        let s = tokenize(
            "Microsoft recorded a $4.1 billion loss from its share of OpenAI's results under the equity method.",
        );
        let d = tokenize(
            "OpenAI's share of Microsoft's results produced a $4.1 billion loss under the equity method.",
        );
        assert_eq!(relation_turned(&d, &s), Some(("microsoft", "openai")));
        let d = tokenize(
            "Microsoft's share of OpenAI's results produced a $4.1 billion loss under the equity method.",
        );
        assert!(relation_turned(&d, &s).is_none());
        let d =
            tokenize("Azure services worth an additional $250 billion will be bought by OpenAI.");
        assert!(relation_turned(&d, &s).is_none());
    }
}

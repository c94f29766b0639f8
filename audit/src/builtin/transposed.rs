//! Two phrases that trade places around the same words: a draft's sentence that keeps a source
//! sentence's act and moves what stood on either side of it to the other (`lower cell costs
//! outweighed price cuts and tariff costs` for `price cuts and tariff costs outweighed lower
//! cell costs`; `hardware revenue rose 16%, while content and services revenue fell` for the
//! other way round). Common nouns as well as names: the roles check's names do not reach them.

use super::clause::{
    AUX, CLAUSE_OPENERS, REACH, SIDES, SYMMETRIC, TRADES, be_passive, capital, plural_present,
    present_tense, verb,
};
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::wordnet;

/// The longest phrase read on either side.
const SIDE: usize = 4;

/// The anchored tokens of `toks`: indices of the words alignment compares.
fn anchored(toks: &[Tok]) -> Vec<usize> {
    (0..toks.len())
        .filter(|&i| !toks[i].anchor.is_empty())
        .collect()
}

/// Whether the tokens `a..b` of `toks` say who acts or which side leads: a verb (not a
/// passive's) or a comparison's word, and no word that says the same of both sides.
fn directed(toks: &[Tok], a: usize, b: usize) -> bool {
    let words = &toks[a..b];
    let symmetric = words.iter().any(|t| SYMMETRIC.contains(&t.word.as_str()));
    // Right after the first phrase a verb's `-s` form is its verb, not a plural
    // (`the MI350 series delivers`, `packaging capacity remains`).
    // After a plural, its base form is its verb (`the director nominees recommend`).
    let plural = plural_present(toks, a);
    let present = plural || toks.get(a).is_some_and(|t| present_tense(&t.word));
    let acts = present
        || (a..b).any(|i| {
            (verb(toks, i) && !be_passive(toks, i)) || SIDES.contains(&toks[i].word.as_str())
        });
    acts && !symmetric && !words.iter().any(|t| t.word == "by")
}

/// Words that open a phrase of when or where, which a draft may move to the front (`after a
/// five-day bootcamp`, `on November 29`): no party.
const ADVERBIAL: &[&str] = &[
    "after",
    "before",
    "on",
    "in",
    "at",
    "since",
    "during",
    "until",
    "following",
    "from",
    "over",
    "amid",
    "within",
];

/// Whether the phrase of `toks` from `from` to `to` (its anchored words) is a party's: not a
/// phrase of when or where, not who says it (`CNBC writes`, `@nvidia posted`). A verb of speech
/// in `act`, the words between the two phrases, is the act itself (`regulators have told
/// large internet companies`).
fn party(toks: &[Tok], from: usize, to: usize, act: std::ops::Range<usize>) -> bool {
    let opener = toks[..from]
        .iter()
        .rev()
        .find(|t| !matches!(t.word.as_str(), "a" | "an" | "the" | "its" | "their"))
        .is_some_and(|t| ADVERBIAL.contains(&t.word.as_str()));
    // A verb of speech before the phrase makes it the speaker only when it opens its clause
    // (`…, said Lisa Su`), not after one (`the 8-K says Blackwell output remains`).
    let inverted = |i: usize| i == 0 || toks[i - 1].kind == Kind::Break;
    let near = (from.saturating_sub(1)..(to + 2).min(toks.len())).any(|i| {
        let w = toks[i].word.as_str();
        !act.contains(&i) && (i >= from || inverted(i)) && (saying(w) || SPEECH_LEADS.contains(&w))
    });
    !opener && !near
}

/// Verbs of speech [`saying`] does not hold.
const SPEECH_LEADS: &[&str] = &[
    "writes", "wrote", "posted", "says", "said", "reported", "reports",
];

/// The phrase lengths to compare around a run of `m` shared words at `j` in the source and `q`
/// in the draft: `(a, b)` before and after it in the source, the draft's phrase after it and
/// before it, of as many words in all, each at most [`SIDE`].
fn windows(
    j: usize,
    q: usize,
    m: usize,
    s_len: usize,
    d_len: usize,
) -> impl Iterator<Item = (usize, usize, usize, usize)> {
    let (s_after, d_after) = (s_len - j - m, d_len - q - m);
    (1..=SIDE.min(j)).flat_map(move |a| {
        (1..=SIDE.min(s_after)).flat_map(move |b| {
            (1..=SIDE.min(d_after)).filter_map(move |da| {
                let db = (a + b).checked_sub(da)?;
                (db >= 1 && db <= SIDE.min(q)).then_some((a, b, da, db))
            })
        })
    })
}

/// Whether two pairs of phrases hold the same words, each as often.
fn same_words(x: &[&[String]; 2], y: &[&[String]; 2]) -> bool {
    let mut x: Vec<&String> = x.iter().flat_map(|p| p.iter()).collect();
    let mut y: Vec<&String> = y.iter().flat_map(|p| p.iter()).collect();
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// The two phrases of the source sentence `s` that the draft's `d` sets the other way round
/// about the same words, as written in `s`; `None` when there are none.
pub(super) fn transposed(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    let (da, sa) = (anchored(d), anchored(s));
    let key = |toks: &[Tok], ix: &[usize]| -> Vec<String> {
        ix.iter().map(|&i| toks[i].anchor.clone()).collect()
    };
    let (dk, sk) = (key(d, &da), key(s, &sa));
    for j in 0..sk.len() {
        for q in 0..dk.len() {
            if sk[j] != dk[q] || (j > 0 && q > 0 && sk[j - 1] == dk[q - 1]) {
                continue;
            }
            // The shared words, as long as they run on in both.
            let m = (0..)
                .take_while(|&k| j + k < sk.len() && q + k < dk.len() && sk[j + k] == dk[q + k])
                .count();
            for (a, b, da_len, db_len) in windows(j, q, m, sk.len(), dk.len()) {
                // In `s`: A, the shared words, B; in `d`: B, the shared words, A. A word of
                // one phrase may go with the other (`Chinese regulators … large internet
                // companies`, `large Chinese internet companies … regulators`), its last word
                // (its head) may not.
                let first = &sk[j - a..j];
                let second = &sk[j + m..j + m + b];
                let before = &dk[q - db_len..q];
                let after = &dk[q + m..q + m + da_len];
                if first.last() == second.last()
                    || before.last() != second.last()
                    || after.last() != first.last()
                    || before.contains(&first[a - 1])
                    || after.contains(&second[b - 1])
                    || !same_words(&[first, second], &[before, after])
                {
                    continue;
                }
                // The words between the phrases, whole: in `s` from A's end to B's start, in
                // `d` from B's end to A's start.
                let (s_from, s_to) = (sa[j - 1] + 1, sa[j + m]);
                let (d_from, d_to) = (da[q - 1] + 1, da[q + m]);
                let parties = party(s, sa[j - a], sa[j - 1], s_from..s_to)
                    && party(s, sa[j + m], sa[j + m + b - 1], s_from..s_to)
                    && party(d, da[q - db_len], da[q - 1], d_from..d_to)
                    && party(d, da[q + m], da[q + m + da_len - 1], d_from..d_to);
                if parties && directed(s, s_from, s_to) && directed(d, d_from, d_to) {
                    let text = |toks: &[Tok], from: usize, to: usize| {
                        toks[from..=to]
                            .iter()
                            .map(|t| t.raw.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    return Some((
                        text(s, sa[j - a], sa[j - 1]),
                        text(s, sa[j + m], sa[j + m + b - 1]),
                    ));
                }
            }
        }
    }
    None
}

/// The anchored tokens of the clause on each side of the act at `v`, at most [`REACH`] each.
fn clause_sides(toks: &[Tok], v: usize) -> (Vec<usize>, Vec<usize>) {
    // Another verb, or one of speech, starts another clause (`the quarter ended … says the
    // company deployed`).
    let ends = |i: usize| {
        let t = &toks[i];
        t.kind == Kind::Break
            || CLAUSE_OPENERS.contains(&t.word.as_str())
            || saying(&t.word)
            || SPEECH_LEADS.contains(&t.word.as_str())
            || (verb(toks, i) && !AUX.contains(&t.word.as_str()))
    };
    let before = (0..v)
        .rev()
        .take_while(|&i| !ends(i))
        .filter(|&i| !toks[i].anchor.is_empty())
        .take(REACH)
        .collect();
    let after = (v + 1..toks.len())
        .take_while(|&i| !ends(i))
        .filter(|&i| !toks[i].anchor.is_empty())
        .take(REACH)
        .collect();
    (before, after)
}

/// Whether token `i` names a party: a capitalised word, or a noun; not in a phrase of where
/// or when (`has begun at Quanta`).
fn thing(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let placed = toks[..i]
        .iter()
        .rev()
        .take(3)
        .find(|t| t.anchor.is_empty() && !matches!(t.word.as_str(), "a" | "an" | "the"))
        .is_some_and(|t| PLACES.contains(&t.word.as_str()));
    t.kind == Kind::Word
        && !placed
        && (t.raw.starts_with(char::is_uppercase) || wordnet::is_noun(&wordnet::lemma(&t.word)))
}

/// Prepositions of where and when: what they lead to is no party to the act.
const PLACES: &[&str] = &[
    "at", "in", "on", "during", "within", "amid", "since", "until", "after", "before", "over",
    "across", "inside",
];

/// Whether token `i` is a verb [`verb`] does not read: an infinitive (`on pace to
/// contribute`), or a present tense after an adverb of time or a name (`the team now reports
/// to`).
fn plain_verb(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let w = t.word.as_str();
    if i == 0 || t.kind != Kind::Word || t.raw.starts_with(char::is_uppercase) {
        return false;
    }
    let prev = &toks[i - 1];
    let infinitive = prev.word == "to" && wordnet::lemma(w) == w && wordnet::is_verb(w);
    let present = ["now", "also", "still", "currently", "already"].contains(&prev.word.as_str())
        && present_tense(w);
    infinitive || present
}

/// Whether token `x` is the subject of the act at `v`: only words like `has` between them.
fn subject(toks: &[Tok], x: usize, v: usize) -> bool {
    x < v
        && toks[x + 1..v]
            .iter()
            .all(|t| AUX.contains(&t.word.as_str()))
}

/// Each token's stem, or its word where alignment passes it by (`reports`).
fn act_keys(toks: &[Tok]) -> Vec<&str> {
    toks.iter()
        .map(|t| {
            if t.anchor.is_empty() {
                t.word.as_str()
            } else {
                t.anchor.as_str()
            }
        })
        .collect()
}

/// What [`crossed`] found: two words that trade sides, or a subject moved alone behind a
/// preposition.
#[derive(Debug, PartialEq)]
pub(super) enum Crossed {
    Both(String, String),
    Alone {
        name: String,
        behind: String,
        act: String,
    },
}

/// Words of the source sentence `s` that the draft's `d` moves across the same act both ways:
/// one from before the verb to after it, another from after it to before it (`a senior Apple
/// researcher has left for a rival AI lab` told as `a senior researcher from a rival AI lab has
/// left for Apple`). Only an act in the active, once in each sentence, not a verb of speech, in
/// clauses without a word that says the same of both sides.
pub(super) fn crossed(d: &[Tok], s: &[Tok]) -> Option<Crossed> {
    let acts = |toks: &[Tok], i: usize| {
        let w = toks[i].word.as_str();
        // `reports to` is who answers to whom, not speech.
        let answers = matches!(w, "reports" | "reported" | "report")
            && toks.get(i + 1).is_some_and(|t| t.word == "to");
        let trade = TRADES.contains(&w);
        // A participle with its agent (`the rack detailed by NVIDIA`) is a passive too.
        let agent = toks.get(i + 1).is_some_and(|t| t.word == "by");
        (verb(toks, i) || plain_verb(toks, i))
            && !trade
            && !agent
            && !be_passive(toks, i)
            && (answers || !(saying(w) || SPEECH_LEADS.contains(&w)))
    };
    let (sk, dk) = (act_keys(s), act_keys(d));
    let alone = |keys: &[&str], k: &str| keys.iter().filter(|x| **x == k).count() == 1;
    for w in (0..s.len()).filter(|&w| s[w].kind == Kind::Word) {
        // The cheap tests first: the word once in each sentence, then whether it acts.
        let k = sk[w];
        let Some(v) = dk.iter().position(|x| *x == k) else {
            continue;
        };
        if !alone(&sk, k) || !alone(&dk, k) || !acts(s, w) || !acts(d, v) {
            continue;
        }
        let (sb, sa) = clause_sides(s, w);
        let (db, da) = clause_sides(d, v);
        let plain = |toks: &[Tok], ix: &[usize]| {
            !ix.iter()
                .any(|&i| SYMMETRIC.contains(&toks[i].word.as_str()))
        };
        if !(plain(s, &sb) && plain(s, &sa) && plain(d, &db) && plain(d, &da)) {
            continue;
        }
        // A word on one side in `s` and on the other in `d`, once in each sentence.
        let moved = |from: &[usize], to: &[usize]| {
            from.iter().copied().find(|&i| {
                let a = s[i].anchor.as_str();
                thing(s, i)
                    && alone(&sk, a)
                    && alone(&dk, a)
                    && to.iter().any(|&k| d[k].anchor == a && thing(d, k))
            })
        };
        match (moved(&sb, &da), moved(&sa, &db)) {
            (Some(x), Some(y)) => return Some(Crossed::Both(s[x].raw.clone(), s[y].raw.clone())),
            // The subject alone moved after the act, behind `from`, `to` or `for`, another
            // subject in its place: `Microsoft has taken delivery` told as `it has taken
            // delivery … from Microsoft`.
            (Some(x), None) if capital(&s[x]) && subject(s, x, w) => {
                let a = s[x].anchor.as_str();
                let behind = da.iter().copied().find(|&k| {
                    d[k].anchor == a && matches!(d[k - 1].word.as_str(), "from" | "to" | "for")
                });
                let before = (0..v).rev().find(|&k| !AUX.contains(&d[k].word.as_str()));
                let other = before.is_some_and(|k| d[k].kind == Kind::Word && d[k].anchor != a);
                if let Some(k) = behind.filter(|_| other) {
                    return Some(Crossed::Alone {
                        name: s[x].raw.clone(),
                        behind: d[k - 1].raw.clone(),
                        act: s[w].raw.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn moved(d: &str, s: &str) -> Option<(String, String)> {
        transposed(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn phrases_traded_around_an_act_are_read() {
        let s = "Margin slipped to 15% as price cuts and tariff costs outweighed lower cell costs.";
        let d = "Margin slipped to 15% as lower cell costs outweighed price cuts and tariff costs.";
        assert!(moved(d, s).is_some());
        let s =
            "Xbox content and services revenue rose 16%, while hardware revenue fell about 20%.";
        let d =
            "Xbox hardware revenue rose 16%, while content and services revenue fell about 20%.";
        assert!(moved(d, s).is_some());
        let s =
            "International commercial revenue grew only about 15%, well behind the U.S. business.";
        let d =
            "The U.S. business grew only about 15%, well behind international commercial revenue.";
        assert!(moved(d, s).is_some());
    }

    #[test]
    fn phrases_traded_with_a_word_moved_or_around_a_present_verb_are_read() {
        // A modifier goes with the other phrase; `told` is the act, not who says it.
        let s = "Chinese regulators have told large internet companies to pause new orders.";
        let d = "Large Chinese internet companies have told regulators to pause new orders.";
        assert!(moved(d, s).is_some());
        // `remains`, `delivers` right after the first phrase are its verbs.
        let s = "The filing says TSMC's packaging capacity remains the pacing item for Blackwell output.";
        let d = "The filing says Blackwell output remains the pacing item for TSMC's packaging capacity.";
        assert!(moved(d, s).is_some());
        let s = "AMD says the MI350 series delivers up to 35x the performance of the MI300X.";
        let d =
            "According to AMD, the MI300X delivers up to 35x the performance of the MI350 series.";
        assert!(moved(d, s).is_some());
        // After a plural, the verb's base form is its verb.
        let s = "The board recommends a vote FOR the director nominees.";
        let d = "The director nominees recommend a vote FOR the board.";
        assert!(moved(d, s).is_some());
        let d = "The board members recommend a vote FOR the director nominees.";
        assert!(moved(d, s).is_none());
    }

    #[test]
    fn words_moved_across_an_act_both_ways_are_read() {
        let s = "A senior Apple foundation-models researcher has left for a rival AI lab.";
        let d = "A senior foundation-models researcher from a rival AI lab has left for Apple.";
        let c = |d: &str, s: &str| crossed(&tokenize(d), &tokenize(s));
        assert_eq!(c(d, s), Some(Crossed::Both("Apple".into(), "rival".into())));
        assert!(c(s, s).is_none());
        // One way only: a phrase of when moved to the end.
        let s = "In October, Apple sold shares to Dell.";
        assert!(c("Apple sold shares to Dell in October.", s).is_none());
        // A participle with its passive's `by`, no commas around it.
        let s = "Reuters writes that NVIDIA detailed the Vera Rubin NVL144 rack.";
        let d =
            "Reuters reported that the Vera Rubin NVL144 rack detailed by NVIDIA promises more.";
        assert!(c(d, s).is_none());
        // A place, and a symmetric act.
        let s = "Quanta has begun final qualification of HBM4 stacks.";
        assert!(c("Final qualification of HBM4 stacks has begun at Quanta.", s).is_none());
        let s = "Pioglitazone use is associated with an increased risk of cancer.";
        assert!(
            c(
                "An increased risk of cancer is associated with pioglitazone use.",
                s
            )
            .is_none()
        );
        // An infinitive, a present tense.
        let s =
            "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue.";
        let d = "NVIDIA is on pace to contribute about $20 billion of revenue to sovereign AI customers.";
        assert!(c(d, s).is_some());
        let s =
            "The head of the program has left Tesla, and the team now reports to Ashok Elluswamy.";
        let d =
            "The head of the program has left Tesla, and Ashok Elluswamy now reports to the team.";
        assert!(c(d, s).is_some());
        // A passive after an adverb.
        let s = "Wedbush argues the valuation already prices in a decade of growth.";
        let d = "Wedbush argues a decade of growth is already priced into the valuation.";
        assert!(c(d, s).is_none());
        // Words on either side of another clause's verb.
        let s =
            "The report for the period ended June 30 says Tesla deployed storage in the quarter.";
        let d =
            "The report for the quarter ended June 30 says Tesla deployed storage in the period.";
        assert!(c(d, s).is_none());
        // The subject alone moved behind `from`, another subject in its place; not a name
        // become a modifier or a passive's agent.
        let s = "Microsoft has taken delivery of its first Blackwell Ultra clusters.";
        let d = "It has taken delivery of its first Blackwell Ultra clusters from Microsoft.";
        let alone = Crossed::Alone {
            name: "Microsoft".into(),
            behind: "from".into(),
            act: "taken".into(),
        };
        assert_eq!(c(d, s), Some(alone));
        let s = "NVIDIA detailed the Vera Rubin NVL144 rack.";
        assert!(
            c(
                "The Vera Rubin NVL144 rack, detailed by NVIDIA, shipped.",
                s
            )
            .is_none()
        );
        let s = "Jean Hu sold 53,961 AMD shares.";
        assert!(c("AMD officer Jean Hu sold 53,961 shares.", s).is_none());
    }

    #[test]
    fn the_same_roles_in_other_words_are_not_read() {
        let s = "Price cuts and tariff costs outweighed lower cell costs.";
        assert!(moved(s, s).is_none());
        // Passive, and symmetric words.
        assert!(
            moved(
                "Lower cell costs were outweighed by price cuts.",
                "Price cuts outweighed lower cell costs."
            )
            .is_none()
        );
        assert!(
            moved(
                "Dell partnered with NVIDIA on racks.",
                "NVIDIA partnered with Dell on racks."
            )
            .is_none()
        );
        // Clauses in the other order keep their own words.
        let s = "Hardware revenue fell 20%, while services revenue rose 16%.";
        let d = "Services revenue rose 16%, while hardware revenue fell 20%.";
        assert!(moved(d, s).is_none());
        // A phrase of when, and who says it, moved to the other end.
        let s = "CNBC writes that Fannie Mae expanded its use of AIP after a five-day bootcamp.";
        let d = "After a five-day bootcamp, Fannie Mae expanded its use of AIP, CNBC writes.";
        assert!(moved(d, s).is_none());
        // Who says it, after a verb of speech that opens its clause.
        let s = "Demand exceeds supply, said Lisa Su.";
        assert!(moved("Lisa Su said demand exceeds supply.", s).is_none());
        // A modifier moved inside its own phrase.
        let s = "Chinese regulators have told large internet companies to pause orders.";
        let d = "Regulators in China have told large internet companies to pause orders.";
        assert!(moved(d, s).is_none());
    }
}

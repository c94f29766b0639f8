//! Who does an act, put in another party's place: a passive's agent that is not the act's
//! subject in the entry (`about $20 billion … is on pace to be contributed by NVIDIA` where the
//! entry has `sovereign AI customers are on pace to contribute about $20 billion of NVIDIA
//! revenue`), or an active act's subject traded for a name the entry has elsewhere (`with TSMC
//! said to have booked about 60% of NVIDIA's supply` where it has `with NVIDIA said to have
//! booked about 60% of next year's supply`).

use std::borrow::Cow;

use super::clause::{
    AUX, CLAUSE_OPENERS, REACH, TRADES, be_passive, capital, plural_present, present_tense, verb,
};
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::wordnet;
use super::words::stem;

/// How far after a source's act its passive's `by` is looked for.
const SPAN: usize = 4;

/// Pronouns: a subject the sentence does not name.
const PRONOUNS: &[&str] = &["it", "they", "he", "she", "we", "i", "you"];

/// Particles a passive's `by` may follow: `reported to by`, `relied on by`.
const PARTICLES: &[&str] = &["to", "on", "in", "for", "with", "upon"];

/// The agent after the participle at `v` (`booked by TSMC`, `reported to by Ashok
/// Elluswamy`): a name's first word, past an article.
fn agent(d: &[Tok], v: usize) -> Option<usize> {
    let mut k = v + 1;
    if d.get(k)
        .is_some_and(|t| PARTICLES.contains(&t.word.as_str()))
    {
        k += 1;
    }
    if d.get(k)?.word != "by" {
        return None;
    }
    k += 1;
    while d
        .get(k)
        .is_some_and(|t| matches!(t.word.as_str(), "the" | "a" | "an"))
    {
        k += 1;
    }
    d.get(k).filter(|t| capital(t)).map(|_| k)
}

/// The words that may be the subject of the active act at `w`, as anchors: the nouns and names
/// before it in its clause. A verb before `to` hands its subject on (`NVIDIA said to have
/// booked`, `OpenAI committed to purchase`); any other verb, a break or a clause's opener ends
/// the search.
fn subjects(s: &[Tok], w: usize) -> Vec<&str> {
    subject_at(s, w)
        .into_iter()
        .map(|k| s[k].anchor.as_str())
        .collect()
}

/// The tokens [`subjects`] reads.
fn subject_at(s: &[Tok], w: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut k = w;
    while k > 0 && out.len() < REACH {
        k -= 1;
        let t = &s[k];
        let word = t.word.as_str();
        // A pronoun is the subject, and names nothing here.
        if PRONOUNS.contains(&word) {
            return Vec::new();
        }
        // A relative clause's act is done by what the clause follows: `bootcamps that began`,
        // not `an 8-K that it had unveiled`.
        let next_to_act = s[k + 1..w].iter().all(|t| AUX.contains(&t.word.as_str()));
        if next_to_act && matches!(word, "that" | "which" | "who") {
            continue;
        }
        if t.kind == Kind::Break || CLAUSE_OPENERS.contains(&word) {
            break;
        }
        if AUX.contains(&word) {
            continue;
        }
        if verb(s, k) || saying(word) {
            if s.get(k + 1).is_some_and(|n| n.word == "to") {
                continue;
            }
            break;
        }
        // A word WordNet does not know (`bootcamps`) is taken for a noun.
        let noun = !t.anchor.is_empty()
            && (capital(t) || {
                let lemma = wordnet::lemma(word);
                wordnet::is_noun(&lemma) || !wordnet::is_word(&lemma)
            });
        if noun {
            out.push(k);
        }
    }
    out
}

/// A name the draft `d` makes the agent of a passive whose act the source `s` states in the
/// active with another subject, where the source has that name elsewhere and the draft still
/// has the source's subject: the name and the act.
pub(super) fn turned_agent(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    for v in 0..d.len() {
        let Some(x) = agent(d, v).filter(|_| verb(d, v)) else {
            continue;
        };
        let act = key(&d[v]);
        let name = d[x].anchor.as_str();
        // Every name of the agent's list: `by Kinberg, Dougherty, and Harris`.
        let names: Vec<&str> = d[x..]
            .iter()
            .take_while(|t| capital(t) || matches!(t.word.as_str(), "," | "and" | "&"))
            .filter(|t| capital(t))
            .map(|t| t.anchor.as_str())
            .collect();
        for w in (0..s.len()).filter(|&w| s[w].kind == Kind::Word && key(&s[w]) == act) {
            // Active, and not a verb of speech (`reports to` is who answers to whom). A
            // passive's `by` may come a few words on: `founded in 1971 by David Geffen`.
            let by = s[w + 1..]
                .iter()
                .take_while(|t| t.kind != Kind::Break)
                .take(SPAN)
                .any(|t| t.word == "by");
            if by || be_passive(s, w) || (saying(&s[w].word) && !answers(s, w)) {
                continue;
            }
            let subject = subjects(s, w);
            let elsewhere = s.iter().any(|t| t.anchor == name);
            let kept = subject.iter().any(|a| d.iter().any(|t| t.anchor == *a));
            let agent_is_subject = names.iter().any(|n| subject.contains(n));
            if !subject.is_empty() && !agent_is_subject && elsewhere && kept {
                return Some((d[x].raw.clone(), s[w].raw.clone()));
            }
        }
    }
    None
}

/// A verb of speech has no anchor: its lemma stands in (`reported`, `reports`).
fn key(t: &Tok) -> Cow<'_, str> {
    if t.anchor.is_empty() {
        wordnet::lemma(&t.word)
    } else {
        Cow::Borrowed(t.anchor.as_str())
    }
}

/// `reports to`: who answers to whom, not speech.
fn answers(toks: &[Tok], w: usize) -> bool {
    matches!(toks[w].word.as_str(), "reports" | "reported" | "report")
        && toks.get(w + 1).is_some_and(|n| n.word == "to")
}

/// Whether the word at `w` is an act in the active voice: a verb or a present tense after a
/// noun (`the release adds`), not of a trade; not an infinitive, whose subject may stand past another verb
/// (`NVIDIA is filing this Form S-8 to register`); no passive's `by` a few words on (`founded
/// in 1971 by`), no verb of speech (`reports to` is who answers to whom).
fn active(toks: &[Tok], w: usize) -> bool {
    let t = &toks[w];
    let word = t.word.as_str();
    if t.kind != Kind::Word || capital(t) || AUX.contains(&word) || TRADES.contains(&word) {
        return false;
    }
    let prev = w.checked_sub(1).map(|p| &toks[p]);
    // A participle after a preposition qualifies a noun (`tariffs on imported parts`).
    if prev.is_some_and(|p| PREPOSITIONS.contains(&p.word.as_str())) {
        return false;
    }
    let by = toks[w + 1..]
        .iter()
        .take_while(|t| t.kind != Kind::Break)
        .take(SPAN)
        .any(|t| t.word == "by");
    if by || (saying(word) && !answers(toks, w)) || be_passive(toks, w) {
        return false;
    }
    // A participle right after a common noun and before a preposition qualifies the noun
    // (`9.6 GWh of energy storage deployed in the period`): nothing it names acts.
    let reduced = word.ends_with("ed")
        && prev.is_some_and(|p| {
            p.kind == Kind::Word && !capital(p) && !p.anchor.is_empty() && {
                let lemma = wordnet::lemma(&p.word);
                wordnet::only_noun(&lemma)
            }
        })
        && toks
            .get(w + 1)
            .is_some_and(|n| PREPOSITIONS.contains(&n.word.as_str()));
    if reduced {
        return false;
    }
    // A present tense is no noun's plural: no noun, or one with an object after it (`the
    // release adds distributed-inference support`), not `cloud instances.` or `common shares
    // issuable`.
    // A figure is an object too, past a bound (`models roughly $100 billion`).
    let figure = |k: usize| toks.get(k).is_some_and(|n| n.kind == Kind::Number);
    let figure_after = || {
        figure(w + 1)
            || (toks
                .get(w + 1)
                .is_some_and(|n| BOUNDS.contains(&n.word.as_str()))
                && figure(w + 2))
    };
    let object = || {
        figure_after()
            || toks.get(w + 1).is_some_and(|n| {
                n.kind == Kind::Word && !n.anchor.is_empty() && {
                    let lemma = wordnet::lemma(&n.word);
                    wordnet::is_noun(&lemma) || !wordnet::is_word(&lemma)
                }
            })
    };
    // The plural's present before a figure (`Analysts model roughly $100 billion`).
    let plural = || plural_present(toks, w) && figure_after();
    let present = || {
        prev.is_some_and(|p| !p.anchor.is_empty())
            && ((present_tense(word)
                && (object()
                    || word
                        .strip_suffix('s')
                        .is_some_and(|stem| !wordnet::is_noun(stem))))
                || plural())
    };
    verb(toks, w) || present()
}

/// Words that bound a figure after a verb (`models roughly $100 billion`).
const BOUNDS: &[&str] = &["roughly", "about", "nearly", "around", "some"];

/// People of a kind who act in the news (`Analysts model …`).
const PEOPLE: &[&str] = &[
    "analysts",
    "investors",
    "executives",
    "officials",
    "employees",
    "regulators",
    "lawmakers",
    "economists",
    "traders",
];

/// Prepositions: a name after one that follows a noun qualifies that noun (`qualification of
/// HBM4 stacks for Rubin`), and a participle after one qualifies the noun it comes before.
const PREPOSITIONS: &[&str] = &[
    "of", "for", "in", "at", "on", "from", "with", "to", "by", "about", "into", "over", "under",
];

/// An active act's subject: every word read ([`subject_at`]), its head (the noun nearest the
/// act), and its names. Not a word inside a phrase that qualifies the subject's noun (`Rubin`
/// of `qualification of HBM4 stacks for Rubin has begun`); no name of a common word
/// capitalised to open the sentence (`Tariffs on imported parts added`).
struct Subject<'a> {
    all: Vec<&'a str>,
    head: Option<&'a str>,
    names: Vec<&'a str>,
}

fn subject(toks: &[Tok], w: usize) -> Subject<'_> {
    let at = subject_at(toks, w);
    let all = at.iter().map(|&k| toks[k].anchor.as_str()).collect();
    let Some(&first) = at.last() else {
        return Subject {
            all,
            head: None,
            names: Vec::new(),
        };
    };
    // The first preposition after a noun of the subject: what follows it qualifies that noun.
    let qualifier = (first..w)
        .find(|&p| PREPOSITIONS.contains(&toks[p].word.as_str()) && at.iter().any(|&k| k < p));
    let own: Vec<usize> = at
        .into_iter()
        .filter(|&k| qualifier.is_none_or(|p| k < p))
        .collect();
    let names = own
        .iter()
        .filter(|&&k| {
            let opens = k == 0 || toks[k - 1].kind == Kind::Break;
            capital(&toks[k]) && !(opens && wordnet::is_word(&wordnet::lemma(&toks[k].word)))
        })
        .map(|&k| toks[k].anchor.as_str())
        .collect();
    Subject {
        all,
        head: own.first().map(|&k| toks[k].anchor.as_str()),
        names,
    }
}

/// An act both sentences state once in the active whose subject the draft `d` trades: a name
/// of the draft's subject that the source `s` has elsewhere, and a name of the source's
/// subject that the draft has elsewhere (`with TSMC said to have booked about 60% of NVIDIA's
/// supply` for `with NVIDIA said to have booked about 60% of next year's supply`). The two
/// names, the draft's first, and the act.
pub(super) fn turned_subject<'a>(d: &'a [Tok], s: &'a [Tok]) -> Option<(String, String, String)> {
    let (dk, sk): (Vec<Cow<'_, str>>, Vec<Cow<'_, str>>) =
        (d.iter().map(key).collect(), s.iter().map(key).collect());
    let once = |keys: &[Cow<'_, str>], k: &str| keys.iter().filter(|x| *x == k).count() == 1;
    // The cheap tests first: a word of both sentences, once in each, then whether it acts.
    for v in (0..d.len()).filter(|&v| d[v].kind == Kind::Word) {
        let Some(w) = sk.iter().position(|k| *k == dk[v]) else {
            continue;
        };
        // The same words right before the act in both (a verbatim clause) keep its subject.
        let before = |toks: &'a [Tok], i: usize| {
            let mut words = [""; 3];
            let near = (0..i)
                .rev()
                .take_while(|&k| toks[k].kind != Kind::Break)
                .filter(|&k| !toks[k].anchor.is_empty())
                .take(3);
            for (slot, k) in words.iter_mut().zip(near) {
                *slot = toks[k].anchor.as_str();
            }
            words
        };
        if !once(&dk, &dk[v])
            || !once(&sk, &sk[w])
            || before(d, v) == before(s, w)
            || !active(d, v)
            || !active(s, w)
        {
            continue;
        }
        let (ours, theirs) = (subject(d, v), subject(s, w));
        let has = |toks: &[Tok], a: &str| toks.iter().any(|t| t.anchor == a);
        let new = ours
            .names
            .iter()
            .find(|a| !theirs.names.contains(a) && has(s, a));
        let moved = theirs
            .names
            .iter()
            .find(|a| !ours.names.contains(a) && has(d, a));
        // Or the head nouns trade places: `bootcamps that began in AIP deployments` for
        // `AIP deployments that began in bootcamps`.
        // The draft's head must stand behind a preposition in the source, not be its object:
        // `qualification … has begun at Quanta` tells `Quanta has begun final qualification`.
        let behind = |toks: &[Tok], a: &str| {
            (0..toks.len()).any(|k| {
                toks[k].anchor == a
                    && toks[k.saturating_sub(3)..k]
                        .iter()
                        .any(|t| PREPOSITIONS.contains(&t.word.as_str()))
            })
        };
        let heads = match (ours.head, theirs.head) {
            (Some(x), Some(y)) if x != y => {
                let apart = !theirs.all.contains(&x) && !ours.all.contains(&y);
                (apart && behind(s, x) && has(d, y)).then_some((x, y))
            }
            _ => None,
        };
        // Or a name of the source made the one who acts where the source has people of a
        // kind act, and the draft names them nowhere (`OpenAI models roughly $100 billion of
        // revenue` for `Analysts model roughly $100 billion of revenue from the OpenAI
        // agreement`): the name stood behind a preposition there.
        let made = match (new, theirs.head) {
            (Some(x), Some(y))
                if theirs.names.is_empty() && PEOPLE.iter().any(|p| stem(p) == y) =>
            {
                (!has(d, y) && behind(s, x)).then_some((*x, y))
            }
            _ => None,
        };
        if let Some((x, y)) = new.zip(moved).map(|(x, y)| (*x, *y)).or(heads).or(made) {
            let raw = |toks: &[Tok], a: &str| {
                toks.iter()
                    .find(|t| t.anchor == a)
                    .map_or_else(String::new, |t| t.raw.clone())
            };
            return Some((raw(d, x), raw(s, y), d[v].raw.clone()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn turned(d: &str, s: &str) -> Option<(String, String)> {
        turned_agent(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn an_agent_in_the_place_of_the_subject_is_read() {
        let s =
            "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue.";
        let d = "About $20 billion of revenue for sovereign AI customers is on pace to be contributed by NVIDIA.";
        assert_eq!(
            turned(d, s),
            Some(("NVIDIA".to_string(), "contribute".to_string()))
        );
        let s = "TSMC's capacity remains tight, with NVIDIA said to have booked about 60% of next year's supply.";
        let d = "TSMC's capacity remains tight, with about 60% of supply from NVIDIA said to have been booked by TSMC.";
        assert!(turned(d, s).is_some());
        let s =
            "The head of the program has left Tesla, and the team now reports to Ashok Elluswamy.";
        let d = "The head of the program has left Tesla, and the team is now reported to by Ashok Elluswamy.";
        assert!(turned(d, s).is_some());
        let s = "Proud to share that OpenAI committed to purchase an additional $250 billion of Azure services.";
        let d = "An additional $250 billion of OpenAI services will be purchased by Azure.";
        assert!(turned(d, s).is_some());
    }

    fn traded(d: &str, s: &str) -> Option<(String, String, String)> {
        turned_subject(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn a_subject_traded_for_another_name_of_the_entry_is_read() {
        let s = "TSMC's capacity remains tight, with NVIDIA said to have booked about 60% of next year's supply.";
        let d = "TSMC's capacity remains tight, with TSMC said to have booked about 60% of NVIDIA's supply.";
        assert_eq!(
            traded(d, s),
            Some((
                "TSMC".to_string(),
                "NVIDIA".to_string(),
                "booked".to_string()
            ))
        );
        let s = "Revenue rose 93%, driven by AIP deployments that began in bootcamps.";
        let d = "Revenue rose 93%, driven by bootcamps that began in AIP deployments.";
        assert!(traded(d, s).is_some());
        let s = "The ROCm 7 release adds distributed-inference support and closes part of the gap with CUDA.";
        let d = "CUDA adds distributed-inference support and closes part of the gap with the ROCm 7 release.";
        assert!(traded(d, s).is_some());
        // The same noun before the act, another name on it.
        let d = "The CUDA release adds distributed-inference support and closes part of the gap with ROCm 7.";
        assert!(traded(d, s).is_some());
    }

    #[test]
    fn a_name_made_the_one_who_acts_for_people_of_a_kind_is_read() {
        let s = "Analysts model roughly $100 billion of cumulative revenue from the OpenAI agreement over four years.";
        let d = "OpenAI models roughly $100 billion of cumulative revenue for AMD from their agreement over four years.";
        assert_eq!(
            traded(d, s).map(|(x, y, _)| (x, y)),
            Some(("OpenAI".to_string(), "Analysts".to_string()))
        );
        // The analysts kept, or named too: no trade of this kind.
        let d = "Analysts model roughly $100 billion of cumulative revenue from the OpenAI agreement over four years.";
        assert!(traded(d, s).is_none());
        let d = "AMD analysts model roughly $100 billion of cumulative revenue from the OpenAI agreement over four years.";
        assert!(traded(d, s).is_none());
    }

    #[test]
    fn a_subject_kept_or_joined_is_not_read() {
        let s = "TSMC's capacity remains tight, with NVIDIA said to have booked about 60% of next year's supply.";
        let d = "With NVIDIA said to have booked about 60% of next year's supply, TSMC's capacity remains tight.";
        assert!(traded(d, s).is_none());
        // Another party joined to the subject, or a passive.
        let s = "OpenAI signed a deal with Microsoft.";
        assert!(traded("Microsoft and OpenAI signed a deal.", s).is_none());
        assert!(traded("A deal was signed by Microsoft.", s).is_none());
        // A name qualifying the subject's noun; a participle qualifying a noun; an infinitive.
        let s = "@nvidianewsroom posted that Quanta has begun final qualification of HBM4 stacks for Rubin.";
        let d = "@nvidianewsroom posted that final qualification of HBM4 stacks for Rubin has begun at Quanta.";
        assert!(traded(d, s).is_none());
        let s = "Tariffs on imported parts added about $300 million to Tesla's quarterly costs.";
        let d =
            "About $300 million was added to Tesla's quarterly costs by tariffs on imported parts.";
        assert!(traded(d, s).is_none());
        let s =
            "NVIDIA Corporation is filing this Form S-8 to register 35,000,000 additional shares.";
        let d = "NVIDIA registered 35 million additional shares, according to a Form S-8.";
        assert!(traded(d, s).is_none());
        let s = "Reuters reports that Vultr standardised on EPYC for its cloud instances.";
        let d = "Reuters reports that Vultr standardize on EPYC for its cloud instances.";
        assert!(traded(d, s).is_none());
        // A pronoun's act after `that`; a plural noun after a noun; a passive whose act the
        // source gives a pronoun.
        let s = "In an 8-K filed with the SEC, Apple disclosed that Apple raised the price.";
        assert!(traded("Apple disclosed in an 8-K that it raised the price.", s).is_none());
        let s = "NVIDIA is filing this Form S-8 to register 17,000,000 additional shares of common stock issuable under its plan.";
        let d = "Through a Form S-8, NVIDIA is registering 17,000,000 additional common shares issuable under its plan.";
        assert!(traded(d, s).is_none());
        let s = "NVIDIA filed an 8-K saying it authorised an additional share repurchase program.";
        let d = "An additional share repurchase program has been authorised by NVIDIA, according to an 8-K.";
        assert!(turned_agent(&tokenize(d), &tokenize(s)).is_none());
        // Who says it is no subject of the act.
        let s = "Reuters reported that NVIDIA booked capacity at TSMC.";
        assert!(traded("NVIDIA booked capacity at TSMC, Reuters reported.", s).is_none());
    }

    #[test]
    fn the_same_agent_or_another_act_is_not_read() {
        let s =
            "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue.";
        let d = "About $20 billion of NVIDIA revenue is on pace to be contributed by Sovereign AI customers.";
        assert!(turned(d, s).is_none());
        let s = "Microsoft and OpenAI signed a new definitive agreement.";
        assert!(
            turned(
                "A new definitive agreement was signed by Microsoft and OpenAI.",
                s
            )
            .is_none()
        );
        // A passive in the source too; a name the source does not have.
        let s = "Asylum Records is a label founded in 1971 by David Geffen and Elliot Roberts.";
        let d =
            "In 1971 Asylum Records was founded by David Geffen and his partner Elliot Roberts.";
        assert!(turned(d, s).is_none());
        let s = "The film was announced in 2013, with Kinberg, Dougherty, and Harris attached to develop the story.";
        let d = "The film's story was developed by Kinberg, Dougherty, and Harris.";
        assert!(turned(d, s).is_none());
        let s = "The rack was detailed by NVIDIA at GTC.";
        assert!(turned("At GTC the rack was detailed by NVIDIA.", s).is_none());
        let s = "NVIDIA detailed the rack.";
        assert!(turned("The rack was detailed by AMD.", s).is_none());
    }
}

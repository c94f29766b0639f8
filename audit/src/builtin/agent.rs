//! A passive's agent put in the place of the act's subject: `about $20 billion … is on pace to
//! be contributed by NVIDIA` where the entry has `sovereign AI customers are on pace to
//! contribute about $20 billion of NVIDIA revenue`; `… booked by TSMC` where it has `NVIDIA
//! said to have booked`.

use super::clause::{AUX, REACH, be_passive, capital, verb};
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::wordnet;

/// Words that open another clause: a subject is not looked for past them.
const OPENERS: &[&str] = &[
    "that", "which", "who", "whom", "whose", "while", "whereas", "because", "as", "when", "but",
    "although", "though",
];

/// How far after a source's act its passive's `by` is looked for.
const SPAN: usize = 4;

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
    let mut out = Vec::new();
    let mut k = w;
    while k > 0 && out.len() < REACH {
        k -= 1;
        let t = &s[k];
        let word = t.word.as_str();
        if t.kind == Kind::Break || OPENERS.contains(&word) {
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
        let noun = !t.anchor.is_empty() && (capital(t) || wordnet::is_noun(&wordnet::lemma(word)));
        if noun {
            out.push(t.anchor.as_str());
        }
    }
    out
}

/// A name the draft `d` makes the agent of a passive whose act the source `s` states in the
/// active with another subject, where the source has that name elsewhere and the draft still
/// has the source's subject: the name and the act.
pub(super) fn turned_agent(d: &[Tok], s: &[Tok]) -> Option<(String, String)> {
    // A verb of speech has no anchor: its lemma stands in (`reported`, `reports`).
    let key = |t: &Tok| {
        if t.anchor.is_empty() {
            wordnet::lemma(&t.word).to_string()
        } else {
            t.anchor.clone()
        }
    };
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
            let answers = s.get(w + 1).is_some_and(|t| t.word == "to");
            let by = s[w + 1..]
                .iter()
                .take_while(|t| t.kind != Kind::Break)
                .take(SPAN)
                .any(|t| t.word == "by");
            if by || be_passive(s, w) || (saying(&s[w].word) && !answers) {
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

//! Who a sentence says said what it says: verbs of speech and the names before them, or after
//! `according to` and `citing`. Default deny judges who said it by the speaker, not by the verb
//! (`support`), and the words that name a speaker bear out only a speaker.

use super::dates::MONTHS;
use super::lexicon::ATTRIBUTING_WORDS;
use super::tokens::{Kind, Tok};

/// Words of saying: who said it is judged by its speaker, not by the verb (a draft may write
/// `said` for `told`).
pub(super) fn saying(w: &str) -> bool {
    ATTRIBUTING_WORDS.contains(&w)
        || matches!(
            w,
            "according" | "citing" | "cited" | "writing" | "say" | "telling" | "reporting"
        )
}

/// Verbs of speech: who stands before one said it.
const SPEECH: &[&str] = &[
    "said",
    "says",
    "say",
    // `with Amy Hood saying growth would have been higher`.
    "saying",
    "told",
    "tells",
    "telling",
    "claimed",
    "claims",
    "reported",
    "reports",
    "reporting",
    "wrote",
    "writes",
    "writing",
    "posted",
    "posts",
    "noted",
    "notes",
    "stated",
    "states",
    "argued",
    "argues",
    "disclosed",
    "discloses",
    "announced",
    "announces",
    "filed",
    "filing",
    "showed",
    "shows",
    "published",
    "cited",
    "cites",
    "added",
    "adds",
    "adding",
    "confirmed",
    "confirms",
    "repeated",
    "reiterated",
];

/// Verbs of speech in the plural, read only after names joined by `and` (`Reuters and
/// Bloomberg report`): alone, `report` and `post` are more often nouns (`a Reuters report`).
const PLURAL: &[&str] = &[
    "report", "write", "post", "note", "claim", "state", "disclose", "announce", "confirm", "cite",
    "add",
];

/// Whether token `i` is a verb of speech, not one of a phrasal verb (`writes down`, `posts
/// up`) nor a passive report (`said to have`).
fn speech_at(toks: &[Tok], i: usize) -> bool {
    // `said to have booked` reports what others say of the one named; `deemed filed` is done
    // to what is named.
    let particle = toks
        .get(i + 1)
        .is_some_and(|n| matches!(n.word.as_str(), "down" | "off" | "up" | "out" | "to"));
    // A progressive is no passive: `is filing this Form S-8`.
    let passive = i > 0
        && !toks[i].word.ends_with("ing")
        && matches!(
            toks[i - 1].word.as_str(),
            "be" | "been" | "being" | "is" | "are" | "was" | "were" | "deemed"
        );
    // `incidents reported since June`, `a deal announced by the company`: a participle
    // after its noun, no speech.
    let participle = toks
        .get(i + 1)
        .is_some_and(|n| matches!(n.word.as_str(), "since" | "by"));
    // `showed employees a prototype` shows a thing; `a filing showed that` says something.
    let showing = matches!(toks[i].word.as_str(), "showed" | "shows")
        && toks.get(i + 1).is_none_or(|n| n.word != "that");
    // `Apple reports quarterly results`: a company's results are reported, not said.
    let results = matches!(toks[i].word.as_str(), "report" | "reports" | "reported")
        && toks
            .get(i + 1)
            .is_some_and(|n| matches!(n.word.as_str(), "quarterly" | "results" | "earnings"));
    // `the United States`, `Consumer Reports`: a capitalised word inside a sentence is a word
    // of a name.
    let in_name = i > 0 && toks[i].raw.starts_with(char::is_uppercase);
    SPEECH.contains(&toks[i].word.as_str())
        && !particle
        && !passive
        && !participle
        && !showing
        && !results
        && !in_name
}

/// Who a draft's sentence says said it: the names before a verb of speech and after
/// `according to` or `citing`, lower case.
pub(super) fn speakers(toks: &[Tok]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = speaker_chains(toks)
        .into_iter()
        .map(|chain| chain.into_iter().map(|k| toks[k].word.clone()).collect())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// [`speakers`] as token indices.
pub(super) fn speaker_chains(toks: &[Tok]) -> Vec<Vec<usize>> {
    let name = |t: &Tok| {
        t.kind == Kind::Word
            && t.raw.starts_with(|c: char| c.is_uppercase())
            && !matches!(t.word.as_str(), "the" | "a" | "an" | "its" | "it" | "they")
    };
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let w = toks[i].word.as_str();
        if matches!(w, "according" | "citing") {
            let mut start = if w == "according" { i + 2 } else { i + 1 };
            // `citing figures from Mercury Research`: whose the figures are is cited.
            if w == "citing" && cited_material(toks, start) {
                start += 2;
            }
            let chain: Vec<usize> = (start..toks.len())
                .take_while(|&k| name(&toks[k]))
                .collect();
            if !chain.is_empty() {
                out.push(chain);
            }
        } else if speech_at(toks, i) || PLURAL.contains(&w) {
            // Past `has`, `also` and a filing's form (`10-Q`).
            let mut j = i;
            while j > 0 && matches!(toks[j - 1].word.as_str(), "has" | "had" | "also" | "have") {
                j -= 1;
            }
            // Past an aside of where it has it (`Reuters, citing three employees, writes`).
            if let Some(open) = aside_before(toks, j) {
                j = open;
            }
            // The head of the name just before, not across a comma: `Reuters reported`, `Kash
            // Rangan of Bernstein said`, `Microsoft's 10-Q says`. Names joined by `and` are
            // each a speaker (`Reuters and Bloomberg report`).
            let mut chains: Vec<Vec<usize>> = Vec::new();
            let mut chain: Vec<usize> = Vec::new();
            while j > 0 {
                let t = &toks[j - 1];
                // A date says when, not who (`the period ended June 27 says`).
                let date = MONTHS.contains(&t.word.as_str())
                    && toks.get(j).is_some_and(|n| n.kind == Kind::Number);
                if date {
                    break;
                }
                if name(t) && t.word.len() >= 2 && !t.word.starts_with(|c: char| c.is_ascii_digit())
                {
                    chain.insert(0, j - 1);
                } else if !chain.is_empty() && t.word == "and" {
                    chains.push(std::mem::take(&mut chain));
                } else if !(t.kind == Kind::Number
                    || (t.kind == Kind::Word && t.word.len() == 1)
                    || (!chain.is_empty() && matches!(t.word.as_str(), "of" | "at" | "from")))
                {
                    break;
                }
                j -= 1;
            }
            chains.extend(Some(chain).filter(|c| !c.is_empty()));
            // A plural verb needs the names joined (`Reuters and Bloomberg report`).
            if speech_at(toks, i) || chains.len() > 1 {
                out.extend(chains);
            }
        }
    }
    out
}

/// The comma that opens an aside of where a sentence has it (`, citing three employees,`)
/// closing right before token `at`.
pub(super) fn aside_before(toks: &[Tok], at: usize) -> Option<usize> {
    let close = at.checked_sub(1).filter(|&k| toks[k].word == ",")?;
    let open = toks[..close]
        .iter()
        .rposition(|t| t.kind == Kind::Break)
        .filter(|&b| toks[b].word == ",")?;
    toks.get(open + 1)
        .is_some_and(|t| matches!(t.word.as_str(), "citing" | "according"))
        .then_some(open)
}

/// What a party cites of another's, before `from` or `by` and the other's name (`citing
/// figures from Mercury Research`).
const MATERIAL: &[&str] = &[
    "figures",
    "data",
    "numbers",
    "estimates",
    "research",
    "documents",
    "statistics",
];

/// Whether [`MATERIAL`] and `from` or `by` stand at `k`: the name after them is who is cited.
pub(super) fn cited_material(toks: &[Tok], k: usize) -> bool {
    toks.get(k)
        .is_some_and(|t| MATERIAL.contains(&t.word.as_str()))
        && toks
            .get(k + 1)
            .is_some_and(|t| matches!(t.word.as_str(), "from" | "by"))
}

/// A verb of judging what was told, as an analyst does (`Vivek Arya at BofA Securities called
/// it a clear positive`): who judges it speaks too.
fn judging(toks: &[Tok], i: usize) -> bool {
    matches!(
        toks[i].word.as_str(),
        "called" | "calls" | "described" | "describes"
    ) && toks
        .get(i + 1)
        .is_some_and(|n| matches!(n.word.as_str(), "it" | "the" | "this" | "that"))
}

/// Who a source sentence says said what it says, leniently, lower case: the capitalised words
/// of the clause of a verb of speech (`Apple's quarterly report for the period ended … says`)
/// and the sentence's opening name before an apposition (`Kash Rangan, an analyst at
/// Bernstein, said`; not past `which`: `Microsoft, which reports in September, …`), and the
/// name after `according to` or `citing`.
pub(super) fn source_speakers(toks: &[Tok]) -> Vec<String> {
    let capital = |t: &&Tok| t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase);
    // The opening name, when a comma follows it (`Kash Rangan, an analyst at Bernstein, said`).
    let n = toks.iter().take_while(|t| capital(t)).count();
    let opening: Vec<String> = if toks.get(n).is_some_and(|t| t.kind == Kind::Break) {
        toks[..n].iter().map(|t| t.word.clone()).collect()
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    let mut clause = 0;
    for (i, t) in toks.iter().enumerate() {
        let w = t.word.as_str();
        let relative = i > 0 && matches!(toks[i - 1].word.as_str(), "which" | "that" | "who");
        if t.kind == Kind::Break {
            clause = i + 1;
        } else if matches!(w, "according" | "citing") {
            out.extend(
                toks[i + 1..]
                    .iter()
                    .take(4)
                    .filter(capital)
                    .map(|t| t.word.clone()),
            );
        } else if (speech_at(toks, i) || judging(toks, i)) && !relative {
            // Past an aside that closes right before the verb (`that Ryan Taylor, chief revenue
            // officer, told`): the name before it spoke.
            if i > 0 && toks[i - 1].word == "," && clause == i {
                let opens = (i.saturating_sub(8)..i - 1)
                    .rev()
                    .find(|&j| toks[j].kind == Kind::Break);
                if let Some(j) = opens.filter(|&j| toks[j].word == ",") {
                    let start = (0..j)
                        .rev()
                        .find(|&k| toks[k].kind == Kind::Break)
                        .map_or(0, |k| k + 1);
                    out.extend(
                        toks[start..j]
                            .iter()
                            .filter(capital)
                            .map(|t| t.word.clone()),
                    );
                }
            }
            out.extend(
                toks[clause..i]
                    .iter()
                    .filter(capital)
                    .map(|t| t.word.clone()),
            );
            // A party named in lower case right before the verb (`suppliers say`).
            out.extend(
                i.checked_sub(1)
                    .map(|k| &toks[k])
                    .filter(|t| t.kind == Kind::Word && !t.anchor.is_empty())
                    .map(|t| t.word.clone()),
            );
            out.extend(opening.iter().cloned());
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokenize;
    use super::*;

    #[test]
    fn speakers_are_read() {
        let s = speakers(&tokenize(
            "Reuters reported that Tesla has said it will, according to Bloomberg.",
        ));
        assert_eq!(s, vec![vec!["bloomberg"], vec!["reuters"], vec!["tesla"]]);
        let s = speakers(&tokenize(
            "Kash Rangan of Bernstein said so; Tesla's 10-Q says so.",
        ));
        assert_eq!(s, vec![vec!["kash", "rangan", "bernstein"], vec!["tesla"]]);
        let s = source_speakers(&tokenize(
            "Kash Rangan, an analyst at Bernstein, said so. Microsoft, which reports in May, did.",
        ));
        assert_eq!(s, vec!["kash", "rangan"]);
        // A name before an aside that closes right before the verb spoke.
        let s = source_speakers(&tokenize(
            "@PalantirTech posted that Ryan Taylor, chief revenue officer, told the conference so.",
        ));
        assert!(
            s.contains(&"ryan".to_string()) && s.contains(&"taylor".to_string()),
            "{s:?}"
        );
        // A phrasal verb and a passive report name no speaker.
        let s = source_speakers(&tokenize(
            "NVIDIA writes down H20 inventory, with TSMC said to have booked most of it.",
        ));
        assert!(s.is_empty(), "{s:?}");
        // A thing shown and a participle after its noun name no speaker either.
        let s = source_speakers(&tokenize(
            "Tesla showed employees a prototype. NHTSA asked Tesla for data on incidents reported since June.",
        ));
        assert!(s.is_empty(), "{s:?}");
        let s = speakers(&tokenize("Reuters showed that Tesla did."));
        assert_eq!(s, vec![vec!["reuters"]]);
        // Names joined by `and` are each a speaker, also of a plural verb; a lone noun is no
        // verb.
        // Past an aside of where it has it.
        let s = speakers(&tokenize(
            "Reuters, citing three current and former employees, writes that AMD says so.",
        ));
        assert!(s.contains(&vec!["reuters".to_string()]), "{s:?}");
        let s = speakers(&tokenize(
            "Reuters, a news agency, writes that AMD says so.",
        ));
        assert!(!s.contains(&vec!["reuters".to_string()]), "{s:?}");
        let s = speakers(&tokenize("Reuters and Bloomberg report that Tesla did."));
        assert_eq!(s, vec![vec!["bloomberg"], vec!["reuters"]]);
        let s = speakers(&tokenize("A Reuters report cites supply-chain sources."));
        assert!(s.is_empty(), "{s:?}");
        // A date is no speaker.
        let s = speakers(&tokenize(
            "Apple's 10-Q for the period ended June 27 says Apple asked suppliers.",
        ));
        assert!(s.is_empty(), "{s:?}");
    }
}

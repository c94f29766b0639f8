//! A clause crossed between two entries: in a sentence citing two entries or more, a clause
//! whose names and figures each stand in a cited entry but not all in any one (`raised their
//! price to $29.99 a month`, of one entry's plans and another's price; `Rasgon is at Piper
//! Sandler`). The sentence is split where a clause of its own begins, so that what two entries
//! tell side by side is not read as crossed.

use super::judge::found;
use super::offers::Offer;
use super::times::in_date;
use super::units::{Known, Unit};
use crate::builtin::clause::{plural_present, present_tense, verb};
use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordnet;

/// Words that open a clause of their own (`…, while CNBC reported`).
const CLAUSE_LINKS: &[&str] = &["while", "whereas", "but", "and", "as"];

/// The clauses of a sentence (token ranges) as [`mixed_clause`] reads them: split at `while`
/// and `whereas`, at `;`, at a comma before [`CLAUSE_LINKS`], and at `and` before a capital
/// (`Rasgon is at Bernstein and Harsh Kumar is at Piper Sandler`; names joined by `and` are
/// so each their own).
fn clause_spans(toks: &[Tok], handle: &dyn Fn(&str) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    // Inside an aside that opened with `, which` (`Tesla's service, which expanded to Phoenix,
    // began …`): the comma that closes it ends it.
    let mut aside = false;
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        let relative = t.word == ","
            && next.is_some_and(|n| matches!(n.word.as_str(), "which" | "who" | "whose"));
        let closes = aside && t.word == ",";
        aside = relative || (aside && !closes);
        let splits = matches!(t.word.as_str(), "while" | "whereas" | ";")
            || relative
            || closes
            || (t.word == "," && next.is_some_and(|n| CLAUSE_LINKS.contains(&n.word.as_str())))
            // A clause a link opens (`after Xbox raised …`, `because demand rose`).
            || (matches!(
                t.word.as_str(),
                "after" | "before" | "because" | "since" | "once" | "when" | "until"
            ) && (next.is_some_and(|n| n.kind == Kind::Word && n.raw.starts_with(char::is_uppercase))
                || acts_after(toks, i)))
            || (t.word == "and"
                && (next.is_some_and(|n| {
                    n.kind == Kind::Word
                        && (n.raw.starts_with(char::is_uppercase)
                            || handle(&n.word)
                            // A second act told as a participle (`weighing … and bringing`).
                            || (n.word.len() > 5 && n.word.ends_with("ing")))
                }) || acts_after(toks, i)));
        if splits {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..toks.len());
    out.retain(|r| !r.is_empty());
    out
}

/// Whether the `and` at `i` opens a clause with a subject of its own: a noun or an article
/// right after it, and a verb after that before the next break, `and` or `that` (`and analysts
/// now expect`, `and a set of agreements adds`); not a list (`to $180 and $200`), nor a second
/// verb of the same subject (`bundled Copilot into its plans and raised their price`).
fn acts_after(toks: &[Tok], i: usize) -> bool {
    let subject = toks.get(i + 1).is_some_and(|n| {
        n.kind == Kind::Word
            && (matches!(
                n.word.as_str(),
                "a" | "an" | "the" | "its" | "their" | "his" | "her"
            ) || wordnet::only_noun(&wordnet::lemma(&n.word)))
    });
    subject
        && toks
            .iter()
            .enumerate()
            .skip(i + 1)
            .take_while(|(_, t)| {
                t.kind != Kind::Break && !matches!(t.word.as_str(), "and" | "that")
            })
            .any(|(k, t)| {
                let w = t.word.as_str();
                t.kind == Kind::Word
                    && (verb(toks, k)
                        || present_tense(w)
                        || plural_present(toks, k)
                        || (wordnet::lemma(w) == w && wordnet::is_verb(w) && !wordnet::is_noun(w)))
            })
}

/// The first clause of a sentence citing two entries or more whose names and figures are each
/// in a cited entry but not all in any one (see [`Judged::mixed`](super::judge::Judged::mixed)); a list the sentence lays out
/// `respectively` is left alone.
pub(super) fn mixed_clause(
    toks: &[Tok],
    units: &[Unit],
    offers: &[&Offer],
    entries: &[usize],
    known: &Known<'_>,
) -> Option<String> {
    let mut cited: Vec<usize> = entries.to_vec();
    cited.sort_unstable();
    cited.dedup();
    if cited.len() < 2 || toks.iter().any(|t| t.word == "respectively") {
        return None;
    }
    let of_entry = |e: usize| -> Vec<&Offer> {
        offers
            .iter()
            .zip(entries)
            .filter(|(_, k)| **k == e)
            .map(|(o, _)| *o)
            .collect()
    };
    let by_entry: Vec<Vec<&Offer>> = cited.iter().map(|&e| of_entry(e)).collect();
    // A name the company's record needs no source for (`Bernstein` of an entry about
    // Bernstein's target) still tells which entry a clause is of; not who said it (`Reuters`,
    // a handle: read so, two demo journals that cite a post and its filing were sent back).
    let named = |i: usize| {
        let t = &toks[i];
        let name = t.raw.starts_with(char::is_uppercase)
            && (i > 0 || !wordnet::is_word(&wordnet::lemma(&t.word)))
            && (known.word)(&t.word)
            && !(known.from)(&t.word)
            && !(known.handle)(&t.word)
            && !in_date(toks, i);
        (t.kind == Kind::Word && !t.anchor.is_empty() && name)
            .then(|| vec![format!("x:{}", t.word), format!("s:{}", t.anchor)])
    };
    let held = |keys: &[String], os: &[&Offer]| keys.iter().any(|k| os.iter().any(|o| o.has(k)));
    for range in clause_spans(toks, known.handle) {
        let identifying: Vec<&Unit> = units
            .iter()
            .filter(|u| range.contains(&u.at))
            .filter(|u| u.name || u.keys.iter().any(|k| k.starts_with("n:")))
            .filter(|u| found(u, toks, offers))
            .collect();
        let names: Vec<Vec<String>> = range
            .clone()
            .filter_map(named)
            .filter(|keys| held(keys, offers))
            .collect();
        if identifying.len() + names.len() < 2 {
            continue;
        }
        let together = by_entry.iter().any(|os| {
            identifying.iter().all(|u| found(u, toks, os)) && names.iter().all(|k| held(k, os))
        });
        if !together {
            let words: Vec<&str> = toks[range].iter().map(|t| t.raw.as_str()).collect();
            return Some(words.join(" "));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    /// The clauses of `text` as written, a space between tokens.
    fn spans(text: &str) -> Vec<String> {
        let toks = tokenize(text);
        clause_spans(&toks, &|_| false)
            .into_iter()
            .map(|r| {
                toks[r]
                    .iter()
                    .map(|t| t.raw.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn clauses_split_at_while_and_a_new_subject() {
        assert_eq!(
            spans(
                "Rasgon is at Bernstein and Harsh Kumar is at Piper Sandler, while Reuters and Bloomberg report it."
            ),
            [
                "Rasgon is at Bernstein",
                "Harsh Kumar is at Piper Sandler",
                // Names joined by `and` are each their own: two entries may tell one each.
                "Reuters",
                "Bloomberg report it"
            ]
        );
        // An aside of `which`, a clause a link opens, a second act as a participle.
        assert_eq!(
            spans(
                "The service, which expanded to Phoenix, began rides after Bloomberg reported it, weighing a model and bringing more languages."
            ),
            [
                "The service",
                "which expanded to Phoenix",
                "began rides",
                "Bloomberg reported it , weighing a model",
                "bringing more languages"
            ]
        );
    }
}

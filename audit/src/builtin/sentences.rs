//! The body's paragraphs and sentences, with the citations of each sentence.

use super::citations::{leading_citations, strip_citations};
use super::dates::is_short_month;

#[derive(Debug)]
pub(super) struct Sentence {
    pub(super) text: String,
    pub(super) cites: Vec<String>,
    pub(super) paragraph: usize,
    /// The heading of its `## ` section (empty before the first heading).
    pub(super) heading: String,
}

/// Words after which a full stop does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "inc", "corp", "co", "ltd", "mr", "ms", "mrs", "dr", "st", "no", "vs", "jr", "sr", "gen",
];

/// Words that open a sentence and are no part of a name.
const SENTENCE_OPENERS: &[&str] = &[
    "No", "The", "It", "Its", "This", "That", "These", "Those", "A", "An", "He", "She", "They",
    "We", "There", "In", "On", "At", "But", "And",
];

/// Whether the `.` at byte `i` ends an abbreviation or initials (`Inc.`, `J.P.`, `U.S.`, `J.`)
/// rather than a sentence.
pub(super) fn abbreviation_at(text: &str, i: usize) -> bool {
    // `U.S..`: the second stop ends the sentence.
    if text[..i].ends_with('.') {
        return false;
    }
    let word = text[..i]
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    // An initial (`George W. Bush`), not a regnal number (`Queen of France by marriage to
    // Francis I. Anne was …`).
    // Nor a letter of a model's name that ends its sentence (`a fleet of about 80 Model Y. No
    // figures were given`): a word that opens sentences, and no name, follows.
    let next = text[i + 1..].split_whitespace().next().unwrap_or("");
    let opens = SENTENCE_OPENERS.contains(&next);
    let single_capital = word.chars().count() == 1
        && word.starts_with(char::is_uppercase)
        && !matches!(word, "I" | "V" | "X")
        && !opens;
    let initials = word.contains('.')
        && word.chars().all(|c| c == '.' || c.is_uppercase())
        && word.chars().count() <= 5;
    // A month's short name before its day (`ended Sept. 26`).
    let short_month = is_short_month(&word.to_lowercase())
        && word.starts_with(char::is_uppercase)
        && next.starts_with(|c: char| c.is_ascii_digit());
    single_capital
        || initials
        || short_month
        || ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

/// Splits at `.`, `!` or `?` (and a closing quotation mark or bracket after it) followed by
/// white space and then not by a lower-case letter, and
/// not after an abbreviation unless a citation follows (so `1.2`, `U.S.-made`, `U.S. commercial revenue` and
/// `J.P. Morgan` stay whole).
pub(super) fn split_sentences(paragraph: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = paragraph.as_bytes();
    let mut start = 0;
    for i in 0..bytes.len() {
        // An ASCII stop: the byte after it starts a character. A closing quotation mark or
        // bracket right after it belongs to the sentence (`… the next quarter." Wamsi Mohan`).
        if !matches!(bytes[i], b'.' | b'!' | b'?') {
            continue;
        }
        let closer = paragraph[i + 1..]
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\u{201d}' | ')'))
            .map_or(0, char::len_utf8);
        let end = i + closer;
        if bytes.get(end + 1).is_none_or(|b| b.is_ascii_whitespace())
            && !paragraph[end + 1..]
                .trim_start()
                .chars()
                .next()
                .is_some_and(char::is_lowercase)
            && !(bytes[i] == b'.'
                && abbreviation_at(paragraph, i)
                && !paragraph[end + 1..].trim_start().starts_with('['))
        {
            out.push(&paragraph[start..=end]);
            start = end + 1;
        }
    }
    if start < paragraph.len() {
        out.push(&paragraph[start..]);
    }
    out
}

/// The body's sentences (headings are not sentences), with their citations. Citations standing
/// after a sentence's full stop belong to that sentence.
pub(super) fn sentences(body: &str) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    // Each paragraph with the heading of its section.
    let mut paragraphs: Vec<(String, String)> = vec![(String::new(), String::new())];
    let mut heading = String::new();
    for line in body.lines() {
        let l = line.trim();
        if let Some(h) = l.strip_prefix("## ") {
            heading = h.trim().to_string();
            paragraphs.push((String::new(), heading.clone()));
        } else if l.is_empty() {
            paragraphs.push((String::new(), heading.clone()));
        } else if let Some((p, _)) = paragraphs.last_mut() {
            p.push_str(l);
            p.push(' ');
        }
    }
    for (n, (p, heading)) in paragraphs
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| !p.trim().is_empty())
    {
        for raw in split_sentences(p) {
            // Citations opening a chunk stand after the previous sentence's full stop.
            let (lead, raw) = leading_citations(raw);
            if let Some(prev) = out.last_mut().filter(|s| s.paragraph == n) {
                prev.cites.extend(lead);
            }
            let (text, cites) = strip_citations(raw);
            let bare = text
                .trim()
                .trim_matches(|c: char| c.is_ascii_punctuation())
                .trim();
            match out.last_mut() {
                Some(prev) if bare.is_empty() && prev.paragraph == n => prev.cites.extend(cites),
                _ if bare.is_empty() => {}
                _ => out.push(Sentence {
                    // A citation taken out leaves a space before the stop: `earlier [A].`.
                    text: text
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace(" .", ".")
                        .replace(" ,", ","),
                    cites,
                    paragraph: n,
                    heading: heading.clone(),
                }),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_and_abbreviations_do_not_end_a_sentence() {
        let p = "Jamie Dimon of J.P. Morgan spoke. George W. Bush did not. Apple Inc. said so.";
        assert_eq!(
            split_sentences(p),
            [
                "Jamie Dimon of J.P. Morgan spoke.",
                " George W. Bush did not.",
                " Apple Inc. said so."
            ]
        );
        // A month's short name before its day; not a stop before a sentence's first word.
        let p = "The quarter ended Sept. 26. It ended in Oct. Sales rose.";
        assert_eq!(
            split_sentences(p),
            [
                "The quarter ended Sept. 26.",
                " It ended in Oct.",
                " Sales rose."
            ]
        );
    }

    #[test]
    fn a_letter_of_a_name_ends_a_sentence_before_an_opener() {
        let p = "It runs a fleet of about 80 Model Y. No figures beyond the post were given.";
        assert_eq!(
            split_sentences(p),
            [
                "It runs a fleet of about 80 Model Y.",
                " No figures beyond the post were given."
            ]
        );
    }
}

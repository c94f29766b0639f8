//! The keys a unit is found by: a word in its degree, a direction.

use crate::builtin::lexicon::Family;

/// Degree of an adjective or adverb as written: `large` 0, `larger` 1, `largest` 2.
pub(super) fn degree(word: &str, lemma: &str) -> u8 {
    if word == lemma {
        0
    } else if word.ends_with("est") {
        2
    } else if word.ends_with("er") && !lemma.ends_with("er") {
        1
    } else {
        0
    }
}

pub(super) fn word_key(lemma: &str, degree: u8) -> String {
    match degree {
        0 => format!("w:{lemma}"),
        d => format!("w:{lemma}#{d}"),
    }
}

pub(super) fn direction_key(f: Family, up: bool) -> String {
    format!("d:{f:?}:{up}")
}

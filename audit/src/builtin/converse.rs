//! Which way a verb moves what it is about: to its subject (`received`, `secured`, `bought`) or
//! away from it (`shipped`, `issued`, `asked`). A draft that keeps a sentence's subject
//! and turns its verb the other way (`Tesla received orders from suppliers` for `Tesla placed
//! orders with suppliers`) turns who gives and who gets.
//!
//! WordNet's hypernyms sort most verbs (`secure` is a kind of `get`, `contribute` of `give`); a
//! few seeds name the verbs whose senses point both ways (`buy` is a kind of `get` and, as
//! `bribe`, of `give`) or neither (`place` an order, `ask`).

use super::tokens::Tok;
use super::wordnet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Way {
    /// To the subject: it gets.
    In,
    /// Away from the subject: it gives, sends or asks.
    Out,
}

/// Verbs whose subject gets, whatever else their senses say.
pub(super) const GETS: &[&str] = &[
    "receive", "get", "obtain", "acquire", "gain", "accept", "earn", "win", "secure", "buy",
    "purchase", "borrow", "import", "collect", "land",
];

/// Verbs whose subject gives, sends or asks, whatever else their senses say.
const OUT: &[&str] = &[
    "give",
    "send",
    "ship",
    "sell",
    "supply",
    "provide",
    "issue",
    "lend",
    "grant",
    "award",
    "offer",
    "deliver",
    "export",
    "place",
    "ask",
    "request",
    "order",
    "contribute",
    "transfer",
    "distribute",
    "furnish",
];

/// Verbs of money, which goes the other way from what it buys (`paid for` is `bought`): no way.
const MONEY: &[&str] = &[
    "pay", "spend", "invest", "charge", "fund", "finance", "cost",
];

/// Hypernyms that make a verb's subject the one who gets.
const GETTING: &[&str] = &["get", "acquire", "obtain", "receive"];

/// Hypernyms that make a verb's subject the one who gives.
const GIVING: &[&str] = &["give", "transfer", "send", "provide", "supply", "furnish"];

/// The way verb `w` (lower case, any form) moves what it is about; `None` when it moves
/// nothing, or WordNet's senses point both ways.
pub(super) fn way(w: &str) -> Option<Way> {
    let l = wordnet::lemma(w);
    let l = l.as_ref();
    if MONEY.contains(&l) {
        return None;
    }
    if GETS.contains(&l) {
        return Some(Way::In);
    }
    if OUT.contains(&l) {
        return Some(Way::Out);
    }
    if !wordnet::is_verb(l) {
        return None;
    }
    let hyp = wordnet::hypernyms(l);
    let gets = hyp.iter().any(|h| GETTING.contains(h));
    let gives = hyp.iter().any(|h| GIVING.contains(h));
    match (gets, gives) {
        (true, false) => Some(Way::In),
        (false, true) => Some(Way::Out),
        _ => None,
    }
}

/// Nouns that `take` makes a getting of (`has taken delivery of`, `took possession of`).
const TAKEN: &[&str] = &["delivery", "possession", "receipt", "ownership", "custody"];

/// The way of the verb at `v` with what follows it: `take delivery of` gets as `receive` does;
/// otherwise the verb's own [`way`].
pub(super) fn way_at(toks: &[Tok], v: usize) -> Option<Way> {
    let taken = wordnet::lemma(&toks[v].word) == "take"
        && toks[v + 1..]
            .iter()
            .find(|t| !matches!(t.word.as_str(), "a" | "an" | "the"))
            .is_some_and(|t| TAKEN.contains(&t.word.as_str()));
    if taken {
        return Some(Way::In);
    }
    way(&toks[v].word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_point_to_or_away_from_their_subject() {
        for w in ["received", "secured", "obtains", "bought", "earned", "won"] {
            assert_eq!(way(w), Some(Way::In), "{w}");
        }
        for w in [
            "shipped",
            "issued",
            "asked",
            "placed",
            "contributed",
            "sold",
        ] {
            assert_eq!(way(w), Some(Way::Out), "{w}");
        }
        for w in [
            "raised", "said", "booked", "revenue", "agreed", "paid", "invests",
        ] {
            assert_eq!(way(w), None, "{w}");
        }
        let toks = crate::builtin::tokens::tokenize("Microsoft has taken delivery of the racks.");
        assert_eq!(way_at(&toks, 2), Some(Way::In));
        let toks = crate::builtin::tokens::tokenize("Microsoft has taken a charge.");
        assert_eq!(way_at(&toks, 2), None);
    }
}

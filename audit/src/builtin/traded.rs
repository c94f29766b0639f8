//! Two things that trade clauses: a draft's sentence that keeps a source sentence's clauses
//! and moves a thing of each into the other (`volume production of the Cybercab has started,
//! with a pilot production line planned for 2027` where the entry has `a pilot production line
//! for the Cybercab has started, with volume planned for 2027`). Each clause is known by the
//! words it keeps; the roles check's acts and names do not reach a thing that changes clause.

use super::clause::CLAUSE_OPENERS;
use super::tokens::{Kind, Tok};
use super::wordnet;

/// Clauses read in a sentence; one with more is not compared (its clauses are lists).
const MOST: usize = 6;

/// Words a clause must keep besides the traded ones, so that it is known in the other
/// sentence.
const KEPT: usize = 2;

/// The clauses of `toks` as spans: split at breaks, at a clause's opener and at an `and`
/// before a verb (`have taped out at TSMC and remain on track`).
fn clauses(toks: &[Tok]) -> Vec<(usize, usize)> {
    let splits = |i: usize| {
        let t = &toks[i];
        let w = t.word.as_str();
        let verb_next = || {
            toks.get(i + 1).is_some_and(|n| {
                let lemma = wordnet::lemma(&n.word);
                n.kind == Kind::Word
                    && !n.raw.starts_with(char::is_uppercase)
                    && wordnet::is_verb(&lemma)
                    && !wordnet::is_noun(&lemma)
            })
        };
        t.kind == Kind::Break || CLAUSE_OPENERS.contains(&w) || (w == "and" && verb_next())
    };
    let mut out = Vec::new();
    let mut from = 0;
    for i in 0..=toks.len() {
        if i == toks.len() || splits(i) {
            if (from..i).any(|k| !toks[k].anchor.is_empty()) {
                out.push((from, i));
            }
            from = i + 1;
        }
    }
    out
}

/// The distinct anchors of a span.
fn anchors(toks: &[Tok], (a, b): (usize, usize)) -> Vec<&str> {
    let mut v: Vec<&str> = toks[a..b]
        .iter()
        .filter(|t| !t.anchor.is_empty())
        .map(|t| t.anchor.as_str())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Anchors two clauses share.
fn shared(x: &[&str], y: &[&str]) -> usize {
    x.iter().filter(|w| y.binary_search(w).is_ok()).count()
}

/// Whether token `i` is a thing: a noun or a name, not a number.
fn thing(t: &Tok) -> bool {
    t.kind == Kind::Word
        && !t.anchor.is_empty()
        && (t.raw.starts_with(char::is_uppercase) || wordnet::is_noun(&wordnet::lemma(&t.word)))
}

/// Two things (as the source has them) that the draft `d` moves each into the other's clause
/// of the source `s`: each once in each sentence, and each clause known by at least [`KEPT`]
/// other words it shares with its own clause, more than it shares with the other.
pub(super) fn traded<'a>(d: &[Tok], s: &'a [Tok]) -> Option<(&'a str, &'a str)> {
    let (sc, dc) = (clauses(s), clauses(d));
    if sc.len() < 2 || dc.len() < 2 || sc.len() > MOST || dc.len() > MOST {
        return None;
    }
    let (sa, da): (Vec<_>, Vec<_>) = (
        sc.iter().map(|&c| anchors(s, c)).collect(),
        dc.iter().map(|&c| anchors(d, c)).collect(),
    );
    let once = |toks: &[Tok], a: &str| toks.iter().filter(|t| t.anchor == a).count() == 1;
    let clause_of = |cs: &[(usize, usize)], k: usize| cs.iter().position(|&(a, b)| a <= k && k < b);
    // Things once in each sentence, with their clause in each.
    let moved: Vec<(usize, usize, usize)> = (0..s.len())
        .filter(|&k| thing(&s[k]) && once(s, &s[k].anchor))
        .filter_map(|k| {
            let a = s[k].anchor.as_str();
            let m = d.iter().position(|t| t.anchor == a && thing(t))?;
            once(d, a).then_some(())?;
            Some((k, clause_of(&sc, k)?, clause_of(&dc, m)?))
        })
        .collect();
    if moved.len() < 2 {
        return None;
    }
    // Anchors each draft clause shares with each source clause, counted once.
    let m: Vec<Vec<usize>> = da
        .iter()
        .map(|x| sa.iter().map(|y| shared(x, y)).collect())
        .collect();
    for &(x, i, b) in &moved {
        for &(y, j, a) in &moved {
            if i == j || a == b {
                continue;
            }
            // `x` goes from clause i to draft clause b, `y` from j to a: the draft's clause a
            // must be i's and b must be j's. Each traded word stands once in each sentence, so
            // it is counted only where it went: in `b` with `i` and in `a` with `j`.
            let (own_a, own_b) = (m[a][i], m[b][j]);
            let (other_a, other_b) = (m[a][j].saturating_sub(1), m[b][i].saturating_sub(1));
            if own_a >= KEPT && own_b >= KEPT && own_a + own_b > other_a + other_b {
                return Some((s[x].raw.as_str(), s[y].raw.as_str()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn trade(d: &str, s: &str) -> Option<(String, String)> {
        traded(&tokenize(d), &tokenize(s)).map(|(x, y)| (x.to_string(), y.to_string()))
    }

    #[test]
    fn things_that_trade_clauses_are_read() {
        let s = "Tesla reports that a pilot production line for the two-seat Cybercab has started at Giga Texas, with volume planned for 2027.";
        let d = "Tesla reports that volume production of the two-seat Cybercab has started at Giga Texas, with a pilot production line planned for 2027.";
        assert!(trade(d, s).is_some());
        let s = "The Rubin GPU and Vera CPU have taped out at TSMC and remain on track for volume production in 2027.";
        let d = "The Rubin GPU and Vera CPU are in volume production and remain on track to tape out at TSMC in 2027.";
        assert!(trade(d, s).is_some());
    }

    #[test]
    fn clauses_that_keep_their_things_are_not_read() {
        let s = "Tesla reports that a pilot production line for the two-seat Cybercab has started at Giga Texas, with volume planned for 2027.";
        assert!(trade(s, s).is_none());
        let d = "With volume planned for 2027, a pilot production line for the two-seat Cybercab has started at Giga Texas, Tesla reports.";
        assert!(trade(d, s).is_none());
        // Clauses told in the other order, each with its own figures and verbs.
        let s = "Revenue rose 5% to $10 billion in the quarter, with services up 8% from a year earlier.";
        let d = "Services rose 8% from a year earlier, with revenue up 5% to $10 billion in the quarter.";
        assert!(trade(d, s).is_none());
    }
}

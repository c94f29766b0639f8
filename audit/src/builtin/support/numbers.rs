//! Numbers as a sentence states them: their value, what they count, the bound they carry
//! (`about`, `more than`), and the words a figure is written with.

use crate::builtin::tokens::{Kind, Tok};
use crate::builtin::wordclass::cardinal;

/// How a number is bounded: `about 20,000`, `more than 20,000`, `up to 20,000`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Approx,
    AtLeast,
    AtMost,
}

impl Bound {
    pub(super) fn key(self, n: &str) -> String {
        let b = match self {
            Bound::Approx => "approx",
            Bound::AtLeast => "least",
            Bound::AtMost => "most",
        };
        format!("b:{n}:{b}")
    }
}

/// The words (one or two before a number) that bound it.
const BOUNDS: &[(&[&str], Bound)] = &[
    (&["about"], Bound::Approx),
    (&["around"], Bound::Approx),
    (&["roughly"], Bound::Approx),
    (&["approximately"], Bound::Approx),
    (&["nearly"], Bound::Approx),
    (&["almost"], Bound::Approx),
    (&["some"], Bound::Approx),
    (&["close", "to"], Bound::Approx),
    (&["an", "estimated"], Bound::Approx),
    (&["more", "than"], Bound::AtLeast),
    (&["over"], Bound::AtLeast),
    (&["above"], Bound::AtLeast),
    (&["at", "least"], Bound::AtLeast),
    (&["upwards", "of"], Bound::AtLeast),
    (&["in", "excess", "of"], Bound::AtLeast),
    (&["exceeding"], Bound::AtLeast),
    // A verb of passing a mark bounds its figure as `above` does (`deals that exceeded $10
    // million`, `market value topped $400 billion`); only its inflected forms (`the top 10` is
    // no bound).
    (&["exceeded"], Bound::AtLeast),
    (&["exceeds"], Bound::AtLeast),
    (&["topped"], Bound::AtLeast),
    (&["topping"], Bound::AtLeast),
    (&["surpassed"], Bound::AtLeast),
    (&["surpassing"], Bound::AtLeast),
    (&["passed"], Bound::AtLeast),
    (&["passing"], Bound::AtLeast),
    (&["gone", "past"], Bound::AtLeast),
    (&["went", "past"], Bound::AtLeast),
    (&["moved", "past"], Bound::AtLeast),
    (&["less", "than"], Bound::AtMost),
    (&["fewer", "than"], Bound::AtMost),
    (&["under"], Bound::AtMost),
    (&["below"], Bound::AtMost),
    (&["up", "to"], Bound::AtMost),
    (&["at", "most"], Bound::AtMost),
    (&["as", "many", "as"], Bound::AtMost),
    (&["as", "much", "as"], Bound::AtMost),
];

/// The bound of the number at token `i`, and the index of its first word.
pub(super) fn bound_before(toks: &[Tok], i: usize) -> Option<(Bound, usize)> {
    // `over five years` is how long, not more than five years.
    let period = toks.get(i + 1).is_some_and(|t| {
        matches!(
            t.word.trim_end_matches('s'),
            "year" | "quarter" | "month" | "week" | "day" | "decade"
        )
    });
    // `stretched to over 3 weeks`, `a delay of over two years`: a bound again.
    let bounded = i > 1 && matches!(toks[i - 2].word.as_str(), "to" | "of" | "at");
    if period && i > 0 && toks[i - 1].word == "over" && !bounded {
        return None;
    }
    // A currency sign is not a token: `about $200` reads `about 200`.
    BOUNDS.iter().find_map(|(words, b)| {
        let start = i.checked_sub(words.len())?;
        let hit = words
            .iter()
            .enumerate()
            .all(|(k, w)| toks[start + k].word == *w);
        hit.then_some((*b, start))
    })
}

/// What the number at token `i` counts: `%`, the stem of the word after it, or the scale word
/// and the word after that (`3 million users`).
pub(super) fn counted(toks: &[Tok], i: usize) -> String {
    let next = |k: usize| toks.get(k).map_or("", |t| t.anchor.as_str());
    if toks[i].raw.ends_with('%') || matches!(next(i + 1), "percent" | "pct") {
        return "%".to_string();
    }
    match next(i + 1) {
        "million" | "billion" | "thousand" | "trillion" => {
            format!("{} {}", next(i + 1), next(i + 2))
        }
        w => w.to_string(),
    }
}

/// The value of the number at token `i`: its digits, or a number written as a word (`nine`).
pub(super) fn number_at(toks: &[Tok], i: usize) -> Option<String> {
    let t = &toks[i];
    match t.kind {
        Kind::Number => Some(t.anchor.clone()),
        Kind::Word => cardinal(&t.word).map(|n| n.to_string()),
        Kind::Break => None,
    }
}

/// How a figure is written (`1.2bn dollars`, `14 percent`): the figure checks judge its value,
/// scale and unit against the entries.
pub(super) const FIGURE_WORDS: &[&str] = &[
    "million", "billion", "trillion", "thousand", "bn", "mn", "dollars", "dollar", "usd",
    "percent", "pct", "cents", "euros", "pounds",
];

/// A figure written with its scale (`1.2bn`, `3x`, `400m`): the figure checks judge it. Other
/// words that start with a digit (`42nd`, `1930s`, `10b5`) are found only as written.
pub(super) fn shorthand(w: &str) -> bool {
    let tail = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    tail.len() < w.len() && matches!(tail, "bn" | "b" | "m" | "mn" | "k" | "x" | "pc" | "tn")
}

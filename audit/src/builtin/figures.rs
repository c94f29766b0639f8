//! Figures (numbers, amounts, percentages), normalised for comparison.

use super::dates::MONTHS;
use super::wordclass::cardinal;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Percent,
    Number,
    /// A multiple: `3x`, `3 times`.
    Times,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Figure {
    pub(super) value: f64,
    pub(super) kind: Kind,
    pub(super) text: String,
    /// `$`, `£` or `€`, from the sign before the number or the word after it.
    pub(super) currency: Option<char>,
    /// The words after the figure (lower case, up to five): its unit and period.
    pub(super) after: Vec<String>,
    /// The word that leads to the figure (`passed`, `from`, `above`), past bounds like
    /// `roughly` or `more than`; `None` after punctuation or a word that ties nothing (`of`).
    pub(super) lead: Option<String>,
}

/// Words passed over on the way back to a figure's lead: bounds and articles.
const BOUNDS: &[&str] = &[
    "about",
    "roughly",
    "around",
    "approximately",
    "nearly",
    "almost",
    "some",
    "just",
    "only",
    "more",
    "less",
    "fewer",
    "than",
    "least",
    "a",
    "an",
    "the",
];

/// Leads that tie a figure to nothing in particular.
const LOOSE: &[&str] = &["of", "and", "or", "but", "nor", "with", "by"];

/// The lead of a figure whose text starts at `start`: the nearest word before it that is not
/// one of [`BOUNDS`], with nothing but spaces and a currency sign between.
fn lead(chars: &[char], start: usize) -> Option<String> {
    let mut k = start;
    loop {
        while k > 0 && matches!(chars[k - 1], ' ' | '$' | '\u{a3}' | '\u{20ac}') {
            k -= 1;
        }
        let end = k;
        while k > 0 && chars[k - 1].is_alphabetic() {
            k -= 1;
        }
        if k == end {
            return None;
        }
        let word: String = chars[k..end].iter().collect::<String>().to_lowercase();
        if !BOUNDS.contains(&word.as_str()) {
            return (!LOOSE.contains(&word.as_str())).then_some(word);
        }
    }
}

/// Two figures of the draft that trade the words leading to them in the sources: `seats
/// passed 100,000, with several customers above 21 million` where the entry has `passed 21
/// million, with several customers above 100,000`. Each figure's lead in the draft must be
/// the other's in the sources and never its own.
pub(super) fn exchanged<'a>(
    draft: &'a [Figure],
    sources: &[&Figure],
) -> Option<(&'a Figure, &'a Figure)> {
    let leads = |f: &Figure| -> Vec<&str> {
        sources
            .iter()
            .filter(|g| same(f, g))
            .filter_map(|g| g.lead.as_deref())
            .collect()
    };
    for (i, a) in draft.iter().enumerate() {
        let Some(la) = a.lead.as_deref() else {
            continue;
        };
        for b in &draft[i + 1..] {
            let Some(lb) = b.lead.as_deref().filter(|lb| *lb != la) else {
                continue;
            };
            if same(a, b) {
                continue;
            }
            let (sa, sb) = (leads(a), leads(b));
            if sb.contains(&la) && sa.contains(&lb) && !sa.contains(&la) && !sb.contains(&lb) {
                return Some((a, b));
            }
        }
    }
    None
}

/// Nouns that say what a figure counts: a number of shares is not a number of racks.
const UNITS: &[&str] = &[
    "share",
    "rack",
    "gpu",
    "job",
    "trust",
    "hospital",
    "gigawatt",
    "gwh",
    "seat",
    "language",
    "incident",
    "robot",
    "vehicle",
    "car",
    "unit",
    "customer",
    "user",
    "employee",
    "store",
    "time",
    "week",
    "day",
    "month",
    "year",
    "quarter",
    "point",
    "hour",
    "wafer",
    "chip",
    "server",
    "licence",
    "license",
    "contract",
    "deal",
    "order",
    "mile",
    "percentage",
];

/// Words standing between a figure and its unit noun.
const FILLER: &[&str] = &[
    "of",
    "additional",
    "more",
    "new",
    "than",
    "about",
    "roughly",
    "million",
    "billion",
    "thousand",
    "trillion",
    "dollars",
    "pounds",
    "euros",
    "humanoid",
    "hospital",
    "blackwell",
];

fn singular(w: &str) -> &str {
    w.strip_suffix('s').filter(|r| r.len() >= 3).unwrap_or(w)
}

impl Figure {
    /// The noun the figure counts (`shares`, `racks`), when it is one of [`UNITS`].
    pub(super) fn unit(&self) -> Option<&str> {
        self.after
            .iter()
            .map(|w| singular(w))
            .find(|w| !FILLER.contains(w))
            .filter(|w| UNITS.contains(w))
    }

    /// The time right after the figure that it stood at (`20% two years earlier`), as `2 years
    /// earlier`; `None` for a figure of now or of a change (`93% from a year
    /// earlier`).
    pub(super) fn earlier(&self) -> Option<String> {
        let [count, period, when, ..] = self.after.as_slice() else {
            return None;
        };
        let n = match count.as_str() {
            "a" | "an" | "one" => 1,
            w => cardinal(w).or_else(|| w.parse().ok())?,
        };
        let period = singular(period);
        (["year", "quarter", "month", "week"].contains(&period)
            && ["earlier", "ago", "before", "prior"].contains(&when.as_str()))
        .then(|| match n {
            1 => format!("a {period} earlier"),
            n => format!("{n} {period}s earlier"),
        })
    }

    /// `month`, `year`, `quarter`, `week` or `day` when the figure is per one (`$29.99 a month`).
    pub(super) fn period(&self) -> Option<&str> {
        let words: Vec<&str> = self.after.iter().map(String::as_str).collect();
        for (k, w) in words.iter().enumerate() {
            let per = matches!(*w, "a" | "per" | "each" | "every" | "an");
            let next = words.get(k + 1).map(|n| singular(n));
            if per
                && let Some(p) =
                    next.filter(|n| ["month", "year", "quarter", "week", "day"].contains(n))
            {
                return Some(p);
            }
            match *w {
                "monthly" => return Some("month"),
                "annually" | "yearly" | "annual" => return Some("year"),
                "quarterly" => return Some("quarter"),
                "weekly" => return Some("week"),
                "daily" => return Some("day"),
                _ => {}
            }
        }
        None
    }
}

/// What a figure of the draft says differently from every figure of equal value in the
/// sources: its currency, its period or the noun it counts. `None` when they agree, or when no
/// source figure has that value.
pub(super) fn unit_clash(f: &Figure, sources: &[&Figure]) -> Option<String> {
    let equal: Vec<&&Figure> = sources.iter().filter(|g| same(f, g)).collect();
    if equal.is_empty() {
        return None;
    }
    if let Some((c, theirs)) = clash(f, &equal, |g| g.currency) {
        return Some(format!(
            "{} is in {c} in the draft and in {theirs} in the entry",
            f.text
        ));
    }
    if let Some((p, theirs)) = clash(f, &equal, |g| g.period()) {
        return Some(format!(
            "{} is a {p}'s figure in the draft and a {theirs}'s in the entry",
            f.text
        ));
    }
    if let Some((u, theirs)) = clash(f, &equal, |g| g.unit()) {
        return Some(format!(
            "{} counts {u}s in the draft and {theirs}s in the entry",
            f.text
        ));
    }
    None
}

/// The time a figure of the draft stands at when the sources give that time to another
/// figure and never to one of its value (`4% two years earlier` where the entry has `fell to
/// 4%, down from 20% two years earlier`): the time and the figure the sources give it to.
pub(super) fn time_moved<'a>(f: &Figure, sources: &[&'a Figure]) -> Option<(String, &'a str)> {
    let when = f.earlier()?;
    let at = |g: &Figure| g.earlier().is_some_and(|w| w == when);
    if sources.iter().any(|g| same(f, g) && at(g)) || !sources.iter().any(|g| same(f, g)) {
        return None;
    }
    let other = sources.iter().find(|g| !same(f, g) && at(g))?;
    Some((when, other.text.as_str()))
}

/// `f`'s side of one property (`of`) when every figure in `equal` has another, and the first
/// figure's side; `None` when `f` has none or some figure agrees or has none.
fn clash<'a, T: Copy + PartialEq>(
    f: &'a Figure,
    equal: &[&&'a Figure],
    of: impl Fn(&'a Figure) -> Option<T>,
) -> Option<(T, T)> {
    let mine = of(f)?;
    if !equal.iter().all(|g| of(g).is_some_and(|d| d != mine)) {
        return None;
    }
    let theirs = equal.iter().find_map(|g| of(g)).unwrap_or(mine);
    Some((mine, theirs))
}

fn scale_of(word: &str) -> Option<f64> {
    match word {
        "thousand" | "k" => Some(1e3),
        "million" | "millions" | "mn" | "m" | "mln" => Some(1e6),
        "billion" | "billions" | "bn" | "b" | "bln" => Some(1e9),
        "trillion" | "trillions" | "tn" | "t" => Some(1e12),
        _ => None,
    }
}

/// Numbers, amounts and percentages, normalised: `$1.2 billion` = `1.2bn` = `1,200 million`,
/// `14%` = `14 percent`. Years, days after a month, `#5`-style references and numbers glued
/// to letters (`NVL72`, `10-Q`) are not figures; a multiple (`3x`, `3 times`) is one of its
/// own kind.
pub(super) fn figures(text: &str) -> Vec<Figure> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let prev = start.checked_sub(1).map(|p| chars[p]);
        let mut digits = String::new();
        while i < chars.len() {
            let c = chars[i];
            let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() {
                digits.push(c);
            } else if c == ',' && next_digit {
            } else if c == '.' && next_digit {
                digits.push('.');
            } else {
                break;
            }
            i += 1;
        }
        let hyphen_word =
            chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|c| c.is_alphabetic());
        let glued = hyphen_word
            || prev.is_some_and(|p| p.is_alphabetic() || p == '#' || p == '-' || p == '_');
        // The word after the number, and whether letters are glued to it.
        let mut j = i;
        let attached: String = chars[j..]
            .iter()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        j += attached.chars().count();
        let mut kind = Kind::Number;
        let mut scale = 1.0;
        let mut end = j;
        let multiple = attached == "x" && !chars.get(j).is_some_and(|c| c.is_alphanumeric());
        if multiple {
            kind = Kind::Times;
        } else if !attached.is_empty() {
            match scale_of(&attached) {
                Some(s) => scale = s,
                // `4th`, `72B200`: not a figure this engine reads.
                None => {
                    i = j;
                    continue;
                }
            }
        } else if chars.get(i) == Some(&'%') {
            kind = Kind::Percent;
            end = i + 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 14)]
                .iter()
                .collect::<String>()
                .to_lowercase();
            let word = rest
                .trim_start()
                .split(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or("");
            if word == "percent" || rest.trim_start().starts_with("per cent") {
                kind = Kind::Percent;
            } else if word == "times" && rest.starts_with(' ') {
                kind = Kind::Times;
            } else if let Some(s) = scale_of(word).filter(|_| word.len() > 1) {
                scale = s;
            }
        }
        if glued || digits.is_empty() {
            i = end.max(i + 1);
            continue;
        }
        // A number past f64's range (hundreds of digits) parses to infinity: not a figure
        // anyone writes, and infinity equals every other infinity in `same`.
        let Some(n) = digits
            .parse::<f64>()
            .ok()
            .filter(|n| (n * scale).is_finite())
        else {
            i = end.max(i + 1);
            continue;
        };
        let money = matches!(prev, Some('$' | '\u{a3}' | '\u{20ac}'));
        let plain_int = kind == Kind::Number && scale == 1.0 && !money && !digits.contains('.');
        // The word before the number: only the last few characters are needed.
        let before: String = chars[start.saturating_sub(12)..start]
            .iter()
            .collect::<String>()
            .to_lowercase();
        let prev_word = before
            .split(|c: char| !c.is_alphabetic())
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        let is_year = plain_int && (1900.0..=2100.0).contains(&n) && digits.len() == 4;
        let is_day = plain_int && n <= 31.0 && MONTHS.contains(&prev_word);
        if !is_year && !is_day {
            let tail = end.max(i);
            let after: Vec<String> = chars[tail..chars.len().min(tail + 60)]
                .iter()
                .collect::<String>()
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .take(5)
                .map(str::to_string)
                .collect();
            let currency = match prev {
                Some(c @ ('$' | '\u{a3}' | '\u{20ac}')) => Some(c),
                _ => after.iter().take(2).find_map(|w| match w.as_str() {
                    "dollars" => Some('$'),
                    "pounds" => Some('\u{a3}'),
                    "euros" => Some('\u{20ac}'),
                    _ => None,
                }),
            };
            out.push(Figure {
                value: n * scale,
                kind,
                text: chars[start..tail]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string(),
                currency,
                after,
                lead: lead(&chars, start),
            });
        }
        i = end.max(i + 1);
    }
    out
}

pub(super) fn same(a: &Figure, b: &Figure) -> bool {
    a.kind == b.kind
        && (a.value - b.value).abs() <= 1e-9 * a.value.abs().max(b.value.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swapped(d: &str, s: &str) -> Option<(String, String)> {
        let (d, s) = (figures(d), figures(s));
        let s: Vec<&Figure> = s.iter().collect();
        exchanged(&d, &s).map(|(a, b)| (a.text.clone(), b.text.clone()))
    }

    #[test]
    fn a_figure_leads_from_its_verb_or_preposition_past_bounds() {
        let leads: Vec<_> = figures("fell to roughly 4%, down from more than 20% at $351.84, 7")
            .into_iter()
            .map(|f| f.lead)
            .collect();
        let want = [Some("to"), Some("from"), Some("at"), None];
        assert_eq!(leads, want.map(|w| w.map(str::to_string)));
        assert_eq!(figures("a sale of 57,282 shares")[0].lead, None);
    }

    #[test]
    fn a_time_moved_to_another_figure_is_read() {
        let moved = |d: &str, s: &str| {
            let (d, s) = (figures(d), figures(s));
            let s: Vec<&Figure> = s.iter().collect();
            d.iter()
                .find_map(|f| time_moved(f, &s).map(|(w, t)| (w, t.to_string())))
        };
        let s = "China fell to roughly 4% of NVIDIA's data-center revenue, down from more than 20% two years earlier.";
        let d = "China's share, roughly 4% two years earlier, now stands at more than 20%.";
        assert_eq!(
            moved(d, s),
            Some(("2 years earlier".to_string(), "20%".to_string()))
        );
        let d = "China's share was more than 20% two years earlier and is roughly 4% now.";
        assert!(moved(d, s).is_none());
        // A change from a time is no figure of that time.
        let s = "Revenue rose 93% from a year earlier to $1 billion.";
        assert!(moved("Revenue reached $1 billion, 93% from a year earlier.", s).is_none());
    }

    #[test]
    fn figures_that_trade_their_leads_are_read() {
        let s = "Seats passed 21 million, with several customers above 100,000 seats.";
        let d = "Seats passed 100,000, with several customers above 21 million seats.";
        assert_eq!(
            swapped(d, s),
            Some(("100,000".to_string(), "21".to_string()))
        );
        let s = "China fell to roughly 4% of revenue, down from more than 20% two years earlier.";
        let d = "China's share went from roughly 4% to more than 20% over two years.";
        assert!(swapped(d, s).is_some());
        // The same leads, in another order or words: no exchange.
        assert!(swapped(s, s).is_none());
        let d = "Two years ago China was more than 20% of revenue; it fell to roughly 4%.";
        assert!(swapped(d, s).is_none());
        let d = "China's share went from more than 20% to roughly 4% over two years.";
        assert!(swapped(d, s).is_none());
        // Figures listed in turn tie to no lead of their own.
        let s = "Revenue rose 16% and 20% in the two segments.";
        assert!(swapped("Revenue rose 20% and 16% in the two segments.", s).is_none());
    }
}

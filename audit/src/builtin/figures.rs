//! Figures (numbers, amounts, percentages), normalised for comparison.

use super::dates::MONTHS;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Percent,
    Number,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Figure {
    pub(super) value: f64,
    pub(super) kind: Kind,
    pub(super) text: String,
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
/// to letters (`NVL72`, `10-Q`) are not figures.
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
        if !attached.is_empty() {
            match scale_of(&attached) {
                Some(s) => scale = s,
                // `4th`, `10x`, `72B200`: not a figure this engine reads.
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
            } else if let Some(s) = scale_of(word).filter(|_| word.len() > 1) {
                scale = s;
            }
        }
        if glued || digits.is_empty() {
            i = end.max(i + 1);
            continue;
        }
        let Ok(n) = digits.parse::<f64>() else {
            i = end.max(i + 1);
            continue;
        };
        let money = prev == Some('$');
        let plain_int = kind == Kind::Number && scale == 1.0 && !money && !digits.contains('.');
        let before: String = chars[..start].iter().collect::<String>().to_lowercase();
        let prev_word = before
            .split(|c: char| !c.is_alphabetic())
            .rfind(|w| !w.is_empty())
            .unwrap_or("");
        let is_year = plain_int && (1900.0..=2100.0).contains(&n) && digits.len() == 4;
        let is_day = plain_int && n <= 31.0 && MONTHS.contains(&prev_word);
        if !is_year && !is_day {
            out.push(Figure {
                value: n * scale,
                kind,
                text: chars[start..end.max(i)]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string(),
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

//! Month names and dates.

pub(super) const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

pub(super) fn has_month_day(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        MONTHS.contains(&w[0])
            && w[0] != "may"
            && w[1].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
    }) || words
        .iter()
        .any(|w| w.len() == 4 && w.parse::<u32>().is_ok_and(|y| (1900..=2100).contains(&y)))
}

/// The months' full names, January first: the first twelve of [`MONTHS`].
const FULL_MONTHS: &[&str] = MONTHS.split_at(12).0;

/// Whether a lower-case word is a month's short name (`sept`, `oct`), a month only before a
/// day (`Sept. 26`).
pub(super) fn is_short_month(word: &str) -> bool {
    MONTHS.split_at(12).1.contains(&word)
}

/// Whether a lower-case word is a month's full name (a capital that names no one).
pub(super) fn is_month(word: &str) -> bool {
    FULL_MONTHS.contains(&word)
}

/// A date as a text gives it: a year, a month, a day of a month, or more of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DateRef {
    pub(super) year: Option<u32>,
    pub(super) month: Option<u32>,
    pub(super) day: Option<u32>,
}

impl DateRef {
    pub(super) fn show(&self) -> String {
        let month = self
            .month
            .and_then(|m| FULL_MONTHS.get(m as usize - 1))
            .map(|m| {
                let mut c = m.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            });
        match (month, self.day, self.year) {
            (Some(m), Some(d), Some(y)) => format!("{m} {d}, {y}"),
            (Some(m), Some(d), None) => format!("{m} {d}"),
            (Some(m), None, Some(y)) => format!("{m} {y}"),
            (Some(m), None, None) => m,
            (None, _, Some(y)) => y.to_string(),
            _ => String::new(),
        }
    }

    /// Whether `other` (a date a source gives) is this date, as far as this one says: the same
    /// month and day where it gives them, the same year unless the source gives none with the
    /// month.
    pub(super) fn within(&self, other: &DateRef) -> bool {
        (self.month.is_none() || self.month == other.month)
            && (self.day.is_none() || self.day == other.day)
            && (self.year.is_none()
                || other.year == self.year
                || (other.year.is_none() && self.month.is_some()))
    }
}

/// The month a word names: full names in any case, except `may`, which must be capitalised;
/// abbreviations only before a day (`Aug 14`, `Aug. 14`).
fn month_of(word: &str, before_day: bool) -> Option<u32> {
    let lower = word.to_lowercase();
    if lower == "may" && !word.starts_with('M') {
        return None;
    }
    if let Some(i) = FULL_MONTHS.iter().position(|m| *m == lower) {
        return Some(i as u32 + 1);
    }
    let abbr = [
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    ];
    let months = [1, 2, 3, 4, 6, 7, 8, 9, 9, 10, 11, 12];
    abbr.iter()
        .position(|a| *a == lower)
        .filter(|_| before_day)
        .map(|i| months[i])
}

fn day_of(word: &str) -> Option<u32> {
    word.parse::<u32>().ok().filter(|d| (1..=31).contains(d))
}

fn year_of(word: &str) -> Option<u32> {
    (word.len() == 4)
        .then(|| word.parse::<u32>().ok())
        .flatten()
        .filter(|y| (1900..=2100).contains(y))
}

/// The dates a text gives: `August 14`, `14 August`, `August 4, 2026`, `2026-06-27`,
/// `September` alone, a year alone.
pub(super) fn date_refs(text: &str) -> Vec<DateRef> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied().unwrap_or("");
        // ISO dates: the split leaves `2026`, `06`, `27`.
        let month = words
            .get(i + 1)
            .filter(|m| m.len() == 2)
            .and_then(|m| m.parse::<u32>().ok())
            .filter(|m| (1..=12).contains(m));
        let day = words
            .get(i + 2)
            .filter(|d| d.len() == 2)
            .and_then(|d| day_of(d));
        if let (Some(y), Some(m), Some(d)) = (year_of(w), month, day)
            && text.contains(&format!("{w}-{}-{}", words[i + 1], words[i + 2]))
        {
            out.push(DateRef {
                year: Some(y),
                month: Some(m),
                day: Some(d),
            });
            i += 3;
            continue;
        }
        if let Some(m) = month_of(w, day_of(next).is_some()) {
            let day = day_of(next);
            let year_at = if day.is_some() { i + 2 } else { i + 1 };
            let year = words.get(year_at).and_then(|y| year_of(y));
            out.push(DateRef {
                year,
                month: Some(m),
                day,
            });
            i = year_at + usize::from(year.is_some());
            continue;
        }
        if let (Some(d), Some(m)) = (day_of(w), month_of(next, false)) {
            let year = words.get(i + 2).and_then(|y| year_of(y));
            out.push(DateRef {
                year,
                month: Some(m),
                day: Some(d),
            });
            i += 2 + usize::from(year.is_some());
            continue;
        }
        // `the 1970's` is a decade, which default deny reads (`support`), not the year 1970.
        if let Some(y) = year_of(w)
            && next != "s"
        {
            out.push(DateRef {
                year: Some(y),
                month: None,
                day: None,
            });
        }
        i += 1;
    }
    out
}

/// The date of record an accession number carries (`JM-NVDA-261104-01`: 2026-11-04).
pub(super) fn date_of_record(accession: &str) -> Option<DateRef> {
    let part = accession.split('-').nth(2)?;
    let n = |r: std::ops::Range<usize>| part.get(r).and_then(|s| s.parse::<u32>().ok());
    Some(DateRef {
        year: Some(2000 + n(0..2)?),
        month: Some(n(2..4)?).filter(|m| (1..=12).contains(m)),
        day: Some(n(4..6)?).filter(|d| (1..=31).contains(d)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decade_is_no_year() {
        assert!(date_refs("It developed in the early 1970's.").is_empty());
        assert_eq!(date_refs("It developed in 1970.").len(), 1);
    }
}

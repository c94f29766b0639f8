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

//! Round 6's fault kind `swapped-roles`: two names of a statement exchanged around its verb
//! (`NVIDIA supplies Foxconn` → `Foxconn supplies NVIDIA`).

use crate::archive::MONTHS;

/// Words that open a sentence without naming anything (`The`, `In`, `It`).
const OPENERS: &[&str] = &[
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "It",
    "Its",
    "This",
    "That",
    "These",
    "Those",
    "After",
    "Before",
    "As",
    "By",
    "For",
    "From",
    "With",
    "He",
    "She",
    "They",
    "We",
    "His",
    "Her",
    "Their",
    "There",
    "Shares",
    "Rivals",
    "Analysts",
    "Options",
    "Suppliers",
    "Since",
    "During",
    "Following",
    "According",
    "When",
    "While",
    "Although",
    "However",
    "Despite",
    "Under",
    "Of",
    "To",
];

/// Verbs that say the same of both sides (`X partnered with Y` is `Y partnered with X`):
/// two names exchanged around one of them keep the meaning.
const SYMMETRIC: &[&str] = &[
    "partnered",
    "merged",
    "met",
    "married",
    "collaborated",
    "competed",
    "tied",
    "teamed",
    "signed",
    "agreed",
    "allied",
    "co-founded",
    "cofounded",
    "co-starred",
    "costarred",
    "starred",
    "played",
    "appeared",
    "is",
    "are",
    "was",
    "were",
    "and",
    "or",
    "with",
    "versus",
    "vs",
    "against",
    "between",
    "alongside",
    "joined",
    "dated",
    "divorced",
    "fought",
    "shared",
    "feuded",
    "talks",
    "discussed",
    "negotiated",
    "worked",
];

/// Verbs not ending in `-ed` that name who does what to whom (a plural noun ends in `-s` too,
/// so a present tense is named here).
const VERBS: &[&str] = &[
    "sold",
    "bought",
    "won",
    "beat",
    "beats",
    "led",
    "leads",
    "paid",
    "pays",
    "took",
    "takes",
    "made",
    "makes",
    "built",
    "builds",
    "hired",
    "hires",
    "sent",
    "gave",
    "gives",
    "sued",
    "sues",
    "lost",
    "drew",
    "wrote",
    "writes",
    "struck",
    "held",
    "holds",
    "left",
    "overtook",
    "supplies",
    "acquires",
    "buys",
    "sells",
    "owns",
    "trails",
    "replaces",
    "succeeds",
    "defeats",
    "employs",
    "funds",
    "backs",
    "raises",
    "cuts",
    "cut",
    "ships",
    "shipped",
    "signs",
    "directs",
    "produces",
    "founded",
    "owned",
    "won",
    "chose",
    "picked",
    "named",
    "appointed",
];

/// Words between a subject and its verb: `X has acquired`, `X was later acquired by`.
const AUX: &[&str] = &[
    "is",
    "was",
    "were",
    "are",
    "has",
    "had",
    "have",
    "been",
    "be",
    "will",
    "would",
    "also",
    "later",
    "then",
    "first",
    "formally",
    "officially",
    "eventually",
    "recently",
    "now",
];

/// Section labels of abstracts (`RESULTS`, `CONCLUSIONS`): capitalised, no names.
const LABELS: &[&str] = &[
    "RESULTS",
    "CONCLUSION",
    "CONCLUSIONS",
    "METHODS",
    "BACKGROUND",
    "OBJECTIVE",
    "OBJECTIVES",
    "DESIGN",
    "SETTING",
    "PARTICIPANTS",
    "INTERVENTIONS",
    "MEASUREMENTS",
    "FINDINGS",
    "INTERPRETATION",
    "AND",
    "RELEVANCE",
    "MAIN",
    "OUTCOME",
    "OUTCOMES",
    "PURPOSE",
    "CONTEXT",
    "IMPORTANCE",
    "AIMS",
    "METHODOLOGY",
    "PRINCIPAL",
    "SUMMARY",
    "INTRODUCTION",
];

/// The names of `text` as byte ranges: runs of capitalised words (a number inside a run, as in
/// `Fox 2000 Pictures`), not a month, nor a sentence opener; each run ends at punctuation.
fn name_runs(text: &str) -> Vec<(usize, usize)> {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                words.push((s, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    for (k, &(s, e)) in words.iter().enumerate() {
        let w = &text[s..e];
        let bare = w.trim_end_matches([',', ';', ':', '.', ')', '"', '\'']);
        let capital = bare.starts_with(char::is_uppercase)
            && bare
                .chars()
                .all(|c| c.is_alphanumeric() || "-.&'".contains(c))
            && !MONTHS.contains(&bare)
            && !LABELS.contains(&bare)
            && !(k == 0 && OPENERS.contains(&bare));
        // A number or `of` inside a name (`Fox 2000 Pictures`, `Call of Duty`).
        let next_capital = words
            .get(k + 1)
            .is_some_and(|&(a, b)| text[a..b].starts_with(char::is_uppercase));
        let inner_number = open.is_some()
            && (bare.chars().all(|c| c.is_ascii_digit()) || (w == "of" && next_capital));
        // Initials end in a full stop without ending the name (`J.P. Morgan`, `U.S. Steel`).
        let initials = w.ends_with('.')
            && next_capital
            && bare
                .split('.')
                .all(|p| p.len() == 1 && p.starts_with(char::is_uppercase));
        if capital || inner_number {
            let end = if initials { e } else { s + bare.len() };
            open = Some(open.map_or((s, end), |(a, _)| (a, end)));
            if bare.len() != w.len() && !initials {
                out.extend(open.take());
            }
        } else {
            out.extend(open.take());
        }
    }
    out.extend(open);
    // A run that ends in a number is the name before it (`Fox 2000` of `Fox 2000 cars`).
    out.into_iter()
        .map(|(a, b)| {
            let t = &text[a..b];
            let cut = t.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end();
            (a, a + cut.len())
        })
        .filter(|(a, b)| b > a)
        .collect()
}

/// The agent and the patient of a verb exchanged: two names of the statement, each named
/// once, with a verb between them (a past tense or a present `-s`, not a verb that says the
/// same of both sides) and no clause break: `NVIDIA supplies Foxconn` → `Foxconn supplies
/// NVIDIA`, `B was acquired by A` → `A was acquired by B`.
pub fn swapped_roles(text: &str) -> Option<String> {
    let runs = name_runs(text);
    for pair in runs.windows(2) {
        let ((a, b), (c, d)) = (pair[0], pair[1]);
        let (x, y) = (&text[a..b], &text[c..d]);
        let between = &text[b..c];
        let words: Vec<String> = between.split_whitespace().map(str::to_lowercase).collect();
        let once = |n: &str| text.matches(n).count() == 1;
        let verb = |w: &str| {
            (w.len() > 4
                && w.ends_with("ed")
                && w.chars().all(char::is_alphabetic)
                && !["hundred", "indeed", "speed", "kindred", "sacred", "wicked"].contains(&w))
                || VERBS.contains(&w)
        };
        // The subject right before its verb (past an auxiliary), the object within a few
        // words after it: `X has acquired Y`, `X raised the price of Y`.
        let Some(v) = words.iter().position(|w| verb(w)) else {
            continue;
        };
        if x == y
            || x.contains(y)
            || y.contains(x)
            || !once(x)
            || !once(y)
            || !words[..v].iter().all(|w| AUX.contains(&w.as_str()))
            || words.len() - v - 1 > 4
            || between.contains([',', ';', ':', '(', ')', '"'])
            || words.iter().any(|w| SYMMETRIC.contains(&w.as_str()))
        {
            continue;
        }
        return Some(format!("{}{y}{between}{x}{}", &text[..a], &text[d..]));
    }
    None
}

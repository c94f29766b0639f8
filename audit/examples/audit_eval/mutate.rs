//! The corpus's mechanical changes to a statement: rewordings that keep its meaning, and one
//! fault of each kind.

use crate::archive::{Entry, MONTHS};

/// Where `word` occurs in `text` as whole words (not inside another word).
pub fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find(word).map(|a| a + from) {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

fn replace_at(text: &str, at: usize, from: &str, to: &str) -> String {
    format!("{}{to}{}", &text[..at], &text[at + from.len()..])
}

/// The first pair (in list order) whose `from` occurs, replaced once.
pub fn swap_first(text: &str, pairs: &[(&str, &str)]) -> Option<String> {
    pairs
        .iter()
        .find_map(|(from, to)| find_word(text, from).map(|at| replace_at(text, at, from, to)))
}

/// Up to two pairs replaced, each once.
fn swap_some(text: &str, pairs: &[(&str, &str)]) -> Option<String> {
    let mut out = text.to_string();
    let mut n = 0;
    for (from, to) in pairs {
        if n == 2 {
            break;
        }
        if let Some(at) = find_word(&out, from) {
            out = replace_at(&out, at, from, to);
            n += 1;
        }
    }
    (n > 0).then_some(out)
}

pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Lower-cases the first word when it is a common word, not a name.
pub fn decap(s: &str) -> String {
    let first = s.split_whitespace().next().unwrap_or("");
    if [
        "The",
        "Shares",
        "Rivals",
        "A",
        "Analysts",
        "Options",
        "Suppliers",
    ]
    .contains(&first)
    {
        let mut c = s.chars();
        c.next()
            .map(|f| f.to_lowercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        s.to_string()
    }
}

const SYNONYMS: &[(&str, &str)] = &[
    ("about", "roughly"),
    ("roughly", "about"),
    ("customers", "clients"),
    ("company", "firm"),
    ("build", "construct"),
    ("plans to", "intends to"),
    ("expects", "anticipates"),
    ("began", "started"),
    ("begun", "started"),
    ("largest", "biggest"),
    ("rose", "climbed"),
    ("fell", "dropped"),
    ("raised", "lifted"),
    ("raise", "lift"),
    ("is weighing", "is considering"),
    ("revenue", "sales"),
    ("dedicated to", "reserved for"),
    ("more than", "over"),
    ("demand remains strong", "demand is still strong"),
    ("signed", "struck"),
    ("deployed", "installed"),
    ("expanded", "widened"),
    ("trimmed", "cut"),
    ("pointed to", "referred to"),
    ("main focus", "chief focus"),
    ("quarterly results", "its quarterly figures"),
    ("the coming weeks", "the weeks ahead"),
    ("opened", "launched"),
];

/// Synonyms that keep the meaning.
pub fn synonyms(text: &str) -> Option<String> {
    swap_some(text, SYNONYMS)
}

/// "have risen 41%" said as "are up 41%": the same direction in other words, and its opposite.
pub fn up_down_wording(text: &str) -> Option<(String, String)> {
    for (verb, up) in [
        ("have risen ", true),
        ("have climbed ", true),
        ("have slipped ", false),
        ("have fallen ", false),
    ] {
        if let Some(at) = text.find(verb) {
            let rest = &text[at + verb.len()..];
            if !rest.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let (same, other) = if up {
                ("are up ", "are down ")
            } else {
                ("are down ", "are up ")
            };
            return Some((
                format!("{}{same}{rest}", &text[..at]),
                format!("{}{other}{rest}", &text[..at]),
            ));
        }
    }
    None
}

const NEGATIONS: &[(&str, &str)] = &[
    ("agreed to", "refused to"),
    ("agreed on", "failed to agree on"),
    ("has not commented", "has commented"),
    ("was not yet reflected", "was already reflected"),
    ("has not", "has"),
    ("did not", "did"),
    ("is not", "is"),
    ("will", "will not"),
    ("is", "is not"),
    ("are", "are not"),
    ("has", "has not"),
    ("have", "have not"),
    ("was", "was not"),
    ("were", "were not"),
    ("remain", "do not remain"),
    ("signed", "did not sign"),
    ("opened", "did not open"),
    ("approved", "did not approve"),
    ("deployed", "did not deploy"),
    ("took", "did not take"),
    ("pointed to", "did not point to"),
    ("asked", "did not ask"),
    ("entered into", "did not enter into"),
    ("authorised", "did not authorise"),
    ("registered", "did not register"),
    ("sold", "did not sell"),
];

/// The meaning flipped by a negation added or removed.
pub fn negation(text: &str) -> Option<String> {
    swap_first(text, NEGATIONS)
}

const ANTONYMS: &[(&str, &str)] = &[
    ("rose", "fell"),
    ("fell", "rose"),
    ("raised", "cut"),
    ("raising", "cutting"),
    ("raise", "cut"),
    ("lifts", "cuts"),
    ("expanded", "reduced"),
    ("trimmed", "raised"),
    ("slipped", "rose"),
    ("higher", "lower"),
    ("lower", "higher"),
    ("gained", "lost"),
    ("sold", "bought"),
    ("improved", "worsened"),
    ("strong", "weak"),
    ("softer", "stronger"),
    ("largest", "smallest"),
    ("highest", "lowest"),
    ("rise", "drop"),
    ("risen", "fallen"),
    ("climbed", "fallen"),
    ("fallen", "risen"),
    ("increase", "decrease"),
    ("grew", "shrank"),
    ("adding", "removing"),
    ("added", "removed"),
    ("more than", "less than"),
    ("ahead of", "behind"),
    ("positive", "negative"),
    ("record", "low"),
];

/// A word turned into its opposite.
pub fn antonym(text: &str) -> Option<String> {
    swap_first(text, ANTONYMS)
}

/// "down from" for "up from", or the reverse.
pub fn up_from(text: &str) -> Option<String> {
    swap_first(text, &[("down from", "up from"), ("up from", "down from")])
}

const CERTAINTY: &[(&str, &str)] = &[
    ("are expected to respond", "will respond"),
    ("is expected to", "will"),
    ("could add", "will add"),
    ("plans to bring", "has brought"),
    ("plans to", "will"),
    ("expects", "will book"),
    ("is weighing", "has decided on"),
    ("now expect", "now confirm"),
    ("targets about", "will build about"),
    ("remain on track for", "have entered"),
    ("may", "will"),
    ("could", "will"),
];

/// A hedged statement made certain.
pub fn certainty(text: &str) -> Option<String> {
    swap_first(text, CERTAINTY)
}

/// "million" for "billion" or the reverse, the number kept.
pub fn scale(text: &str) -> Option<String> {
    for (from, to) in [(" million", " billion"), (" billion", " million")] {
        let mut start = 0;
        while let Some(at) = text[start..].find(from).map(|a| a + start) {
            if text[..at].ends_with(|c: char| c.is_ascii_digit()) {
                return Some(replace_at(text, at, from, to));
            }
            start = at + from.len();
        }
    }
    None
}

const ORGS: &[&str] = &[
    "TSMC",
    "Samsung",
    "Microsoft",
    "OpenAI",
    "Oracle",
    "Dell",
    "Google",
    "Amazon",
    "Meta",
    "Quanta",
    "Foxconn",
    "Boeing",
    "Intel",
    "Broadcom",
    "Bernstein",
    "Morgan Stanley",
    "Goldman Sachs",
    "Jefferies",
    "Barclays",
    "NVIDIA",
    "Tesla",
    "Apple",
    "Palantir",
    "AMD",
];

const PEOPLE: &[&str] = &[
    "Ashok Elluswamy",
    "Vaibhav Taneja",
    "Elon Musk",
    "Lars Moravy",
    "Colette Kress",
    "Jean Hu",
    "Lisa Su",
    "Vamsi Boppana",
    "Greg Joswiak",
    "John Ternus",
    "Craig Federighi",
    "Satya Nadella",
    "Amy Hood",
    "Mustafa Suleyman",
    "Debora Shoquist",
    "Kash Rangan",
    "Keith Weiss",
    "Stacy Rasgon",
    "Harlan Sur",
    "Vivek Arya",
    "Ben Reitzes",
    "Dan Ives",
    "Tim Cook",
    "Brad Smith",
];

/// Another company's or person's name in place of the first one the statement holds.
pub fn name(text: &str, entry: &Entry) -> Option<String> {
    let all = entry.all_text();
    for list in [PEOPLE, ORGS] {
        for (i, n) in list.iter().enumerate() {
            let Some(at) = find_word(text, n) else {
                continue;
            };
            let other = (1..list.len())
                .map(|k| list[(i + k) % list.len()])
                .find(|o| find_word(&all, o).is_none())?;
            return Some(replace_at(text, at, n, other));
        }
    }
    None
}

/// The first "Month day" of the text moved by a week.
pub fn moved_day(text: &str) -> Option<String> {
    for m in MONTHS {
        let mut start = 0;
        while let Some(at) = text[start..].find(m).map(|a| a + start) {
            let rest = &text[at + m.len()..];
            let digits: String = rest
                .strip_prefix(' ')
                .unwrap_or("")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(d) = digits.parse::<u32>() {
                let moved = if d + 7 <= 28 { d + 7 } else { d - 7 };
                let from = format!("{m} {digits}");
                return Some(replace_at(text, at, &from, &format!("{m} {moved}")));
            }
            start = at + m.len();
        }
    }
    None
}

/// The date of record moved by nine days, in the same month.
pub fn moved_date(entry: &Entry) -> String {
    let d = if entry.day + 9 <= 28 {
        entry.day + 9
    } else {
        entry.day - 9
    };
    format!("{} {d}", MONTHS[entry.month - 1])
}

/// Clauses that add a comparison or a superlative the entries never make.
const SUPERLATIVES: &[&str] = &[
    ", the largest such deal in the company's history",
    ", a record for the company",
    ", the first such agreement in the industry",
    ", its biggest commitment to date",
];

/// The statement with a superlative clause added.
pub fn superlative(text: &str, n: usize) -> Option<String> {
    Some(format!("{text}{}", SUPERLATIVES[n % SUPERLATIVES.len()]))
}

/// Links that make one statement the cause of the next.
const CAUSES: &[&str] = &[
    ", which is why ",
    " because ",
    "; as a result, ",
    ", and that is why ",
];

/// Two statements of one entry joined by a cause the entry does not give.
pub fn invented_cause(first: &str, second: &str, n: usize) -> Option<String> {
    (first != second).then(|| {
        let link = CAUSES[n % CAUSES.len()];
        format!("{first}{link}{}", decap(second))
    })
}

/// A bound on a figure changed: `about 20,000` to `more than 20,000`, a bare figure bounded.
pub fn changed_bound(text: &str, n: usize) -> Option<String> {
    const APPROX: &[&str] = &["about ", "roughly ", "nearly ", "around ", "approximately "];
    const STRICT: &[&str] = &["more than ", "at least ", "over ", "fewer than "];
    let to = STRICT[n % 3];
    for a in APPROX {
        if let Some(at) = find_word(text, a.trim_end()) {
            let rest = &text[at + a.len()..];
            if rest.starts_with(|c: char| c.is_ascii_digit() || c == '$') {
                return Some(replace_at(text, at, a, to));
            }
        }
    }
    // A bare figure after `to` or `of`: `to $29.99`, `of 57,282`.
    for lead in [" to ", " of ", " by "] {
        if let Some(at) = text.find(lead) {
            let rest = &text[at + lead.len()..];
            if rest.starts_with(|c: char| c.is_ascii_digit() || c == '$') {
                let at = at + lead.len();
                return Some(format!("{}{to}{}", &text[..at], &text[at..]));
            }
        }
    }
    None
}

/// A time frame moved: this year to next, one quarter to another, a year to the next.
pub fn shifted_time(text: &str) -> Option<String> {
    swap_first(
        text,
        &[
            ("this year", "next year"),
            ("next year", "this year"),
            ("last year", "this year"),
            ("this quarter", "next quarter"),
            ("next quarter", "this quarter"),
            ("first quarter", "second quarter"),
            ("second quarter", "third quarter"),
            ("third quarter", "fourth quarter"),
            ("fourth quarter", "third quarter"),
            ("holiday quarter", "first quarter"),
            ("the second half", "the first half"),
            ("the first half", "the second half"),
            ("by the end of the year", "by the end of next year"),
            ("this month", "next month"),
            ("2026", "2027"),
            ("2027", "2028"),
            ("2025", "2024"),
        ],
    )
}

/// Capitalised names of `text` (not its first word), whole words, one word each.
fn names_in(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .skip(1)
        .filter(|w| w.len() >= 3 && w.starts_with(char::is_uppercase))
        .filter(|w| !MONTHS.contains(w))
        .collect()
}

/// A name of the statement swapped for another name the same entry gives elsewhere.
pub fn swapped_entity(text: &str, entry: &Entry, company: &str) -> Option<String> {
    let own = names_in(text);
    let from = own
        .iter()
        .find(|w| **w != company && !company.contains(**w))?;
    // A name of the source text, not of who published it (`The Verge`, `@NVIDIAAI`).
    let publisher = entry.source.title.split(':').next().unwrap_or_default();
    // Not a form of the name it replaces (`Slayers` for `Slayer`): that keeps the meaning.
    let form = |w: &str| {
        let bare = |x: &str| x.to_lowercase().trim_end_matches('s').to_string();
        bare(w) == bare(from)
    };
    let to = entry.source.says.split(". ").flat_map(names_in).find(|w| {
        !text.contains(w)
            && !form(w)
            && *w != company
            && !w.contains(['-'])
            && w.len() > 3
            && !publisher.contains(w)
            && !entry
                .source
                .summary
                .split(" that ")
                .next()
                .unwrap_or_default()
                .contains(w)
    })?;
    find_word(text, from).map(|at| replace_at(text, at, from, to))
}

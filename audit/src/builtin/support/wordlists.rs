//! Word lists a unit's reading turns on: what refers to the company, what compares, limits, or
//! states a record, and what always needs a source.

/// Words that refer to the company a journal is about, or to nothing a source must state.
pub(super) const REFERENTS: &[&str] = &[
    "company",
    "companies",
    "firm",
    "firm's",
    "group",
    "business",
    "maker",
    "corporation",
    "inc",
    "corp",
    "ltd",
    "plc",
    "co",
];

/// Nouns that sum up what another sentence says when told as what someone announced (`Tim
/// Cook also announced the expansion on X`): they name that sentence's news, not news of
/// their own.
pub(super) const SHELL_NOUNS: &[&str] = &[
    "milestone",
    "milestones",
    "expansion",
    "news",
    "move",
    "development",
    "developments",
    "update",
    "announcement",
    "change",
    "changes",
    "result",
    "results",
    "figure",
    "figures",
    "step",
];

/// Verbs that tell the news a shell noun sums up.
pub(super) const ANNOUNCING: &[&str] = &[
    "announced",
    "announces",
    "shared",
    "shares",
    "confirmed",
    "confirms",
    "disclosed",
    "discloses",
    "posted",
    "posts",
    "reported",
    "reports",
    "detailed",
    "details",
    "noted",
    "notes",
    "flagged",
    "flags",
    // `called the news a near-term headwind`, `viewed the news as clearly positive`.
    "called",
    "calls",
    "described",
    "describes",
    "viewed",
    "views",
    "saw",
    "sees",
    "welcomed",
    "welcomes",
];

/// Comparison words that are stop words elsewhere but state something here.
pub(super) const COMPARING: &[&str] = &[
    "most", "least", "more", "less", "fewer", "only", "first", "next", "last", "all", "every",
];

/// Words that bound how far a statement goes.
pub(super) const LIMITING: &[&str] = &[
    "only",
    "barely",
    "hardly",
    "scarcely",
    "solely",
    "exclusively",
    "entirely",
    "fully",
    "always",
    "never",
    "mostly",
    "partly",
    "largely",
    "mainly",
    "nearly",
    "almost",
    "just",
    "incapable",
    "unable",
    "insignificant",
    "lack",
    "lacks",
    "lacked",
    "yet",
];

/// Words of a record or a superlative that are found only as written.
pub(in crate::builtin) const RECORDS: &[&str] = &[
    "record",
    "records",
    "history",
    "historic",
    "ever",
    "unprecedented",
];

/// Words that always need a source besides [`SUPERLATIVES`]: records, time frames.
/// Officers' titles in capitals (`CFO Jean Hu`): words, not names, each borne out by itself or
/// by the word of the title it stands for (`chief financial officer`), not by `chief` alone.
pub(super) const TITLES: &[(&str, &[&str])] = &[
    ("ceo", &["executive"]),
    ("cfo", &["financial", "finance"]),
    ("coo", &["operating", "operations"]),
    ("cto", &["technology"]),
];

pub(super) const STRICT_WORDS: &[&str] = &[
    "record",
    "top",
    "ever",
    "history",
    "historic",
    "unprecedented",
    "next",
    "last",
    "previous",
    "prior",
    "following",
    "second",
    "third",
    "fourth",
    "quarter",
    "year",
    "month",
    "week",
    "half",
    "annual",
    "fiscal",
    "decade",
    "daily",
    "weekly",
    "monthly",
    "quarterly",
    "yearly",
    "future",
    "past",
    "former",
    "new",
    "old",
    "early",
    "late",
    "already",
    "still",
    "again",
    "all",
    "every",
    "none",
];

/// Superlatives that rank a noun after them.
pub(super) const SUPERLATIVES: &[&str] = &[
    "best",
    "worst",
    "biggest",
    "largest",
    "highest",
    "lowest",
    "greatest",
    "smallest",
    "strongest",
    "weakest",
    "fastest",
    "slowest",
];

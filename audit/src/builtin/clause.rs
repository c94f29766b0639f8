//! The words that carry a clause's structure, shared by the checks of who does what: names
//! (runs of capitalised words) and when two are one, verbs that say who acts on whom and their
//! passives, words that say the same of both sides, and words that set one side against the
//! other.

use super::tokens::{Kind, Tok};
use super::wordnet;

/// Words between two names that say the same of both sides: `X and Y`, `X partnered with Y`.
pub(super) const SYMMETRIC: &[&str] = &[
    "and",
    "or",
    "with",
    "nor",
    "versus",
    "vs",
    "against",
    "between",
    "alongside",
    "both",
    "partnered",
    "partner",
    "partners",
    "merged",
    "merge",
    "met",
    "married",
    "collaborated",
    "competed",
    "tied",
    "teamed",
    "signed",
    "agreed",
    "allied",
    "shared",
    "fought",
    "feuded",
    "negotiated",
    "discussed",
    "talks",
    "dated",
    "divorced",
    "joint",
    "jointly",
    "associated",
    "linked",
    "correlated",
    "related",
    "connected",
];

/// Verbs without `-ed` that say who acts on whom (`-s` ends plural nouns too, so a present
/// tense is named).
const VERBS: &[&str] = &[
    "sold", "bought", "won", "beat", "beats", "led", "leads", "paid", "pays", "took", "takes",
    "made", "makes", "built", "builds", "hired", "hires", "sent", "gave", "gives", "sues", "lost",
    "drew", "wrote", "writes", "struck", "held", "holds", "left", "overtook", "supplies",
    "acquires", "buys", "sells", "owns", "trails", "replaces", "succeeds", "defeats", "employs",
    "funds", "backs", "raises", "cuts", "ships", "signs", "directs", "produces", "chose", "shot",
    "killed", "ran", "runs", "taught", "teaches", "caught", "fed", "feeds", "hit", "hits",
];

/// A name: a run of capitalised words (a number or `of` inside one: `Fox 2000 Pictures`, `Bank
/// of America`), its token range and its words.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Name {
    pub(super) at: usize,
    pub(super) end: usize,
    pub(super) key: String,
}

/// A capitalised word; not an abstract's section label (`RESULTS`, `CONCLUSIONS`: a common
/// word of six letters or more in capitals), nor a pronoun (capitalised after a draft's lead,
/// `On January 5, He rejoined`).
pub(super) fn capital(t: &Tok) -> bool {
    let label = t.raw.len() >= 6
        && !t.raw.chars().any(char::is_lowercase)
        && wordnet::is_word(&wordnet::lemma(&t.word));
    t.kind == Kind::Word
        && t.raw.starts_with(char::is_uppercase)
        && !label
        && !PRONOUNS.contains(&t.word.as_str())
}

/// Pronouns and words that point back: capitalised, still no name.
const PRONOUNS: &[&str] = &[
    "he", "she", "it", "they", "we", "i", "you", "his", "her", "its", "their", "our", "this",
    "these", "those", "there",
];

/// Whether the words of name `x` (at least `least` of them) stand together inside name `y`.
fn inside(x: &str, y: &str, least: usize) -> bool {
    let (x, y): (Vec<&str>, Vec<&str>) = (x.split(' ').collect(), y.split(' ').collect());
    x.len() >= least && y.windows(x.len()).any(|w| w == x.as_slice())
}

/// Whether two names are one: the same words, or a name of two words or more inside the
/// other's (`Key & Peabody Award` holds `Peabody Award`: an `&` is no word, so the draft's run
/// is longer); not one word inside another (`CONCACAF` and `CONCACAF Champions League` are
/// two).
pub(super) fn same(a: &str, b: &str) -> bool {
    a == b || inside(a, b, 2) || inside(b, a, 2)
}

/// Whether two names may be one: any of the words of one inside the other's (`Chicago` and
/// `University of Chicago Law School`). A name that may be one on its own side is not crossed.
pub(super) fn near(a: &str, b: &str) -> bool {
    inside(a, b, 1) || inside(b, a, 1)
}

/// Whether token `i` is a verb that says who acts on whom: a past form in `-ed` WordNet knows
/// as a verb, or one of [`VERBS`]; not after an article or a possessive (`the restructured
/// OpenAI`, `his enhanced abilities`).
pub(super) fn verb(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let w = t.word.as_str();
    let adjective = i > 0
        && [
            "the", "a", "an", "his", "her", "its", "their", "our", "my", "your",
        ]
        .contains(&toks[i - 1].word.as_str());
    // The cheap tests first: this is asked of every word of many clauses.
    if t.kind != Kind::Word || capital(t) || adjective {
        return false;
    }
    let alphabetic = w.chars().all(char::is_alphabetic);
    let form = (w.len() > 4 && w.ends_with("ed") && alphabetic && wordnet::is_verb(&wordnet::lemma(w)))
        || VERBS.contains(&w)
        || (alphabetic && irregular_past(w))
        // A progressive: `TSMC is adding`.
        || (i > 0
            && w.len() > 5
            && w.ends_with("ing")
            && alphabetic
            && ["is", "are", "was", "were"].contains(&toks[i - 1].word.as_str())
            && wordnet::is_verb(&wordnet::lemma(w)))
        // A verb's base after a modal: `OpenAI will verify`.
        || (i > 0
            && MODALS.contains(&toks[i - 1].word.as_str())
            && alphabetic
            && !AUX.contains(&w)
            && !["do", "get", "become"].contains(&w)
            && wordnet::is_verb(w));
    // A symmetric word in the passive says who acts all the same (`were shared by`), and so
    // does sharing a thing: it is telling (`Dell shared the details with other suppliers`).
    let told = || {
        w == "shared"
            && toks
                .get(i + 1)
                .is_some_and(|t| t.kind == Kind::Word && t.word != "with")
    };
    form && (!SYMMETRIC.contains(&w) || be_passive(toks, i) || told())
}

/// Names and words farther than this from the verb are another clause's.
pub(super) const REACH: usize = 8;

/// Whether `w` reads as a verb's present tense, `-s` and all (`delivers`, `reports`); the
/// caller says where it stands, for a plural reads the same (`series`).
pub(super) fn present_tense(w: &str) -> bool {
    w.len() > 3
        && w.chars().all(char::is_alphabetic)
        && w.strip_suffix('s').is_some_and(wordnet::is_verb)
}

/// Whether token `i` is a verb's base form right after a plural noun, which reads as the
/// plural's present (`the director nominees recommend`, `Analysts model`); the caller says
/// what must follow.
pub(super) fn plural_present(toks: &[Tok], i: usize) -> bool {
    if i == 0 || toks[i].kind != Kind::Word {
        return false;
    }
    let (p, w) = (&toks[i - 1].word, &toks[i].word);
    p.len() > 3
        && p.ends_with('s')
        && !p.ends_with("ss")
        && w.len() > 3
        && !w.ends_with('s')
        && w.chars().all(char::is_alphabetic)
        && wordnet::lemma(w) == *w
        && wordnet::is_verb(w)
        && wordnet::is_noun(&wordnet::lemma(p))
}

const MODALS: &[&str] = &[
    "will", "would", "can", "could", "may", "might", "shall", "should", "must",
];

/// A past form WordNet's exception lists give a verb's base for (`told`, `shown`, `sold`).
pub(super) fn irregular_past(w: &str) -> bool {
    w.len() > 2 && !w.ends_with('s') && !w.ends_with("ing") && !w.ends_with("ed") && {
        let l = wordnet::lemma(w);
        l != w && wordnet::is_verb(&l)
    }
}

/// Acts of a trade: each side gives (`the Browns traded Mingo to the Patriots for
/// Garoppolo`), so either may be the subject.
pub(super) const TRADES: &[&str] = &["traded", "trade", "trades", "swapped", "exchanged"];

/// Words that open another clause: a side of an act ends before them, and a subject is not
/// looked for past them.
pub(super) const CLAUSE_OPENERS: &[&str] = &[
    "that", "which", "who", "whom", "whose", "while", "whereas", "because", "as", "when", "but",
    "although", "though",
];

/// Words between a subject and its verb: `X has acquired`, `X was later acquired by`.
pub(super) const AUX: &[&str] = &[
    "is",
    "was",
    "were",
    "are",
    "been",
    "being",
    "be",
    "has",
    "had",
    "have",
    "also",
    "later",
    "then",
    "first",
    "formally",
    "officially",
    "eventually",
    "recently",
    "now",
    "already",
    "still",
    "currently",
    "will",
    "would",
];

/// Whether the verb at `v` stands in a passive: a form of `be` among the auxiliaries before it
/// (`was raised`, `have been placed`).
pub(super) fn be_passive(toks: &[Tok], v: usize) -> bool {
    toks[..v]
        .iter()
        .rev()
        .take_while(|t| AUX.contains(&t.word.as_str()))
        .any(|t| ["is", "was", "were", "are", "been", "being", "be"].contains(&t.word.as_str()))
}

/// Words that set one side of a comparison against the other: each side is a clause.
pub(super) const SIDES: &[&str] = &[
    "while",
    "whereas",
    "compared",
    "versus",
    "vs",
    "against",
    "behind",
    "ahead",
    "than",
    "lags",
    "lagged",
    "lagging",
    "trails",
    "trailed",
    "trailing",
    "outpaced",
    "outpacing",
    "outpaces",
    "but",
];

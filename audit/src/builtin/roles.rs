//! Who does what to whom: a draft's sentence that restates a source sentence with two of its
//! names exchanged (`Foxconn supplies NVIDIA` for `NVIDIA supplies Foxconn`, `Kash Rangan at
//! Microsoft raised the price target on Goldman Sachs`), or with the agent of its verb made
//! the patient (`B was acquired by A` restates `A acquired B`; `A was acquired by B` does not).
//! Both names stand in the source sentence, so the name checks find them; the order around the
//! verb says who acts. Also read: another agent of the same act (`OpenAI booked a loss on its
//! holding in Microsoft` for `Microsoft recorded a loss from its share of OpenAI's results`), and
//! a verb turned the other way with its subject kept (`Tesla received orders from suppliers` for
//! `Tesla placed orders with suppliers`; which way a verb goes is `converse.rs`'s).

use super::agent::{turned_agent, turned_subject};
use super::clause::{
    AUX, Name, REACH, SYMMETRIC, be_passive, capital, irregular_past, near, same, verb,
};
use super::compared::compared_turned;
use super::converse::{self, Way};
use super::destination;
use super::lexicon::equivalents;
use super::order::reordered;
use super::owners;
use super::paired;
use super::relations::{asking_turned, payment_turned, relation_turned};
use super::said;
use super::speakers::saying;
use super::tokens::{Kind, Tok};
use super::traded::traded;
use super::transposed::{self, Crossed, transposed};
use super::whole;
use super::wordnet;

fn names(toks: &[Tok]) -> Vec<Name> {
    let parties = parties(toks);
    let within = |a: usize, b: usize| parties.iter().any(|p| p.at <= a && b <= p.end);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !capital(&toks[i]) {
            i += 1;
            continue;
        }
        let mut at = i;
        while i < toks.len() {
            let inner = i > at
                && (toks[i].kind == Kind::Number || toks[i].word == "of")
                && toks.get(i + 1).is_some_and(capital);
            if capital(&toks[i]) || inner {
                i += 1;
                // A possessive ends its name: `the Pentagon's Maven Smart System` names two.
                if toks[i - 1].possessive {
                    break;
                }
            } else {
                break;
            }
        }
        // A sentence's opener (`The`, `In`) is no name, nor part of one (`The Soyuz`).
        if at == 0 && toks[0].anchor.is_empty() {
            at = 1;
        }
        // A capitalised word that qualifies a party (`Chinese suppliers`) is part of it.
        if at < i && !within(at, i) {
            out.push(name(toks, at, i));
        }
    }
    out.extend(parties);
    out.sort_by_key(|n| n.at);
    out
}

fn name(toks: &[Tok], at: usize, end: usize) -> Name {
    let key: Vec<&str> = toks[at..end].iter().map(|t| t.word.as_str()).collect();
    Name {
        at,
        end,
        key: key.join(" "),
    }
}

/// What a party's WordNet hypernyms reach: a person or a body of people (`suppliers` are
/// capitalists, `regulators` officials, `a panel` a committee, `companies` organizations); not
/// `business`, which a line of trade is too (`services`).
const PARTY_KINDS: &[&str] = &[
    "person",
    "individual",
    "someone",
    "somebody",
    "organisation",
    "organization",
    "institution",
    "establishment",
    "enterprise",
    "capitalist",
    "official",
    "functionary",
    "worker",
    "consumer",
    "customer",
    "client",
    "merchant",
    "merchandiser",
    "committee",
    "personnel",
    "expert",
    "contestant",
];

/// Whether token `t` is a common noun for a party: who can act or be acted on (`suppliers`,
/// `regulators`, `a short seller`), by WordNet.
fn party_noun(t: &Tok) -> bool {
    let w = t.word.as_str();
    if t.kind != Kind::Word
        || capital(t)
        || w.len() < 3
        || !w.chars().all(|c| c.is_alphabetic() || c == '-')
        || SYMMETRIC.contains(&w)
    {
        return false;
    }
    let l = wordnet::lemma(w);
    // The noun itself or its plural, not a verb's form (`converted` is no `convert`).
    let noun_form = l == w || (w.ends_with('s') && !w.ends_with("ss"));
    noun_form
        && wordnet::is_noun(&l)
        && wordnet::hypernyms(&l)
            .iter()
            .any(|h| PARTY_KINDS.contains(h))
}

/// A lower-case word that qualifies a noun after it: an adjective or a noun as written (not a
/// verb's form: `told`, `asked`), or a compound WordNet does not hold (`foundation-models`).
fn modifier(t: &Tok) -> bool {
    let w = t.word.as_str();
    if t.kind != Kind::Word || capital(t) || t.anchor.is_empty() || SYMMETRIC.contains(&w) {
        return false;
    }
    if w.contains('-') && !wordnet::is_word(w) {
        return w.chars().any(char::is_alphabetic);
    }
    let l = wordnet::lemma(w);
    l == w && (wordnet::is_adjective(w) || wordnet::only_noun(w))
}

/// Parties named by common nouns: a party noun that heads its phrase (no noun or name after
/// it: `an independent expert panel`, not the `expert` of it), with the words that qualify it
/// before it (`large internet companies`, `Chinese regulators`): up to three content words and
/// a capitalised run, not past a possessive, a verb or a function word.
fn parties(toks: &[Tok]) -> Vec<Name> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !party_noun(&toks[i]) || toks[i].possessive {
            continue;
        }
        if toks
            .get(i + 1)
            .is_some_and(|t| capital(t) || party_noun(t) || modifier(t))
        {
            continue;
        }
        let (mut at, mut words) = (i, 0);
        while at > 0 {
            let t = &toks[at - 1];
            if t.possessive || t.kind != Kind::Word {
                break;
            }
            if capital(t) {
                at -= 1;
            } else if modifier(t) && words < 3 {
                at -= 1;
                words += 1;
            } else {
                break;
            }
        }
        if at == 0 && toks[0].anchor.is_empty() {
            at = 1;
        }
        out.push(name(toks, at, i + 1));
    }
    out
}

/// The words on either side of a name: where it stands in its sentence. A clause break
/// stands for the sentence's start or end: a draft opens the source's sentence after its own
/// lead (`On January 14, Forbes ranked` restates `Hill ranked`). An article is passed over
/// (`an Army memo` and `a Boeing memo`, `with Boeing` and `with the Army` stand alike).
fn context(toks: &[Tok], n: &Name) -> (String, String) {
    let edge = |t: &Tok, e: &str| {
        if t.kind == Kind::Break {
            e.to_string()
        } else {
            t.word.clone()
        }
    };
    let article = |k: &usize| ARTICLES.contains(&toks[*k].word.as_str());
    // A lower-case word between an article and the name qualifies it (`in the restructured
    // OpenAI` stands where `in OpenAI` does).
    let qualifier = |k: &usize| {
        *k + 1 == n.at
            && *k > 0
            && article(&(*k - 1))
            && toks[*k].kind == Kind::Word
            && !capital(&toks[*k])
    };
    let before = (0..n.at)
        .rev()
        .find(|k| !article(k) && !qualifier(k))
        .map_or("^".to_string(), |k| edge(&toks[k], "^"));
    let after = (n.end..toks.len())
        .find(|k| !article(k))
        .map_or("$".to_string(), |k| edge(&toks[k], "$"));
    (before, after)
}

const ARTICLES: &[&str] = &["a", "an", "the"];

/// Two names of the source sentence `s` that the draft's `d` exchanges: each stands where the
/// other stands in `s` (the words on either side of it), neither stands where it stood, and a
/// word between them in `s` says who acts (not `and`, `with`, `partnered`, …).
fn exchanged(d: &[Tok], s: &[Tok], dn: &[Name], sn: &[Name]) -> Option<(String, String)> {
    // Where each name stands, read once: the pairs below ask it of every name.
    let dc: Vec<(&Name, (String, String))> = dn.iter().map(|n| (n, context(d, n))).collect();
    let sc: Vec<(String, String)> = sn.iter().map(|n| context(s, n)).collect();
    let in_d = |key: &str, ctx: &(String, String)| dc.iter().any(|(n, c)| n.key == key && c == ctx);
    for (k, x) in sn.iter().enumerate() {
        for (j, y) in sn.iter().enumerate().skip(k + 1) {
            let (cx, cy) = (sc[k].clone(), sc[j].clone());
            // `the company` is the company of the entry, whose name may stand for it (`@Tesla
            // posted that … the company is investing`, told as `Tesla is investing …, the
            // company posted`): no two parties to exchange.
            let referent = x.key == "company" || y.key == "company";
            if referent
                || x.key == y.key
                || cx == cy
                || x.key.contains(&y.key)
                || y.key.contains(&x.key)
            {
                continue;
            }
            let between = x.end..y.at;
            let acts = between.clone().any(|k| !s[k].anchor.is_empty()) && !symmetric(s, between);
            // The draft's names where `x` and where `y` stood, the words they share with the
            // name that stood there passed over (`MI450 GPUs` where `Instinct GPUs` stood).
            let at = |ctx: &(String, String), was: &str| {
                dc.iter()
                    .filter(|(_, c)| c == ctx)
                    .map(|(n, _)| heads(&n.key, was))
                    .collect::<Vec<_>>()
            };
            // Where a name that acts stood, by one side of it when the other side's word went
            // with the name (`the MI350 series` for `the MI300X`) or the sentence around it
            // was reworded (`NVIDIA's CoWoS-L` opening what `disclosed that TSMC's CoWoS-L`
            // did); not a passive's agent, which stands elsewhere by right (`suppliers were
            // asked by Apple to` restates `Apple asked suppliers to`).
            let by_side = |ctx: &(String, String), was: &str| {
                let word = |w: &str| w.chars().any(char::is_alphanumeric);
                dc.iter()
                    .filter(|(_, c)| {
                        c == ctx
                            || (c.0 != "by"
                                && ((c.0 == ctx.0 && word(&c.0)) || (c.1 == ctx.1 && word(&c.1))))
                    })
                    .map(|(n, _)| heads(&n.key, was))
                    .collect::<Vec<_>>()
            };
            let crossed = |here: &[(String, String)], other: &str| {
                here.iter().any(|(now, was)| {
                    now != was && (now == other || other.starts_with(&format!("{now} ")))
                })
            };
            // Two names that keep their places but exchange their first words (`the Vera GPU and
            // Rubin CPU` for `the Rubin GPU and Vera CPU`) name other things, joined or not.
            let recombined = |ctx: &(String, String), was: &str| {
                let here = at(ctx, was);
                !here.is_empty()
                    && here.iter().all(|(now, old)| now != old)
                    && dc
                        .iter()
                        .filter(|(_, c)| c == ctx)
                        .all(|(n, _)| !sn.iter().any(|m| m.key == n.key))
            };
            let tails = x.key.contains(' ') && y.key.contains(' ');
            if (acts || (tails && recombined(&cx, &x.key) && recombined(&cy, &y.key)))
                && crossed(&at(&cx, &x.key), &y.key)
                && crossed(&at(&cy, &y.key), &x.key)
                && !in_d(&x.key, &cx)
                && !in_d(&y.key, &cy)
            {
                return Some((x.key.clone(), y.key.clone()));
            }
            if acts
                && crossed(&by_side(&cx, &x.key), &y.key)
                && crossed(&by_side(&cy, &y.key), &x.key)
                && !in_d(&x.key, &cx)
                && !in_d(&y.key, &cy)
            {
                return Some((x.key.clone(), y.key.clone()));
            }
        }
    }
    None
}

/// Whether the words `span` between two names say the same of both, or belong to different
/// clauses: a symmetric word (`X and Y`, `X partnered with Y`) or a clause break (a list, an
/// aside) before any verb of the span. A symmetric word after a verb joins that verb's clause,
/// not the two names (`an Army memo flagged gaps in the prototype built with Boeing`), and so
/// does a break that opens a participle's (`Instinct GPUs, starting with MI450`).
fn symmetric(s: &[Tok], span: std::ops::Range<usize>) -> bool {
    let end = span.end;
    for k in span {
        let t = &s[k];
        if verb(s, k) || participle(s, k) {
            return false;
        }
        let opens_verb = k + 1 < s.len() && (verb(s, k + 1) || participle(s, k + 1));
        // `A agreed to buy … from B` is no agreement between A and B: `with B` would be.
        let joins = !ONLY_WITH.contains(&t.word.as_str())
            || s[k + 1..end]
                .iter()
                .any(|u| JOINERS.contains(&u.word.as_str()));
        if (SYMMETRIC.contains(&t.word.as_str()) && joins) || (t.kind == Kind::Break && !opens_verb)
        {
            return true;
        }
    }
    false
}

/// Symmetric verbs that join two names only through a word of [`JOINERS`] after them (`signed
/// a deal with`); without one, what follows them says who acts (`agreed to buy … from`).
const ONLY_WITH: &[&str] = &["agreed", "signed"];

const JOINERS: &[&str] = &["and", "with", "between", "against", "versus", "vs"];

/// A present participle WordNet knows as a verb (`starting`), not after an article.
fn participle(toks: &[Tok], i: usize) -> bool {
    let t = &toks[i];
    let w = t.word.as_str();
    t.kind == Kind::Word
        && !capital(t)
        && w.len() > 5
        && w.ends_with("ing")
        && w.chars().all(char::is_alphabetic)
        && !(i > 0 && ARTICLES.contains(&toks[i - 1].word.as_str()))
        && wordnet::is_verb(&wordnet::lemma(w))
}

/// Names `a` and `b` without the last words they share, when each keeps one: (`mi450`,
/// `instinct`) of `mi450 gpus` and `instinct gpus`; else the two as they are.
fn heads(a: &str, b: &str) -> (String, String) {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    let shared = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let cut = if shared < a.len() && shared < b.len() {
        shared
    } else {
        0
    };
    (a[..a.len() - cut].join(" "), b[..b.len() - cut].join(" "))
}

/// The subject's names right before the verb at `v` (past an auxiliary), with a name it is of
/// (`Keith Weiss at Morgan Stanley trimmed`): not a name farther off (`a film directed`).
fn subject(toks: &[Tok], all: &[Name], v: usize) -> Vec<String> {
    let mut k = v;
    while k > 0 && AUX.contains(&toks[k - 1].word.as_str()) {
        k -= 1;
    }
    // An aside between the name and its verb: `Jean Hu, chief financial officer, told`.
    if k > 0 && toks[k - 1].kind == Kind::Break && toks[k - 1].word == "," {
        let aside = (k.saturating_sub(REACH)..k - 1)
            .rev()
            .find(|&j| toks[j].kind == Kind::Break);
        if let Some(j) = aside.filter(|&j| toks[j].word == "," && all.iter().any(|n| n.end == j)) {
            k = j;
        }
    }
    let mut out = Vec::new();
    while let Some(n) = all.iter().find(|n| n.end == k) {
        k = n.at;
        // What a source is `according to` is none (`according to a Form S-8 filed with the
        // SEC`); past an article.
        let before = (0..k)
            .rev()
            .find(|&p| !ARTICLES.contains(&toks[p].word.as_str()));
        let cited = before
            .is_some_and(|p| p > 0 && toks[p].word == "to" && toks[p - 1].word == "according");
        // Whose it is goes with it (`from Tesla's Shanghai Megafactory`).
        let owner = all
            .iter()
            .find(|o| o.end == k && k > 0 && toks[k - 1].possessive)
            .map_or(k, |o| o.at);
        match owner.checked_sub(1).map(|p| toks[p].word.as_str()) {
            // Where the subject comes from is not who acts: `The first Megapacks from Tesla's
            // Shanghai Megafactory have been shipped`.
            Some("from") => {
                k = owner - 1;
            }
            Some(p) if OF.contains(&p) => {
                out.push(n.key.clone());
                k -= 1;
            }
            // The object of another preposition is no subject: `qualification of HBM4 stacks
            // for Rubin has begun`.
            Some(p) if PREPOSITIONS.contains(&p) => break,
            _ if cited => break,
            _ => {
                out.push(n.key.clone());
                break;
            }
        }
    }
    out
}

/// Words that join a name to the name it is of: `Keith Weiss at Morgan Stanley`.
const OF: &[&str] = &["at", "of", "from"];

const PREPOSITIONS: &[&str] = &[
    "for", "in", "on", "to", "with", "by", "into", "over", "about", "after", "before", "against",
    "between", "among", "through", "across", "toward", "towards", "within",
];

/// Who acts and who is acted on around the verb at `v`: its subject's names, and the names of
/// its clause within [`REACH`] after it, to the next `and` (not one it goes `to`: `traded Mingo
/// to the Patriots`); in the passive (`raised … by A`, `founded in 1971 by A`) the other way
/// round.
fn sides(toks: &[Tok], all: &[Name], v: usize) -> (Vec<String>, Vec<String>) {
    // `and other` goes on with the same party (`with Dell and other suppliers`).
    let clause = |k: usize| {
        let t = &toks[k];
        let listed = toks.get(k + 1).is_some_and(|n| n.word == "other");
        t.kind == Kind::Break
            || ["that", "which", "who", "but"].contains(&t.word.as_str())
            || (["and", "or"].contains(&t.word.as_str()) && !listed)
    };
    let stop = (v + 1..toks.len())
        .find(|&k| clause(k))
        .unwrap_or(toks.len());
    // A name right after `by` soon after the verb: the passive's agent, with the names it is
    // of (`by Stacy Rasgon at Bernstein`). Names between the verb and `by` are acted on, and
    // only in a passive (`placed with Tesla by Chinese suppliers`); a name after the agent's
    // phrase is not the agent (`placed by Tesla with Chinese suppliers`).
    let passive_form = be_passive(toks, v);
    let by = (v + 1..stop.min(v + 1 + REACH / 2)).find(|&k| toks[k].word == "by");
    let after_by = by.filter(|&b| {
        all.iter().any(|n| n.at > b && n.at <= b + 3 && n.at < stop)
            && (passive_form || !all.iter().any(|n| n.at > v && n.at < b))
    });
    let gone_to = |from: usize, n: &Name| {
        let before = (from + 1..n.at)
            .rev()
            .find(|&k| !ARTICLES.contains(&toks[k].word.as_str()));
        // `to` says where it goes (`traded Mingo to the Patriots`), an `at` right after the
        // verb where it happens (`has begun at Quanta`): neither is acted on.
        before.is_some_and(|k| toks[k].word == "to" || (toks[k].word == "at" && k == from + 1))
    };
    let after = |from: usize| -> Vec<&Name> {
        all.iter()
            .filter(|n| n.at > from && n.at < stop && n.at - from <= REACH && !gone_to(from, n))
            .collect()
    };
    let subject = subject(toks, all, v);
    if let Some(b) = after_by {
        let mut agent: Vec<&Name> = Vec::new();
        for n in after(b) {
            let joined = agent.last().is_none_or(|last| {
                n.at == last.end
                    || (n.at == last.end + 1 && OF.contains(&toks[last.end].word.as_str()))
            });
            if !joined {
                break;
            }
            agent.push(n);
        }
        let acted_on = after(v)
            .into_iter()
            .filter(|n| !agent.contains(n))
            .map(|n| n.key.clone())
            .chain(subject);
        return (
            agent.iter().map(|n| n.key.clone()).collect(),
            acted_on.collect(),
        );
    }
    let object: Vec<String> = after(v).into_iter().map(|n| n.key.clone()).collect();
    // `X was ranked` without `by`: X is acted on, who acts is not said; a name after the verb
    // is acted on or receives (`were shared with Databricks`).
    let participle = toks[v].word.ends_with("ed") || irregular_past(&toks[v].word);
    if passive_form && participle {
        (Vec::new(), subject.into_iter().chain(object).collect())
    } else {
        (subject, object)
    }
}

/// Verbs of asking one to act: who asks whom is the same act however pressing (`suppliers
/// pressed Apple to raise production` turns `Apple asked suppliers to raise production`).
const ASKING: &[&str] = &["ask", "urge", "press", "push", "request"];

/// A name the draft `d` makes the agent of a verb the source `s` makes it the patient of, or
/// the reverse: the verb (by its stem, once in each sentence) and the name.
fn turned(
    d: &[Tok],
    s: &[Tok],
    (dn, dw): (&[Name], &Words),
    (sn, sw): (&[Name], &Words),
) -> Option<(String, String)> {
    for v in (0..d.len()).filter(|&v| dw.verbs[v]) {
        let stem = &d[v].anchor;
        let base = dw.lemmas[v].as_str();
        // Once as a verb: a noun of the same stem is another word (`ranked` and `ranking`);
        // a form of the same verb is the verb (`shown` and `showed`, `verify` and `verified`).
        // A word the trade uses for it counts as the verb in the source (`recorded` for
        // `booked`).
        let equivalent = |l: &str| {
            equivalents(base).contains(&l) || (ASKING.contains(&base) && ASKING.contains(&l))
        };
        let at = |toks: &[Tok], words: &Words| {
            (0..toks.len())
                .filter(|&k| {
                    words.verbs[k]
                        && (toks[k].anchor == *stem
                            || words.lemmas[k] == base
                            || equivalent(&words.lemmas[k]))
                })
                .collect::<Vec<usize>>()
        };
        let (in_s, in_d) = (at(s, sw), at(d, dw));
        let (Some(&w), true, true) = (in_s.first(), in_d.len() == 1, in_s.len() == 1) else {
            continue;
        };
        // A verb of speech before its clause is another act than the same verb with a thing
        // (`@tim_cook posted that Apple will report results`, `Apple will post its results`).
        let speech = |toks: &[Tok], k: usize| {
            saying(&toks[k].word) && toks.get(k + 1).is_some_and(|t| t.word == "that")
        };
        if speech(s, w) != speech(d, v) {
            continue;
        }
        let (da, dp) = sides(d, dn, v);
        let (sa, sp) = sides(s, sn, w);
        let one = |names: &[String], n: &str| names.iter().any(|m| same(m, n));
        let may = |names: &[String], n: &str| names.iter().any(|m| near(m, n));
        let crossed = da
            .iter()
            .find(|n| one(&sp, n) && !may(&sa, n))
            .or_else(|| dp.iter().find(|n| one(&sa, n) && !may(&sp, n)));
        if let Some(n) = crossed {
            return Some((d[v].raw.clone(), n.clone()));
        }
        // Another agent of the same act, both agents named in both sentences, the draft's
        // after the verb in the source (`OpenAI booked a loss on its holding in Microsoft` for
        // `Microsoft booked a loss from its share of OpenAI's results`; not `Vera CPU` of `the
        // Rubin GPU and Vera CPU have taped out`).
        let named = |all: &[Name], n: &str| all.iter().any(|m| same(&m.key, n));
        let after_verb = |n: &str| {
            let at: Vec<&Name> = sn.iter().filter(|m| same(&m.key, n)).collect();
            !at.is_empty() && at.iter().all(|m| m.at > w)
        };
        let other = da.iter().find(|n| {
            !may(&sa, n) && after_verb(n) && sa.iter().any(|m| named(dn, m) && !may(&da, m))
        });
        if let Some(n) = other.filter(|_| !sa.is_empty()) {
            return Some((d[v].raw.clone(), n.clone()));
        }
    }
    None
}

/// The verbs of a sentence that move something to or away from a subject it names (turned in
/// the passive: `was paid by`), with that subject; not one whose clause moves money (`paid $5
/// billion for` is `bought`).
fn ways(toks: &[Tok], all: &[Name], words: &Words) -> Vec<(usize, Way, Vec<String>)> {
    (0..toks.len())
        .filter(|&v| words.verbs[v])
        .filter_map(|v| {
            let way = converse::way_at(toks, v)?;
            let money = toks[v + 1..]
                .iter()
                .take(REACH)
                .take_while(|t| t.kind != Kind::Break)
                .any(|t| t.raw.starts_with(['$', '\u{a3}', '\u{20ac}']));
            let subject = subject(toks, all, v);
            if money || subject.is_empty() {
                return None;
            }
            let way = match (way, be_passive(toks, v)) {
                (Way::In, true) => Way::Out,
                (Way::Out, true) => Way::In,
                (w, false) => w,
            };
            Some((v, way, subject))
        })
        .collect()
}

/// A subject the draft `d` makes get what the source `s` has it give, or the reverse (`Tesla
/// received orders from suppliers` for `Tesla placed orders with suppliers`): the draft's verb,
/// the subject and the way it goes in the draft. Not when a verb of the source with that subject
/// goes the draft's way, and only with another party of the source named in the draft.
fn conversed(
    d: &[Tok],
    s: &[Tok],
    (dn, dw): (&[Name], &Words),
    (sn, sw): (&[Name], &Words),
) -> Option<(String, String, Way)> {
    let theirs = ways(s, sn, sw);
    for (v, way, subject) in ways(d, dn, dw) {
        let of = |names: &[String]| names.iter().any(|m| subject.iter().any(|n| same(m, n)));
        let same_subject: Vec<Way> = theirs
            .iter()
            .filter(|(_, _, s)| of(s))
            .map(|(_, w, _)| *w)
            .collect();
        if same_subject.is_empty() || same_subject.contains(&way) {
            continue;
        }
        let other = sn.iter().any(|m| {
            !subject.iter().any(|n| near(&m.key, n)) && dn.iter().any(|n| same(&n.key, &m.key))
        });
        if other {
            return Some((d[v].raw.clone(), subject[0].clone(), way));
        }
    }
    None
}

/// A sentence's lemmas and which of its words are verbs, read once for every reading.
struct Words {
    lemmas: Vec<String>,
    verbs: Vec<bool>,
}

fn words(toks: &[Tok]) -> Words {
    Words {
        lemmas: toks
            .iter()
            .map(|t| wordnet::lemma(&t.word).into_owned())
            .collect(),
        verbs: (0..toks.len()).map(|i| verb(toks, i)).collect(),
    }
}

/// What a draft's sentence `d` says of who acts that the source sentence `s` reverses, in
/// words for a finding; `None` when it keeps the roles or the two cannot be compared.
pub(super) fn swapped(d: &[Tok], s: &[Tok]) -> Option<String> {
    let (dn, sn) = (names(d), names(s));
    if let Some((x, y)) = exchanged(d, s, &dn, &sn) {
        return Some(format!(
            "the draft exchanges \u{ab}{x}\u{bb} and \u{ab}{y}\u{bb}, which the entry puts the other way round"
        ));
    }
    if let Some((x, y)) = transposed(d, s) {
        return Some(format!(
            "the draft trades the places of \u{ab}{x}\u{bb} and \u{ab}{y}\u{bb} around the entry's words"
        ));
    }
    if let Some((f, x, y)) =
        owners::given(d, s, &dn, &sn).or_else(|| owners::possessed(d, s, &dn, &sn))
    {
        return Some(format!(
            "the draft gives \u{ab}{f}\u{bb} to \u{ab}{x}\u{bb}, which the entry gives to \u{ab}{y}\u{bb}"
        ));
    }
    match transposed::crossed(d, s) {
        Some(Crossed::Both(x, y)) => {
            return Some(format!(
                "the draft moves \u{ab}{x}\u{bb} and \u{ab}{y}\u{bb} to the other side of the entry's act"
            ));
        }
        Some(Crossed::Alone { name, behind, act }) => {
            return Some(format!(
                "the draft puts \u{ab}{name}\u{bb} behind \u{ab}{behind}\u{bb}, where the entry has it as the subject of \u{ab}{act}\u{bb}"
            ));
        }
        None => {}
    }
    if let Some((name, act)) = turned_agent(d, s) {
        return Some(format!(
            "the draft has \u{ab}{name}\u{bb} do what the entry has another party do (\u{ab}{act}\u{bb})"
        ));
    }
    if let Some((x, y, act)) = turned_subject(d, s) {
        return Some(format!(
            "the draft has \u{ab}{x}\u{bb} do what the entry has \u{ab}{y}\u{bb} do (\u{ab}{act}\u{bb})"
        ));
    }
    if let Some(link) = reordered(d, s) {
        return Some(format!(
            "the draft sets what stands on either side of \u{ab}{link}\u{bb} the other way round"
        ));
    }
    if let Some((x, y)) = traded(d, s) {
        return Some(format!(
            "the draft trades \u{ab}{x}\u{bb} and \u{ab}{y}\u{bb} between the entry's clauses"
        ));
    }
    if let Some((ours, theirs)) = relation_turned(d, s) {
        return Some(format!(
            "the draft relates its parties the other way round: \u{ab}{ours}\u{bb} where the entry has \u{ab}{theirs}\u{bb}"
        ));
    }
    if let Some((theirs, ours)) = destination::turned_way(d, s) {
        return Some(format!(
            "the draft turns the way it goes: \u{ab}{ours}\u{bb} where the entry has \u{ab}{theirs}\u{bb}"
        ));
    }
    if let Some((asker, asked)) = asking_turned(d, s) {
        return Some(format!(
            "the draft has \u{ab}{asker}\u{bb} ask \u{ab}{asked}\u{bb}, where the entry has it the other way round"
        ));
    }
    if let Some((x, y)) = compared_turned(d, s) {
        return Some(format!(
            "the draft sets \u{ab}{x}\u{bb} above \u{ab}{y}\u{bb} where the entry compares them the other way round"
        ));
    }
    if let Some((payer, payee)) = payment_turned(d, s) {
        return Some(format!(
            "the draft has \u{ab}{payer}\u{bb} pay \u{ab}{payee}\u{bb}, where the entry has it the other way round"
        ));
    }
    if let Some(w) = whole::inside_out(d, s) {
        return Some(format!(
            "the draft counts its share of \u{ab}{w}\u{bb}, which the entry has on the other side of the share"
        ));
    }
    if let Some((x, y)) = paired::traded(d, s) {
        return Some(format!(
            "the draft trades \u{ab}{x}\u{bb} and \u{ab}{y}\u{bb}, which the entry pairs the other way round"
        ));
    }
    if let Some((x, y)) = said::speakers_traded(d, s) {
        return Some(format!(
            "the draft has \u{ab}{x}\u{bb} say what the entry has \u{ab}{y}\u{bb} say"
        ));
    }
    let (dw, sw) = (words(d), words(s));
    if let Some((v, n)) = turned(d, s, (&dn, &dw), (&sn, &sw)) {
        return Some(format!(
            "the draft turns who \u{ab}{v}\u{bb} and who is acted on: \u{ab}{n}\u{bb} is on the other side in the entry"
        ));
    }
    conversed(d, s, (&dn, &dw), (&sn, &sw)).map(|(v, n, way)| {
        let (here, there) = match way {
            Way::In => ("gets", "gives"),
            Way::Out => ("gives", "gets"),
        };
        format!(
            "the draft turns who gives and who gets: \u{ab}{n}\u{bb} {here} in the draft (\u{ab}{v}\u{bb}) and {there} in the entry"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    fn swap(d: &str, s: &str) -> Option<String> {
        swapped(&tokenize(d), &tokenize(s))
    }

    #[test]
    fn names_exchanged_around_a_verb_are_read() {
        let s = "NVIDIA supplies Foxconn with chips.";
        assert!(swap("Foxconn supplies NVIDIA with chips.", s).is_some());
        assert!(swap(s, s).is_none());
        let s = "Kash Rangan at Goldman Sachs raised the price target on Microsoft to $565.";
        let d = "Kash Rangan at Microsoft raised the price target on Goldman Sachs to $565.";
        assert!(swap(d, s).is_some());
        // Not around a verb, but exchanged all the same: a stake in the other.
        let s = "Microsoft and OpenAI signed an agreement that gives Microsoft a 27% stake in the restructured OpenAI.";
        let d = "Microsoft and OpenAI signed an agreement that gives OpenAI a 27% stake in the restructured Microsoft.";
        assert!(swap(d, s).is_some());
    }

    #[test]
    fn parties_named_in_the_other_order_keep_their_roles() {
        let s = "AMD and OpenAI agreed on a multi-year deal.";
        assert!(swap("OpenAI and AMD agreed on a multi-year deal.", s).is_none());
        let s = "NVIDIA partnered with Foxconn on the plant.";
        assert!(swap("Foxconn partnered with NVIDIA on the plant.", s).is_none());
        let s = "NVIDIA and the government of the United Kingdom agreed to build a factory.";
        assert!(
            swap(
                "The government of the United Kingdom and NVIDIA agreed to build a factory.",
                s
            )
            .is_none()
        );
        // A verb of speech before its clause is not the same verb with a thing.
        let s = "@tim_cook posted that Apple will report quarterly results on October 17 after the market close.";
        let d = "Apple will post its quarterly results after the market close on October 17, @tim_cook wrote on X.";
        assert!(swap(d, s).is_none());
    }

    #[test]
    fn who_asks_whom_is_one_act_however_pressing() {
        let s = "Apple asked suppliers to raise iPhone 17 production by about 10% for the holiday quarter.";
        let d = "Its suppliers pressed Apple to raise iPhone 17 production by about 10% for the holiday quarter.";
        assert!(swap(d, s).is_some());
        let d = "Apple pressed suppliers to raise iPhone 17 production by about 10% for the holiday quarter.";
        assert!(swap(d, s).is_none());
    }

    #[test]
    fn who_shares_is_not_whom_it_is_shared_with() {
        let s = "The details were shared with Dell and other suppliers earlier this month.";
        let d = "Dell and other suppliers shared the details earlier this month.";
        assert!(swap(d, s).is_some());
        assert!(swap(s, s).is_none());
        let d = "The details were shared earlier this month with Dell and other suppliers.";
        assert!(swap(d, s).is_none());
        let d = "NVIDIA shared the details with Dell and other suppliers earlier this month.";
        assert!(swap(d, s).is_none());
        let s =
            "The details were shared with Samsung Display and other suppliers earlier this month.";
        let d = "Samsung Display shared the details with other suppliers earlier this month.";
        assert!(swap(d, s).is_some());
    }

    #[test]
    fn names_exchanged_with_their_surroundings_reworded_are_read() {
        // `series` stays with the name it followed.
        let s = "AMD says the MI350 series delivers up to 35x the inference performance of the MI300X on large language models.";
        let d = "AMD says the MI300X delivers up to 35x the inference performance of the MI350 series on large language models.";
        assert!(swap(d, s).is_some());
        // The attribution moved to the end.
        let s = "In an 8-K filed with the SEC, NVIDIA disclosed that TSMC's CoWoS-L packaging capacity remains the pacing item for Blackwell output, with NVIDIA said to have booked about 60% of next year's supply.";
        let d = "NVIDIA's CoWoS-L packaging capacity remains the pacing item for Blackwell output, with TSMC said to have booked about 60% of next year's supply, NVIDIA disclosed in an 8-K.";
        assert!(swap(d, s).is_some());
        assert!(
            swap(
                "TSMC's CoWoS-L packaging capacity remains the pacing item for Blackwell output, with NVIDIA said to have booked about 60% of next year's supply, NVIDIA disclosed in an 8-K.",
                s
            )
            .is_none()
        );
        // A passive's agent stands elsewhere by right.
        let s = "Apple asked suppliers to raise iPhone 17 production by about 10%.";
        let d = "Suppliers were asked by Apple to raise iPhone 17 production by about 10%.";
        assert!(swap(d, s).is_none());
    }

    #[test]
    fn another_agent_of_the_same_act_is_read() {
        let s = "Microsoft recorded a $4.1 billion loss from its share of OpenAI's results under the equity method.";
        let d = "OpenAI booked a $4.1 billion loss on its equity-method holding in Microsoft.";
        assert!(swap(d, s).is_some());
        let d = "Microsoft booked a $4.1 billion loss on its equity-method holding in OpenAI.";
        assert!(swap(d, s).is_none());
        // A progressive and its passive.
        let s = "TSMC is adding a production line in India dedicated to Apple products.";
        let d = "A production line in India dedicated to TSMC products is being added by Apple.";
        assert!(swap(d, s).is_some());
        let d = "A production line in India dedicated to Apple products is being added by TSMC.";
        assert!(swap(d, s).is_none());
    }

    #[test]
    fn a_verb_turned_the_other_way_turns_who_gives() {
        let s = "Tesla has placed actuator orders with Chinese suppliers for the Optimus ramp.";
        let d = "Tesla has received actuator orders from Chinese suppliers for the Optimus ramp.";
        assert!(swap(d, s).is_some_and(|f| f.contains("gets in the draft")));
        // The other party made the subject: the converse restates it.
        let d = "Chinese suppliers have received actuator orders from Tesla for the Optimus ramp.";
        assert!(swap(d, s).is_none());
        let s = "OpenAI received a warrant for up to 160 million AMD shares.";
        assert!(
            swap(
                "OpenAI issued AMD a warrant for up to 160 million shares.",
                s
            )
            .is_some()
        );
        assert!(
            swap(
                "OpenAI obtained a warrant for up to 160 million AMD shares.",
                s
            )
            .is_none()
        );
        // Money goes the other way from what it buys: `paid … for` is `bought`.
        let s = "Microsoft bought about $9 billion of GPU capacity from Nebius.";
        assert!(swap("Microsoft paid Nebius $9 billion for GPU capacity.", s).is_none());
    }

    #[test]
    fn a_passive_is_read_by_its_agent() {
        let s = "Stacy Rasgon at Bernstein raised the price target on AMD to $180.";
        // `B was V by A` restates `A V B`.
        assert!(
            swap(
                "The price target on AMD was raised to $180 by Stacy Rasgon at Bernstein.",
                s
            )
            .is_none()
        );
        let d = "The price target on Bernstein was raised to $180 by Stacy Rasgon at AMD.";
        assert!(swap(d, s).is_some());
        // The same order, the voice turned: the roles are.
        let s = "NATO acquired the Maven Smart System.";
        assert!(swap("NATO was acquired by the Maven Smart System.", s).is_some());
        assert!(swap("The Maven Smart System was acquired by NATO.", s).is_none());
        let film = "Soul Food is a 1997 film produced by Tracey Edmonds and released by Fox 2000 Pictures.";
        assert!(swap("Fox 2000 Pictures released the film Soul Food.", film).is_none());
        assert!(swap("Soul Food released the film Fox 2000 Pictures.", film).is_some());
        let s = "The Soyuz succeeded the Voskhod spacecraft.";
        assert!(swap("The Voskhod succeeded the Soyuz spacecraft.", s).is_some());
        let s = "RESULTS Alirocumab reduced isolated LDL-C by 55.1%.";
        assert!(swap("RESULTS LDL-C reduced isolated Alirocumab by 55.1%.", s).is_some());
    }

    #[test]
    fn what_the_public_claims_word_otherwise_is_no_swap() {
        let s = "Asylum Records is an American record label founded in 1971 by David Geffen and partner Elliot Roberts.";
        let d = "In 1971 Asylum Records the American record label was founded by David Geffen and his partner Elliot Roberts.";
        assert!(swap(d, s).is_none());
        let s = "The Canyons is a 2013 film directed by Paul Schrader and written by Bret Easton Ellis.";
        let d = "Bret Easton Ellis wrote the screenplay for a film directed by Paul Schrader.";
        assert!(swap(d, s).is_none());
        let s = "On August 25, 2015, the Browns traded Mingo to the Patriots for Quarterback Jimmy Garoppolo.";
        let d = "The New England Patriots traded quarterback Jimmy Garoppolo to the Browns in exchange for Barkevious Mingo.";
        assert!(swap(d, s).is_none());
        assert!(
            swap(
                "On August 25, 2015, the Mingo traded Browns to the Patriots.",
                s
            )
            .is_some()
        );
        // A draft's own lead before the source's sentence; a noun of the verb's stem; a name
        // the draft's run holds more words around (`&` is no word).
        let s = "Hill ranked 28th on Forbes magazine's ranking of the highest paid actors.";
        let d = "On January 14, Forbes ranked 28th on Hill magazine's ranking of the highest paid actors.";
        assert!(swap(d, s).is_some());
        let d = "On January 14, Hill ranked 28th on Forbes magazine's ranking of the highest paid actors.";
        assert!(swap(d, s).is_none());
        let s = "Key & Peele won a Peabody Award and two Primetime Emmy Awards.";
        let d = "On January 15, Key & Peabody Award won a Peele and two Primetime Emmy Awards.";
        assert!(swap(d, s).is_some());
        assert!(swap(&format!("On January 15, {s}"), s).is_none());
        // A passive without its agent; one name inside another.
        let s = "In 1999, the American Film Institute ranked Bogart as the greatest male star.";
        assert!(swap("Humphrey Bogart was ranked the greatest male star.", s).is_none());
        let s = "The CONCACAF Champions League is a competition organized by CONCACAF.";
        assert!(swap("The CONCACAF Champions League is organized by CONCACAF.", s).is_none());
        let s = "Chicago is ranked second by Brian Leiter of the University of Chicago Law School.";
        assert!(swap("University of Chicago Law School is ranked second.", s).is_none());
        // A pronoun is no name, capitalised or not.
        let s = "He rejoined Queens Park Rangers as manager in 2016.He is known as Ollie.";
        assert!(swap(&format!("On January 5, {s}"), s).is_none());
        let s = "Brian uses his enhanced abilities to help FBI agent Rebecca Harris.";
        assert!(
            swap(
                "Brian helped FBI agent Rebecca Harris using his enhanced abilities.",
                s
            )
            .is_none()
        );
    }

    #[test]
    fn names_exchanged_past_a_clause_of_their_own_are_read() {
        // A symmetric word of a verb's clause, not between the two names.
        let s = "An Army memo flagged security gaps in the Next Generation Command and Control prototype built with Boeing.";
        let d = "A Boeing memo flagged security gaps in the Next Generation Command and Control prototype built with the Army.";
        assert!(swap(d, s).is_some());
        let s = "AMD and OpenAI agreed on a deal to deploy 6 gigawatts of Instinct GPUs, starting with MI450 in 2026.";
        let d = "AMD and OpenAI agreed on a deal to deploy 6 gigawatts of MI450 GPUs, starting with Instinct in 2026.";
        assert!(swap(d, s).is_some());
        let r = swap(
            "OpenAI and AMD agreed on a deal to deploy 6 gigawatts of Instinct GPUs, starting with MI450 in 2026.",
            s,
        );
        assert!(r.is_none(), "{r:?}");
        // A possessive ends its name: the Pentagon, agent in the entry, is acted on.
        let s = "The Company reports that the Pentagon raised the ceiling on the Maven Smart System contract to about $1.3 billion.";
        let d = "Palantir disclosed that it raised the ceiling on the Pentagon's Maven Smart System contract to about $1.3 billion.";
        assert!(swap(d, s).is_some());
        let d = "Palantir disclosed that the Pentagon raised the ceiling on its Maven Smart System contract to about $1.3 billion.";
        assert!(swap(d, s).is_none());
        // A list and a partnership stay symmetric.
        let s = "Dell, HPE and Lenovo partnered with NVIDIA's team on the racks.";
        assert!(
            swap(
                "Lenovo, HPE and Dell partnered with NVIDIA's team on the racks.",
                s
            )
            .is_none()
        );
        let s = "Microsoft's partnership with OpenAI was extended.";
        assert!(swap("OpenAI's partnership with Microsoft was extended.", s).is_none());
    }

    #[test]
    fn names_and_verbs() {
        let n = names(&tokenize(
            "The film by Fox 2000 Pictures and the Bank of America.",
        ));
        let keys: Vec<&str> = n.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, vec!["fox 2000 pictures", "bank of america"]);
        let t = tokenize("It gives the restructured OpenAI a stake.");
        assert!(!verb(&t, 3));
        assert!(verb(&t, 1));
    }

    #[test]
    fn parties_named_by_common_nouns_are_read() {
        let s = "Chinese regulators have told large internet companies to pause new orders.";
        let d = "Large internet companies have told Chinese regulators to pause new orders.";
        assert!(swap(d, s).is_some());
        let d =
            "On May 2, Chinese regulators have told large internet companies to pause new orders.";
        assert!(swap(d, s).is_none());
        let n = names(&tokenize(
            "The board asked an independent expert panel and suppliers.",
        ));
        let keys: Vec<&str> = n.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, vec!["board", "independent expert panel", "suppliers"]);
        // A verb's form is no party (`converted`: a convert), nor a word that qualifies one.
        let n = names(&tokenize(
            "Visigoths under Reccared converted from Arianism.",
        ));
        assert!(n.iter().all(|n| n.key != "converted"));
    }

    #[test]
    fn an_agreement_to_buy_says_who_buys() {
        let s =
            "Microsoft agreed to buy about $9 billion of GPU capacity from Nebius over five years.";
        let d =
            "Nebius agreed to buy about $9 billion of GPU capacity from Microsoft over five years.";
        assert!(swap(d, s).is_some());
        let s = "Microsoft agreed with Nebius on a deal.";
        assert!(swap("Nebius agreed with Microsoft on a deal.", s).is_none());
    }

    #[test]
    fn a_passive_agent_is_its_by_phrase() {
        let s = "Tesla has placed actuator orders with Chinese suppliers for the Optimus ramp.";
        let d = "Actuator orders for the Optimus ramp have been placed by Tesla with Chinese suppliers.";
        assert!(swap(d, s).is_none());
        let d = "Actuator orders for the Optimus ramp have been placed with Tesla by Chinese suppliers.";
        assert!(swap(d, s).is_some());
        let s = "Any OpenAI declaration of AGI will be verified by an independent expert panel.";
        let d = "Any declaration of AGI by an independent expert panel will be verified by OpenAI.";
        assert!(swap(d, s).is_some());
    }

    #[test]
    fn names_that_exchange_their_first_words_are_other_names() {
        let s = "The Rubin GPU and Vera CPU have taped out at TSMC.";
        assert!(swap("The Vera GPU and Rubin CPU have taped out at TSMC.", s).is_some());
        assert!(swap("The Vera CPU and Rubin GPU have taped out at TSMC.", s).is_none());
    }

    #[test]
    fn who_told_whom_is_read_past_an_aside_and_in_the_passive() {
        let s = "Jean Hu, chief financial officer, told the Bernstein Strategic Decisions Conference that demand remains strong.";
        let d = "Jean Hu, chief financial officer, was told by the Bernstein Strategic Decisions Conference that demand remains strong.";
        assert!(swap(d, s).is_some());
        let d = "The Bernstein Strategic Decisions Conference was told by Jean Hu, chief financial officer, that demand remains strong.";
        assert!(swap(d, s).is_none());
        // Irregular forms of one verb, and a verb's base after a modal.
        let s = "Tesla showed employees a third-generation Optimus prototype.";
        assert!(
            swap(
                "Employees showed Tesla a third-generation Optimus prototype.",
                s
            )
            .is_some()
        );
        let s = "Any OpenAI declaration of AGI will be verified by an independent expert panel.";
        let d = "OpenAI will verify any declaration of AGI by an independent expert panel.";
        assert!(swap(d, s).is_some());
    }

    #[test]
    fn a_passive_without_an_agent_keeps_who_receives() {
        let s = "The details were shared with Databricks and other suppliers earlier this month.";
        let d = "The details were shared by Databricks and other suppliers earlier this month.";
        assert!(swap(d, s).is_some());
        assert!(swap(s, s).is_none());
    }

    #[test]
    fn a_name_inside_another_phrase_is_no_subject() {
        // `for Rubin` is not who began; `at Quanta` is where.
        let s = "Quanta has begun final qualification of HBM4 stacks for Rubin.";
        let d = "Final qualification of HBM4 stacks for Rubin has begun at Quanta.";
        assert!(swap(d, s).is_none());
        // A line of trade is no party: `Azure services` stays the name `Azure`.
        let s = "OpenAI committed to purchase an additional $250 billion of Azure services.";
        let d = "Azure committed to purchase an additional $250 billion of OpenAI services.";
        assert!(swap(d, s).is_some());
        // Where the subject comes from shipped nothing.
        let s = "CNBC reports that the Shanghai Megafactory shipped its first Megapacks to customers outside China.";
        let d = "The first Megapacks from Tesla's Shanghai Megafactory have been shipped to customers outside China, CNBC reports.";
        assert!(swap(d, s).is_none());
        // What a draft is `according to` filed nothing.
        let s =
            "NVIDIA Corporation is filing this Form S-8 to register 17,000,000 additional shares.";
        let d = "According to a Form S-8 filed with the SEC, NVIDIA is registering 17 million additional shares.";
        assert!(swap(d, s).is_none());
    }
}

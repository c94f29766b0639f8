//! The hand-written drafts (`audit/corpus/handwritten.json`): subtle faults and paraphrases
//! that keep the meaning, each citing entries of the demo archive.

use serde::Deserialize;

use journal_market_audit::Submission;

use crate::archive::Entry;
use crate::generate::{Case, Half, half_of};

const FILE: &str = include_str!("../../corpus/handwritten.json");

#[derive(Deserialize)]
struct File {
    cases: Vec<Written>,
}

#[derive(Deserialize)]
struct Written {
    id: String,
    /// `faithful`, or the kind of fault.
    kind: String,
    ticker: String,
    body: String,
    /// Why the draft is labelled so.
    #[allow(dead_code)]
    note: String,
    /// 2 for the drafts written after the report half was first measured; 3 for the held-out
    /// drafts of the third round (written before that round's tuning, `Half::Heldout`, tuning
    /// data since round 4); 4 for the held-out drafts of the fourth round (written before that
    /// round's tuning, `Half::Heldout4`, tuning data since round 5); 5 for the held-out drafts of
    /// the fifth round (`Half::Heldout5`, tuning data since round 6); 6 for the sixth round's
    /// (`Half::Heldout6`, tuning data since round 7); 7 for the seventh round's (`Half::Heldout7`,
    /// tuning data since round 8); 8 for the eighth round's (`Half::Heldout8`, tuning data since
    /// round 9); 9 for the ninth round's (`Half::Heldout9`, tuning data since round 10); 10 for
    /// the tenth round's (`Half::Heldout10`, tuning data since round 11); 11 for the eleventh
    /// round's (`Half::Heldout11`, tuning data since round 12); 12 for the twelfth round's
    /// (`Half::Heldout12`, tuning data since round 13); 13 for the thirteenth round's
    /// (`Half::Heldout13`, tuning data since round 14); 14 for the fourteenth round's
    /// (`Half::Heldout14`, tuning data since round 15); 15 for the fifteenth round's
    /// (`Half::Heldout15`, tuning data since round 16); 16 for the sixteenth round's
    /// (`Half::Heldout16`, tuning data since round 17); 17 for the seventeenth round's
    /// (`Half::Heldout17`, tuning data since round 18); 18 for the eighteenth round's
    /// (`Half::Heldout18`, tuning data since round 19); 19 for the nineteenth round's
    /// (`Half::Heldout19`, tuning data since round 20); 20 for the twentieth round's
    /// (`Half::Heldout20`, tuning data since round 21); 21 for the twenty-first round's
    /// (`Half::Heldout21`, tuning data since round 22); 22 for the twenty-second round's
    /// (`Half::Heldout22`, tuning data since round 23); 23 for the twenty-third round's
    /// (`Half::Heldout23`).
    #[serde(default)]
    round: u8,
}

/// The accession numbers in brackets of `body`.
pub fn cited(body: &str) -> Vec<String> {
    body.split('[')
        .skip(1)
        .filter_map(|s| s.split(']').next())
        .flat_map(|s| s.split([',', ';']))
        .map(|s| s.trim().to_string())
        .filter(|s| s.starts_with("JM-"))
        .collect()
}

pub fn cases(entries: &[Entry]) -> Vec<Case> {
    let file: File = serde_json::from_str(FILE).expect("corpus/handwritten.json parses");
    let mut cases: Vec<Case> = file
        .cases
        .into_iter()
        .map(|w| case(entries, w, "hand"))
        .collect();
    // Drafts being tried while tuning, from a file outside the corpus (`AUDIT_EVAL_TRY`, a JSON
    // list of cases as in the corpus), as `try/ID`: `--draft try/ID` shows one.
    if let Ok(path) = std::env::var("AUDIT_EVAL_TRY") {
        let text = std::fs::read_to_string(&path).expect("AUDIT_EVAL_TRY names a readable file");
        let tried: Vec<Written> = serde_json::from_str(&text).expect("AUDIT_EVAL_TRY parses");
        cases.extend(tried.into_iter().map(|w| case(entries, w, "try")));
    }
    cases
}

fn case(entries: &[Entry], w: Written, prefix: &str) -> Case {
    let ids = cited(&w.body);
    let sources = entries
        .iter()
        .filter(|e| ids.contains(&e.id))
        .map(|e| e.source.clone())
        .collect();
    // The dek: the draft's first paragraph, without its citations.
    let first = w
        .body
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with("## "))
        .unwrap_or("");
    let mut dek: String = first.split('[').next().unwrap_or("").trim().to_string();
    if dek.chars().count() < 120 {
        dek.push_str(" The archive shows how the record moved over the season.");
    }
    let faithful = w.kind == "faithful";
    Case {
        second_round: w.round == 2,
        id: format!("{prefix}/{}", w.id),
        kind: if faithful {
            "hand-written".into()
        } else {
            w.kind
        },
        faithful,
        handwritten: true,
        fact: None,
        half: match w.round {
            23.. => Half::Heldout23,
            22 => Half::Heldout22,
            21 => Half::Heldout21,
            20 => Half::Heldout20,
            19 => Half::Heldout19,
            18 => Half::Heldout18,
            17 => Half::Heldout17,
            16 => Half::Heldout16,
            15 => Half::Heldout15,
            14 => Half::Heldout14,
            13 => Half::Heldout13,
            12 => Half::Heldout12,
            11 => Half::Heldout11,
            10 => Half::Heldout10,
            9 => Half::Heldout9,
            8 => Half::Heldout8,
            7 => Half::Heldout7,
            6 => Half::Heldout6,
            5 => Half::Heldout5,
            4 => Half::Heldout4,
            3 => Half::Heldout,
            _ => half_of(&w.ticker),
        },
        target: w.body.clone(),
        sub: Submission {
            title: "A reading of the record".into(),
            company: crate::archive::company(&w.ticker),
            ticker: w.ticker,
            dek,
            body: w.body,
            sources,
        },
    }
}

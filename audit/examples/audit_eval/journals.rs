//! The demo's own journals (the swarm's in `data/demo/archive.json`, the people's in
//! `data/demo/person-journals.json`): long faithful drafts written apart from this corpus.

use journal_market_audit::Submission;
use serde_json::Value;

use crate::archive::{ARCHIVE, Entry};
use crate::generate::{Case, half_of};
use crate::handwritten::cited;

const PERSON: &str = include_str!("../../../data/demo/person-journals.json");

fn text(j: &Value, key: &str) -> String {
    j[key].as_str().unwrap_or("").to_string()
}

pub fn cases(entries: &[Entry]) -> Vec<Case> {
    let mut out = Vec::new();
    for (file, who) in [(ARCHIVE, "swarm"), (PERSON, "person")] {
        let v: Value = serde_json::from_str(file).expect("a demo file parses");
        for j in v["journals"].as_array().into_iter().flatten() {
            let body = text(j, "body");
            let ids = cited(&body);
            let ticker = text(j, "ticker");
            out.push(Case {
                id: format!("{who}/{}", text(j, "slug")),
                kind: "demo journal".into(),
                faithful: true,
                handwritten: false,
                fact: None,
                second_round: false,
                half: half_of(&ticker),
                target: text(j, "title"),
                sub: Submission {
                    title: text(j, "title"),
                    dek: text(j, "dek"),
                    sources: entries
                        .iter()
                        .filter(|e| ids.contains(&e.id))
                        .map(|e| e.source.clone())
                        .collect(),
                    company: crate::archive::company(&ticker),
                    ticker,
                    body,
                },
            });
        }
    }
    out
}

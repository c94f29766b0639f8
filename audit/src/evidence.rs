//! Evidence a reader can check: for each entry a draft cites, the lines of the entry that the
//! draft's sentences restate (what the journal detail's `evidence[]` shows beside each entry).

use serde::{Deserialize, Serialize};

use crate::{Submission, builtin};

/// One cited entry and the lines of it the draft rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    /// Accession number of the cited entry.
    pub accession: String,
    /// Sentences of the entry (its title, summary or source text) that sentences of the draft
    /// restate, each once, in the order the draft restates them; empty when no sentence of the
    /// draft restates the entry closely enough to quote it.
    pub quotes: Vec<String>,
}

/// For each accession the body cites, in the order it first cites them: the quoted source
/// lines its sentences rest on. Pure: the entries come with the submission; an accession the
/// submission has no source for is listed with no quotes.
pub fn evidence(sub: &Submission) -> Vec<Evidence> {
    of_support(&sub.body, &builtin::support(sub))
}

/// [`evidence`] from a support map already read (`builtin::support` of the same submission).
pub fn of_support(body: &str, support: &[crate::Support]) -> Vec<Evidence> {
    builtin::cited(body)
        .into_iter()
        .map(|accession| {
            let mut quotes: Vec<String> = Vec::new();
            for s in support.iter().filter(|s| s.entry == accession) {
                if !quotes.contains(&s.quote) {
                    quotes.push(s.quote.clone());
                }
            }
            Evidence { accession, quotes }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    fn source(accession: &str, says: &str) -> Source {
        Source {
            accession: accession.into(),
            ticker: "NVDA".into(),
            title: "A title".into(),
            summary: "A summary.".into(),
            says: says.into(),
            publisher: String::new(),
        }
    }

    #[test]
    fn quotes_each_cited_entry_in_citation_order() {
        let sub = Submission {
            ticker: "NVDA".into(),
            company: String::new(),
            title: "T".into(),
            dek: "D".into(),
            body: "## One\nSovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue this fiscal year [JM-NVDA-260823-01]. Data-center revenue was $1,200 million, up 14% [JM-NVDA-261104-01].\n\n## Two\nThat is a lot [JM-NVDA-260101-01].\n".into(),
            sources: vec![
                source("JM-NVDA-261104-01", "Data-center revenue was $1,200 million, an increase of 14% year over year. Margins held."),
                source("JM-NVDA-260823-01", "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue this fiscal year."),
            ],
        };
        let e = evidence(&sub);
        let ids: Vec<&str> = e.iter().map(|x| x.accession.as_str()).collect();
        assert_eq!(
            ids,
            [
                "JM-NVDA-260823-01",
                "JM-NVDA-261104-01",
                "JM-NVDA-260101-01"
            ]
        );
        assert_eq!(
            e[0].quotes,
            [
                "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue this fiscal year."
            ]
        );
        assert_eq!(
            e[1].quotes,
            ["Data-center revenue was $1,200 million, an increase of 14% year over year."]
        );
        assert!(e[2].quotes.is_empty());
        let v = serde_json::to_value(&e[0]).unwrap();
        assert!(v["accession"].is_string() && v["quotes"].is_array());
    }
}

//! The LLM reviewer's request (OpenAI-compatible chat completions, answer constrained by a JSON
//! schema) and the reading of its answer. The HTTP call is the AuditActor's.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::report::{Check, Issue, Report, Severity, judge};
use crate::{Submission, builtin};

/// Characters of each source's text sent to the reviewer.
const SOURCE_CHARS: usize = 4_000;
/// Findings taken from one answer, and characters of each.
const MAX_ISSUES: usize = 50;
const DETAIL_CHARS: usize = 300;

const SYSTEM: &str = "You audit a paid journal about one company before it is published. \
Check every claim of the draft (its dek and body) against the cited archive entries only, \
never against outside knowledge. Report each claim the cited entries do not support, each \
figure or quotation they do not contain, each citation that does not back its sentence, and \
each hedged source stated as fact. Compare meaning, not only words: a negation added or \
dropped, a direction turned around (rose/fell, up from/down from), a hedge made certain \
(plans to/has, may/will), an attribution dropped (people familiar, an analyst said), another \
company's or person's name, a moved date, a figure with another scale, currency or unit. \
Alignment hints name the entry sentence each draft sentence seems to restate; they may be \
wrong or incomplete. Severity: critical for invented or foreign sources, major for an \
unsupported claim or a changed meaning, minor for imprecision. Answer only with JSON: \
{\"issues\": [{\"severity\": \"critical|major|minor\", \"detail\": \"one sentence\"}]}; \
an empty list when every claim is supported.";

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Alignment hints sent, at most.
const MAX_HINTS: usize = 200;

/// The built-in engine's alignment as hints: each sentence of the body that restates a cited
/// entry, with the entry's sentence, so the reviewer compares meaning where it matters.
fn hints(sub: &Submission) -> Value {
    let support: Vec<Value> = builtin::support(sub)
        .into_iter()
        .take(MAX_HINTS)
        .map(|s| json!({ "sentence": s.sentence, "entry": s.entry, "quote": s.quote }))
        .collect();
    Value::Array(support)
}

/// The chat-completions request body for `model`.
pub fn request_body(model: &str, sub: &Submission) -> Value {
    let mut user = format!(
        "Company: {}\nTitle: {}\nDek: {}\n\nBody:\n{}\n\nCited entries:\n",
        sub.ticker, sub.title, sub.dek, sub.body
    );
    for s in &sub.sources {
        user.push_str(&format!(
            "\n[{}] ({}) {}\nSummary: {}\nSource text: {}\n",
            s.accession,
            s.ticker,
            s.title,
            s.summary,
            clip(&s.says, SOURCE_CHARS)
        ));
    }
    user.push_str(&format!(
        "\nAlignment hints (the rules engine's guess of the entry sentence each draft sentence \
         restates; compare their meaning: negation, direction, certainty, attribution, names, \
         dates, figures and units):\n{}\n",
        hints(sub)
    ));
    json!({
        "model": model,
        "temperature": 0,
        "messages": [
            { "role": "system", "content": SYSTEM },
            { "role": "user", "content": user },
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "audit_findings",
                "strict": true,
                "schema": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["issues"],
                    "properties": {
                        "issues": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "additionalProperties": false,
                                "required": ["severity", "detail"],
                                "properties": {
                                    "severity": { "type": "string", "enum": ["critical", "major", "minor"] },
                                    "detail": { "type": "string" }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// Why an answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub String);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Malformed {}

#[derive(Deserialize)]
struct Findings {
    issues: Vec<Finding>,
}

#[derive(Deserialize)]
struct Finding {
    severity: Severity,
    detail: String,
}

/// The reviewer's findings from a chat-completions answer.
pub fn parse_reply(reply: &Value) -> Result<Vec<Issue>, Malformed> {
    let content = reply
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| Malformed("no choices[0].message.content".into()))?;
    let text = content.trim();
    // Some servers wrap JSON in a fenced block despite the schema.
    let text = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|t| t.trim_end().strip_suffix("```"))
        .unwrap_or(text)
        .trim();
    let findings: Findings = serde_json::from_str(text)
        .map_err(|e| Malformed(format!("the content is not the findings schema ({e})")))?;
    Ok(findings
        .issues
        .into_iter()
        .take(MAX_ISSUES)
        .filter(|f| !f.detail.trim().is_empty())
        .map(|f| Issue {
            severity: f.severity,
            check: Check::Reviewer,
            detail: clip(f.detail.trim(), DETAIL_CHARS),
        })
        .collect())
}

/// The built-in findings and the reviewer's, judged together.
pub fn merge(builtin: Report, reviewer: Vec<Issue>, model: &str) -> Report {
    let mut issues = builtin.issues;
    issues.extend(reviewer);
    let mut report = judge(issues, &format!("{}+llm:{model}", builtin::ENGINE));
    report.support = builtin.support;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Source;

    fn sub() -> Submission {
        Submission {
            ticker: "NVDA".into(),
            title: "T".into(),
            dek: "D".into(),
            body: "## A\nText [JM-NVDA-261104-01].".into(),
            sources: vec![Source {
                accession: "JM-NVDA-261104-01".into(),
                ticker: "NVDA".into(),
                title: "Title".into(),
                summary: "Summary".into(),
                says: "x".repeat(10_000),
            }],
        }
    }

    fn reply(content: &str) -> Value {
        json!({ "choices": [ { "message": { "role": "assistant", "content": content } } ] })
    }

    #[test]
    fn the_request_carries_draft_sources_and_schema() {
        let b = request_body("m", &sub());
        assert_eq!(b["model"], "m");
        assert_eq!(b["response_format"]["type"], "json_schema");
        let user = b["messages"][1]["content"].as_str().unwrap();
        assert!(user.contains("[JM-NVDA-261104-01] (NVDA) Title"));
        assert!(user.len() < 5_000, "sources are clipped");
    }

    #[test]
    fn the_request_carries_the_alignment_as_hints() {
        let mut s = sub();
        s.body = "## A\nNVIDIA agreed to build a national AI factory with about 20,000 GPUs [JM-NVDA-261104-01].".into();
        s.sources[0].says =
            "NVIDIA agreed to build a national AI factory with about 20,000 GPUs. More to come."
                .into();
        let b = request_body("m", &s);
        let user = b["messages"][1]["content"].as_str().unwrap();
        assert!(user.contains("Alignment hints"));
        assert!(user.contains(
            "\"quote\":\"NVIDIA agreed to build a national AI factory with about 20,000 GPUs.\""
        ));
    }

    #[test]
    fn reads_plain_and_fenced_answers() {
        let ok = parse_reply(&reply(
            r#"{"issues":[{"severity":"major","detail":"The 40% figure is not in [JM-NVDA-261104-01]."}]}"#,
        ))
        .unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!(
            (ok[0].severity, ok[0].check),
            (Severity::Major, Check::Reviewer)
        );
        let fenced = parse_reply(&reply("```json\n{\"issues\": []}\n```")).unwrap();
        assert!(fenced.is_empty());
    }

    #[test]
    fn refuses_malformed_answers() {
        for bad in [
            reply("I think it is fine."),
            reply(r#"{"issues":[{"severity":"fatal","detail":"x"}]}"#),
            reply(r#"{"findings":[]}"#),
            json!({ "choices": [] }),
            json!({ "error": "overloaded" }),
        ] {
            assert!(parse_reply(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn merged_findings_are_judged_together() {
        let base = judge(vec![], builtin::ENGINE);
        let extra = vec![Issue {
            severity: Severity::Major,
            check: Check::Reviewer,
            detail: "unsupported".into(),
        }];
        let r = merge(base, extra, "llama");
        assert_eq!(r.verdict, crate::Verdict::Revise);
        assert_eq!(r.engine, "builtin-1+llm:llama");
    }
}

//! The reviewer's answer: its findings, or why it could not be read.

use serde::Deserialize;
use serde_json::Value;

use super::request::clip;
use crate::report::{Check, Issue, Severity};

/// Findings taken from one answer, and characters of each.
const MAX_ISSUES: usize = 50;
const DETAIL_CHARS: usize = 300;

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

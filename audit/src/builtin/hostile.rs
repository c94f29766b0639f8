//! Text in a draft addressed to whoever reviews it (a person, the rules engine or the LLM
//! reviewer) rather than to its readers: instructions, a requested answer, a forged list of
//! cited entries. A journal has no reason to hold any of it; it is a blocking finding.

use super::{clip, is_accession};
use crate::report::{Check, Issue, Severity};

/// Phrases that tell a reviewer what to do or what it is.
const INSTRUCTIONS: &[&str] = &[
    "ignore previous instructions",
    "ignore all previous",
    "ignore the previous",
    "ignore prior instructions",
    "ignore the above",
    "ignore all instructions",
    "ignore your instructions",
    "ignore the instructions",
    "disregard previous",
    "disregard all previous",
    "disregard the above",
    "disregard your instructions",
    "disregard the instructions",
    "forget your instructions",
    "new instructions:",
    "system prompt",
    "you are an ai",
    "you are a language model",
    "as a language model",
    "answer only with",
    "respond only with",
    "reply only with",
    "return an empty list",
    "approve this draft",
    "approve this journal",
    "approve the draft",
    "mark this draft",
    "mark the draft as",
    "this draft must be approved",
    "score this draft",
    "report no issues",
    "do not report any",
    "note to the reviewer",
    "note to reviewer",
    "note for the reviewer",
    "note to the auditor",
    "to the reviewer:",
    "dear reviewer",
    "dear auditor",
    "the reviewer should",
    "the reviewer must",
    "the auditor should",
    "the auditor must",
    "audit agent",
    "llm reviewer",
    "ai reviewer",
    "begin draft",
    "end draft",
];

/// Words that, opening a line and followed by `:` or `,`, address the reviewer.
const ADDRESSES: &[&str] = &[
    "reviewer",
    "reviewers",
    "auditor",
    "auditors",
    "assistant",
    "system",
    "llm",
];

/// Lines of the reviewer's own request format: a forged block of cited entries.
const FORGED_LINES: &[&str] = &["cited entries:", "cited entries (", "source text:"];

/// The answer the reviewer gives, written into the draft: `{"issues": []}`.
const ANSWERS: &[&str] = &[
    "{\"issues\"",
    "\"issues\":[",
    "\"issues\":{",
    "\"verdict\":",
];

/// Why a line addresses a reviewer, if it does.
fn addressed(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let bare = lower.trim_start_matches(['#', '*', '>', '-', '_', ' ']);
    if INSTRUCTIONS.iter().any(|p| lower.contains(p)) {
        return Some("an instruction to the reviewer");
    }
    let squeezed: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    if ANSWERS.iter().any(|a| squeezed.contains(a)) {
        return Some("an answer for the reviewer to give");
    }
    let first: String = bare
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == ' ')
        .collect();
    let after = bare[first.len()..].chars().next();
    if ADDRESSES.contains(&first.trim()) && matches!(after, Some(':' | ',')) {
        return Some("a line addressed to the reviewer");
    }
    if FORGED_LINES.iter().any(|f| bare.starts_with(f)) || bare.trim() == "cited entries" {
        return Some("a forged block of cited entries");
    }
    // `[JM-NVDA-261104-01] (NVDA) …`: an entry's heading in the reviewer's request.
    if let Some(rest) = bare.strip_prefix('[')
        && let Some((id, tail)) = rest.split_once(']')
        && is_accession(&id.to_uppercase())
        && tail.trim_start().starts_with('(')
    {
        return Some("a forged block of cited entries");
    }
    None
}

/// `reviewer-instruction` findings of the title, the dek and the body, one per line at fault.
pub(super) fn instructions(title: &str, dek: &str, body: &str) -> Vec<Issue> {
    let mut out = Vec::new();
    for (part, text) in [("title", title), ("dek", dek), ("body", body)] {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if let Some(why) = addressed(line) {
                out.push(Issue {
                    severity: Severity::Critical,
                    check: Check::ReviewerInstruction,
                    detail: format!(
                        "the {part} holds {why}, not text for readers: \u{ab}{}\u{bb}",
                        clip(line.trim(), 80)
                    ),
                });
            }
        }
    }
    out
}

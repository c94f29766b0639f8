//! The built-in audit engine on a whole submission (the draft and the entries it cites), the
//! evidence it quotes, and the LLM reviewer's answer.
//!
//! Input: a submission as text: the draft (ticker, title, dek, then the body, a line each but
//! the body), then each source after a `\n===\n` line (accession, ticker, title, summary, then
//! what it says). Starting with `{`: a reviewer's chat-completions answer. Asserts the report's
//! verdict follows its findings, that the alignment alone gives the report's support, and that
//! the evidence lists the cited entries in citation order.
#![no_main]

use journal_market_audit::builtin;
use journal_market_audit::llm::parse_reply;
use journal_market_audit::report::APPROVE_AT;
use journal_market_audit::{Severity, Source, Submission, Verdict, evidence};
use libfuzzer_sys::fuzz_target;

fn submission(s: &str) -> Submission {
    let mut parts = s.split("\n===\n");
    let draft = parts.next().unwrap_or_default();
    let mut lines = draft.splitn(4, '\n');
    let mut next = || lines.next().unwrap_or_default().to_string();
    let (ticker, title, dek, body) = (next(), next(), next(), next());
    let sources = parts
        .map(|p| {
            let mut lines = p.splitn(5, '\n');
            let mut next = || lines.next().unwrap_or_default().to_string();
            let (accession, t, title, summary, says) = (next(), next(), next(), next(), next());
            Source {
                accession,
                ticker: if t.is_empty() { ticker.clone() } else { t },
                title,
                summary,
                says,
                publisher: String::new(),
            }
        })
        .collect();
    Submission {
        ticker,
        company: String::new(),
        title,
        dek,
        body,
        sources,
    }
}

fn reply(s: &str) {
    let Ok(v) = serde_json::from_str(s) else {
        return;
    };
    if let Ok(issues) = parse_reply(&v) {
        assert!(issues.len() <= 50);
        for i in issues {
            assert!(!i.detail.trim().is_empty());
            assert!(i.detail.chars().count() <= 301);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if s.starts_with('{') {
        reply(s);
        return;
    }
    let sub = submission(s);
    let report = builtin::audit(&sub);
    assert!((0.0..=100.0).contains(&report.score));
    let has = |sev| report.issues.iter().any(|i| i.severity == sev);
    let verdict = if has(Severity::Critical) {
        Verdict::Reject
    } else if has(Severity::Major) || report.score < APPROVE_AT {
        Verdict::Revise
    } else {
        Verdict::Approve
    };
    assert_eq!(report.verdict, verdict);
    assert_eq!(builtin::support(&sub), report.support);
    let cited = builtin::cited(&sub.body);
    let ev = evidence(&sub);
    assert_eq!(
        ev.iter().map(|e| &e.accession).collect::<Vec<_>>(),
        cited.iter().collect::<Vec<_>>()
    );
    for e in &ev {
        for (i, q) in e.quotes.iter().enumerate() {
            assert!(!e.quotes[..i].contains(q), "each quote once");
        }
    }
});

//! The audit report: issues with a severity and a check name, the score from documented
//! weights, and the verdict (docs/audit-engine.md).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The draft cannot be published as it stands: it cites what the archive does not hold.
    Critical,
    /// A claim the cited sources do not carry: the author must revise.
    Major,
    /// Worth a look; lowers the score only.
    Minor,
}

impl Severity {
    /// Points a finding of this severity takes off 100.
    pub fn weight(self) -> f64 {
        match self {
            Severity::Critical => 40.0,
            Severity::Major => 15.0,
            Severity::Minor => 4.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    UnknownCitation,
    ForeignCitation,
    UncitedClaim,
    UnsupportedFigure,
    UnverifiedQuote,
    ClaimDrift,
    DekUnsupported,
    HedgeDropped,
    /// The draft negates what the source sentence it restates affirms, or the reverse.
    NegationFlipped,
    /// The draft turns a direction around (rose/fell, up/down, beat/miss, …).
    DirectionFlipped,
    /// The draft states as certain what the source hedges (plans to, may, expects, …).
    CertaintyRaised,
    /// The draft states as fact what the source attributes (people familiar, an analyst, …).
    AttributionDropped,
    /// A company or person the cited entries do not name.
    UnsupportedName,
    /// Two names of a source sentence exchanged, or the agent of its verb made the patient:
    /// who does what to whom turned around.
    RolesSwapped,
    /// A date the cited entries do not give.
    UnsupportedDate,
    /// A figure of the sources' value with another currency, period or unit.
    FigureUnit,
    /// A paragraph that cites no entry, in a section that makes claims.
    UncitedParagraph,
    /// Text addressed to the reviewer: instructions, a requested answer, forged entries.
    ReviewerInstruction,
    /// A finding of the LLM reviewer.
    Reviewer,
    /// What a sentence of record states and no source sentence it rests on holds: a word, a
    /// bound on a figure, a causal or temporal link, or who said it (default deny).
    UnsupportedContent,
}

impl Check {
    pub fn as_str(self) -> &'static str {
        match self {
            Check::UnknownCitation => "unknown-citation",
            Check::ForeignCitation => "foreign-citation",
            Check::UncitedClaim => "uncited-claim",
            Check::UnsupportedFigure => "unsupported-figure",
            Check::UnverifiedQuote => "unverified-quote",
            Check::ClaimDrift => "claim-drift",
            Check::DekUnsupported => "dek-unsupported",
            Check::HedgeDropped => "hedge-dropped",
            Check::NegationFlipped => "negation-flipped",
            Check::DirectionFlipped => "direction-flipped",
            Check::CertaintyRaised => "certainty-raised",
            Check::AttributionDropped => "attribution-dropped",
            Check::UnsupportedName => "unsupported-name",
            Check::RolesSwapped => "roles-swapped",
            Check::UnsupportedDate => "unsupported-date",
            Check::FigureUnit => "figure-unit",
            Check::UncitedParagraph => "uncited-paragraph",
            Check::ReviewerInstruction => "reviewer-instruction",
            Check::Reviewer => "reviewer",
            Check::UnsupportedContent => "unsupported-content",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    pub severity: Severity,
    pub check: Check,
    /// One sentence naming what is at fault.
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Approve,
    Revise,
    Reject,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Approve => "approve",
            Verdict::Revise => "revise",
            Verdict::Reject => "reject",
        }
    }
}

/// How a sentence of record stands against the sentences of the entries it cites.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Every content unit is found in the source sentences it rests on.
    #[default]
    Supported,
    /// A source sentence says otherwise (a negation, a direction, a hedge, a unit, …).
    Contradicted,
    /// Something it states is found in none of them.
    Unsupported,
}

impl Judgement {
    pub fn as_str(self) -> &'static str {
        match self {
            Judgement::Supported => "supported",
            Judgement::Contradicted => "contradicted",
            Judgement::Unsupported => "unsupported",
        }
    }
}

/// A sentence of the body, its judgement and a source sentence it rests on: evidence a reader
/// can check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Support {
    /// The body's sentence, without its citations.
    pub sentence: String,
    /// Accession number of the entry it rests on.
    pub entry: String,
    /// The entry's sentence it rests on (from its title, summary or source text): for an
    /// unsupported sentence, the nearest one.
    pub quote: String,
    #[serde(default)]
    pub judgement: Judgement,
    /// What the sentence states that no sentence it rests on holds, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub verdict: Verdict,
    pub score: f64,
    pub summary: String,
    pub issues: Vec<Issue>,
    pub engine: String,
    /// Beyond the interface's fields: each sentence of the body that restates a cited entry,
    /// with the entry's sentence (the built-in engine's alignment).
    #[serde(default)]
    pub support: Vec<Support>,
}

/// Below this score a draft without major findings still goes back for revision.
pub const APPROVE_AT: f64 = 70.0;

/// Scores the findings and decides: any critical finding rejects; any major one, or a score
/// under [`APPROVE_AT`], asks for revision; otherwise the draft is approved.
pub fn judge(mut issues: Vec<Issue>, engine: &str) -> Report {
    let mut seen = std::collections::HashSet::new();
    issues.retain(|i| seen.insert((i.check, i.detail.clone())));
    // Stable: findings of one severity keep the order they were found in.
    issues.sort_by_key(|i| i.severity);
    let lost: f64 = issues.iter().map(|i| i.severity.weight()).sum();
    let score = ((100.0 - lost).max(0.0) * 10.0).round() / 10.0;
    let count = |s: Severity| issues.iter().filter(|i| i.severity == s).count();
    let (critical, major, minor) = (
        count(Severity::Critical),
        count(Severity::Major),
        count(Severity::Minor),
    );
    let verdict = if critical > 0 {
        Verdict::Reject
    } else if major > 0 || score < APPROVE_AT {
        Verdict::Revise
    } else {
        Verdict::Approve
    };
    let summary = match (critical, major, minor) {
        (0, 0, 0) => "Every claim matches the cited entries.".to_string(),
        _ => {
            let mut parts = Vec::new();
            for (n, what) in [(critical, "critical"), (major, "major"), (minor, "minor")] {
                if n > 0 {
                    parts.push(format!("{n} {what}"));
                }
            }
            let lead = match verdict {
                Verdict::Approve => "Approved with notes",
                Verdict::Revise => "Needs revision",
                Verdict::Reject => "Rejected",
            };
            format!(
                "{lead}: {} finding{}; the first: {}",
                parts.join(", "),
                if critical + major + minor == 1 {
                    ""
                } else {
                    "s"
                },
                issues
                    .first()
                    .map(|i| i.detail.as_str())
                    .unwrap_or_default()
            )
        }
    };
    Report {
        verdict,
        score,
        summary,
        issues,
        engine: engine.to_string(),
        support: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(severity: Severity, check: Check, detail: &str) -> Issue {
        Issue {
            severity,
            check,
            detail: detail.into(),
        }
    }

    /// The report of findings given as (severity, check, detail).
    fn judged(found: &[(Severity, Check, &str)]) -> Report {
        judge(found.iter().map(|&(s, c, d)| issue(s, c, d)).collect(), "t")
    }

    #[test]
    fn weights_and_verdicts() {
        let clean = judged(&[]);
        assert_eq!((clean.verdict, clean.score), (Verdict::Approve, 100.0));
        let notes = judged(&[(Severity::Minor, Check::ClaimDrift, "a")]);
        assert_eq!((notes.verdict, notes.score), (Verdict::Approve, 96.0));
        let major = judged(&[(Severity::Major, Check::UncitedClaim, "b")]);
        assert_eq!((major.verdict, major.score), (Verdict::Revise, 85.0));
        let critical = judged(&[
            (Severity::Minor, Check::ClaimDrift, "a"),
            (Severity::Critical, Check::UnknownCitation, "c"),
        ]);
        assert_eq!(critical.verdict, Verdict::Reject);
        assert_eq!(critical.issues[0].check, Check::UnknownCitation);
        // Eight minor findings: no major one, but the score is under the bar.
        let many: Vec<_> = (0..8)
            .map(|i| issue(Severity::Minor, Check::ClaimDrift, &i.to_string()))
            .collect();
        let r = judge(many, "t");
        assert_eq!((r.verdict, r.score), (Verdict::Revise, 68.0));
        // Duplicates count once.
        let dup = judged(&[(Severity::Major, Check::UncitedClaim, "b"); 2]);
        assert_eq!(dup.issues.len(), 1);
    }

    #[test]
    fn wire_names() {
        let i = issue(Severity::Major, Check::UnsupportedFigure, "x");
        let v = serde_json::to_value(&i).unwrap();
        assert_eq!(v["severity"], "major");
        assert_eq!(v["check"], "unsupported-figure");
        assert_eq!(serde_json::to_value(Verdict::Approve).unwrap(), "approve");
        assert_eq!(Check::HedgeDropped.as_str(), "hedge-dropped");
    }
}

//! The audit engines' pure parts, with no I/O: the built-in rules engine that reads a draft
//! against the entries it cites, the report and its scoring, and the LLM reviewer's request and
//! answer. The AuditActor (crate `journal-market-actors`) runs them and makes the HTTP call.

pub mod builtin;
pub mod evidence;
pub mod llm;
pub mod report;
pub mod sample;

pub use evidence::{Evidence, evidence};
pub use report::{Check, Issue, Judgement, Report, Severity, Support, Verdict};

/// An archive entry a draft cites, as the engines read it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Source {
    /// Accession number, e.g. `JM-NVDA-261104-01`.
    pub accession: String,
    pub ticker: String,
    pub title: String,
    pub summary: String,
    /// The text the entry was written from (`source.says`).
    pub says: String,
    /// Who published that text (`source.name`: `Reuters`, `SEC EDGAR`, `@NVIDIADC on X`): a
    /// draft may name it as where the entry comes from.
    pub publisher: String,
}

/// What is audited: the draft and every cited entry the archive holds (of any company; an
/// accession cited in the body and absent here is unknown to the archive).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Submission {
    pub ticker: String,
    /// The company's name as the archive holds it (`Tesla, Inc.`): the one its entries call
    /// `the company`, or leave unsaid (`regulatory-credit revenue fell`). Empty when unknown.
    pub company: String,
    pub title: String,
    pub dek: String,
    /// `## ` sections with bracketed accession citations.
    pub body: String,
    pub sources: Vec<Source>,
}

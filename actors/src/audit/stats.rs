//! What the audit jobs of this instance came to, counted for the service's metrics: engine runs
//! started, how each job ended, and the audits refused because the wallet's queue was full.
//! Operators read "a dropped job uses no engine time" off them: `dropped` grows, `engine_runs`
//! does not. The audit handle owns these counters and registers them
//! ([`AuditHandle::register_metrics`](super::AuditHandle::register_metrics)).

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use crate::metrics::describe;

/// How a job ended in this instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobOutcome {
    /// The report was stored.
    Done,
    /// The engine gave no report.
    Failed,
    /// The engine finished, but the draft had changed: the report was thrown away.
    Superseded,
    /// The draft changed while the engine ran: the engine was stopped partway.
    Stopped,
    /// The draft had changed before the job's turn: ended without the engine.
    Dropped,
}

impl JobOutcome {
    pub const ALL: [JobOutcome; 5] = [
        Self::Done,
        Self::Failed,
        Self::Superseded,
        Self::Stopped,
        Self::Dropped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Failed => "failed",
            Self::Superseded => "superseded",
            Self::Stopped => "stopped",
            Self::Dropped => "dropped",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

#[derive(Debug, Clone)]
pub struct AuditStats {
    engine_runs: Counter,
    jobs: Family<Outcome, Counter>,
    /// The family's counters by [`JobOutcome`], made up front: counting is an atomic add.
    by_outcome: [Counter; JobOutcome::ALL.len()],
    wallet_full: Counter,
}

impl Default for AuditStats {
    fn default() -> Self {
        let jobs = Family::<Outcome, Counter>::default();
        let by_outcome = JobOutcome::ALL.map(|o| {
            jobs.get_or_create(&Outcome {
                outcome: o.as_str(),
            })
            .clone()
        });
        AuditStats {
            engine_runs: Counter::default(),
            jobs,
            by_outcome,
            wallet_full: Counter::default(),
        }
    }
}

impl AuditStats {
    pub fn engine_started(&self) {
        self.engine_runs.inc();
    }

    pub fn ended(&self, outcome: JobOutcome) {
        self.by_outcome[outcome as usize].inc();
    }

    pub fn refused(&self) {
        self.wallet_full.inc();
    }
}

impl Collector for AuditStats {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        describe(
            &mut e,
            "jm_audit_engine_runs",
            "Audit engine runs this instance started (a job dropped before its turn starts none)",
            &self.engine_runs,
        )?;
        describe(
            &mut e,
            "jm_audit_jobs",
            "Audit jobs this instance ended, by outcome (dropped: the draft changed before the job's turn, no engine ran)",
            &self.jobs,
        )?;
        describe(
            &mut e,
            "jm_audit_wallet_full",
            "Audit requests refused (429) because the wallet had audit.max_queued_per_wallet open",
            &self.wallet_full,
        )
    }
}

#[cfg(test)]
mod tests {
    use prometheus_client::encoding::text::encode;
    use prometheus_client::registry::Registry;

    use super::*;

    #[test]
    fn each_outcome_has_its_own_count() {
        let s = AuditStats::default();
        s.engine_started();
        s.ended(JobOutcome::Done);
        s.ended(JobOutcome::Dropped);
        s.ended(JobOutcome::Dropped);
        s.refused();
        let mut r = Registry::default();
        r.register_collector(Box::new(s.clone()));
        let mut text = String::new();
        encode(&mut text, &r).unwrap();
        for line in [
            "# TYPE jm_audit_engine_runs counter",
            "jm_audit_engine_runs_total 1",
            "jm_audit_jobs_total{outcome=\"done\"} 1",
            "jm_audit_jobs_total{outcome=\"failed\"} 0",
            "jm_audit_jobs_total{outcome=\"superseded\"} 0",
            "jm_audit_jobs_total{outcome=\"stopped\"} 0",
            "jm_audit_jobs_total{outcome=\"dropped\"} 2",
            "jm_audit_wallet_full_total 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
    }
}

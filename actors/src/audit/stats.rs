//! What the audit jobs of this instance came to, counted for the service's metrics: engine runs
//! started, how each job ended, and the audits refused because the wallet's queue was full.
//! Operators read "a dropped job uses no engine time" off them: `dropped` grows, `engine_runs`
//! does not.

use std::sync::atomic::{AtomicU64, Ordering};

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

/// The counts as read at one scrape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditCounts {
    pub engine_runs: u64,
    pub jobs: Vec<(&'static str, u64)>,
    pub wallet_full: u64,
}

#[derive(Debug, Default)]
pub struct AuditStats {
    engine_runs: AtomicU64,
    jobs: [AtomicU64; JobOutcome::ALL.len()],
    wallet_full: AtomicU64,
}

impl AuditStats {
    pub fn engine_started(&self) {
        self.engine_runs.fetch_add(1, Ordering::Relaxed);
    }

    pub fn ended(&self, outcome: JobOutcome) {
        self.jobs[outcome as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn refused(&self) {
        self.wallet_full.fetch_add(1, Ordering::Relaxed);
    }

    pub fn counts(&self) -> AuditCounts {
        AuditCounts {
            engine_runs: self.engine_runs.load(Ordering::Relaxed),
            jobs: JobOutcome::ALL
                .iter()
                .map(|&o| (o.as_str(), self.jobs[o as usize].load(Ordering::Relaxed)))
                .collect(),
            wallet_full: self.wallet_full.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_outcome_has_its_own_count() {
        let s = AuditStats::default();
        s.engine_started();
        s.ended(JobOutcome::Done);
        s.ended(JobOutcome::Dropped);
        s.ended(JobOutcome::Dropped);
        s.refused();
        let c = s.counts();
        assert_eq!((c.engine_runs, c.wallet_full), (1, 1));
        assert_eq!(
            c.jobs,
            vec![
                ("done", 1),
                ("failed", 0),
                ("superseded", 0),
                ("stopped", 0),
                ("dropped", 2)
            ]
        );
    }
}

//! What settlements came to, counted for the service's metrics: the answer each payment
//! request got, and the rows this instance settled or failed (by a request or by
//! reconciliation).

use std::sync::atomic::{AtomicU64, Ordering};

use super::{Paid, PayError};

/// The answer a payment request got from the settlement handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestOutcome {
    Settled,
    FeeAlreadyPaid,
    /// The purchase rules refused the signer.
    Refused,
    /// The payload must not be settled, or settling it failed without moving money.
    Rejected,
    /// Left to reconciliation (or another instance) with the outcome unknown.
    StillSettling,
    /// The request's deadline passed; the work goes on (answered as "still settling").
    TimedOut,
    Busy,
    Stopped,
    ChainError,
    DbError,
    Interrupted,
    /// A permit settled by an earlier request, presented again without a claim to its answer.
    Used,
    /// A payment-identifier presented with another payment than its first.
    IdReused,
}

impl RequestOutcome {
    pub const ALL: [RequestOutcome; 13] = [
        Self::Settled,
        Self::FeeAlreadyPaid,
        Self::Refused,
        Self::Rejected,
        Self::StillSettling,
        Self::TimedOut,
        Self::Busy,
        Self::Stopped,
        Self::ChainError,
        Self::DbError,
        Self::Interrupted,
        Self::Used,
        Self::IdReused,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Settled => "settled",
            Self::FeeAlreadyPaid => "fee_already_paid",
            Self::Refused => "refused",
            Self::Rejected => "rejected",
            Self::StillSettling => "still_settling",
            Self::TimedOut => "timed_out",
            Self::Busy => "busy",
            Self::Stopped => "stopped",
            Self::ChainError => "chain_error",
            Self::DbError => "db_error",
            Self::Interrupted => "interrupted",
            Self::Used => "used",
            Self::IdReused => "id_reused",
        }
    }

    pub fn of(r: &Result<Paid, PayError>) -> Self {
        match r {
            Ok(Paid::Settled { .. }) => Self::Settled,
            Ok(Paid::FeeAlreadyPaid) => Self::FeeAlreadyPaid,
            Ok(Paid::Used { .. }) => Self::Used,
            Err(PayError::IdReused) => Self::IdReused,
            Err(PayError::Refused(_)) => Self::Refused,
            Err(PayError::Rejected(_)) => Self::Rejected,
            Err(PayError::StillSettling) => Self::StillSettling,
            Err(PayError::Busy) => Self::Busy,
            Err(PayError::Stopped) => Self::Stopped,
            Err(PayError::Chain(_)) => Self::ChainError,
            Err(PayError::Db(_)) => Self::DbError,
            Err(PayError::Interrupted) => Self::Interrupted,
        }
    }
}

/// The final state this instance moved a payment row to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowOutcome {
    Settled,
    Failed,
}

impl RowOutcome {
    pub const ALL: [RowOutcome; 2] = [Self::Settled, Self::Failed];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Settled => "settled",
            Self::Failed => "failed",
        }
    }
}

#[derive(Debug, Default)]
pub struct SettlementStats {
    requests: [AtomicU64; RequestOutcome::ALL.len()],
    rows: [AtomicU64; RowOutcome::ALL.len()],
    /// Wei sent to payers for sponsored approvals whose receipt this instance read.
    sponsor_funded_wei: AtomicU64,
    /// Of those, what the approvals did not burn: left in the payers' wallets.
    sponsor_kept_wei: AtomicU64,
}

impl SettlementStats {
    pub fn request(&self, o: RequestOutcome) {
        self.requests[o as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn row(&self, o: RowOutcome) {
        self.rows[o as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// A sponsored approval was mined: `funded` wei had been sent to its payer, and it burned
    /// `burned` wei of gas.
    pub fn sponsored(&self, funded: u64, burned: u64) {
        self.sponsor_funded_wei.fetch_add(funded, Ordering::Relaxed);
        self.sponsor_kept_wei
            .fetch_add(funded.saturating_sub(burned), Ordering::Relaxed);
    }

    /// Wei funded for mined sponsored approvals, and the part of it the payers kept.
    pub fn sponsor_wei(&self) -> (u64, u64) {
        (
            self.sponsor_funded_wei.load(Ordering::Relaxed),
            self.sponsor_kept_wei.load(Ordering::Relaxed),
        )
    }

    /// Every request outcome with its count, zeros included.
    pub fn requests(&self) -> Vec<(RequestOutcome, u64)> {
        RequestOutcome::ALL
            .iter()
            .map(|&o| (o, self.requests[o as usize].load(Ordering::Relaxed)))
            .collect()
    }

    /// Every row outcome with its count, zeros included.
    pub fn rows(&self) -> Vec<(RowOutcome, u64)> {
        RowOutcome::ALL
            .iter()
            .map(|&o| (o, self.rows[o as usize].load(Ordering::Relaxed)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_are_counted_under_their_names() {
        let s = SettlementStats::default();
        s.request(RequestOutcome::of(&Err(PayError::Busy)));
        s.request(RequestOutcome::of(&Ok(Paid::FeeAlreadyPaid)));
        s.request(RequestOutcome::TimedOut);
        s.row(RowOutcome::Failed);
        let got: Vec<_> = s
            .requests()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(o, n)| (o.as_str(), n))
            .collect();
        assert_eq!(
            got,
            vec![("fee_already_paid", 1), ("timed_out", 1), ("busy", 1)]
        );
        assert_eq!(
            s.rows(),
            vec![(RowOutcome::Settled, 0), (RowOutcome::Failed, 1)]
        );
    }

    #[test]
    fn every_outcome_has_its_own_slot() {
        for (i, o) in RequestOutcome::ALL.iter().enumerate() {
            assert_eq!(*o as usize, i);
        }
        for (i, o) in RowOutcome::ALL.iter().enumerate() {
            assert_eq!(*o as usize, i);
        }
    }
}

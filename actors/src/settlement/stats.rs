//! What settlements came to, counted for the service's metrics as they happen: the answer
//! each payment request got, the rows this instance settled or failed (by a request or by
//! reconciliation), and the wei of sponsored approvals. The settlement handle owns these
//! counters and registers them ([`SettlementHandle::register_metrics`](super::SettlementHandle::register_metrics)).

use std::sync::{Arc, Mutex};

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use super::sponsor::Tally;
use super::{Paid, PayError};
use crate::metrics::{describe, family, gauge};

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

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

/// A family with a label set per outcome made up front (so zeros are exposed), and those
/// counters by position, so counting is an index and an atomic add.
fn by_outcome<const N: usize>(
    names: [&'static str; N],
) -> (Family<Outcome, Counter>, [Counter; N]) {
    let family = Family::<Outcome, Counter>::default();
    let counters = names.map(|outcome| family.get_or_create(&Outcome { outcome }).clone());
    (family, counters)
}

#[derive(Debug, Clone)]
pub struct SettlementStats {
    requests: Family<Outcome, Counter>,
    by_request: [Counter; RequestOutcome::ALL.len()],
    rows: Family<Outcome, Counter>,
    by_row: [Counter; RowOutcome::ALL.len()],
    /// Wei sent to payers for sponsored approvals whose receipt this instance read.
    sponsor_funded_wei: Counter,
    /// Of those, what the approvals did not burn: left in the payers' wallets.
    sponsor_kept_wei: Counter,
    /// Every instance's sponsorships as the database had them at the last scrape; `None` while
    /// this instance does not sponsor (then no sponsorship figure is exposed).
    sponsorships: Arc<Mutex<Option<Tally>>>,
}

impl Default for SettlementStats {
    fn default() -> Self {
        let (requests, by_request) = by_outcome(RequestOutcome::ALL.map(RequestOutcome::as_str));
        let (rows, by_row) = by_outcome(RowOutcome::ALL.map(RowOutcome::as_str));
        SettlementStats {
            requests,
            by_request,
            rows,
            by_row,
            sponsor_funded_wei: Counter::default(),
            sponsor_kept_wei: Counter::default(),
            sponsorships: Arc::default(),
        }
    }
}

impl SettlementStats {
    pub fn request(&self, o: RequestOutcome) {
        self.by_request[o as usize].inc();
    }

    pub fn row(&self, o: RowOutcome) {
        self.by_row[o as usize].inc();
    }

    /// A sponsored approval was mined: `funded` wei had been sent to its payer, and it burned
    /// `burned` wei of gas.
    pub fn sponsored(&self, funded: u64, burned: u64) {
        self.sponsor_funded_wei.inc_by(funded);
        self.sponsor_kept_wei.inc_by(funded.saturating_sub(burned));
    }

    /// The sponsorships to expose until the next call (read from the database before a
    /// scrape; `None`: this instance does not sponsor, or they could not be read).
    pub fn set_sponsorships(&self, tally: Option<Tally>) {
        if let Ok(mut t) = self.sponsorships.lock() {
            *t = tally;
        }
    }

    fn sponsorships(&self) -> Option<Tally> {
        self.sponsorships.lock().ok().and_then(|t| *t)
    }
}

impl Collector for SettlementStats {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        describe(
            &mut e,
            "jm_settlement_requests",
            "Payment requests by the answer the settlement gave",
            &self.requests,
        )?;
        describe(
            &mut e,
            "jm_settlement_rows",
            "Payment rows this instance settled or failed (by a request or by reconciliation)",
            &self.rows,
        )?;
        let Some(t) = self.sponsorships() else {
            return Ok(());
        };
        family(
            &mut e,
            "jm_gas_sponsorships",
            "Sponsored approvals (erc20ApprovalGasSponsoring) by what became of their payment; unsettled: no settle followed",
            MetricType::Gauge,
            [
                ("settled", t.settled),
                ("pending", t.pending),
                ("unsettled", t.unsettled),
            ]
            .map(|(o, n)| ([("outcome", o)], gauge(n))),
        )?;
        describe(
            &mut e,
            "jm_gas_sponsored_wei",
            "Wei the sponsor key has spent on approvals (sent to payers, and the funding transactions' gas), in all",
            &gauge(t.funded_wei),
        )?;
        describe(
            &mut e,
            "jm_gas_sponsor_funded_wei",
            "Wei this instance sent to payers for sponsored approvals that were mined",
            &self.sponsor_funded_wei,
        )?;
        describe(
            &mut e,
            "jm_gas_sponsor_kept_wei",
            "Of that, the wei the approvals did not burn: kept by the payers",
            &self.sponsor_kept_wei,
        )
    }
}

#[cfg(test)]
mod tests {
    use prometheus_client::encoding::text::encode;
    use prometheus_client::registry::Registry;

    use super::*;

    fn exposed(s: &SettlementStats) -> String {
        let mut r = Registry::default();
        r.register_collector(Box::new(s.clone()));
        let mut text = String::new();
        encode(&mut text, &r).unwrap();
        text
    }

    fn has(text: &str, line: &str) -> bool {
        text.lines().any(|l| l == line)
    }

    #[test]
    fn outcomes_are_counted_under_their_names() {
        let s = SettlementStats::default();
        s.request(RequestOutcome::of(&Err(PayError::Busy)));
        s.request(RequestOutcome::of(&Ok(Paid::FeeAlreadyPaid)));
        s.request(RequestOutcome::TimedOut);
        s.row(RowOutcome::Failed);
        let text = exposed(&s);
        for line in [
            "# HELP jm_settlement_requests Payment requests by the answer the settlement gave",
            "# TYPE jm_settlement_requests counter",
            "jm_settlement_requests_total{outcome=\"fee_already_paid\"} 1",
            "jm_settlement_requests_total{outcome=\"timed_out\"} 1",
            "jm_settlement_requests_total{outcome=\"busy\"} 1",
            "jm_settlement_requests_total{outcome=\"settled\"} 0",
            "jm_settlement_requests_total{outcome=\"id_reused\"} 0",
            "jm_settlement_rows_total{outcome=\"settled\"} 0",
            "jm_settlement_rows_total{outcome=\"failed\"} 1",
        ] {
            assert!(has(&text, line), "{line:?} in\n{text}");
        }
        assert!(!text.contains("jm_gas_"), "not sponsoring: {text}");
    }

    #[test]
    fn sponsorships_are_exposed_while_read() {
        let s = SettlementStats::default();
        s.sponsored(90_000, 86_000);
        s.set_sponsorships(Some(Tally {
            settled: 3,
            pending: 0,
            unsettled: 1,
            funded_wei: 210_000_000_000_000,
        }));
        let text = exposed(&s);
        for line in [
            "jm_gas_sponsorships{outcome=\"unsettled\"} 1",
            "jm_gas_sponsored_wei 210000000000000",
            "jm_gas_sponsor_funded_wei_total 90000",
            "jm_gas_sponsor_kept_wei_total 4000",
        ] {
            assert!(has(&text, line), "{line:?} in\n{text}");
        }
        s.set_sponsorships(None);
        assert!(!exposed(&s).contains("jm_gas_"));
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

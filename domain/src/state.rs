//! The states of a payment row and of an audit job, as stored.

use crate::stored::named_states;

named_states! {
    /// A payment row: pending until its transaction is mined (or given up on).
    PaymentState, "payment state" {
        Pending => "pending",
        Settled => "settled",
        Failed => "failed",
    }
}

named_states! {
    /// An audit job: queued, run under a lease, ended one of three ways.
    JobState, "job state" {
        Queued => "queued",
        Running => "running",
        Done => "done",
        Failed => "failed",
        /// The draft was saved again while the job waited or ran: its report would describe
        /// old text.
        Superseded => "superseded",
    }
}

impl JobState {
    /// Queued or running: the job still holds one of its wallet's open slots.
    pub const OPEN: [JobState; 2] = [JobState::Queued, JobState::Running];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_back_as_stored_and_nothing_else_reads() {
        for s in PaymentState::ALL {
            assert_eq!(s.as_str().parse::<PaymentState>(), Ok(*s));
        }
        for s in JobState::ALL {
            assert_eq!(s.to_string().parse::<JobState>(), Ok(*s));
        }
        let e = "Settled".parse::<PaymentState>().unwrap_err();
        assert_eq!(e.to_string(), "\"Settled\" is not a payment state");
        assert!("".parse::<JobState>().is_err());
        assert_eq!(
            serde_json::to_string(&PaymentState::Settled).unwrap(),
            "\"settled\""
        );
        assert_eq!(
            serde_json::from_str::<JobState>("\"superseded\"").unwrap(),
            JobState::Superseded
        );
        assert!(serde_json::from_str::<JobState>("\"gone\"").is_err());
    }
}

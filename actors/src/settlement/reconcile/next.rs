//! What to do next with a pending payment, from what the chain says. Pure: the actor gathers
//! the evidence, this decides. A row fails only on proof that its permit did not pay and
//! cannot pay any more.

use std::time::Duration;

use alloy::primitives::B256;

/// What the chain says about a pending payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evidence {
    /// A known transaction of the payment that paid this permit.
    pub paid_by: Option<B256>,
    /// A known transaction is in the node's pool, not mined yet.
    pub in_flight: bool,
    /// Whether Permit2 had marked the permit's nonce used at the head block …
    pub nonce_used: bool,
    /// … and that block's timestamp (unix seconds).
    pub head_time: u64,
    /// The permit's deadline (unix seconds).
    pub deadline: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Settle with this transaction.
    Settle(B256),
    /// The nonce is spent by none of the known transactions: look for the one that spent it.
    Search,
    /// The permit did not pay and cannot any more.
    Fail(&'static str),
    /// Wait for the transaction in the pool.
    Wait,
    /// Nothing is on the way and the permit is still valid: send it (again).
    Send,
}

pub const EXPIRED: &str = "the permit expired before it was settled; nothing was paid";
pub const SPENT_ELSEWHERE: &str =
    "the permit's nonce was spent by a transaction that did not pay this payment's recipient";

pub fn next(e: &Evidence) -> Next {
    if let Some(tx) = e.paid_by {
        return Next::Settle(tx);
    }
    if e.nonce_used {
        // Spent: by one of ours that we have not seen pay (then the search finds it), by a
        // front-runner settling the same permit (found too), or some other way.
        return Next::Search;
    }
    // Permit2 refuses the permit in any block later than its deadline; the head is past it,
    // so no block to come can spend the nonce.
    if e.head_time > e.deadline {
        return Next::Fail(EXPIRED);
    }
    if e.in_flight { Next::Wait } else { Next::Send }
}

/// How long reconciliation leaves a row alone after `attempts` looks: doubling from `base`,
/// at most a minute.
pub fn backoff(base: Duration, attempts: i32) -> Duration {
    let factor = 1u32 << attempts.clamp(0, 6);
    (base * factor).min(Duration::from_secs(60))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence() -> Evidence {
        Evidence {
            paid_by: None,
            in_flight: false,
            nonce_used: false,
            head_time: 100,
            deadline: 200,
        }
    }

    #[test]
    fn a_paying_transaction_settles() {
        let tx = B256::repeat_byte(1);
        let e = Evidence {
            paid_by: Some(tx),
            nonce_used: true,
            head_time: 300,
            ..evidence()
        };
        assert_eq!(next(&e), Next::Settle(tx));
    }

    #[test]
    fn a_spent_nonce_is_searched_never_failed_at_once() {
        let e = Evidence {
            nonce_used: true,
            head_time: 300,
            ..evidence()
        };
        assert_eq!(next(&e), Next::Search);
    }

    #[test]
    fn fails_only_when_expired_at_the_head_and_unspent() {
        assert_eq!(next(&evidence()), Next::Send);
        let at_deadline = Evidence {
            head_time: 200,
            ..evidence()
        };
        assert_eq!(
            next(&at_deadline),
            Next::Send,
            "the deadline block may still pay"
        );
        let past = Evidence {
            head_time: 201,
            in_flight: true,
            ..evidence()
        };
        assert_eq!(next(&past), Next::Fail(EXPIRED));
        let waiting = Evidence {
            in_flight: true,
            ..evidence()
        };
        assert_eq!(next(&waiting), Next::Wait);
    }

    #[test]
    fn backoff_doubles_up_to_a_minute() {
        let base = Duration::from_secs(2);
        assert_eq!(backoff(base, 0), base);
        assert_eq!(backoff(base, 2), Duration::from_secs(8));
        assert_eq!(backoff(base, 30), Duration::from_secs(60));
        assert_eq!(backoff(base, -1), base);
    }
}

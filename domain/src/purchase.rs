//! The steps of a purchase, shared by the HTTP layer and the settlement actor, and the rules
//! that say whether a wallet may pay a step. Pure.

use std::fmt;

/// The two payment endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// `/pay/burn`: the whole price of a swarm journal, or the 10% fee of a person's.
    Burn,
    /// `/pay/author`: the 90% of a person-written journal, to the token holder.
    Author,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Burn => "burn",
            Step::Author => "author",
        }
    }

    pub fn parse(s: &str) -> Option<Step> {
        match s {
            "burn" => Some(Step::Burn),
            "author" => Some(Step::Author),
            _ => None,
        }
    }

    pub fn path(self) -> &'static str {
        match self {
            Step::Burn => "/pay/burn",
            Step::Author => "/pay/author",
        }
    }

    /// Whether this step completes the purchase (its settlement writes the unlock).
    pub fn is_last(self, swarm: bool) -> bool {
        swarm || self == Step::Author
    }

    /// What the step costs in base units: the whole price of a swarm journal; of a person's,
    /// the fee and the author's rest of the one split (`money::split`).
    pub fn amount(self, price_units: i64, swarm: bool) -> i64 {
        let (burn, author) = if swarm {
            (price_units, 0)
        } else {
            crate::money::split(price_units)
        };
        match self {
            Step::Burn => burn,
            Step::Author => author,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a wallet stands with a journal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Standing {
    /// The wallet is the journal's author.
    pub wrote_it: bool,
    pub unlocked: bool,
    /// A settled fee payment (person-written journals).
    pub fee_paid: bool,
}

/// Why a wallet may not pay a step (409).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("you wrote this journal; it is yours already")]
    WroteIt,
    #[error("this wallet already unlocked the journal")]
    Unlocked,
    #[error("pay the fee first: POST /pay/burn, then /pay/author")]
    FeeFirst,
}

/// What the rules say about paying `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The step may be paid.
    Pay,
    /// The fee step of a person-written journal is paid already: `{ ok, already }`.
    FeeAlreadyPaid,
    Refused(Refusal),
}

/// The purchase rules of interface §3 and §7, for one wallet.
pub fn rules(s: Standing, step: Step, swarm: bool) -> Verdict {
    if s.wrote_it {
        Verdict::Refused(Refusal::WroteIt)
    } else if s.unlocked {
        Verdict::Refused(Refusal::Unlocked)
    } else if swarm {
        Verdict::Pay
    } else if step == Step::Burn && s.fee_paid {
        Verdict::FeeAlreadyPaid
    } else if step == Step::Author && !s.fee_paid {
        Verdict::Refused(Refusal::FeeFirst)
    } else {
        Verdict::Pay
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_per_step() {
        assert_eq!(Step::Burn.amount(1_000_000, true), 1_000_000);
        assert_eq!(Step::Burn.amount(1_000_000, false), 100_000);
        assert_eq!(Step::Author.amount(1_000_000, false), 900_000);
        assert_eq!(Step::Author.amount(1_000_000, true), 0);
        assert_eq!(
            Step::Burn.amount(15, false) + Step::Author.amount(15, false),
            15
        );
        let max = i64::MAX;
        assert_eq!(
            Step::Burn.amount(max, false) + Step::Author.amount(max, false),
            max
        );
        assert!(Step::Burn.is_last(true) && !Step::Burn.is_last(false));
        assert!(Step::Author.is_last(false));
        assert_eq!(Step::parse("author"), Some(Step::Author));
        assert_eq!(Step::parse("x"), None);
    }

    #[test]
    fn rules_for_a_wallet() {
        use Refusal::*;
        use Verdict::*;
        let none = Standing::default();
        let fee = Standing {
            fee_paid: true,
            ..none
        };
        let done = Standing {
            unlocked: true,
            fee_paid: true,
            ..none
        };
        let author = Standing {
            wrote_it: true,
            ..none
        };
        let cases = [
            (none, Step::Burn, true, Pay),
            (none, Step::Burn, false, Pay),
            (none, Step::Author, false, Refused(FeeFirst)),
            (fee, Step::Burn, false, FeeAlreadyPaid),
            (fee, Step::Author, false, Pay),
            (done, Step::Author, false, Refused(Unlocked)),
            (author, Step::Burn, false, Refused(WroteIt)),
        ];
        for (standing, step, swarm, verdict) in cases {
            assert_eq!(
                rules(standing, step, swarm),
                verdict,
                "{standing:?}, {step}, swarm {swarm}"
            );
        }
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![Just(Step::Burn), Just(Step::Author)]
    }

    /// What a wallet paid and where it stands after trying `steps` in order, each paid when the
    /// rules say so; the steps paid, in order.
    fn walk(price: i64, swarm: bool, wrote_it: bool, steps: &[Step]) -> (Standing, i64, Vec<Step>) {
        let mut s = Standing {
            wrote_it,
            ..Standing::default()
        };
        let (mut paid, mut order) = (0_i64, Vec::new());
        for &step in steps {
            // The service refuses a swarm journal's author step (400) before asking the rules.
            if swarm && step == Step::Author {
                continue;
            }
            if rules(s, step, swarm) != Verdict::Pay {
                continue;
            }
            paid += step.amount(price, swarm);
            order.push(step);
            if step == Step::Burn && !swarm {
                s.fee_paid = true;
            }
            if step.is_last(swarm) {
                s.unlocked = true;
            }
        }
        (s, paid, order)
    }

    proptest! {
        /// Whatever a wallet tries, it pays at most the price, each step once, the fee before
        /// the author's part, and exactly the price once the journal is unlocked; its author
        /// pays nothing.
        #[test]
        fn a_purchase_never_pays_twice_or_out_of_order(
            price in 0..=i64::MAX,
            swarm in any::<bool>(),
            wrote_it in any::<bool>(),
            steps in proptest::collection::vec(step(), 0..8),
        ) {
            let (s, paid, order) = walk(price, swarm, wrote_it, &steps);
            prop_assert!((0..=price).contains(&paid));
            if wrote_it {
                prop_assert!(order.is_empty());
            }
            let expected: &[Step] = if swarm { &[Step::Burn] } else { &[Step::Burn, Step::Author] };
            prop_assert!(expected.starts_with(&order), "{:?}", order);
            prop_assert_eq!(s.unlocked, order == expected);
            if s.unlocked {
                prop_assert_eq!(paid, price);
            }
            // Once unlocked, every further step is refused.
            if s.unlocked {
                for step in [Step::Burn, Step::Author] {
                    prop_assert_eq!(rules(s, step, swarm), Verdict::Refused(Refusal::Unlocked));
                }
            }
        }

        /// The steps in order unlock any journal for any wallet but its author.
        #[test]
        fn the_steps_in_order_unlock(price in 0..=i64::MAX, swarm in any::<bool>()) {
            let (s, paid, _) = walk(price, swarm, false, &[Step::Burn, Step::Author]);
            prop_assert!(s.unlocked);
            prop_assert_eq!(paid, price);
        }

        /// A step's name and path read back as the step.
        #[test]
        fn steps_read_back(step in step()) {
            prop_assert_eq!(Step::parse(step.as_str()), Some(step));
            prop_assert_eq!(step.path(), format!("/pay/{step}"));
        }
    }
}

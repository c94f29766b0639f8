//! The community token's price and volume over time, from the indexed swaps: each swap's price
//! and WETH moved, gathered into buckets of one size chosen by the span of the swaps
//! (docs/decisions.md, "The token page's chart"). Pure.

use alloy::primitives::{I256, U256};

use crate::ledger::{price_weth, units};

/// Bucket sizes in seconds, smallest first: the first that spans the swaps in at most
/// [`MAX_BUCKETS`] is used (whole days beyond the last).
pub const STEPS: [i64; 7] = [60, 300, 900, 3_600, 4 * 3_600, 86_400, 7 * 86_400];
/// Enough points for a line to read as a trend, few enough for a table to stay short.
pub const MAX_BUCKETS: i64 = 48;
const DAY: i64 = 86_400;

/// One swap as the chart needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trade {
    /// Block time, Unix seconds.
    pub at: i64,
    /// WETH per token after the swap; `None` when the swap logged no price.
    pub price_weth: Option<f64>,
    /// WETH moved either way, in whole WETH.
    pub volume_weth: f64,
}

impl Trade {
    /// A swap's signed deltas and `sqrtPriceX96` as the pool logged them.
    pub fn from_swap(
        at: i64,
        (amount0, amount1): (I256, I256),
        sqrt_price_x96: U256,
        token_is_token0: bool,
    ) -> Trade {
        let weth = if token_is_token0 { amount1 } else { amount0 };
        Trade {
            at,
            price_weth: price_weth(sqrt_price_x96, token_is_token0),
            volume_weth: units(weth.unsigned_abs()),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Bucket {
    /// Unix seconds, a multiple of the step.
    pub start: i64,
    pub swaps: u32,
    pub volume_weth: f64,
    /// The price the bucket's last priced swap left; a bucket without one carries the price
    /// before it on (the pool's price did not move); `None` before the first price.
    pub price_weth: Option<f64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SwapBuckets {
    /// Seconds each bucket spans (0 when there is none).
    pub step: i64,
    /// Oldest first, every step from the first swap's to the last's (empty ones included).
    pub buckets: Vec<Bucket>,
    /// Whether older swaps were left out: the reader reads a bounded number, newest first.
    pub capped: bool,
}

impl SwapBuckets {
    pub fn swaps(&self) -> u64 {
        self.buckets.iter().map(|b| u64::from(b.swaps)).sum()
    }

    pub fn volume_weth(&self) -> f64 {
        self.buckets.iter().map(|b| b.volume_weth).sum()
    }
}

/// The smallest step of [`STEPS`] that spans `span` seconds in at most [`MAX_BUCKETS`], else
/// whole days. Aligned buckets can cut a span one more time than `span / step` says.
pub fn step_for(span: i64) -> i64 {
    let fits = |step: i64| span.max(0) / step + 2 <= MAX_BUCKETS;
    STEPS.into_iter().find(|s| fits(*s)).unwrap_or_else(|| {
        let days = span.max(0) / (MAX_BUCKETS - 2) / DAY + 1;
        days * DAY
    })
}

/// "per hour", "per 5 minutes": what one bucket spans, for the chart's name and table.
pub fn step_name(step: i64) -> String {
    match step {
        60 => "per minute".into(),
        3_600 => "per hour".into(),
        DAY => "per day".into(),
        s if s == 7 * DAY => "per week".into(),
        s if s % DAY == 0 => format!("per {} days", s / DAY),
        s if s % 3_600 == 0 => format!("per {} hours", s / 3_600),
        s if s % 60 == 0 => format!("per {} minutes", s / 60),
        s => format!("per {s} seconds"),
    }
}

/// The trades, in chain order, in buckets of [`step_for`] their span.
pub fn bucket(trades: &[Trade]) -> SwapBuckets {
    let (Some(first), Some(last)) = (
        trades.iter().map(|t| t.at).min(),
        trades.iter().map(|t| t.at).max(),
    ) else {
        return SwapBuckets::default();
    };
    let step = step_for(last - first);
    let origin = first.div_euclid(step);
    let n = (last.div_euclid(step) - origin + 1) as usize;
    let mut buckets: Vec<Bucket> = (0..n)
        .map(|i| Bucket {
            start: (origin + i as i64) * step,
            swaps: 0,
            volume_weth: 0.0,
            price_weth: None,
        })
        .collect();
    // Chain order within a bucket: its last priced swap is the one that left its price.
    for t in trades {
        let b = &mut buckets[(t.at.div_euclid(step) - origin) as usize];
        b.swaps += 1;
        b.volume_weth += t.volume_weth;
        if t.price_weth.is_some() {
            b.price_weth = t.price_weth;
        }
    }
    let mut price = None;
    for b in &mut buckets {
        if b.price_weth.is_none() {
            b.price_weth = price;
        }
        price = b.price_weth;
    }
    SwapBuckets {
        step,
        buckets,
        capped: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trade(at: i64, price: Option<f64>, volume: f64) -> Trade {
        Trade {
            at,
            price_weth: price,
            volume_weth: volume,
        }
    }

    #[test]
    fn the_step_grows_with_the_span() {
        assert_eq!(step_for(0), 60);
        assert_eq!(step_for(30 * 60), 60);
        assert_eq!(step_for(46 * 60), 60);
        assert_eq!(step_for(47 * 60), 300);
        assert_eq!(step_for(6 * 3_600), 900);
        assert_eq!(step_for(36 * 3_600), 3_600);
        assert_eq!(step_for(5 * DAY), 4 * 3_600);
        assert_eq!(step_for(30 * DAY), DAY);
        assert_eq!(step_for(300 * DAY), 7 * DAY);
        // Beyond 46 weeks, whole days that keep the buckets within the bound.
        for span in [400 * DAY, 1_000 * DAY, 10_000 * DAY] {
            let step = step_for(span);
            assert_eq!(step % DAY, 0);
            assert!(span / step + 2 <= MAX_BUCKETS, "{span}: {step}");
        }
        assert_eq!(step_for(-5), 60);
    }

    #[test]
    fn steps_have_names() {
        assert_eq!(step_name(60), "per minute");
        assert_eq!(step_name(300), "per 5 minutes");
        assert_eq!(step_name(3_600), "per hour");
        assert_eq!(step_name(4 * 3_600), "per 4 hours");
        assert_eq!(step_name(DAY), "per day");
        assert_eq!(step_name(7 * DAY), "per week");
        assert_eq!(step_name(9 * DAY), "per 9 days");
    }

    #[test]
    fn no_trade_no_bucket() {
        let b = bucket(&[]);
        assert!(b.buckets.is_empty());
        assert_eq!(b.swaps(), 0);
    }

    #[test]
    fn trades_fall_into_aligned_buckets_and_prices_carry_on() {
        // Three hours of trades with an empty hour between: hourly buckets from 10:00.
        let h = 3_600;
        let t0 = 1_700_000_000 / h * h + 10 * h;
        let trades = [
            trade(t0 + 5, Some(2.0), 1.0),
            trade(t0 + 50, Some(3.0), 0.5),
            trade(t0 + 2 * h + 10, None, 0.25),
            trade(t0 + 3 * h - 1, Some(4.0), 2.0),
            // 40 hours after the first, within 46: still hourly.
            trade(t0 + 40 * h, None, 1.0),
        ];
        let b = bucket(&trades);
        assert_eq!(b.step, h);
        assert_eq!(b.buckets.len(), 41);
        assert_eq!(b.buckets[0].start, t0);
        assert_eq!(
            b.buckets[0],
            Bucket {
                start: t0,
                swaps: 2,
                volume_weth: 1.5,
                price_weth: Some(3.0)
            },
            "the last price of the hour"
        );
        assert_eq!(b.buckets[1].swaps, 0);
        assert_eq!(b.buckets[1].price_weth, Some(3.0), "carried on");
        assert_eq!(b.buckets[2].swaps, 2);
        assert_eq!(b.buckets[2].price_weth, Some(4.0));
        assert_eq!(
            b.buckets[40].price_weth,
            Some(4.0),
            "a swap without a price"
        );
        assert_eq!(b.swaps(), 5);
        assert!((b.volume_weth() - 4.75).abs() < 1e-12);
    }

    #[test]
    fn a_price_only_after_the_first_swaps() {
        let b = bucket(&[trade(0, None, 1.0), trade(120, Some(1e-9), 1.0)]);
        assert_eq!(b.step, 60);
        assert_eq!(b.buckets.len(), 3);
        assert_eq!(b.buckets[0].price_weth, None);
        assert_eq!(b.buckets[2].price_weth, Some(1e-9));
    }

    #[test]
    fn a_swap_reads_as_its_weth_side_and_price() {
        let e18 = I256::try_from(10u64.pow(18)).unwrap();
        let sqrt = U256::from(2u128.pow(96)); // price 1
        let t = Trade::from_swap(7, (-e18 * I256::try_from(3).unwrap(), e18), sqrt, true);
        assert_eq!(t.at, 7);
        assert!((t.volume_weth - 1.0).abs() < 1e-12);
        assert!((t.price_weth.unwrap() - 1.0).abs() < 1e-12);
        let t = Trade::from_swap(7, (-e18 * I256::try_from(3).unwrap(), e18), sqrt, false);
        assert!((t.volume_weth - 3.0).abs() < 1e-12);
        assert_eq!(
            Trade::from_swap(0, (e18, -e18), U256::ZERO, true).price_weth,
            None
        );
    }
}

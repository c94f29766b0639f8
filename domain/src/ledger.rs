//! The token ledger's figures from the indexed swaps and burns (docs/decisions.md, "The token
//! ledger", says how each is defined). Pure: the caller reads the rows and the pool's settings.

use alloy::primitives::{I256, U256};
use chrono::{DateTime, Duration, Utc};

/// The community token's supply, in whole tokens.
pub const SUPPLY: f64 = 1_000_000_000.0;
/// The share of the creator's fees pledged to buybacks, in percent.
pub const BUYBACK_PCT: f64 = 20.0;

/// A swap as the pool logged it: signed deltas (positive = paid into the pool).
#[derive(Debug, Clone, PartialEq)]
pub struct Swap {
    pub amount0: I256,
    pub amount1: I256,
    pub sqrt_price_x96: U256,
    pub block_time: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Whether the community token is the pool's token0 (WETH is the other).
    pub token_is_token0: bool,
    /// The pool's fee in pips (10,000 = 1%).
    pub fee_pips: u32,
    /// The creator's share of the LP fees in basis points, from the fee locker.
    pub creator_bps: u32,
    pub swaps: Vec<Swap>,
    pub now: DateTime<Utc>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub swaps: u64,
    pub volume_weth: f64,
    pub volume_24h_weth: f64,
    pub fees_weth: f64,
    pub fees_dove: f64,
    pub fees_value_weth: f64,
    /// WETH per token after the latest swap.
    pub last_price_weth: Option<f64>,
}

/// Base units (18 decimals) as whole tokens.
pub fn units(v: U256) -> f64 {
    match u128::try_from(v) {
        Ok(x) => x as f64 / 1e18,
        Err(_) => v.to_string().parse::<f64>().unwrap_or(f64::MAX) / 1e18,
    }
}

fn signed(v: I256) -> f64 {
    let m = units(v.unsigned_abs());
    if v.is_negative() { -m } else { m }
}

/// WETH per token from a Uniswap v3 `sqrtPriceX96` (both tokens have 18 decimals).
pub fn price_weth(sqrt_price_x96: U256, token_is_token0: bool) -> Option<f64> {
    let sqrt = units(sqrt_price_x96) * 1e18 / 2f64.powi(96);
    let token0_in_token1 = sqrt * sqrt;
    if !(token0_in_token1.is_finite() && token0_in_token1 > 0.0) {
        return None;
    }
    Some(if token_is_token0 {
        token0_in_token1
    } else {
        1.0 / token0_in_token1
    })
}

pub fn figures(i: &Inputs) -> Figures {
    let fee = f64::from(i.fee_pips) / 1e6;
    let share = f64::from(i.creator_bps) / 1e4;
    let day_ago = i.now - Duration::hours(24);
    let mut f = Figures::default();
    for s in &i.swaps {
        let (token, weth) = if i.token_is_token0 {
            (signed(s.amount0), signed(s.amount1))
        } else {
            (signed(s.amount1), signed(s.amount0))
        };
        let price = price_weth(s.sqrt_price_x96, i.token_is_token0);
        f.swaps += 1;
        f.volume_weth += weth.abs();
        if s.block_time.is_some_and(|t| t > day_ago) {
            f.volume_24h_weth += weth.abs();
        }
        // The fee is taken from the input side: WETH on a buy, the token on a sell.
        if weth > 0.0 {
            let earned = weth * fee * share;
            f.fees_weth += earned;
            f.fees_value_weth += earned;
        } else if token > 0.0 {
            let earned = token * fee * share;
            f.fees_dove += earned;
            f.fees_value_weth += earned * price.unwrap_or(0.0);
        }
        if price.is_some() {
            f.last_price_weth = price;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e18(x: i64) -> I256 {
        I256::try_from(x).unwrap() * I256::try_from(10u64.pow(18)).unwrap()
    }

    /// sqrtPriceX96 for a price of token0 in token1.
    fn sqrt_x96(price: f64) -> U256 {
        U256::from((price.sqrt() * 2f64.powi(96)) as u128)
    }

    #[test]
    fn fees_on_the_input_side_valued_at_each_swap() {
        let now = Utc::now();
        let i = Inputs {
            token_is_token0: true,
            fee_pips: 10_000,
            creator_bps: 8_000,
            swaps: vec![
                // A buy: 2 WETH in, 4,000 tokens out, price 0.0005 WETH per token.
                Swap {
                    amount0: -e18(4000),
                    amount1: e18(2),
                    sqrt_price_x96: sqrt_x96(0.0005),
                    block_time: Some(now),
                },
                // A sell: 1,000 tokens in, 0.5 WETH out, two days ago at 0.0004.
                Swap {
                    amount0: e18(1000),
                    amount1: -e18(1) / I256::try_from(2).unwrap(),
                    sqrt_price_x96: sqrt_x96(0.0004),
                    block_time: Some(now - Duration::days(2)),
                },
            ],
            now,
        };
        let f = figures(&i);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        assert_eq!(f.swaps, 2);
        assert!(close(f.volume_weth, 2.5));
        assert!(close(f.volume_24h_weth, 2.0));
        assert!(close(f.fees_weth, 2.0 * 0.01 * 0.8));
        assert!(close(f.fees_dove, 1000.0 * 0.01 * 0.8));
        assert!(close(f.fees_value_weth, 0.016 + 8.0 * 0.0004));
        assert!(close(f.last_price_weth.unwrap(), 0.0004));
    }

    #[test]
    fn prices_either_way_round() {
        let p = price_weth(U256::from(2u128.pow(96)), true).unwrap();
        assert!((p - 1.0).abs() < 1e-12);
        let s = U256::from((0.25f64.sqrt() * 2f64.powi(96)) as u128);
        assert!((price_weth(s, false).unwrap() - 4.0).abs() < 1e-9);
        assert_eq!(price_weth(U256::ZERO, true), None);
    }
}

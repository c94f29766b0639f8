//! The token ledger's figures (docs/decisions.md, "The token ledger", says how each is defined).
//! Pure. The indexer keeps [`Totals`] of the swaps and burns as it writes and removes their
//! rows (sums that add and subtract row by row, whatever the pool's settings); a refresh turns
//! them into [`Figures`] with the pool's settings, so its cost does not grow with the history.

use std::ops::{AddAssign, SubAssign};

use alloy::primitives::{Address, I256, U256, U512, Uint, address};

/// The community token's supply, in whole tokens.
pub const SUPPLY: f64 = 1_000_000_000.0;
/// The share of the creator's fees pledged to buybacks, in percent.
pub const BUYBACK_PCT: f64 = 20.0;
pub const DEAD: Address = address!("0x000000000000000000000000000000000000dEaD");
/// A transfer to one of these burns the tokens (and neither counts as a holder).
pub const BURN_TARGETS: [Address; 2] = [Address::ZERO, DEAD];

pub fn is_burn(to: &Address) -> bool {
    BURN_TARGETS.contains(to)
}

/// A swap as the pool logged it: signed deltas (positive = paid into the pool).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swap {
    pub amount0: I256,
    pub amount1: I256,
    pub sqrt_price_x96: U256,
}

/// One of the pool's two tokens summed over swaps, in its base units. Which side is the
/// community token is the pool's setting, read at refresh time: both sides are kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Side {
    /// Σ |amount|: the volume, when this side is WETH.
    pub volume: U512,
    /// Σ amount paid in: WETH paid in by buys, when this side is WETH.
    pub paid_in: U512,
    /// Σ amount paid in while the other side was not: tokens paid in by sells, when this side
    /// is the token.
    pub sold: U512,
    /// Σ each of those amounts in base units of the other side at the price its swap left
    /// (rounded down per swap).
    pub sold_value: U512,
}

/// Running totals of the indexed swaps and burns. Exact integers that add and subtract: the
/// totals of a set of rows are the sum of each row's, so removing rows subtracts exactly what
/// they added. U512 holds any sum of 2⁶⁴ rows of the event's widths.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub swaps: u64,
    /// token0, token1.
    pub sides: [Side; 2],
    /// Σ the amounts of burns, in base units.
    pub burned: U512,
}

/// Wide enough for an amount (256 bits) times a squared sqrtPriceX96 (at most 512).
type Wide = Uint<768, 12>;

/// `amount` of token0 (or of token1) in base units of the other token at the price of
/// `sqrt_price_x96` ((sqrtPriceX96 / 2⁹⁶)² is token0 in token1), rounded down; 0 without a
/// price.
fn in_other(amount: U256, sqrt_price_x96: U256, of_token0: bool) -> U512 {
    let (amount, sqrt) = (Wide::from(amount), Wide::from(sqrt_price_x96));
    let (squared, q192) = (sqrt * sqrt, Wide::from(1u8) << 192);
    let value = if of_token0 {
        (amount * squared) >> 192
    } else if squared.is_zero() {
        Wide::ZERO
    } else {
        amount * q192 / squared
    };
    U512::saturating_from(value)
}

impl Totals {
    /// What one swap adds.
    pub fn swap(s: &Swap) -> Totals {
        let amounts = [s.amount0, s.amount1];
        let mut t = Totals {
            swaps: 1,
            ..Totals::default()
        };
        for (i, side) in t.sides.iter_mut().enumerate() {
            let (mine, other) = (amounts[i], amounts[1 - i]);
            let size = mine.unsigned_abs();
            side.volume = U512::from(size);
            if mine.is_positive() {
                side.paid_in = side.volume;
                // The fee is taken from the input side: this token's when the other was not
                // paid in.
                if !other.is_positive() {
                    side.sold = side.volume;
                    side.sold_value = in_other(size, s.sqrt_price_x96, i == 0);
                }
            }
        }
        t
    }

    /// What one burn adds.
    pub fn burn(amount: U256) -> Totals {
        Totals {
            burned: U512::from(amount),
            ..Totals::default()
        }
    }

    fn each(&mut self, o: &Totals, f: fn(U512, U512) -> U512, n: fn(u64, u64) -> u64) {
        self.swaps = n(self.swaps, o.swaps);
        for (a, b) in self.sides.iter_mut().zip(&o.sides) {
            a.volume = f(a.volume, b.volume);
            a.paid_in = f(a.paid_in, b.paid_in);
            a.sold = f(a.sold, b.sold);
            a.sold_value = f(a.sold_value, b.sold_value);
        }
        self.burned = f(self.burned, o.burned);
    }
}

// Saturating: a sum of rows never reaches U512::MAX, and never goes below the rows it holds.
impl AddAssign<&Totals> for Totals {
    fn add_assign(&mut self, o: &Totals) {
        self.each(o, U512::saturating_add, u64::saturating_add);
    }
}

impl SubAssign<&Totals> for Totals {
    fn sub_assign(&mut self, o: &Totals) {
        self.each(o, U512::saturating_sub, u64::saturating_sub);
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Whether the community token is the pool's token0 (WETH is the other).
    pub token_is_token0: bool,
    /// The pool's fee in pips (10,000 = 1%).
    pub fee_pips: u32,
    /// The creator's share of the LP fees in basis points, from the fee locker.
    pub creator_bps: u32,
    pub totals: Totals,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Figures {
    pub swaps: u64,
    pub volume_weth: f64,
    pub fees_weth: f64,
    pub fees_dove: f64,
    pub fees_value_weth: f64,
    /// Whole tokens burned.
    pub burned: f64,
}

/// Base units (18 decimals) as whole tokens.
pub fn units(v: U256) -> f64 {
    whole(&U512::from(v))
}

fn whole(v: &U512) -> f64 {
    f64::from(v) / 1e18
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

/// The WETH the swaps of `amounts` (amount0, amount1) moved, either way, in whole WETH.
pub fn volume_weth(amounts: impl IntoIterator<Item = (I256, I256)>, token_is_token0: bool) -> f64 {
    amounts
        .into_iter()
        .map(|(a0, a1)| units(if token_is_token0 { a1 } else { a0 }.unsigned_abs()))
        .sum()
}

/// Per swap, the fee is taken from the input side: WETH on a buy, the token on a sell, the
/// latter valued at the price its swap left.
pub fn figures(i: &Inputs) -> Figures {
    let cut = f64::from(i.fee_pips) / 1e6 * (f64::from(i.creator_bps) / 1e4);
    let [token0, token1] = &i.totals.sides;
    let (token, weth) = match i.token_is_token0 {
        true => (token0, token1),
        false => (token1, token0),
    };
    Figures {
        swaps: i.totals.swaps,
        volume_weth: whole(&weth.volume),
        fees_weth: whole(&weth.paid_in) * cut,
        fees_dove: whole(&token.sold) * cut,
        fees_value_weth: (whole(&weth.paid_in) + whole(&token.sold_value)) * cut,
        burned: whole(&i.totals.burned),
    }
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

    fn signed(v: I256) -> f64 {
        let m = units(v.unsigned_abs());
        if v.is_negative() { -m } else { m }
    }

    /// The figures as a refresh computed them before the totals: every swap folded in f64.
    fn fold(swaps: &[Swap], token_is_token0: bool, fee_pips: u32, creator_bps: u32) -> Figures {
        let fee = f64::from(fee_pips) / 1e6;
        let share = f64::from(creator_bps) / 1e4;
        let mut f = Figures::default();
        for s in swaps {
            let (token, weth) = if token_is_token0 {
                (signed(s.amount0), signed(s.amount1))
            } else {
                (signed(s.amount1), signed(s.amount0))
            };
            let price = price_weth(s.sqrt_price_x96, token_is_token0);
            f.swaps += 1;
            f.volume_weth += weth.abs();
            if weth > 0.0 {
                let earned = weth * fee * share;
                f.fees_weth += earned;
                f.fees_value_weth += earned;
            } else if token > 0.0 {
                let earned = token * fee * share;
                f.fees_dove += earned;
                f.fees_value_weth += earned * price.unwrap_or(0.0);
            }
        }
        f
    }

    fn sum(swaps: &[Swap]) -> Totals {
        let mut t = Totals::default();
        for s in swaps {
            t += &Totals::swap(s);
        }
        t
    }

    fn close(a: f64, b: f64) -> bool {
        // The totals round each sell's value down to a wei: 2,000 wei at most.
        (a - b).abs() <= 1e-12 * b.abs() + 1e-15
    }

    fn same(a: &Figures, b: &Figures) -> bool {
        a.swaps == b.swaps
            && close(a.volume_weth, b.volume_weth)
            && close(a.fees_weth, b.fees_weth)
            && close(a.fees_dove, b.fees_dove)
            && close(a.fees_value_weth, b.fees_value_weth)
    }

    /// Swaps of every kind from a fixed seed: buys, sells, both sides paid in or neither,
    /// amounts from a few wei to billions of tokens, prices over many orders and none.
    fn swaps(n: usize) -> Vec<Swap> {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| {
                let amount = |n: u64| {
                    let v = I256::try_from(n % 1_000_000_000).unwrap()
                        * I256::try_from(10u64.pow((n >> 40) as u32 % 19)).unwrap();
                    match n >> 60 {
                        0..=6 => -v,
                        7..=14 => v,
                        _ => I256::ZERO,
                    }
                };
                let (a, b) = (next(), next());
                let price = 10f64.powi((next() % 25) as i32 - 12);
                Swap {
                    amount0: amount(a),
                    amount1: amount(b),
                    sqrt_price_x96: match next() % 20 {
                        0 => U256::ZERO,
                        _ => sqrt_x96(price),
                    },
                }
            })
            .collect()
    }

    #[test]
    fn fees_on_the_input_side_valued_at_each_swap() {
        // A buy: 2 WETH in, 4,000 tokens out, price 0.0005 WETH per token; a sell: 1,000 tokens
        // in, 0.5 WETH out at 0.0004.
        let buy = Swap {
            amount0: -e18(4000),
            amount1: e18(2),
            sqrt_price_x96: sqrt_x96(0.0005),
        };
        let sell = Swap {
            amount0: e18(1000),
            amount1: -e18(1) / I256::try_from(2).unwrap(),
            sqrt_price_x96: sqrt_x96(0.0004),
        };
        let f = figures(&Inputs {
            token_is_token0: true,
            fee_pips: 10_000,
            creator_bps: 8_000,
            totals: sum(&[buy, sell]),
        });
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        assert_eq!(f.swaps, 2);
        assert!(close(f.volume_weth, 2.5));
        assert!(close(f.fees_weth, 2.0 * 0.01 * 0.8));
        assert!(close(f.fees_dove, 1000.0 * 0.01 * 0.8));
        assert!(close(f.fees_value_weth, 0.016 + 8.0 * 0.0004));
        let pairs = [buy, sell].map(|s| (s.amount0, s.amount1));
        assert!(close(volume_weth(pairs, true), 2.5));
        assert!(close(volume_weth(pairs, false), 5000.0));
    }

    #[test]
    fn the_totals_give_what_folding_every_swap_gave() {
        let all = swaps(2_000);
        for token_is_token0 in [true, false] {
            for (fee_pips, creator_bps) in [(10_000, 8_000), (3_000, 10_000), (500, 1), (0, 0)] {
                let f = figures(&Inputs {
                    token_is_token0,
                    fee_pips,
                    creator_bps,
                    totals: sum(&all),
                });
                let want = fold(&all, token_is_token0, fee_pips, creator_bps);
                assert!(same(&f, &want), "{f:?} against {want:?}");
            }
        }
    }

    #[test]
    fn removing_rows_takes_back_exactly_what_they_added() {
        let all = swaps(500);
        let (kept, removed) = all.split_at(321);
        let mut t = sum(&all);
        for s in removed {
            t -= &Totals::swap(s);
        }
        t -= &Totals::burn(U256::ZERO);
        assert_eq!(t, sum(kept));
        t += &Totals::burn(U256::from(7));
        t += &Totals::burn(U256::from(5));
        t -= &Totals::burn(U256::from(7));
        assert_eq!(t.burned, U512::from(5));
        assert_eq!(t.swaps, 321);
    }

    #[test]
    fn a_sells_value_is_exact_and_rounds_down() {
        // 3 token0 at sqrtPriceX96 = 2⁹⁶ · 2 (4 token1 each): 12; the other way, 3 token1 at
        // 1/4 token0 each: 0.75, rounded down to 0.
        let sqrt = U256::from(2u8) << 96;
        assert_eq!(in_other(U256::from(3), sqrt, true), U512::from(12));
        assert_eq!(in_other(U256::from(3), sqrt, false), U512::ZERO);
        assert_eq!(in_other(U256::from(8), sqrt, false), U512::from(2));
        assert_eq!(in_other(U256::MAX, U256::ZERO, false), U512::ZERO);
        // The widest inputs do not overflow.
        let top = in_other(U256::MAX, U256::MAX, true);
        assert!(top > U512::from(U256::MAX));
    }

    #[test]
    fn prices_either_way_round() {
        let p = price_weth(U256::from(2u128.pow(96)), true).unwrap();
        assert!((p - 1.0).abs() < 1e-12);
        let s = U256::from((0.25f64.sqrt() * 2f64.powi(96)) as u128);
        assert!((price_weth(s, false).unwrap() - 4.0).abs() < 1e-9);
        assert_eq!(price_weth(U256::ZERO, true), None);
    }

    #[test]
    fn burns_go_to_the_zero_or_the_dead_address() {
        assert!(is_burn(&Address::ZERO) && is_burn(&DEAD));
        assert!(!is_burn(&Address::repeat_byte(1)));
    }
}

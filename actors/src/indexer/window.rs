//! The hashes of the recent blocks the indexer has read, to find the common ancestor after a
//! reorg. Pure.

use std::collections::BTreeMap;

use alloy::primitives::B256;

#[derive(Debug, Clone, Default)]
pub struct Window {
    hashes: BTreeMap<u64, B256>,
    keep: usize,
}

impl Window {
    pub fn new(keep: usize) -> Self {
        Window {
            hashes: BTreeMap::new(),
            keep: keep.max(1),
        }
    }

    pub fn record(&mut self, block: u64, hash: B256) {
        self.hashes.insert(block, hash);
        while self.hashes.len() > self.keep {
            self.hashes.pop_first();
        }
    }

    pub fn get(&self, block: u64) -> Option<B256> {
        self.hashes.get(&block).copied()
    }

    /// Forgets blocks above `block` (they were rolled back).
    pub fn forget_above(&mut self, block: u64) {
        self.hashes.retain(|n, _| *n <= block);
    }

    /// Remembered blocks below `block`, newest first: the candidates for the common ancestor.
    pub fn below(&self, block: u64) -> Vec<(u64, B256)> {
        self.hashes
            .range(..block)
            .rev()
            .map(|(n, h)| (*n, *h))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_and_lists_candidates_newest_first() {
        let h = |n: u8| B256::repeat_byte(n);
        let mut w = Window::new(3);
        for n in 1..=5u8 {
            w.record(u64::from(n) * 10, h(n));
        }
        assert_eq!(w.get(10), None, "the oldest are forgotten");
        assert_eq!(w.below(50), vec![(40, h(4)), (30, h(3))]);
        w.forget_above(30);
        assert_eq!(w.get(40), None);
        assert_eq!(w.get(30), Some(h(3)));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn hash(chain: u8, n: u64) -> B256 {
        let mut h = B256::repeat_byte(chain);
        h[24..].copy_from_slice(&n.to_be_bytes());
        h
    }

    #[derive(Debug, Clone)]
    enum Op {
        Record(u64),
        Forget(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (0..200_u64).prop_map(Op::Record),
            1 => (0..200_u64).prop_map(Op::Forget),
        ]
    }

    proptest! {
        /// Whatever is recorded and forgotten, in any order: at most `keep` blocks, none above a
        /// rollback, and the candidates listed newest first, all below the block asked about.
        #[test]
        fn the_window_keeps_its_bounds(
            keep in 0..12_usize,
            ops in proptest::collection::vec(op(), 0..60),
            at in 0..220_u64,
        ) {
            let mut w = Window::new(keep);
            for o in &ops {
                match *o {
                    Op::Record(n) => {
                        let newest = w.below(u64::MAX).first().map(|(b, _)| *b);
                        w.record(n, hash(1, n));
                        prop_assert!(w.below(u64::MAX).len() <= keep.max(1));
                        // The newest block recorded is always kept.
                        if newest.is_none_or(|b| n >= b) {
                            prop_assert_eq!(w.get(n), Some(hash(1, n)));
                        }
                    }
                    Op::Forget(n) => {
                        let before = w.below(n + 1);
                        w.forget_above(n);
                        prop_assert!(w.below(u64::MAX).iter().all(|(b, _)| *b <= n));
                        prop_assert_eq!(w.below(u64::MAX), before, "nothing at or below it goes");
                    }
                }
            }
            let c = w.below(at);
            prop_assert!(c.windows(2).all(|p| p[0].0 > p[1].0));
            prop_assert!(c.iter().all(|(b, h)| *b < at && *h == hash(1, *b)));
        }

        /// A reorg: the indexer recorded segment ends of chain A; the chain is now B, which is A up
        /// to `fork`. The first candidate whose hash B still has is the newest remembered block
        /// at or below the fork, none when the fork is older than the window; after the
        /// rollback the window holds nothing above it and takes B's blocks.
        #[test]
        fn a_reorg_finds_the_newest_remembered_ancestor(
            keep in 1..16_usize,
            start in 0..1_000_u64,
            gaps in proptest::collection::vec(1..20_u64, 1..40),
            depth in 0..300_u64,
            new_gaps in proptest::collection::vec(1..20_u64, 0..10),
        ) {
            let heights: Vec<u64> = gaps
                .iter()
                .scan(start, |h, g| {
                    *h += g;
                    Some(*h)
                })
                .collect();
            let mut w = Window::new(keep);
            for &n in &heights {
                w.record(n, hash(0xa, n));
            }
            let cursor = *heights.last().expect("at least one segment");
            let fork = cursor.saturating_sub(depth + 1);
            let on_b = |n: u64| if n <= fork { hash(0xa, n) } else { hash(0xb, n) };
            let found = w.below(cursor).into_iter().find(|(n, h)| on_b(*n) == *h);
            let remembered = &heights[heights.len().saturating_sub(keep)..];
            let expected = remembered.iter().copied().filter(|n| *n < cursor && *n <= fork).max();
            prop_assert_eq!(found.map(|(n, _)| n), expected);
            let to = found.map_or(fork, |(n, _)| n);
            w.forget_above(to);
            prop_assert!(w.below(u64::MAX).iter().all(|(n, _)| *n <= to));
            let mut n = to;
            for g in new_gaps {
                n += g;
                w.record(n, on_b(n));
                prop_assert_eq!(w.get(n), Some(on_b(n)));
            }
            prop_assert!(w.below(u64::MAX).len() <= keep);
        }
    }
}

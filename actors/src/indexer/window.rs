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

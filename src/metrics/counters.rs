//! Counters that hot paths bump with one relaxed atomic add, read when `/metrics` is scraped.
//! Their owners (the caches, the RPC proxy) keep them; nothing here knows the exporter.

use std::sync::atomic::{AtomicU64, Ordering};

/// Hits and misses of one cache.
#[derive(Debug, Default)]
pub struct CacheStats {
    hits: AtomicU64,
    misses: AtomicU64,
}

/// What a [`CacheStats`] counted so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheCounts {
    pub hits: u64,
    pub misses: u64,
}

impl CacheStats {
    /// An answer served from memory.
    pub fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    /// An answer that had to be computed (or fetched).
    pub fn miss(&self) {
        self.misses.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a lookup by its result and passes the result on.
    pub fn lookup<T>(&self, found: Option<T>) -> Option<T> {
        if found.is_some() {
            self.hit();
        } else {
            self.miss();
        }
        found
    }

    pub fn counts(&self) -> CacheCounts {
        CacheCounts {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

/// The public RPC proxy's upstream attempts (per upstream, answered or failed), its failovers
/// and its cache of final answers.
#[derive(Debug)]
pub struct RpcStats {
    /// Per upstream, by position in `chain.rpc_urls`: [answered, failed].
    upstreams: Vec<[AtomicU64; 2]>,
    failovers: AtomicU64,
    /// Calls answered by another identical call's upstream request.
    shared: AtomicU64,
    pub cache: CacheStats,
}

/// What an [`RpcStats`] counted so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RpcCounts {
    /// Per upstream: (answered, failed).
    pub upstreams: Vec<(u64, u64)>,
    pub failovers: u64,
    pub shared: u64,
    pub cache: CacheCounts,
}

impl RpcStats {
    pub fn new(upstreams: usize) -> Self {
        RpcStats {
            upstreams: (0..upstreams).map(|_| Default::default()).collect(),
            failovers: AtomicU64::new(0),
            shared: AtomicU64::new(0),
            cache: CacheStats::default(),
        }
    }

    /// One attempt at upstream `n`: it answered (`ok`) or failed.
    pub fn call(&self, n: usize, ok: bool) {
        if let Some(c) = self.upstreams.get(n) {
            c[usize::from(!ok)].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// An attempt at an upstream after the one before it failed.
    pub fn failover(&self) {
        self.failovers.fetch_add(1, Ordering::Relaxed);
    }

    /// A call answered by an identical one's upstream request.
    pub fn shared(&self) {
        self.shared.fetch_add(1, Ordering::Relaxed);
    }

    pub fn counts(&self) -> RpcCounts {
        RpcCounts {
            upstreams: self
                .upstreams
                .iter()
                .map(|c| (c[0].load(Ordering::Relaxed), c[1].load(Ordering::Relaxed)))
                .collect(),
            failovers: self.failovers.load(Ordering::Relaxed),
            shared: self.shared.load(Ordering::Relaxed),
            cache: self.cache.counts(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_lookups_count_hits_and_misses() {
        let c = CacheStats::default();
        assert_eq!(c.lookup(Some(1)), Some(1));
        assert_eq!(c.lookup::<u8>(None), None);
        c.hit();
        assert_eq!(c.counts(), CacheCounts { hits: 2, misses: 1 });
    }

    #[test]
    fn rpc_calls_are_counted_per_upstream() {
        let s = RpcStats::new(2);
        s.call(0, false);
        s.failover();
        s.shared();
        s.call(1, true);
        s.call(1, true);
        s.call(7, true); // no such upstream: ignored
        s.cache.miss();
        let c = s.counts();
        assert_eq!(c.upstreams, vec![(0, 1), (2, 0)]);
        assert_eq!(c.failovers, 1);
        assert_eq!(c.shared, 1);
        assert_eq!(c.cache, CacheCounts { hits: 0, misses: 1 });
    }
}

//! The public RPC proxy's counters: upstream attempts (per upstream, answered or failed), its
//! failovers, the calls it shared, and its cache's lookups. The proxy bumps them with one
//! atomic add and registers them ([`super::proxy::RpcProxy::register_metrics`]).

use journal_market_actors::metrics::describe;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;

use crate::cache::CacheStats;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Attempt {
    /// Position in the proxy's upstreams (URLs may carry keys).
    upstream: String,
    outcome: &'static str,
}

#[derive(Debug, Clone)]
pub struct RpcStats {
    calls: Family<Attempt, Counter>,
    /// The family's counters per upstream: [answered, failed].
    upstreams: Vec<[Counter; 2]>,
    failovers: Counter,
    /// Calls answered by another identical call's upstream request.
    shared: Counter,
    pub cache: CacheStats,
}

impl RpcStats {
    pub fn new(upstreams: usize, cache: CacheStats) -> Self {
        let calls = Family::<Attempt, Counter>::default();
        let upstreams = (0..upstreams)
            .map(|n| {
                ["ok", "error"].map(|outcome| {
                    calls
                        .get_or_create(&Attempt {
                            upstream: n.to_string(),
                            outcome,
                        })
                        .clone()
                })
            })
            .collect();
        RpcStats {
            calls,
            upstreams,
            failovers: Counter::default(),
            shared: Counter::default(),
            cache,
        }
    }

    /// One attempt at upstream `n`: it answered (`ok`) or failed.
    pub fn call(&self, n: usize, ok: bool) {
        if let Some(c) = self.upstreams.get(n) {
            c[usize::from(!ok)].inc();
        }
    }

    /// An attempt at an upstream after the one before it failed.
    pub fn failover(&self) {
        self.failovers.inc();
    }

    /// A call answered by an identical one's upstream request.
    pub fn shared(&self) {
        self.shared.inc();
    }

    /// `jm_rpc_upstream_calls`, `jm_rpc_failovers` and `jm_rpc_shared_calls` (the cache's
    /// lookups are in `jm_cache_requests`, registered with the other caches').
    pub fn encode(&self, e: &mut DescriptorEncoder) -> Result<(), std::fmt::Error> {
        describe(
            e,
            "jm_rpc_upstream_calls",
            "The RPC proxy's attempts per upstream (index in chain.rpc_urls) and outcome",
            &self.calls,
        )?;
        describe(
            e,
            "jm_rpc_failovers",
            "Times the RPC proxy moved on to the next upstream after a failure",
            &self.failovers,
        )?;
        describe(
            e,
            "jm_rpc_shared_calls",
            "Calls the RPC proxy answered from an identical call's upstream request in flight",
            &self.shared,
        )
    }
}

#[cfg(test)]
mod tests {
    use prometheus_client::collector::Collector;
    use prometheus_client::encoding::text::encode;
    use prometheus_client::registry::Registry;

    use super::*;

    #[derive(Debug)]
    struct Only(RpcStats);

    impl Collector for Only {
        fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
            self.0.encode(&mut e)
        }
    }

    #[test]
    fn rpc_calls_are_counted_per_upstream() {
        let s = RpcStats::new(2, CacheStats::default());
        s.call(0, false);
        s.failover();
        s.shared();
        s.call(1, true);
        s.call(1, true);
        s.call(7, true); // no such upstream: ignored
        let mut r = Registry::default();
        r.register_collector(Box::new(Only(s)));
        let mut text = String::new();
        encode(&mut text, &r).unwrap();
        for line in [
            "# TYPE jm_rpc_upstream_calls counter",
            "jm_rpc_upstream_calls_total{upstream=\"0\",outcome=\"error\"} 1",
            "jm_rpc_upstream_calls_total{upstream=\"0\",outcome=\"ok\"} 0",
            "jm_rpc_upstream_calls_total{upstream=\"1\",outcome=\"ok\"} 2",
            "jm_rpc_failovers_total 1",
            "jm_rpc_shared_calls_total 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
        assert!(!text.contains("upstream=\"7\""));
    }
}

//! What is read when `/metrics` is scraped, and the listener that serves it.

use journal_market_actors::audit::stats::AuditCounts;
use journal_market_actors::health::ComponentHealth;
use journal_market_actors::settlement::SponsorTally;
use journal_market_chain::client::UpstreamStats;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;

use super::{CacheCounts, RpcCounts};

/// How the database pool is used right now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections open (idle or lent out).
    pub open: u32,
    pub idle: u32,
    pub max: u32,
}

/// Counts by outcome (a label value).
pub type Outcomes = Vec<(&'static str, u64)>;

/// The figures read at one scrape, owned so they can be encoded after the reads.
#[derive(Debug, Default)]
pub struct Snapshot {
    pub actors: Vec<ComponentHealth>,
    pub db_pool: Option<PoolUse>,
    /// The caches of public reads, by name.
    pub caches: Vec<(&'static str, CacheCounts)>,
    /// The entries each cache of public reads holds now, by name.
    pub cache_entries: Vec<(&'static str, u64)>,
    pub rpc: RpcCounts,
    pub rpc_cache_entries: u64,
    /// Bytes the RPC proxy's cache holds (keys, answers, per-entry overhead).
    pub rpc_cache_bytes: u64,
    /// The chain client's calls and failures per upstream, and its failovers.
    pub chain: (Vec<UpstreamStats>, u64),
    /// (outcome, count) of payment requests and of payment rows; none while payments have no
    /// back-end.
    pub settlement: Option<(Outcomes, Outcomes)>,
    /// Sponsored approvals by what became of their payment, from the database (every
    /// instance's); none while this instance does not sponsor.
    pub sponsorships: Option<SponsorTally>,
    /// Wei this instance sent to payers for sponsored approvals that were mined, and the part
    /// of it they did not burn (kept); none while this instance does not sponsor.
    pub sponsor_wei: Option<(u64, u64)>,
    /// This instance's audit jobs: engine runs, job ends by outcome, refusals.
    pub audit: AuditCounts,
}

/// One metric family: its descriptor, then one sample per label set.
fn family<S: EncodeLabelSet, M: EncodeMetric>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    kind: MetricType,
    samples: impl IntoIterator<Item = (S, M)>,
) -> Result<(), std::fmt::Error> {
    let mut metric = encoder.encode_descriptor(name, help, None, kind)?;
    for (labels, value) in samples {
        value.encode(metric.encode_family(&labels)?)?;
    }
    Ok(())
}

fn single<M: EncodeMetric>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: M,
) -> Result<(), std::fmt::Error> {
    let metric = encoder.encode_descriptor(name, help, None, value.metric_type())?;
    value.encode(metric)
}

fn gauge(v: u64) -> ConstGauge {
    ConstGauge::new(i64::try_from(v).unwrap_or(i64::MAX))
}

impl Collector for Snapshot {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        use MetricType::{Counter, Gauge};
        let actor = |c: &ComponentHealth| [("actor", c.name.clone())];
        family(
            &mut e,
            "jm_actor_in_flight",
            "Calls an actor is working on now",
            Gauge,
            self.actors.iter().map(|c| (actor(c), gauge(c.in_flight))),
        )?;
        family(
            &mut e,
            "jm_actor_restarts",
            "Times the supervisor restarted an actor",
            Counter,
            self.actors
                .iter()
                .map(|c| (actor(c), ConstCounter::new(c.restarts))),
        )?;
        family(
            &mut e,
            "jm_actor_healthy",
            "1 while an actor's last report was healthy, else 0",
            Gauge,
            self.actors
                .iter()
                .map(|c| (actor(c), gauge(u64::from(c.healthy)))),
        )?;
        let progress = || {
            self.actors
                .iter()
                .filter_map(|c| c.progress.as_ref().map(|p| (actor(c), p)))
        };
        family(
            &mut e,
            "jm_indexer_lag_blocks",
            "Blocks between the chain head and the indexer's cursor",
            Gauge,
            progress().filter_map(|(l, p)| p.lag.map(|v| (l, gauge(v)))),
        )?;
        family(
            &mut e,
            "jm_indexer_head_block",
            "The chain head the indexer last saw",
            Gauge,
            progress().filter_map(|(l, p)| p.head.map(|v| (l, gauge(v)))),
        )?;
        family(
            &mut e,
            "jm_indexer_cursor_block",
            "The last block the indexer stored",
            Gauge,
            progress().filter_map(|(l, p)| p.cursor.map(|v| (l, gauge(v)))),
        )?;
        family(
            &mut e,
            "jm_indexer_leader",
            "1 while this instance holds the indexing lock",
            Gauge,
            progress().map(|(l, p)| (l, gauge(u64::from(p.leader)))),
        )?;
        family(
            &mut e,
            "jm_indexer_reorgs",
            "Reorgs the indexer rolled back",
            Counter,
            progress().map(|(l, p)| (l, ConstCounter::new(p.reorgs))),
        )?;

        if let Some(p) = self.db_pool {
            family(
                &mut e,
                "jm_db_pool_connections",
                "Database pool connections, idle or in use",
                Gauge,
                [
                    ([("state", "idle")], gauge(p.idle.into())),
                    (
                        [("state", "in_use")],
                        gauge(p.open.saturating_sub(p.idle).into()),
                    ),
                ],
            )?;
            single(
                &mut e,
                "jm_db_pool_max_connections",
                "The database pool's size limit",
                gauge(p.max.into()),
            )?;
        }

        let caches = self
            .caches
            .iter()
            .copied()
            .chain(std::iter::once(("rpc", self.rpc.cache)))
            .flat_map(|(cache, c)| {
                [
                    ([("cache", cache), ("result", "hit")], c.hits),
                    ([("cache", cache), ("result", "miss")], c.misses),
                ]
            });
        family(
            &mut e,
            "jm_cache_requests",
            "Cache lookups by cache and result (hit: answered from memory)",
            Counter,
            caches.map(|(l, n)| (l, ConstCounter::new(n))),
        )?;
        family(
            &mut e,
            "jm_cache_entries",
            "Entries a cache of public reads holds now (bounded per cache)",
            Gauge,
            self.cache_entries
                .iter()
                .map(|&(cache, n)| ([("cache", cache)], gauge(n))),
        )?;
        single(
            &mut e,
            "jm_rpc_cache_entries",
            "Final answers the RPC proxy keeps",
            gauge(self.rpc_cache_entries),
        )?;
        single(
            &mut e,
            "jm_rpc_cache_bytes",
            "Bytes the RPC proxy's cache holds, bounded by rpc.cache_bytes",
            gauge(self.rpc_cache_bytes),
        )?;

        let calls = self
            .rpc
            .upstreams
            .iter()
            .enumerate()
            .flat_map(|(n, &(ok, failed))| [((n, "ok"), ok), ((n, "error"), failed)])
            .map(|((n, outcome), v)| {
                (
                    [
                        ("upstream", n.to_string()),
                        ("outcome", outcome.to_string()),
                    ],
                    ConstCounter::new(v),
                )
            });
        family(
            &mut e,
            "jm_rpc_upstream_calls",
            "The RPC proxy's attempts per upstream (index in chain.rpc_urls) and outcome",
            Counter,
            calls,
        )?;
        single(
            &mut e,
            "jm_rpc_failovers",
            "Times the RPC proxy moved on to the next upstream after a failure",
            ConstCounter::new(self.rpc.failovers),
        )?;
        single(
            &mut e,
            "jm_rpc_shared_calls",
            "Calls the RPC proxy answered from an identical call's upstream request in flight",
            ConstCounter::new(self.rpc.shared),
        )?;

        let (upstreams, failovers) = &self.chain;
        family(
            &mut e,
            "jm_chain_upstream_calls",
            "The chain client's calls per upstream (index in chain.rpc_urls)",
            Counter,
            upstreams
                .iter()
                .map(|u| ([("upstream", u.index)], ConstCounter::new(u.calls))),
        )?;
        family(
            &mut e,
            "jm_chain_upstream_failures",
            "The chain client's failed calls per upstream",
            Counter,
            upstreams
                .iter()
                .map(|u| ([("upstream", u.index)], ConstCounter::new(u.failures))),
        )?;
        single(
            &mut e,
            "jm_chain_failovers",
            "Times the chain client moved on to the next upstream",
            ConstCounter::new(*failovers),
        )?;

        single(
            &mut e,
            "jm_audit_engine_runs",
            "Audit engine runs this instance started (a job dropped before its turn starts none)",
            ConstCounter::new(self.audit.engine_runs),
        )?;
        family(
            &mut e,
            "jm_audit_jobs",
            "Audit jobs this instance ended, by outcome (dropped: the draft changed before the job's turn, no engine ran)",
            Counter,
            self.audit
                .jobs
                .iter()
                .map(|&(o, n)| ([("outcome", o)], ConstCounter::new(n))),
        )?;
        single(
            &mut e,
            "jm_audit_wallet_full",
            "Audit requests refused (429) because the wallet had audit.max_queued_per_wallet open",
            ConstCounter::new(self.audit.wallet_full),
        )?;

        if let Some((requests, rows)) = &self.settlement {
            family(
                &mut e,
                "jm_settlement_requests",
                "Payment requests by the answer the settlement gave",
                Counter,
                requests
                    .iter()
                    .map(|&(o, n)| ([("outcome", o)], ConstCounter::new(n))),
            )?;
            family(
                &mut e,
                "jm_settlement_rows",
                "Payment rows this instance settled or failed (by a request or by reconciliation)",
                Counter,
                rows.iter()
                    .map(|&(o, n)| ([("outcome", o)], ConstCounter::new(n))),
            )?;
        }
        if let Some(t) = &self.sponsorships {
            family(
                &mut e,
                "jm_gas_sponsorships",
                "Sponsored approvals (erc20ApprovalGasSponsoring) by what became of their payment; unsettled: no settle followed",
                Gauge,
                [
                    ("settled", t.settled),
                    ("pending", t.pending),
                    ("unsettled", t.unsettled),
                ]
                .into_iter()
                .map(|(o, n)| ([("outcome", o)], gauge(n))),
            )?;
            single(
                &mut e,
                "jm_gas_sponsored_wei",
                "Wei the sponsor key has spent on approvals (sent to payers, and the funding transactions' gas), in all",
                gauge(t.funded_wei),
            )?;
        }
        if let Some((funded, kept)) = self.sponsor_wei {
            single(
                &mut e,
                "jm_gas_sponsor_funded_wei",
                "Wei this instance sent to payers for sponsored approvals that were mined",
                ConstCounter::new(funded),
            )?;
            single(
                &mut e,
                "jm_gas_sponsor_kept_wei",
                "Of that, the wei the approvals did not burn: kept by the payers",
                ConstCounter::new(kept),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use journal_market_actors::health::HealthRegistry;

    #[test]
    fn a_snapshot_is_encoded_with_bounded_labels() {
        let h = HealthRegistry::new();
        h.heartbeat("settlement");
        h.set_in_flight("settlement", 3);
        h.restarted("settlement");
        let s = Snapshot {
            actors: h.snapshot(),
            db_pool: Some(PoolUse {
                open: 4,
                idle: 1,
                max: 16,
            }),
            caches: vec![("lists", CacheCounts { hits: 5, misses: 2 })],
            cache_entries: vec![("journals", 3)],
            rpc: RpcCounts {
                upstreams: vec![(0, 2), (7, 0)],
                failovers: 2,
                shared: 4,
                cache: CacheCounts { hits: 1, misses: 9 },
            },
            rpc_cache_entries: 1,
            rpc_cache_bytes: 300,
            chain: (
                vec![UpstreamStats {
                    index: 0,
                    calls: 10,
                    failures: 1,
                }],
                1,
            ),
            settlement: Some((vec![("settled", 2)], vec![("failed", 1)])),
            sponsorships: Some(SponsorTally {
                settled: 3,
                pending: 0,
                unsettled: 1,
                funded_wei: 210_000_000_000_000,
            }),
            sponsor_wei: Some((90_000, 4_000)),
            audit: AuditCounts {
                engine_runs: 3,
                jobs: vec![("done", 3), ("dropped", 5)],
                wallet_full: 1,
            },
        };
        let text = Metrics::new().render(s).unwrap();
        for line in [
            "# TYPE jm_actor_in_flight gauge",
            "jm_actor_in_flight{actor=\"settlement\"} 3",
            "# TYPE jm_actor_restarts counter",
            "jm_actor_restarts_total{actor=\"settlement\"} 1",
            "jm_actor_healthy{actor=\"settlement\"} 1",
            "jm_db_pool_connections{state=\"idle\"} 1",
            "jm_db_pool_connections{state=\"in_use\"} 3",
            "jm_db_pool_max_connections 16",
            "jm_cache_requests_total{cache=\"lists\",result=\"hit\"} 5",
            "jm_cache_entries{cache=\"journals\"} 3",
            "jm_cache_requests_total{cache=\"rpc\",result=\"miss\"} 9",
            "jm_rpc_cache_entries 1",
            "jm_gas_sponsorships{outcome=\"unsettled\"} 1",
            "jm_gas_sponsored_wei 210000000000000",
            "jm_gas_sponsor_funded_wei_total 90000",
            "jm_gas_sponsor_kept_wei_total 4000",
            "jm_rpc_cache_bytes 300",
            "jm_rpc_upstream_calls_total{upstream=\"0\",outcome=\"error\"} 2",
            "jm_rpc_upstream_calls_total{upstream=\"1\",outcome=\"ok\"} 7",
            "jm_rpc_failovers_total 2",
            "jm_rpc_shared_calls_total 4",
            "jm_chain_upstream_calls_total{upstream=\"0\"} 10",
            "jm_chain_upstream_failures_total{upstream=\"0\"} 1",
            "jm_chain_failovers_total 1",
            "jm_settlement_requests_total{outcome=\"settled\"} 2",
            "jm_settlement_rows_total{outcome=\"failed\"} 1",
            "# TYPE jm_audit_engine_runs counter",
            "jm_audit_engine_runs_total 3",
            "jm_audit_jobs_total{outcome=\"dropped\"} 5",
            "jm_audit_wallet_full_total 1",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing {line:?} in\n{text}"
            );
        }
        assert!(
            !text.contains("jm_indexer_lag_blocks{"),
            "no indexer, no lag"
        );
        assert!(text.ends_with("# EOF\n"));
    }
}

//! The registry's figures as metrics, read at each scrape: whether a component is healthy
//! depends on the time since its heartbeat, so they are not kept as counters.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::MetricType::{Counter, Gauge};
use prometheus_client::metrics::counter::ConstCounter;

use super::{ComponentHealth, HealthRegistry};
use crate::metrics::{family, gauge};

/// `jm_actor_*` per component and `jm_indexer_*` per component that reports progress.
#[derive(Clone)]
pub struct HealthMetrics(pub(super) HealthRegistry);

impl std::fmt::Debug for HealthMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HealthMetrics")
    }
}

impl Collector for HealthMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let all = self.0.snapshot();
        let actor = |c: &ComponentHealth| [("actor", c.name.clone())];
        family(
            &mut e,
            "jm_actor_in_flight",
            "Calls an actor is working on now",
            Gauge,
            all.iter().map(|c| (actor(c), gauge(c.in_flight))),
        )?;
        family(
            &mut e,
            "jm_actor_restarts",
            "Times the supervisor restarted an actor",
            Counter,
            all.iter()
                .map(|c| (actor(c), ConstCounter::new(c.restarts))),
        )?;
        family(
            &mut e,
            "jm_actor_healthy",
            "1 while an actor's last report was healthy, else 0",
            Gauge,
            all.iter().map(|c| (actor(c), gauge(u64::from(c.healthy)))),
        )?;
        let progress = || {
            all.iter()
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
        )
    }
}

#[cfg(test)]
mod tests {
    use prometheus_client::encoding::text::encode;
    use prometheus_client::registry::Registry;

    use super::*;
    use crate::health::Progress;

    #[test]
    fn components_are_labelled_by_name() {
        let h = HealthRegistry::new();
        h.heartbeat("settlement");
        h.set_in_flight("settlement", 3);
        h.restarted("settlement");
        let mut r = Registry::default();
        h.register_metrics(&mut r);
        let mut text = String::new();
        encode(&mut text, &r).unwrap();
        for line in [
            "# HELP jm_actor_in_flight Calls an actor is working on now",
            "# TYPE jm_actor_in_flight gauge",
            "jm_actor_in_flight{actor=\"settlement\"} 3",
            "# TYPE jm_actor_restarts counter",
            "jm_actor_restarts_total{actor=\"settlement\"} 1",
            "jm_actor_healthy{actor=\"settlement\"} 1",
            "# TYPE jm_indexer_lag_blocks gauge",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
        assert!(
            !text.contains("jm_indexer_lag_blocks{"),
            "no indexer, no lag"
        );

        h.progress(
            "indexer",
            Progress {
                leader: true,
                head: Some(10),
                cursor: Some(7),
                lag: Some(3),
                range: 100,
                reorgs: 1,
            },
        );
        let mut text = String::new();
        encode(&mut text, &r).unwrap();
        for line in [
            "jm_indexer_lag_blocks{actor=\"indexer\"} 3",
            "jm_indexer_leader{actor=\"indexer\"} 1",
            "jm_indexer_reorgs_total{actor=\"indexer\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
    }
}

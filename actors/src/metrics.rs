//! Helpers for the collectors the components register into the service's one Prometheus
//! registry (`src/metrics/`). A component keeps its figures as prometheus-client counters (an
//! atomic add per event) and registers a collector that writes them under their names; figures
//! only known when scraped (health, pool use, cache sizes) are read by that collector.
//!
//! The collectors write their own descriptors because `Registry::register` appends a period to
//! every help text, and the help texts Grafana shows predate this layout.

use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::gauge::ConstGauge;

/// One live metric (a counter, or a family of them) under `name` and `help`, as written.
pub fn describe(
    e: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    metric: &impl EncodeMetric,
) -> Result<(), std::fmt::Error> {
    metric.encode(e.encode_descriptor(name, help, None, metric.metric_type())?)
}

/// One family of values read at the scrape: its descriptor, then one sample per label set.
pub fn family<S: EncodeLabelSet, M: EncodeMetric>(
    e: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    kind: MetricType,
    samples: impl IntoIterator<Item = (S, M)>,
) -> Result<(), std::fmt::Error> {
    let mut metric = e.encode_descriptor(name, help, None, kind)?;
    for (labels, value) in samples {
        value.encode(metric.encode_family(&labels)?)?;
    }
    Ok(())
}

/// A count read at the scrape, as a gauge.
pub fn gauge(v: u64) -> ConstGauge {
    ConstGauge::new(i64::try_from(v).unwrap_or(i64::MAX))
}

//! What the load examples print: count, per second, p50 and p95 in ms, errors.

use std::time::Duration;

/// Waits for the load tasks and puts their latencies and error counts together.
pub async fn gather(
    tasks: Vec<tokio::task::JoinHandle<(Vec<Duration>, usize)>>,
) -> anyhow::Result<(Vec<Duration>, usize)> {
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await?;
        all.extend(l);
        errors += e;
    }
    Ok((all, errors))
}

/// The `p` quantile of sorted latencies, in ms (0 when there are none).
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

pub fn report(mut all: Vec<Duration>, elapsed: Duration, errors: usize) {
    all.sort();
    println!(
        "{} {:.1} {:.1} {:.1} {}",
        all.len(),
        all.len() as f64 / elapsed.as_secs_f64(),
        percentile_ms(&all, 0.5),
        percentile_ms(&all, 0.95),
        errors
    );
}

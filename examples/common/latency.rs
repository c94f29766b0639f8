//! What the load examples print: count, per second, p50 and p95 in ms, errors.

use std::time::Duration;

pub fn report(mut all: Vec<Duration>, elapsed: Duration, errors: usize) {
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    };
    println!(
        "{} {:.1} {:.1} {:.1} {}",
        all.len(),
        all.len() as f64 / elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.95),
        errors
    );
}

//! The access log: one line per request at `journal_market::http` INFO, with the status and
//! the time, built only when that level is enabled (the line costs an allocation).

use std::time::Instant;

use actix_web::http::StatusCode;

const TARGET: &str = "journal_market::http";

/// A request's line, started when it arrives; `None` when the access log is off.
pub struct Line {
    text: String,
    started: Instant,
}

impl Line {
    pub fn start(method: &str, path: &str) -> Option<Line> {
        tracing::enabled!(target: TARGET, tracing::Level::INFO).then(|| Line {
            text: format!("{method} {path}"),
            started: Instant::now(),
        })
    }

    /// Written inside the request's span, so the line carries its id.
    pub fn finish(self, status: StatusCode) {
        tracing::info!(
            target: TARGET,
            "{} {} {:.2}ms",
            self.text,
            status.as_u16(),
            self.started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

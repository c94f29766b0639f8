//! Prometheus (OpenMetrics text) metrics, served at `/metrics` on a listener of their own
//! (`metrics.listen`), never on the public port. `docs/metrics.md` lists every metric and who
//! owns it.
//!
//! One registry for the instance, here with the HTTP families (counted as requests are
//! answered, `crate::middleware::metrics`) and the rate-limit store's counters. Every other
//! component registers its own metrics into it where the application builds it
//! (`crate::app`, `crate::state`): counters it bumps as things happen (one atomic add), and
//! collectors that read what is only known at the scrape (health, pool use, cache sizes).

use std::time::Duration;

use actix_web::http::Method;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::{encode_eof, encode_registry};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The content type of the exposition (OpenMetrics text, which Prometheus reads).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The `route` label of a request no route matched.
pub const UNMATCHED: &str = "unmatched";

/// Latency buckets in seconds: cached reads answer in well under a millisecond, payments wait
/// for receipts for seconds.
const LATENCY_BUCKETS: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
    method: &'static str,
}

fn latency_histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

/// The shared rate-limit store's failures, and the requests this instance's own limiter decided
/// because of them (the rate limiter keeps a clone and counts as they happen).
#[derive(Debug, Clone, Default)]
pub struct LimitStoreCounters {
    pub errors: Counter,
    pub fallbacks: Counter,
}

/// The registry, and the families counted by the HTTP middleware and the rate limiter.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Family<RouteLabels, Histogram, fn() -> Histogram>,
    pub limit_store: LimitStoreCounters,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let requests = Family::<RequestLabels, Counter>::default();
        let durations = Family::<RouteLabels, Histogram, fn() -> Histogram>::new_with_constructor(
            latency_histogram,
        );
        registry.register(
            "http_requests",
            "HTTP requests answered, by matched route pattern, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (until the response head is ready), by route and method",
            durations.clone(),
        );
        let limit_store = LimitStoreCounters::default();
        registry.register(
            "jm_rate_limit_store_errors",
            "Rate-limit store calls that failed or timed out (limits.store)",
            limit_store.errors.clone(),
        );
        registry.register(
            "jm_rate_limit_fallbacks",
            "Requests whose quota this instance checked alone because the rate-limit store did not answer",
            limit_store.fallbacks.clone(),
        );
        Metrics {
            registry,
            requests,
            durations,
            limit_store,
        }
    }

    /// Where the application's components register their metrics while it is built.
    pub fn registry(&mut self) -> &mut Registry {
        &mut self.registry
    }

    /// Records one answered request. `route` is the matched route pattern (never the raw path:
    /// labels must stay bounded); `None` for a request no route matched.
    pub fn observe_http(
        &self,
        route: Option<String>,
        method: &Method,
        status: u16,
        elapsed: Duration,
    ) {
        let route = route.unwrap_or_else(|| UNMATCHED.to_string());
        let method = method_label(method);
        self.durations
            .get_or_create(&RouteLabels {
                route: route.clone(),
                method,
            })
            .observe(elapsed.as_secs_f64());
        self.requests
            .get_or_create(&RequestLabels {
                route,
                method,
                status,
            })
            .inc();
    }

    /// The whole exposition, then `# EOF`.
    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::with_capacity(8 * 1024);
        encode_registry(&mut out, &self.registry)?;
        encode_eof(&mut out)?;
        Ok(out)
    }
}

/// The method as a label: the standard ones by name, anything else `other` (a client may send
/// any token as a method, and labels must stay bounded).
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_pattern_method_and_status() {
        let m = Metrics::new();
        let get = Method::GET;
        m.observe_http(
            Some("/api/journals/{key}".into()),
            &get,
            200,
            Duration::from_micros(300),
        );
        m.observe_http(
            Some("/api/journals/{key}".into()),
            &get,
            200,
            Duration::from_millis(30),
        );
        m.observe_http(None, &get, 404, Duration::from_micros(50));
        let odd = Method::from_bytes(b"BREW").unwrap();
        m.observe_http(None, &odd, 404, Duration::from_micros(50));
        let text = m.render().unwrap();
        assert!(text.contains(
            "http_requests_total{route=\"/api/journals/{key}\",method=\"GET\",status=\"200\"} 2\n"
        ));
        assert!(text.contains(
            "http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1\n"
        ));
        assert!(text.contains(
            "http_requests_total{route=\"unmatched\",method=\"other\",status=\"404\"} 1\n"
        ));
        assert!(text.contains(
            "http_request_duration_seconds_bucket{le=\"0.0005\",route=\"/api/journals/{key}\",method=\"GET\"} 1\n"
        ), "{text}");
        assert!(text.contains(
            "http_request_duration_seconds_count{route=\"/api/journals/{key}\",method=\"GET\"} 2\n"
        ));
        assert!(text.ends_with("# EOF\n"));
        assert_eq!(text.matches("# EOF").count(), 1);
    }
}

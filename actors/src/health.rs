//! What every actor and background worker reports: heartbeat, in-flight work, restarts and the
//! last error. Operators read it at `GET /api/health/actors`.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use dashmap::DashMap;
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ComponentHealth {
    pub name: String,
    pub healthy: bool,
    pub heartbeat: Option<DateTime<Utc>>,
    pub in_flight: u64,
    pub restarts: u64,
    pub last_error: Option<String>,
    /// The indexer's progress (other components: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

/// Where a chain indexer stands.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Progress {
    /// Whether this instance holds the indexing lock (one indexer per deployment).
    pub leader: bool,
    pub head: Option<u64>,
    pub cursor: Option<u64>,
    pub lag: Option<u64>,
    /// Blocks asked for per `eth_getLogs` now.
    pub range: u64,
    pub reorgs: u64,
}

#[derive(Clone, Default)]
pub struct HealthRegistry {
    components: Arc<DashMap<String, ComponentHealth>>,
}

impl HealthRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    fn update(&self, name: &str, f: impl FnOnce(&mut ComponentHealth)) {
        let mut entry =
            self.components
                .entry(name.to_string())
                .or_insert_with(|| ComponentHealth {
                    name: name.to_string(),
                    healthy: true,
                    heartbeat: None,
                    in_flight: 0,
                    restarts: 0,
                    last_error: None,
                    progress: None,
                });
        f(entry.value_mut());
    }

    pub fn heartbeat(&self, name: &str) {
        self.update(name, |c| {
            c.heartbeat = Some(Utc::now());
            c.healthy = true;
        });
    }

    pub fn set_in_flight(&self, name: &str, n: u64) {
        self.update(name, |c| c.in_flight = n);
    }

    pub fn error(&self, name: &str, error: impl Into<String>) {
        let error = error.into();
        self.update(name, |c| {
            c.healthy = false;
            c.last_error = Some(error);
        });
    }

    pub fn progress(&self, name: &str, p: Progress) {
        self.update(name, |c| c.progress = Some(p));
    }

    pub fn restarted(&self, name: &str) {
        self.update(name, |c| c.restarts += 1);
    }

    /// Every component, sorted by name.
    pub fn snapshot(&self) -> Vec<ComponentHealth> {
        let mut all: Vec<ComponentHealth> =
            self.components.iter().map(|e| e.value().clone()).collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    pub fn all_healthy(&self) -> bool {
        self.components.iter().all(|c| c.healthy)
    }
}

/// An actor handle's limit on work in progress: past it callers are told "busy" (503) instead
/// of queueing in an unbounded mailbox. The count is reported to the health registry.
#[derive(Clone)]
pub struct InFlight {
    name: &'static str,
    max: usize,
    permits: Arc<Semaphore>,
    health: HealthRegistry,
}

/// Held while one call is in progress.
pub struct InFlightGuard {
    limit: InFlight,
    _permit: OwnedSemaphorePermit,
}

impl InFlight {
    pub fn new(name: &'static str, max: usize, health: HealthRegistry) -> Self {
        let max = max.max(1);
        InFlight {
            name,
            max,
            permits: Arc::new(Semaphore::new(max)),
            health,
        }
    }

    /// A place for one more call, or `None` when the limit is reached.
    pub fn try_enter(&self) -> Option<InFlightGuard> {
        let permit = self.permits.clone().try_acquire_owned().ok()?;
        self.report();
        Some(InFlightGuard {
            limit: self.clone(),
            _permit: permit,
        })
    }

    fn report(&self) {
        let used = self.max - self.permits.available_permits();
        self.health.set_in_flight(self.name, used as u64);
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        // The permit is released after this body runs: count it as gone already.
        let used = self.limit.max - self.limit.permits.available_permits() - 1;
        self.limit
            .health
            .set_in_flight(self.limit.name, used as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_errors_and_recovery() {
        let h = HealthRegistry::new();
        h.heartbeat("indexer");
        assert!(h.all_healthy());
        h.error("indexer", "rpc down");
        h.restarted("indexer");
        let s = h.snapshot();
        assert_eq!(s[0].restarts, 1);
        assert_eq!(s[0].last_error.as_deref(), Some("rpc down"));
        assert!(!h.all_healthy());
        h.heartbeat("indexer");
        assert!(h.all_healthy());
    }

    #[test]
    fn in_flight_is_bounded_and_reported() {
        let h = HealthRegistry::new();
        let limit = InFlight::new("settlement", 2, h.clone());
        let a = limit.try_enter().unwrap();
        let b = limit.try_enter().unwrap();
        assert!(limit.try_enter().is_none());
        assert_eq!(h.snapshot()[0].in_flight, 2);
        drop(a);
        assert_eq!(h.snapshot()[0].in_flight, 1);
        drop(b);
        assert_eq!(h.snapshot()[0].in_flight, 0);
    }
}

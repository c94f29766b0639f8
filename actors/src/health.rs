//! What every actor and background worker reports: heartbeat, in-flight work, restarts and the
//! last error. Operators read it at `GET /api/health/actors`.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use dashmap::DashMap;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ComponentHealth {
    pub name: String,
    pub healthy: bool,
    pub heartbeat: Option<DateTime<Utc>>,
    pub in_flight: u64,
    pub restarts: u64,
    pub last_error: Option<String>,
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
}

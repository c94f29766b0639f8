//! What every actor and background worker reports: heartbeat, in-flight work, restarts, panics
//! and the last error. Operators read it at `GET /api/health/actors`; `GET /api/health/ready`
//! asks [`HealthRegistry::unready`].
//!
//! Three words, each with one meaning:
//! - **alive**: the component's last turn of work did not panic. A panic makes it dead until a
//!   turn (a heartbeat or a reported error) completes after the restart.
//! - **stale**: a registered component has shown no sign of life (a completed turn, successful
//!   or not) for longer than its staleness limit: its loop stopped or hangs.
//! - **healthy**: alive, not stale, and its last turn succeeded. A failing turn (the chain is
//!   down, a query failed) is unhealthy but not unready: the instance still serves.

mod metrics;

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use dashmap::DashMap;
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::clock::{SharedClock, SystemClock};

/// The longest an error text reported by `/health/actors` may be.
const MAX_ERROR_CHARS: usize = 300;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ComponentHealth {
    pub name: String,
    /// Alive, not stale, and its last turn succeeded.
    pub healthy: bool,
    /// The last sign of life: a completed turn of work, successful or not.
    pub heartbeat: Option<DateTime<Utc>>,
    /// Milliseconds since the heartbeat (since registration when none came yet).
    pub heartbeat_age_ms: Option<u64>,
    /// The staleness limit; `None`: the component is not watched for staleness.
    pub stale_after_ms: Option<u64>,
    pub stale: bool,
    /// False from a panic until a turn completes after the restart.
    pub alive: bool,
    pub in_flight: u64,
    pub restarts: u64,
    /// Panics caught in the component's work (each stops it; its supervisor restarts it).
    pub panics: u64,
    /// The last error or panic, without addresses of upstreams (they may carry keys).
    pub last_error: Option<String>,
    /// The indexer's progress (other components: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

impl ComponentHealth {
    /// What readiness requires of a component: alive and not stale.
    pub fn live(&self) -> bool {
        self.alive && !self.stale
    }
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

/// What the registry keeps per component; the snapshot derives the rest at read time.
#[derive(Debug, Clone)]
struct Entry {
    heartbeat: Option<DateTime<Utc>>,
    registered_at: DateTime<Utc>,
    stale_after: Option<Duration>,
    /// The last turn failed.
    failing: bool,
    /// Panicked, and no turn completed since.
    down: bool,
    /// Panics since the last completed turn (the restart backoff grows with them).
    consecutive_panics: u32,
    in_flight: u64,
    restarts: u64,
    panics: u64,
    last_error: Option<String>,
    progress: Option<Progress>,
}

/// Age of the last sign of life and whether it is past the limit. Before the first heartbeat
/// the age counts from registration, so a component that never beats turns stale too.
pub fn staleness(
    heartbeat: Option<DateTime<Utc>>,
    registered_at: DateTime<Utc>,
    limit: Option<Duration>,
    now: DateTime<Utc>,
) -> (u64, bool) {
    let since = heartbeat.unwrap_or(registered_at);
    let age = u64::try_from((now - since).num_milliseconds()).unwrap_or(0);
    let stale = limit.is_some_and(|l| u128::from(age) > l.as_millis());
    (age, stale)
}

/// An error text fit to show: every `scheme://…` address reduced to its scheme (RPC and
/// database URLs may carry keys and passwords), and at most [`MAX_ERROR_CHARS`] characters.
pub fn scrub(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ERROR_CHARS));
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match word.find("://") {
            Some(at) => {
                out.push_str(&word[..at]);
                out.push_str("://[redacted]");
            }
            None => out.push_str(word),
        }
    }
    if out.chars().count() > MAX_ERROR_CHARS {
        out = out.chars().take(MAX_ERROR_CHARS).collect();
        out.push('…');
    }
    out
}

#[derive(Clone)]
pub struct HealthRegistry {
    components: Arc<DashMap<String, Entry>>,
    clock: SharedClock,
}

impl Default for HealthRegistry {
    fn default() -> Self {
        Self::with_clock(Arc::new(SystemClock))
    }
}

impl HealthRegistry {
    /// A registry on the system clock (not the service's movable clock: tests that move time
    /// must not make every component look stale).
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_clock(clock: SharedClock) -> Self {
        HealthRegistry {
            components: Arc::new(DashMap::new()),
            clock,
        }
    }

    fn update(&self, name: &str, f: impl FnOnce(&mut Entry)) {
        let mut entry = self
            .components
            .entry(name.to_string())
            .or_insert_with(|| Entry {
                heartbeat: None,
                registered_at: self.clock.now(),
                stale_after: None,
                failing: false,
                down: false,
                consecutive_panics: 0,
                in_flight: 0,
                restarts: 0,
                panics: 0,
                last_error: None,
                progress: None,
            });
        f(entry.value_mut());
    }

    /// Watches a component for staleness: no sign of life for longer than `stale_after` makes
    /// it stale (and the instance not ready). The limit counts from now until the first beat.
    pub fn register(&self, name: &str, stale_after: Duration) {
        let now = self.clock.now();
        self.update(name, |c| {
            c.stale_after = Some(stale_after);
            c.registered_at = now;
        });
    }

    /// A turn of work completed and succeeded.
    pub fn heartbeat(&self, name: &str) {
        self.lives(name, |c| c.failing = false);
    }

    /// The component runs (a timer of its own fired) without saying how its work goes: the
    /// heartbeat moves, the last outcome stays.
    pub fn alive(&self, name: &str) {
        self.lives(name, |_| {});
    }

    /// A turn of work completed and failed: the component lives, its work does not succeed.
    pub fn error(&self, name: &str, error: impl Into<String>) {
        let error = scrub(&error.into());
        self.lives(name, |c| {
            c.failing = true;
            c.last_error = Some(error);
        });
    }

    /// The component ran a turn: its heartbeat moves, it is not down and its panics in a row
    /// end; `outcome` records how the turn went.
    fn lives(&self, name: &str, outcome: impl FnOnce(&mut Entry)) {
        let now = self.clock.now();
        self.update(name, |c| {
            c.heartbeat = Some(now);
            c.down = false;
            c.consecutive_panics = 0;
            outcome(c);
        });
    }

    /// A panic was caught in the component's work; it is stopped and dead until a turn
    /// completes after its restart.
    pub fn panicked(&self, name: &str, message: &str) {
        let error = format!("panicked: {}", scrub(message));
        self.update(name, |c| {
            c.panics += 1;
            c.consecutive_panics = c.consecutive_panics.saturating_add(1);
            c.down = true;
            c.failing = true;
            c.last_error = Some(error);
        });
    }

    pub fn set_in_flight(&self, name: &str, n: u64) {
        self.update(name, |c| c.in_flight = n);
    }

    pub fn progress(&self, name: &str, p: Progress) {
        self.update(name, |c| c.progress = Some(p));
    }

    pub fn restarted(&self, name: &str) {
        self.update(name, |c| c.restarts += 1);
    }

    /// How long a restarted component waits before its first turn: nothing after a clean
    /// start, then 100 ms doubling per panic since its last completed turn, at most 30 s, so a
    /// panic that repeats does not spin.
    pub fn restart_delay(&self, name: &str) -> Duration {
        let n = self
            .components
            .get(name)
            .map(|c| c.consecutive_panics)
            .unwrap_or(0);
        match n {
            0 => Duration::ZERO,
            n => Duration::from_millis(100u64.saturating_mul(1 << (n - 1).min(9)))
                .min(Duration::from_secs(30)),
        }
    }

    fn view(&self, name: &str, e: &Entry, now: DateTime<Utc>) -> ComponentHealth {
        let (age, stale) = staleness(e.heartbeat, e.registered_at, e.stale_after, now);
        ComponentHealth {
            name: name.to_string(),
            healthy: !e.down && !stale && !e.failing,
            heartbeat: e.heartbeat,
            heartbeat_age_ms: (e.heartbeat.is_some() || e.stale_after.is_some()).then_some(age),
            stale_after_ms: e.stale_after.map(|d| d.as_millis() as u64),
            stale,
            alive: !e.down,
            in_flight: e.in_flight,
            restarts: e.restarts,
            panics: e.panics,
            last_error: e.last_error.clone(),
            progress: e.progress.clone(),
        }
    }

    /// Every component, sorted by name.
    pub fn snapshot(&self) -> Vec<ComponentHealth> {
        let now = self.clock.now();
        let mut all: Vec<ComponentHealth> = self
            .components
            .iter()
            .map(|e| self.view(e.key(), e.value(), now))
            .collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    /// Registers `jm_actor_*` and `jm_indexer_*`, read from this registry at each scrape.
    pub fn register_metrics(&self, registry: &mut prometheus_client::registry::Registry) {
        registry.register_collector(Box::new(metrics::HealthMetrics(self.clone())));
    }

    pub fn all_healthy(&self) -> bool {
        self.snapshot().iter().all(|c| c.healthy)
    }

    /// Why each component that is dead or stale is not live, sorted by name; empty when the
    /// instance's actors are all running.
    pub fn unready(&self) -> Vec<String> {
        self.snapshot()
            .into_iter()
            .filter(|c| !c.live())
            .map(|c| {
                if !c.alive {
                    let why = c.last_error.unwrap_or_else(|| "stopped".into());
                    format!("{} is dead ({why})", c.name)
                } else {
                    format!(
                        "{} is stale (no heartbeat for {} ms, limit {} ms)",
                        c.name,
                        c.heartbeat_age_ms.unwrap_or(0),
                        c.stale_after_ms.unwrap_or(0)
                    )
                }
            })
            .collect()
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

#[cfg(test)]
mod staleness_tests {
    use super::*;
    use crate::clock::OffsetClock;

    #[test]
    fn heartbeats_age_and_turn_stale_past_the_limit() {
        let clock = Arc::new(OffsetClock::default());
        let h = HealthRegistry::with_clock(clock.clone());
        h.register("chain_watch", Duration::from_secs(15));
        // Never beat: the age counts from registration.
        let c = &h.snapshot()[0];
        assert!(c.live() && c.healthy, "{c:?}");
        clock.advance(chrono::Duration::seconds(16));
        let c = &h.snapshot()[0];
        assert!(c.stale && !c.healthy && !c.live(), "{c:?}");
        assert!(c.heartbeat_age_ms.unwrap() >= 16_000);
        assert_eq!(c.stale_after_ms, Some(15_000));
        assert_eq!(h.unready().len(), 1);
        assert!(
            h.unready()[0].contains("chain_watch is stale"),
            "{:?}",
            h.unready()
        );

        h.heartbeat("chain_watch");
        let c = &h.snapshot()[0];
        assert!(
            !c.stale && c.healthy && c.heartbeat_age_ms.unwrap() < 1_000,
            "{c:?}"
        );
        clock.advance(chrono::Duration::seconds(10));
        assert!(!h.snapshot()[0].stale);
        // A failed turn is a sign of life: unhealthy, yet live.
        clock.advance(chrono::Duration::seconds(10));
        h.error("chain_watch", "the RPC does not answer");
        let c = &h.snapshot()[0];
        assert!(c.live() && !c.healthy, "{c:?}");
        assert!(h.unready().is_empty());
        clock.advance(chrono::Duration::seconds(16));
        assert!(h.snapshot()[0].stale);
    }

    #[test]
    fn the_pure_computation() {
        let t0 = Utc::now();
        let limit = Some(Duration::from_millis(3_000));
        let later = |ms| t0 + chrono::Duration::milliseconds(ms);
        assert_eq!(staleness(Some(t0), t0, limit, later(3_000)), (3_000, false));
        assert_eq!(staleness(Some(t0), t0, limit, later(3_001)), (3_001, true));
        assert_eq!(staleness(None, t0, limit, later(5_000)), (5_000, true));
        assert!(!staleness(Some(t0), t0, None, later(9_999_999)).1);
        // A clock that went back is not an age.
        assert_eq!(staleness(Some(later(10)), t0, limit, t0), (0, false));
    }

    #[test]
    fn a_panic_kills_until_the_next_turn_and_backs_off() {
        let h = HealthRegistry::new();
        h.register("indexer", Duration::from_secs(60));
        h.heartbeat("indexer");
        assert_eq!(h.restart_delay("indexer"), Duration::ZERO);
        h.panicked("indexer", "boom at https://key@rpc.example/v3/secret");
        h.restarted("indexer");
        let c = &h.snapshot()[0];
        assert!(!c.alive && !c.healthy && !c.live());
        assert_eq!((c.panics, c.restarts), (1, 1));
        let err = c.last_error.as_deref().unwrap();
        assert_eq!(err, "panicked: boom at https://[redacted]");
        assert!(h.unready()[0].starts_with("indexer is dead (panicked: boom"));
        assert_eq!(h.restart_delay("indexer"), Duration::from_millis(100));
        h.panicked("indexer", "again");
        assert_eq!(h.restart_delay("indexer"), Duration::from_millis(200));
        for _ in 0..20 {
            h.panicked("indexer", "again");
        }
        assert_eq!(h.restart_delay("indexer"), Duration::from_secs(30));
        h.alive("indexer");
        let c = &h.snapshot()[0];
        assert!(
            c.alive && c.live() && !c.healthy,
            "alive, the last outcome stays: {c:?}"
        );
        assert_eq!(h.restart_delay("indexer"), Duration::ZERO);
        h.heartbeat("indexer");
        assert!(h.snapshot()[0].healthy);
    }

    #[test]
    fn errors_are_scrubbed_and_bounded() {
        assert_eq!(
            scrub("connect postgres://u:pw@db/x failed"),
            "connect postgres://[redacted] failed"
        );
        let long = "x".repeat(1_000);
        assert_eq!(scrub(&long).chars().count(), MAX_ERROR_CHARS + 1);
    }
}

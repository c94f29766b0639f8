//! The shared rate-limit store (`limits.store`): one quota per client and class for every
//! instance that names the same Redis and key prefix.
//!
//! A check is one script call (EVALSHA) on a multiplexed connection: the same GCRA as the
//! in-memory limiter (governor's: a request passes unless the theoretical arrival time is more
//! than the burst tolerance ahead of now), so a quota means the same in memory and shared. The
//! script reads Redis's own clock, so the instances' clocks need not agree, and each key expires
//! when its client's quota is full again (a fresh key is the same state).
//!
//! When the store cannot answer within `limits.store_timeout_ms` the caller decides with the
//! instance's own limiter, and the store is skipped for [`SKIP_AFTER_FAILURE`] so an outage costs
//! the requests one time limit per second at most, not one each. A call that finds the connection
//! dead is made once more on the reconnection, so the first request after an outage is shared.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redis::Script;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::metrics::LimitStoreCounters;

/// GCRA over one key. KEYS[1]: the client's key in its class; ARGV[1]: the emission interval
/// and ARGV[2]: the burst tolerance, in microseconds. Records the request and returns 0 when it
/// passes; else returns the microseconds until it would (and records nothing).
const GCRA: &str = r"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
local earliest = tat - tonumber(ARGV[2])
if now < earliest then
  return earliest - now
end
local nxt = math.max(tat, now) + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%d', nxt), 'PX', math.ceil((nxt - now) / 1000))
return 0
";

/// How long the store is left alone after it failed to answer.
pub const SKIP_AFTER_FAILURE: Duration = Duration::from_secs(1);

/// A class's quota as the script reads it: the emission interval and the burst tolerance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gcra {
    pub interval_us: u64,
    pub tolerance_us: u64,
}

impl Gcra {
    /// As governor reads `Quota::per_minute(per_minute).allow_burst(burst)` (0 read as 1).
    pub fn new(per_minute: u32, burst: u32) -> Gcra {
        let interval_us = 60_000_000 / u64::from(per_minute.max(1));
        Gcra {
            interval_us,
            tolerance_us: interval_us * u64::from(burst.max(1) - 1),
        }
    }
}

pub struct Store {
    conn: ConnectionManager,
    script: Script,
    prefix: String,
    timeout: Duration,
    epoch: Instant,
    /// Milliseconds after `epoch` before which the store is not asked (after a failure).
    skip_until_ms: AtomicU64,
    /// Whether the last answer was a failure: the log says so once per outage, not per request.
    down: AtomicBool,
    counters: LimitStoreCounters,
}

impl Store {
    /// The store at `url`, connected on first use (a store down at start delays nothing: the
    /// instance limits alone until it answers). Needs a Tokio runtime.
    pub fn new(
        url: &str,
        prefix: &str,
        timeout: Duration,
        counters: LimitStoreCounters,
    ) -> anyhow::Result<Store> {
        // The URL may carry a password: the message is the error's, never the URL.
        let client = redis::Client::open(url)
            .map_err(|e| anyhow::anyhow!("limits.store is not a usable Redis URL: {e}"))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout.max(Duration::from_secs(1))))
            .set_response_timeout(Some(timeout))
            // One attempt per reconnection: requests never wait on a retry loop, they skip the
            // store for a second instead.
            .set_number_of_retries(0);
        let conn = ConnectionManager::new_lazy_with_config(client, config)
            .map_err(|e| anyhow::anyhow!("limits.store: {e}"))?;
        Ok(Store {
            conn,
            script: Script::new(GCRA),
            prefix: prefix.to_string(),
            timeout,
            epoch: Instant::now(),
            skip_until_ms: AtomicU64::new(0),
            down: AtomicBool::new(false),
            counters,
        })
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Counts one request of `ip` in `class`: `Some(Ok)` when it passes, `Some(Err(wait))` when
    /// the shared quota is used up, `None` when the store did not answer (the caller decides).
    pub async fn check(
        &self,
        class: &str,
        ip: IpAddr,
        quota: Gcra,
    ) -> Option<Result<(), Duration>> {
        if self.now_ms() < self.skip_until_ms.load(Ordering::Relaxed) {
            return None;
        }
        let mut conn = self.conn.clone();
        let mut call = self.script.key(format!("{}:{class}:{ip}", self.prefix));
        call.arg(quota.interval_us).arg(quota.tolerance_us);
        let answer = async {
            match call.invoke_async::<i64>(&mut conn).await {
                // A connection that died (Redis restarted, an outage just over) fails the call
                // that finds out and starts a reconnection: wait for that one, within the limit.
                Err(e) if e.is_unrecoverable_error() || e.is_io_error() => {
                    call.invoke_async::<i64>(&mut conn).await
                }
                answer => answer,
            }
        };
        match tokio::time::timeout(self.timeout, answer).await {
            Ok(Ok(wait_us)) => {
                if self.down.swap(false, Ordering::Relaxed) {
                    tracing::info!("the rate-limit store answers again: quotas are shared");
                }
                Some(match u64::try_from(wait_us) {
                    Ok(0) | Err(_) => Ok(()),
                    Ok(us) => Err(Duration::from_micros(us)),
                })
            }
            Ok(Err(e)) => {
                self.failed(&e.to_string());
                None
            }
            Err(_) => {
                self.failed("no answer within limits.store_timeout_ms");
                None
            }
        }
    }

    fn failed(&self, why: &str) {
        self.counters.errors.inc();
        let until = self
            .now_ms()
            .saturating_add(u64::try_from(SKIP_AFTER_FAILURE.as_millis()).unwrap_or(u64::MAX));
        self.skip_until_ms.fetch_max(until, Ordering::Relaxed);
        if !self.down.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                error = why,
                "the rate-limit store does not answer: this instance applies the quotas alone \
                 until it does"
            );
        }
    }

    /// Asks the store once, so the log tells at start whether the quotas are shared.
    pub async fn probe(&self) {
        let mut conn = self.conn.clone();
        let cmd = redis::cmd("PING");
        let ping = cmd.query_async::<String>(&mut conn);
        match tokio::time::timeout(self.timeout.max(Duration::from_secs(1)), ping).await {
            Ok(Ok(_)) => tracing::info!("rate limits are shared through the store"),
            Ok(Err(e)) => self.failed(&e.to_string()),
            Err(_) => self.failed("no answer at start"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_read_as_governor_reads_them() {
        assert_eq!(
            Gcra::new(60, 20),
            Gcra {
                interval_us: 1_000_000,
                tolerance_us: 19_000_000
            }
        );
        assert_eq!(Gcra::new(0, 0), Gcra::new(1, 1), "0 is read as 1");
        assert_eq!(Gcra::new(1, 1).tolerance_us, 0);
    }

    fn redis_url() -> String {
        std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
    }

    fn prefix(test: &str) -> String {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        format!("jm-test:{test}:{}:{nanos}", std::process::id())
    }

    #[tokio::test]
    async fn the_script_admits_the_burst_then_refuses_with_the_wait_and_keys_expire() {
        let p = prefix("gcra");
        let store = Store::new(
            &redis_url(),
            &p,
            Duration::from_secs(2),
            LimitStoreCounters::default(),
        )
        .unwrap();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let q = Gcra::new(60, 3);
        for _ in 0..3 {
            assert_eq!(store.check("reads", ip, q).await, Some(Ok(())));
        }
        let Some(Err(wait)) = store.check("reads", ip, q).await else {
            panic!("the fourth request passed");
        };
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        // Another class and another client have their own quota.
        assert_eq!(store.check("rpc", ip, q).await, Some(Ok(())));
        let other: IpAddr = "2001:db8::1".parse().unwrap();
        assert_eq!(store.check("reads", other, q).await, Some(Ok(())));
        // The key lives until the quota is full again (3 s at one a second), no longer.
        let mut conn = store.conn.clone();
        let ttl: i64 = redis::cmd("PTTL")
            .arg(format!("{p}:reads:{ip}"))
            .query_async(&mut conn)
            .await
            .unwrap();
        assert!((2_000..=3_000).contains(&ttl), "{ttl}");
    }

    #[tokio::test]
    async fn a_store_that_hangs_costs_a_request_the_time_limit_only() {
        // Accepts connections and never answers.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((sock, _)) = listener.accept().await {
                held.push(sock);
            }
        });
        let counters = LimitStoreCounters::default();
        let store = Store::new(
            &format!("redis://127.0.0.1:{port}"),
            &prefix("hang"),
            Duration::from_millis(100),
            counters.clone(),
        )
        .unwrap();
        let started = Instant::now();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(store.check("reads", ip, Gcra::new(60, 3)).await, None);
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(100) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert_eq!(counters.errors.get(), 1);
    }

    #[tokio::test]
    async fn a_store_that_cannot_be_reached_is_skipped_for_a_while() {
        let counters = LimitStoreCounters::default();
        // Nothing listens on port 1.
        let store = Store::new(
            "redis://127.0.0.1:1",
            &prefix("down"),
            Duration::from_millis(200),
            counters.clone(),
        )
        .unwrap();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(store.check("reads", ip, Gcra::new(60, 3)).await, None);
        assert_eq!(counters.errors.get(), 1);
        // Skipped without asking: no second error.
        assert_eq!(store.check("reads", ip, Gcra::new(60, 3)).await, None);
        assert_eq!(counters.errors.get(), 1);
    }
}

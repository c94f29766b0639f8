//! Short-lived caches for hot public reads. Writes made by this instance call
//! [`TtlCache::invalidate`]; the time-to-live bounds how stale another instance's writes look.

use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use alloy::primitives::Address;
use dashmap::DashMap;
use journal_market_actors::metrics::{describe, family, gauge};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

use crate::purchase::offer::Template;
use crate::queries::journals::{LiveJournal, Tallies};
use crate::queries::token::PoolSettings;

/// Hits and misses of one cache: its counters in [`CacheRequests`] (one atomic add a lookup),
/// or counted nowhere for a cache that is not exposed.
#[derive(Debug, Clone, Default)]
pub struct CacheStats {
    hits: Counter,
    misses: Counter,
}

impl CacheStats {
    /// An answer served from memory.
    pub fn hit(&self) {
        self.hits.inc();
    }

    /// An answer that had to be computed (or fetched).
    pub fn miss(&self) {
        self.misses.inc();
    }

    /// Counts a lookup by its result and passes the result on.
    pub fn lookup<T>(&self, found: Option<T>) -> Option<T> {
        if found.is_some() {
            self.hit();
        } else {
            self.miss();
        }
        found
    }

    /// (hits, misses) so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.hits.get(), self.misses.get())
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Lookup {
    cache: &'static str,
    result: &'static str,
}

/// `jm_cache_requests`: one family for the public-read caches and the RPC proxy's; each cache
/// takes its counters by name when it is built.
#[derive(Debug, Clone, Default)]
pub struct CacheRequests(Family<Lookup, Counter>);

impl CacheRequests {
    /// The counters of the cache called `cache` (both made now, so zeros are exposed).
    pub fn stats(&self, cache: &'static str) -> CacheStats {
        let of = |result| self.0.get_or_create(&Lookup { cache, result }).clone();
        CacheStats {
            hits: of("hit"),
            misses: of("miss"),
        }
    }

    pub fn register(&self, registry: &mut Registry) {
        registry.register_collector(Box::new(self.clone()));
    }
}

impl Collector for CacheRequests {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        describe(
            &mut e,
            "jm_cache_requests",
            "Cache lookups by cache and result (hit: answered from memory)",
            &self.0,
        )
    }
}

/// Entries beyond this are dropped wholesale; keys come from client input (tickers, slugs), so
/// the map must not grow without bound.
const MAX_ENTRIES: usize = 10_000;

pub struct TtlCache<K, V> {
    ttl: Duration,
    /// Past this many entries the map is emptied before the next one is kept.
    max_entries: usize,
    generation: AtomicU64,
    map: DashMap<K, (Instant, u64, V)>,
    /// One recomputation per key at a time: when an entry expires under load, one request
    /// recomputes it while the others are served the previous value (or wait for this one)
    /// instead of all hitting the database. Other keys never wait on it. An entry lives only
    /// while its key is being computed.
    flights: DashMap<K, Arc<tokio::sync::Mutex<()>>>,
    stats: CacheStats,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration) -> Self {
        Self::bounded(ttl, MAX_ENTRIES)
    }

    /// A cache that keeps at most `max_entries` (then starts over).
    pub fn bounded(ttl: Duration, max_entries: usize) -> Self {
        TtlCache {
            ttl,
            max_entries: max_entries.max(1),
            generation: AtomicU64::new(0),
            map: DashMap::new(),
            flights: DashMap::new(),
            stats: CacheStats::default(),
        }
    }

    pub fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let generation = self.generation.load(Ordering::Acquire);
        let hit = self.map.get(key)?;
        let (at, entry_gen, value) = hit.value();
        (*entry_gen == generation && at.elapsed() < self.ttl).then(|| value.clone())
    }

    /// Stores a value computed under `generation` (read before computing it), so a value computed
    /// from data older than the last invalidation is never kept.
    pub fn put(&self, key: K, generation: u64, value: V) {
        if self.ttl.is_zero() || generation != self.generation.load(Ordering::Acquire) {
            return;
        }
        if self.map.len() >= self.max_entries {
            self.map.clear();
        }
        self.map.insert(key, (Instant::now(), generation, value));
    }

    /// Counts this cache's lookups with `stats` (from [`CacheRequests::stats`]).
    pub fn counted(mut self, stats: CacheStats) -> Self {
        self.stats = stats;
        self
    }

    /// Answers [`TtlCache::get_or_try`] served from memory (hits) and computed (misses).
    pub fn stats(&self) -> &CacheStats {
        &self.stats
    }

    /// Entries held now (some may have expired).
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    pub fn invalidate(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.map.clear();
    }

    /// An expired value of the current generation (never one from before an invalidation).
    fn stale<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let generation = self.generation.load(Ordering::Acquire);
        let hit = self.map.get(key)?;
        (hit.value().1 == generation).then(|| hit.value().2.clone())
    }

    /// Returns the cached value or computes, stores and returns it. While another request
    /// recomputes, an expired value is served rather than computed again. The key is borrowed:
    /// a hit (the hot case) allocates nothing.
    pub async fn get_or_try<Q, E, F, Fut>(&self, key: &Q, compute: F) -> Result<V, E>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<V, E>>,
    {
        if let Some(v) = self.get(key) {
            self.stats.hit();
            return Ok(v);
        }
        if self.ttl.is_zero() {
            self.stats.miss();
            return compute().await;
        }
        let key = key.to_owned();
        let flight = self.flights.entry(key.clone()).or_default().clone();
        let outcome = async {
            let _guard = match flight.try_lock() {
                Ok(g) => g,
                Err(_) => {
                    if let Some(v) = self.stale::<K>(&key) {
                        self.stats.hit();
                        return Ok(v);
                    }
                    flight.lock().await
                }
            };
            if let Some(v) = self.get::<K>(&key) {
                self.stats.hit();
                return Ok(v);
            }
            self.stats.miss();
            let generation = self.generation();
            let v = compute().await?;
            self.put(key.clone(), generation, v.clone());
            Ok(v)
        }
        .await;
        // The last one out removes the key's entry (the map's reference and ours remain).
        self.flights
            .remove_if::<K>(&key, |_, f| Arc::strong_count(f) <= 2);
        outcome
    }
}

/// The most per-payer challenges kept (about 13 KB each: body and header).
pub const PAYER_CHALLENGES: usize = 256;

/// A challenge's journal, step, route kind, recipient and resource.
pub type ChallengeKey = (i32, &'static str, &'static str, Address, String);

/// The caches of public answers. Every write that a public read shows empties them (a
/// purchase only those that show reader counts), so the services that write and the ones that
/// read share one.
pub struct PublicCaches {
    /// Serialized answers of hot public lists, keyed by route and query.
    pub lists: TtlCache<String, Bytes>,
    /// Public journal details, keyed by journal id: one copy per journal, however it is asked
    /// for (`docs/decisions.md`, "One address per journal").
    pub journals: TtlCache<i32, Arc<LiveJournal>>,
    /// The id of each live journal's slug (slugs asked for and found only).
    pub slugs: TtlCache<String, i32>,
    /// Serialized 402 challenges (body and PAYMENT-REQUIRED header), keyed by journal, step and
    /// recipient: the hottest answer of the payment endpoints. A template's sign-in-with-x
    /// nonce is filled in per answer.
    pub challenges: TtlCache<ChallengeKey, Arc<Template>>,
    /// The challenges of `/journals/{slug}/text?payer=…`, whose resource names the payer: any
    /// client can ask for a new one with any address, so they are kept apart, at most
    /// [`PAYER_CHALLENGES`] of them.
    pub payer_challenges: TtlCache<ChallengeKey, Arc<Template>>,
    /// The site's public pages, feeds and sitemap as sent, keyed by path (a journal's page
    /// by its id).
    pub pages: TtlCache<String, Bytes>,
    /// Each live journal's readers and votes, which purchases change while the rest of the
    /// journal stays as it was: a purchase empties these (and the lists and pages that show
    /// them), not the journal details and challenges that every payment reads.
    pub tallies: TtlCache<i32, Tallies>,
    /// Wallets known to read a journal's paid text for good: final purchases only, which no
    /// reorg withdraws (a purchase adds readers, so a no is never kept either).
    pub readers: TtlCache<(Address, i32), ()>,
    /// A journal's detail as its readers get it (paid text included), serialized: the same
    /// bytes for every wallet that unlocked it, and they show reader counts.
    pub unlocked: TtlCache<i32, Bytes>,
}

impl PublicCaches {
    /// The caches, their lookups counted in `requests` by name (the pages' are not exposed).
    pub fn new(ttl: Duration, requests: &CacheRequests) -> Self {
        PublicCaches {
            lists: TtlCache::new(ttl).counted(requests.stats("lists")),
            journals: TtlCache::new(ttl).counted(requests.stats("journals")),
            slugs: TtlCache::new(ttl).counted(requests.stats("slugs")),
            challenges: TtlCache::new(ttl).counted(requests.stats("challenges")),
            payer_challenges: TtlCache::bounded(ttl, PAYER_CHALLENGES)
                .counted(requests.stats("payer_challenges")),
            pages: TtlCache::new(ttl),
            tallies: TtlCache::new(ttl).counted(requests.stats("tallies")),
            readers: TtlCache::new(ttl).counted(requests.stats("readers")),
            unlocked: TtlCache::new(ttl).counted(requests.stats("unlocked")),
        }
    }

    /// Registers `jm_cache_entries`, read from the caches at each scrape.
    pub fn register_metrics(self: &Arc<Self>, registry: &mut Registry) {
        registry.register_collector(Box::new(CacheEntries(self.clone())));
    }

    /// Call after any write that public reads show.
    pub fn invalidate(&self) {
        self.lists.invalidate();
        self.journals.invalidate();
        self.slugs.invalidate();
        self.challenges.invalidate();
        self.payer_challenges.invalidate();
        self.pages.invalidate();
        self.tallies.invalidate();
        self.readers.invalidate();
        self.unlocked.invalidate();
    }

    /// The entries each cache holds now, by name (the metrics' `jm_cache_entries`).
    pub fn entries(&self) -> Vec<(&'static str, u64)> {
        [
            ("lists", self.lists.len()),
            ("journals", self.journals.len()),
            ("slugs", self.slugs.len()),
            ("challenges", self.challenges.len()),
            ("payer_challenges", self.payer_challenges.len()),
            ("pages", self.pages.len()),
            ("tallies", self.tallies.len()),
            ("readers", self.readers.len()),
            ("unlocked", self.unlocked.len()),
        ]
        .into_iter()
        .map(|(n, l)| (n, l as u64))
        .collect()
    }

    /// Call after a purchase: it changes reader counts only.
    pub fn paid(&self) {
        self.lists.invalidate();
        self.pages.invalidate();
        self.tallies.invalidate();
        self.unlocked.invalidate();
    }
}

/// The entries each public-read cache holds, read when scraped.
struct CacheEntries(Arc<PublicCaches>);

impl std::fmt::Debug for CacheEntries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CacheEntries")
    }
}

impl Collector for CacheEntries {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        family(
            &mut e,
            "jm_cache_entries",
            "Entries a cache of public reads holds now (bounded per cache)",
            MetricType::Gauge,
            self.0
                .entries()
                .into_iter()
                .map(|(cache, n)| ([("cache", cache)], gauge(n))),
        )
    }
}

/// `GET /token.json`'s last answer (`services::ledger` computes it).
pub struct LedgerCache {
    pub(crate) cached: Mutex<Option<(Instant, Bytes)>>,
    pub(crate) computing: tokio::sync::Mutex<()>,
    pub(crate) pool: tokio::sync::OnceCell<PoolSettings>,
    pub(crate) max_age: Duration,
}

impl LedgerCache {
    pub fn new(max_age: Duration) -> Self {
        LedgerCache {
            cached: Mutex::new(None),
            computing: tokio::sync::Mutex::new(()),
            pool: tokio::sync::OnceCell::new(),
            max_age,
        }
    }

    pub(crate) fn get(&self) -> Option<(Instant, Bytes)> {
        self.cached.lock().ok().and_then(|c| c.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expires_and_invalidates() {
        let c: TtlCache<&str, u32> = TtlCache::new(Duration::from_secs(60));
        c.put("a", c.generation(), 1);
        assert_eq!(c.get(&"a"), Some(1));
        c.invalidate();
        assert_eq!(c.get(&"a"), None);
        let stale_gen = c.generation();
        c.invalidate();
        c.put("a", stale_gen, 2);
        assert_eq!(
            c.get(&"a"),
            None,
            "a value computed before an invalidation is not kept"
        );

        let short: TtlCache<&str, u32> = TtlCache::new(Duration::from_millis(1));
        short.put("a", 0, 1);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(short.get(&"a"), None);
    }

    #[tokio::test]
    async fn one_recomputation_at_a_time() {
        use std::sync::atomic::AtomicUsize;
        let c: Arc<TtlCache<&str, u32>> = Arc::new(TtlCache::new(Duration::from_secs(60)));
        let runs = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                let (c, runs) = (c.clone(), runs.clone());
                tokio::spawn(async move {
                    c.get_or_try(&"k", || async {
                        runs.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        Ok::<_, ()>(7)
                    })
                    .await
                })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), Ok(7));
        }
        assert_eq!(
            runs.load(Ordering::SeqCst),
            1,
            "concurrent misses computed once"
        );
    }

    #[tokio::test]
    async fn other_keys_do_not_wait() {
        let c: Arc<TtlCache<&str, u32>> = Arc::new(TtlCache::new(Duration::from_secs(60)));
        let (release, held) = tokio::sync::oneshot::channel::<()>();
        let slow = {
            let c = c.clone();
            tokio::spawn(async move {
                c.get_or_try(&"slow", || async {
                    held.await.ok();
                    Ok::<_, ()>(1)
                })
                .await
            })
        };
        tokio::task::yield_now().await;
        // "slow" is being computed and will not finish until released: another key's miss
        // is computed meanwhile, without waiting for it.
        assert_eq!(
            c.get_or_try(&"fast", || async { Ok::<_, ()>(2) }).await,
            Ok(2)
        );
        assert!(!slow.is_finished());
        release.send(()).unwrap();
        assert_eq!(slow.await.unwrap(), Ok(1));
        assert!(c.flights.is_empty(), "no entry outlives its computation");
    }

    #[test]
    fn a_bounded_cache_keeps_at_most_its_bound() {
        let c: TtlCache<u32, u32> = TtlCache::bounded(Duration::from_secs(60), 3);
        for k in 0..10 {
            c.put(k, c.generation(), k);
            assert!(c.len() <= 3);
        }
    }

    #[test]
    fn lookups_are_counted_by_cache_and_result() {
        let requests = CacheRequests::default();
        let c: TtlCache<&str, u32> =
            TtlCache::new(Duration::from_secs(60)).counted(requests.stats("lists"));
        let _ = requests.stats("rpc");
        assert_eq!(c.stats().lookup(Some(1)), Some(1));
        assert_eq!(c.stats().lookup::<u8>(None), None);
        c.stats().hit();
        assert_eq!(c.stats().counts(), (2, 1));
        let mut r = Registry::default();
        requests.register(&mut r);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &r).unwrap();
        for line in [
            "# HELP jm_cache_requests Cache lookups by cache and result (hit: answered from memory)",
            "# TYPE jm_cache_requests counter",
            "jm_cache_requests_total{cache=\"lists\",result=\"hit\"} 2",
            "jm_cache_requests_total{cache=\"lists\",result=\"miss\"} 1",
            "jm_cache_requests_total{cache=\"rpc\",result=\"miss\"} 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
        }
    }

    #[test]
    fn zero_ttl_disables() {
        let c: TtlCache<&str, u32> = TtlCache::new(Duration::ZERO);
        c.put("a", 0, 1);
        assert_eq!(c.get(&"a"), None);
    }
}

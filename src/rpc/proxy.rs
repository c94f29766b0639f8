//! Forwarding to the upstream RPCs with failover and time limits, answering `eth_chainId`
//! locally, and caching answers that can no longer change.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use journal_market_actors::chain_watch::ChainWatchHandle;
use journal_market_actors::metrics::{describe, gauge};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::registry::Registry;
use quick_cache::Weighter;
use serde_json::{Value, json};

use super::flights::Flights;
use super::jsonrpc::{self, Call, Reply};
use super::params::Limits;
use super::stats::RpcStats;
use super::upstream::Upstream;
use crate::cache::CacheRequests;

/// A final answer larger than this is served but not kept (one entry must not crowd out
/// thousands).
const MAX_CACHED_ANSWER: u64 = 1 << 20;
/// Bookkeeping per entry beyond its bytes (map slot, `Arc`, `Value` nodes), so that a flood of
/// tiny answers is bounded too.
const ENTRY_OVERHEAD: u64 = 256;

/// A cached result and its size as JSON.
struct Cached {
    result: Value,
    bytes: u64,
}

#[derive(Clone)]
struct BySize;

impl Weighter<String, Arc<Cached>> for BySize {
    fn weight(&self, key: &String, val: &Arc<Cached>) -> u64 {
        key.len() as u64 + val.bytes + ENTRY_OVERHEAD
    }
}

type AnswerCache = quick_cache::sync::Cache<String, Arc<Cached>, BySize>;

/// What the proxy is set up with.
pub struct ProxySettings {
    pub upstreams: Vec<String>,
    pub chain_id: u64,
    pub timeout: Duration,
    pub safe_distance: u64,
    /// Limits on parameters; `head` is filled in per request.
    pub limits: Limits,
    pub cache_bytes: u64,
    pub max_answer_bytes: usize,
}

pub struct RpcProxy {
    /// Parsed once: URL parsing (with IDNA) showed up in the proxy's profile.
    upstreams: Vec<Upstream>,
    chain_id_hex: String,
    safe_distance: u64,
    limits: Limits,
    watch: ChainWatchHandle,
    /// Bounded in bytes: keys are canonical (one per call, however it was spelled) and only
    /// answers a reorg can no longer reach are kept.
    cache: Arc<AnswerCache>,
    /// Pass-through calls with an upstream request in flight, by method and canonical params.
    /// Identical calls arriving while one runs wait for its answer instead of each sending
    /// their own: a crowd of wallets polling the head, or reading one balance, costs the node
    /// one request per round trip. Every call allowed through only reads, and a call that
    /// joins gets an answer the node gave after the call it joined was sent: at most one round
    /// trip older than its own request would have got.
    flights: Flights<Result<Reply, UpstreamFailed>>,
    stats: RpcStats,
}

/// `jm_rpc_*`: the cache's size read when scraped, then the counters.
struct ProxyMetrics {
    stats: RpcStats,
    cache: Arc<AnswerCache>,
}

impl std::fmt::Debug for ProxyMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProxyMetrics")
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Collector for ProxyMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        describe(
            &mut e,
            "jm_rpc_cache_entries",
            "Final answers the RPC proxy keeps",
            &gauge(self.cache.len() as u64),
        )?;
        describe(
            &mut e,
            "jm_rpc_cache_bytes",
            "Bytes the RPC proxy's cache holds, bounded by rpc.cache_bytes",
            &gauge(self.cache.weight()),
        )?;
        self.stats.encode(&mut e)
    }
}

/// Every upstream failed; the message says how (without URLs, which may carry keys).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct UpstreamFailed(String);

impl RpcProxy {
    /// A proxy whose cache lookups are counted in `requests` as `rpc`.
    pub fn new(
        s: ProxySettings,
        chain: ChainWatchHandle,
        requests: &CacheRequests,
    ) -> anyhow::Result<Self> {
        let upstreams = s
            .upstreams
            .iter()
            .enumerate()
            .map(|(n, u)| {
                Upstream::new(u, s.timeout, s.max_answer_bytes)
                    .map_err(|why| anyhow::anyhow!("RPC proxy upstream {n}: {why}"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let cache_bytes = s.cache_bytes.max(1);
        Ok(RpcProxy {
            stats: RpcStats::new(upstreams.len(), requests.stats("rpc")),
            upstreams,
            chain_id_hex: format!("{:#x}", s.chain_id),
            safe_distance: s.safe_distance,
            limits: s.limits,
            watch: chain,
            flights: Flights::new(),
            cache: Arc::new(AnswerCache::with_weighter(
                (cache_bytes / 4096).max(16) as usize,
                cache_bytes,
                BySize,
            )),
        })
    }

    /// The parameter limits as of now (with the head last seen by the chain watch).
    pub fn limits(&self) -> Limits {
        Limits {
            head: self.watch.status().head,
            ..self.limits
        }
    }

    /// Registers the proxy's counters and its cache's size (read at each scrape).
    pub fn register_metrics(&self, registry: &mut Registry) {
        registry.register_collector(Box::new(ProxyMetrics {
            stats: self.stats.clone(),
            cache: self.cache.clone(),
        }));
    }

    /// Bytes held by the cache (keys, answers and per-entry overhead) and its entries.
    pub fn cache_size(&self) -> (u64, usize) {
        (self.cache.weight(), self.cache.len())
    }

    /// Answers every call, in order: locally, from the cache, or from an upstream. `Err` when no
    /// upstream answered; the calls that needed one then carry an error object.
    pub async fn answer(&self, calls: &[Call]) -> (Vec<Value>, Result<(), UpstreamFailed>) {
        let mut out: Vec<Option<Value>> = vec![None; calls.len()];
        let mut pending: Vec<usize> = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            if c.method == "eth_chainId" {
                out[i] = Some(jsonrpc::result_response(&c.id, json!(self.chain_id_hex)));
            } else if let Some(hit) =
                jsonrpc::cache_key(c).and_then(|k| self.stats.cache.lookup(self.cache.get(&k)))
            {
                out[i] = Some(jsonrpc::result_response(&c.id, hit.result.clone()));
            } else {
                pending.push(i);
            }
        }
        let mut outcome = Ok(());
        if !pending.is_empty() {
            match self.forward(calls, &pending).await {
                Ok(mut answers) => {
                    let head = self.watch.status().head;
                    for &i in &pending {
                        let c = &calls[i];
                        let reply = answers.remove(&i).unwrap_or_else(|| {
                            json!({ "error": { "code": jsonrpc::UPSTREAM_ERROR, "message": "the upstream gave no answer for this call" } })
                        });
                        if let Some(result) = reply.get("result") {
                            if jsonrpc::is_final(c, result, head, self.safe_distance)
                                && let Some(k) = jsonrpc::cache_key(c)
                            {
                                self.keep(k, result);
                            }
                            out[i] = Some(jsonrpc::result_response(&c.id, result.clone()));
                        } else {
                            let error = reply.get("error").cloned().unwrap_or(json!({
                                "code": jsonrpc::UPSTREAM_ERROR, "message": "the upstream answer has neither result nor error"
                            }));
                            out[i] = Some(json!({ "jsonrpc": "2.0", "id": c.id, "error": error }));
                        }
                    }
                }
                Err(e) => {
                    for &i in &pending {
                        out[i] = Some(jsonrpc::error_response(
                            &calls[i].id,
                            jsonrpc::UPSTREAM_ERROR,
                            &format!("the chain RPC is unavailable: {e}"),
                        ));
                    }
                    outcome = Err(e);
                }
            }
        }
        (
            out.into_iter().map(|v| v.unwrap_or(Value::Null)).collect(),
            outcome,
        )
    }

    /// Sends the pending calls with internal ids (their index), so clients' ids, duplicates
    /// included, never reach the upstream; tries each upstream in turn.
    async fn forward(
        &self,
        calls: &[Call],
        pending: &[usize],
    ) -> Result<HashMap<usize, Value>, UpstreamFailed> {
        let batch: Vec<Value> = pending
            .iter()
            .map(|&i| json!({ "jsonrpc": "2.0", "id": i, "method": calls[i].method, "params": calls[i].params }))
            .collect();
        let body = if batch.len() == 1 {
            batch[0].clone()
        } else {
            Value::Array(batch)
        };
        let mut last = String::from("no upstream is configured");
        for (n, upstream) in self.upstreams.iter().enumerate() {
            if n > 0 {
                self.stats.failover();
            }
            match self.post(upstream, &body).await {
                Ok(answer) => {
                    self.stats.call(n, true);
                    let items = match answer {
                        Value::Array(v) => v,
                        one => vec![one],
                    };
                    let mut by_id = HashMap::new();
                    for item in items {
                        if let Some(id) = item.get("id").and_then(Value::as_u64) {
                            by_id.insert(id as usize, item);
                        }
                    }
                    return Ok(by_id);
                }
                Err(e) => {
                    self.stats.call(n, false);
                    tracing::warn!(upstream = n, error = %e, "RPC upstream failed, trying the next");
                    last = e;
                }
            }
        }
        Err(UpstreamFailed(last))
    }

    fn keep(&self, key: String, result: &Value) {
        let bytes = serde_json::to_vec(result).map_or(u64::MAX, |v| v.len() as u64);
        if bytes <= MAX_CACHED_ANSWER {
            let cached = Arc::new(Cached {
                result: result.clone(),
                bytes,
            });
            self.cache.insert(key, cached);
        }
    }

    /// Forwards a single, already checked call in its canonical form (written by us, never the
    /// client's bytes) and answers it with the upstream's result or error under the client's
    /// id: the fast path for calls that are neither answered locally nor cacheable. An
    /// identical call already in flight is not sent again (see `flights`).
    pub async fn pass_through(&self, call: &Call) -> Result<Bytes, UpstreamFailed> {
        let (answer, shared) = self
            .flights
            .share(jsonrpc::flight_key(call), || self.send_one(call))
            .await;
        if shared {
            self.stats.shared();
        }
        answer.map(|r| Bytes::from(r.to(&call.id)))
    }

    /// Sends one call (with id 0) to each upstream in turn until one answers with a result or
    /// an error.
    async fn send_one(&self, call: &Call) -> Result<Reply, UpstreamFailed> {
        let body = Bytes::from(jsonrpc::to_bytes(&Call {
            id: Value::from(0),
            method: call.method.clone(),
            params: call.params.clone(),
        }));
        let mut last = String::from("no upstream is configured");
        for (n, upstream) in self.upstreams.iter().enumerate() {
            if n > 0 {
                self.stats.failover();
            }
            match upstream.post(body.clone()).await.map(Reply::parse) {
                Ok(Some(reply)) => {
                    self.stats.call(n, true);
                    return Ok(reply);
                }
                Ok(None) => {
                    last = "the upstream answered with neither a result nor an error".to_string()
                }
                Err(e) => last = e.to_string(),
            }
            self.stats.call(n, false);
            tracing::warn!(upstream = n, error = %last, "RPC upstream failed, trying the next");
        }
        Err(UpstreamFailed(last))
    }

    async fn post(&self, upstream: &Upstream, body: &Value) -> Result<Value, String> {
        let bytes = serde_json::to_vec(body).map_err(|e| e.to_string())?;
        let answer = upstream
            .post(Bytes::from(bytes))
            .await
            .map_err(|e| e.to_string())?;
        serde_json::from_slice(&answer)
            .map_err(|_| "the upstream answered with something other than JSON".to_string())
    }
}

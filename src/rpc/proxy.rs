//! Forwarding to the upstream RPCs with failover and time limits, answering `eth_chainId`
//! locally, and caching answers that can no longer change.

use std::collections::HashMap;
use std::time::Duration;

use actix_web::web::Bytes;
use dashmap::DashMap;
use journal_market_actors::chain_watch::ChainWatchHandle;
use serde_json::{Value, json};

use super::jsonrpc::{self, Call};
use super::upstream::Upstream;

/// Entries beyond this clear the cache (keys come from clients).
const MAX_CACHED: usize = 50_000;

pub struct RpcProxy {
    /// Parsed once: URL parsing (with IDNA) showed up in the proxy's profile.
    upstreams: Vec<Upstream>,
    chain_id_hex: String,
    safe_distance: u64,
    chain: ChainWatchHandle,
    cache: DashMap<String, Value>,
}

/// Every upstream failed; the message says how (without URLs, which may carry keys).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UpstreamFailed(String);

impl RpcProxy {
    pub fn new(
        upstreams: Vec<String>,
        chain_id: u64,
        timeout: Duration,
        safe_distance: u64,
        chain: ChainWatchHandle,
    ) -> anyhow::Result<Self> {
        let upstreams = upstreams
            .iter()
            .enumerate()
            .map(|(n, u)| {
                Upstream::new(u, timeout)
                    .map_err(|why| anyhow::anyhow!("chain.rpc_urls[{n}]: {why}"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(RpcProxy {
            upstreams,
            chain_id_hex: format!("{chain_id:#x}"),
            safe_distance,
            chain,
            cache: DashMap::new(),
        })
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
                jsonrpc::cache_key(c).and_then(|k| self.cache.get(&k).map(|v| v.clone()))
            {
                out[i] = Some(jsonrpc::result_response(&c.id, hit));
            } else {
                pending.push(i);
            }
        }
        let mut outcome = Ok(());
        if !pending.is_empty() {
            match self.forward(calls, &pending).await {
                Ok(mut answers) => {
                    let head = self.chain.status().head;
                    for &i in &pending {
                        let c = &calls[i];
                        let reply = answers.remove(&i).unwrap_or_else(|| {
                            json!({ "error": { "code": jsonrpc::UPSTREAM_ERROR, "message": "the upstream gave no answer for this call" } })
                        });
                        if let Some(result) = reply.get("result") {
                            if jsonrpc::is_final(c, result, head, self.safe_distance)
                                && let Some(k) = jsonrpc::cache_key(c)
                            {
                                if self.cache.len() >= MAX_CACHED {
                                    self.cache.clear();
                                }
                                self.cache.insert(k, result.clone());
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
            match self.post(upstream, &body).await {
                Ok(answer) => {
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
                    tracing::warn!(upstream = n, error = %e, "RPC upstream failed, trying the next");
                    last = e;
                }
            }
        }
        Err(UpstreamFailed(last))
    }

    /// Forwards a single, already checked call as the client sent it and returns the upstream's
    /// answer untouched (its id is the client's): the fast path for calls that are neither
    /// answered locally nor cacheable.
    pub async fn pass_through(&self, body: Bytes) -> Result<Bytes, UpstreamFailed> {
        let mut last = String::from("no upstream is configured");
        for (n, upstream) in self.upstreams.iter().enumerate() {
            match upstream.post(body.clone()).await {
                Ok(answer) if serde_json::from_slice::<serde::de::IgnoredAny>(&answer).is_ok() => {
                    return Ok(answer);
                }
                Ok(_) => last = "the upstream answered with something other than JSON".to_string(),
                Err(e) => last = e.to_string(),
            }
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

//! The one chain client: the RPC upstreams in order, a time limit on every attempt, and
//! failover that never repeats what may have happened. A JSON-RPC error is the node's answer
//! and is returned as it is; a transport error (no connection, a timeout, an HTTP error, an
//! answer that is not JSON-RPC) moves a read to the next upstream. A call that is not a read
//! (`eth_sendRawTransaction`) moves on only when it provably never reached the upstream (the
//! connection could not be made); anything else is returned as "unknown" to the caller, who
//! asks the chain what happened. Upstream URLs may hold provider keys: they are never logged.

use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::client::{BatchRequest, RpcClient};
use alloy::rpc::json_rpc::{Id, Request, RequestPacket, ResponsePacket, RpcRecv, RpcSend};
use alloy::rpc::types::{Filter, Log};

use crate::wire_log;
use alloy::transports::http::reqwest;
use alloy::transports::{TransportError, TransportErrorKind, TransportFut};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use serde::Serialize;

/// Methods that only read: safe to send again, anywhere.
const READS: &[&str] = &[
    "eth_chainId",
    "eth_blockNumber",
    "eth_call",
    "eth_estimateGas",
    "eth_gasPrice",
    "eth_maxPriorityFeePerGas",
    "eth_feeHistory",
    "eth_getBalance",
    "eth_getCode",
    "eth_getStorageAt",
    "eth_getTransactionCount",
    "eth_getTransactionByHash",
    "eth_getTransactionReceipt",
    "eth_getBlockByNumber",
    "eth_getBlockByHash",
    "eth_getLogs",
    "net_version",
];

pub fn is_read(method: &str) -> bool {
    READS.contains(&method)
}

/// Calls and failures of one upstream: its label sets' counters in [`ChainMetrics`].
#[derive(Debug)]
struct Counters {
    calls: Counter,
    failures: Counter,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct UpstreamLabel {
    /// Position in `chain.rpc_urls` (the URL itself is a secret).
    upstream: usize,
}

/// The client's metrics, counted by its transport as calls are made and registered by
/// [`ChainClient::register_metrics`].
#[derive(Debug, Clone, Default)]
struct ChainMetrics {
    calls: Family<UpstreamLabel, Counter>,
    failures: Family<UpstreamLabel, Counter>,
    failovers: Counter,
}

impl ChainMetrics {
    /// The counters of upstream `n`, made up front so each is exposed from the start.
    fn upstream(&self, n: usize) -> Counters {
        let label = UpstreamLabel { upstream: n };
        Counters {
            calls: self.calls.get_or_create(&label).clone(),
            failures: self.failures.get_or_create(&label).clone(),
        }
    }
}

impl Collector for ChainMetrics {
    // Descriptors written here, not by `Registry::register`: it would add a period to the
    // help texts.
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let described: [(&str, &str, &dyn EncodeMetric); 3] = [
            (
                "jm_chain_upstream_calls",
                "The chain client's calls per upstream (index in chain.rpc_urls)",
                &self.calls,
            ),
            (
                "jm_chain_upstream_failures",
                "The chain client's failed calls per upstream",
                &self.failures,
            ),
            (
                "jm_chain_failovers",
                "Times the chain client moved on to the next upstream",
                &self.failovers,
            ),
        ];
        for (name, help, metric) in described {
            metric.encode(e.encode_descriptor(name, help, None, metric.metric_type())?)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct UpstreamStats {
    /// Position in `chain.rpc_urls` (the URL itself is a secret).
    pub index: usize,
    pub calls: u64,
    pub failures: u64,
}

struct Shared {
    http: reqwest::Client,
    upstreams: Vec<reqwest::Url>,
    counters: Vec<Counters>,
    metrics: ChainMetrics,
    timeout: Duration,
}

/// Answers larger than this are a failure of the upstream.
const MAX_ANSWER: usize = 32 * 1024 * 1024;

/// Why one attempt at one upstream failed.
enum Attempt {
    /// The connection could not be made: the request never arrived.
    NeverSent(String),
    /// It may have arrived.
    Failed(String),
}

/// Answers at least this large are parsed on a blocking thread: a page of thousands of logs
/// takes milliseconds to parse, which the calling thread (the actor system's, or an HTTP
/// worker's) spends on other work meanwhile.
const PARSE_APART: usize = 256 * 1024;

/// One JSON-RPC exchange with one upstream; `parse` reads a 2xx body (`None`: it is not an
/// answer). Any HTTP status but 2xx is a failure of the upstream, whatever its body says (a
/// 429 or 503 with a JSON-RPC error is the provider's state, not the node's answer).
async fn exchange<T, F>(
    http: &reqwest::Client,
    url: &reqwest::Url,
    req: &RequestPacket,
    parse: F,
) -> Result<T, Attempt>
where
    T: Send + 'static,
    F: FnOnce(&[u8]) -> Option<T> + Send + 'static,
{
    let resp = http.post(url.clone()).json(req).send().await.map_err(|e| {
        if e.is_connect() {
            Attempt::NeverSent("connection refused".into())
        } else {
            Attempt::Failed("the connection broke".into())
        }
    })?;
    let status = resp.status();
    if !status.is_success() {
        return Err(Attempt::Failed(format!("HTTP {}", status.as_u16())));
    }
    if resp.content_length().is_some_and(|n| n > MAX_ANSWER as u64) {
        return Err(Attempt::Failed("the answer is too large".into()));
    }
    let body = resp
        .bytes()
        .await
        .map_err(|_| Attempt::Failed("the answer broke off".into()))?;
    if body.len() > MAX_ANSWER {
        return Err(Attempt::Failed("the answer is too large".into()));
    }
    let parsed = if body.len() >= PARSE_APART {
        tokio::task::spawn_blocking(move || parse(&body))
            .await
            .ok()
            .flatten()
    } else {
        parse(&body)
    };
    parsed.ok_or_else(|| Attempt::Failed("not a JSON-RPC answer".into()))
}

/// The transport under every provider of the client (a tower service, so alloy drives it).
#[derive(Clone)]
pub struct FailoverTransport(Arc<Shared>);

impl FailoverTransport {
    async fn send(self, req: RequestPacket) -> Result<ResponsePacket, TransportError> {
        self.call(&req, |body| serde_json::from_slice(body).ok())
            .await
    }

    /// `req` to the upstreams in order until one answers; `parse` reads the answer.
    async fn call<T, F>(&self, req: &RequestPacket, parse: F) -> Result<T, TransportError>
    where
        T: Send + 'static,
        F: FnOnce(&[u8]) -> Option<T> + Send + Copy + 'static,
    {
        let s = &self.0;
        let read = req.method_names().all(is_read);
        let mut why = Vec::new();
        for (i, url) in s.upstreams.iter().enumerate() {
            if i > 0 {
                s.metrics.failovers.inc();
            }
            s.counters[i].calls.inc();
            let attempt = tokio::time::timeout(s.timeout, exchange(&s.http, url, req, parse))
                .await
                .unwrap_or_else(|_| Err(Attempt::Failed("no answer in time".into())));
            let (message, delivered) = match attempt {
                Ok(resp) => return Ok(resp),
                Err(Attempt::NeverSent(m)) => (m, false),
                Err(Attempt::Failed(m)) => (m, true),
            };
            s.counters[i].failures.inc();
            why.push(format!("upstream {i}: {message}"));
            if !read && delivered {
                break;
            }
        }
        if why.is_empty() {
            why.push("no RPC upstream is configured".into());
        }
        Err(TransportErrorKind::custom_str(&why.join("; ")))
    }
}

impl tower::Service<RequestPacket> for FailoverTransport {
    type Response = ResponsePacket;
    type Error = TransportError;
    type Future = TransportFut<'static>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: RequestPacket) -> Self::Future {
        Box::pin(self.clone().send(req))
    }
}

/// What went wrong with a chain call, as a caller needs to know it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// The node answered with a JSON-RPC error (a revert, a refused transaction): its answer.
    #[error("the node refused the call: {message}")]
    Rpc { code: i64, message: String },
    /// No answer could be had (or it could not be read): whether anything happened is unknown.
    #[error("the chain could not be reached: {0}")]
    Unreachable(String),
}

/// Error texts of transports can carry URLs with keys; keep the start only.
pub fn short(s: &str) -> String {
    short_to(s, 200)
}

/// [`short`], at most `max` characters.
pub fn short_to(s: &str, max: usize) -> String {
    let s = s.split(" for url").next().unwrap_or(s);
    s.chars().take(max).collect()
}

impl ChainError {
    /// Whether the node said the call reverted: the contract's own answer.
    pub fn reverted(&self) -> bool {
        matches!(self, ChainError::Rpc { code, message }
            if *code == 3 || message.to_ascii_lowercase().contains("revert"))
    }

    /// Whether the node said the call ran out of the gas it was given.
    pub fn out_of_gas(&self) -> bool {
        matches!(self, ChainError::Rpc { message, .. }
            if { let m = message.to_ascii_lowercase(); m.contains("out of gas") || m.contains("outofgas") })
    }

    pub fn of(e: &TransportError) -> ChainError {
        match e.as_error_resp() {
            Some(p) => ChainError::Rpc {
                code: p.code,
                message: short(&p.message),
            },
            None => ChainError::Unreachable(short(&e.to_string())),
        }
    }

    /// A contract call's failure: the transport's as [`ChainError::of`] reads it; any other
    /// (an answer that does not decode) is the node's answer, with no code.
    pub fn of_call(e: alloy::contract::Error) -> ChainError {
        match e {
            alloy::contract::Error::TransportError(t) => ChainError::of(&t),
            other => ChainError::Rpc {
                code: 0,
                message: short(&other.to_string()),
            },
        }
    }
}

/// The chain as the service sees it: one provider over every upstream. Cheap to clone.
#[derive(Clone)]
pub struct ChainClient {
    provider: DynProvider,
    transport: FailoverTransport,
}

impl std::fmt::Debug for ChainClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URLs are secrets.
        write!(
            f,
            "ChainClient({} upstreams)",
            self.transport.0.upstreams.len()
        )
    }
}

impl ChainClient {
    /// Upstreams in order of preference; `timeout` bounds each attempt.
    pub fn new(urls: &[String], timeout: Duration) -> anyhow::Result<ChainClient> {
        let http = reqwest::Client::builder()
            .build()
            .map_err(|e| anyhow::anyhow!("the HTTP client cannot be built: {e}"))?;
        let mut upstreams = Vec::new();
        for (i, u) in urls.iter().enumerate() {
            let url: reqwest::Url = u
                .parse()
                .map_err(|_| anyhow::anyhow!("chain.rpc_urls[{i}] is not a URL"))?;
            upstreams.push(url);
        }
        anyhow::ensure!(
            !upstreams.is_empty(),
            "chain.rpc_urls needs at least one URL"
        );
        let metrics = ChainMetrics::default();
        let transport = FailoverTransport(Arc::new(Shared {
            http,
            counters: (0..upstreams.len()).map(|n| metrics.upstream(n)).collect(),
            upstreams,
            metrics,
            timeout,
        }));
        let client = RpcClient::new(transport.clone(), false);
        let provider = ProviderBuilder::new().connect_client(client).erased();
        Ok(ChainClient {
            provider,
            transport,
        })
    }

    pub fn provider(&self) -> &DynProvider {
        &self.provider
    }

    /// Calls and failures per upstream, and failovers in all.
    pub fn stats(&self) -> (Vec<UpstreamStats>, u64) {
        let s = &self.transport.0;
        let ups = s
            .counters
            .iter()
            .enumerate()
            .map(|(index, c)| UpstreamStats {
                index,
                calls: c.calls.get(),
                failures: c.failures.get(),
            })
            .collect();
        (ups, s.metrics.failovers.get())
    }

    /// Registers `jm_chain_upstream_calls`, `jm_chain_upstream_failures` and
    /// `jm_chain_failovers`, which this client's transport counts (every clone shares them).
    pub fn register_metrics(&self, registry: &mut Registry) {
        registry.register_collector(Box::new(self.transport.0.metrics.clone()));
    }

    /// `method` once per item of `params`, sent as one JSON-RPC batch through the failover
    /// (one request instead of one each); the answers in the order of `params`.
    pub async fn batch<P: RpcSend, R: RpcRecv>(
        &self,
        method: &'static str,
        params: &[P],
    ) -> Result<Vec<R>, ChainError> {
        let mut batch = BatchRequest::new(self.provider.client());
        let waiters = params
            .iter()
            .map(|p| batch.add_call::<_, R>(method, p))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ChainError::of(&e))?;
        batch.send().await.map_err(|e| ChainError::of(&e))?;
        let mut answers = Vec::with_capacity(waiters.len());
        for w in waiters {
            answers.push(w.await.map_err(|e| ChainError::of(&e))?);
        }
        Ok(answers)
    }

    /// Logs of `filter` through the failover, parsed in one pass straight into logs (on a
    /// blocking thread when the answer is large; see PARSE_APART).
    pub async fn get_logs(&self, filter: &Filter) -> Result<Vec<Log>, ChainError> {
        let req = Request::new("eth_getLogs", Id::Number(0), (filter,))
            .serialize()
            .map_err(|e| ChainError::Unreachable(format!("the log filter cannot be sent: {e}")))?;
        // A JSON-RPC error is the node's answer (no failover), told apart as every call's is.
        self.transport
            .call(&RequestPacket::Single(req), |body| {
                wire_log::page(body).map(|r| r.map_err(TransportError::ErrorResp))
            })
            .await
            .and_then(|answer| answer)
            .map_err(|e| ChainError::of(&e))
    }

    /// The latest block number, through the failover.
    pub async fn block_number(&self) -> Result<u64, ChainError> {
        self.provider
            .get_block_number()
            .await
            .map_err(|e| ChainError::of(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A local HTTP server answering every request with `answer` (status, body) after
    /// `delay`; returns its URL and a counter of requests.
    async fn server(status: u16, body: &'static str, delay: Duration) -> (String, Arc<AtomicU64>) {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        let hits = Arc::new(AtomicU64::new(0));
        let h = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut c, _)) = l.accept().await {
                let h = h.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 65536];
                    let _ = c.read(&mut buf).await;
                    h.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(delay).await;
                    let resp = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = c.write_all(resp.as_bytes()).await;
                });
            }
        });
        (url, hits)
    }

    /// A URL nothing listens on.
    async fn refused() -> String {
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        drop(l);
        url
    }

    const BLOCK: &str = r#"{"jsonrpc":"2.0","id":0,"result":"0x2a"}"#;
    const REVERT: &str =
        r#"{"jsonrpc":"2.0","id":0,"error":{"code":3,"message":"execution reverted"}}"#;

    fn client(urls: Vec<String>) -> ChainClient {
        ChainClient::new(&urls, Duration::from_millis(300)).unwrap()
    }

    #[tokio::test]
    async fn reads_fail_over_in_order_on_every_transport_error() {
        let (ok, ok_hits) = server(200, BLOCK, Duration::ZERO).await;
        let (slow, _) = server(200, BLOCK, Duration::from_secs(5)).await;
        let (broken, _) = server(500, "oops", Duration::ZERO).await;
        let (limited, _) = server(429, REVERT, Duration::ZERO).await;
        let (garbage, _) = server(200, "not json", Duration::ZERO).await;
        let c = client(vec![refused().await, slow, broken, limited, garbage, ok]);
        assert_eq!(c.block_number().await.unwrap(), 42);
        assert_eq!(ok_hits.load(Ordering::Relaxed), 1);
        let (stats, failovers) = c.stats();
        assert_eq!(
            failovers, 5,
            "a 429 with a JSON-RPC body is the provider's state"
        );
        assert_eq!(stats.iter().map(|s| s.failures).sum::<u64>(), 5);
        assert_eq!(stats[5].calls, 1);
    }

    #[tokio::test]
    async fn a_json_rpc_error_is_the_nodes_answer() {
        let (revert, _) = server(200, REVERT, Duration::ZERO).await;
        let (ok, ok_hits) = server(200, BLOCK, Duration::ZERO).await;
        let c = client(vec![revert, ok]);
        let e = c.block_number().await.unwrap_err();
        assert_eq!(
            e,
            ChainError::Rpc {
                code: 3,
                message: "execution reverted".into()
            }
        );
        assert_eq!(ok_hits.load(Ordering::Relaxed), 0, "never failed over");
    }

    #[tokio::test]
    async fn all_down_is_unreachable_without_urls_in_the_message() {
        let c = client(vec![refused().await, refused().await]);
        match c.block_number().await.unwrap_err() {
            ChainError::Unreachable(m) => assert!(!m.contains("127.0.0.1"), "{m}"),
            e => panic!("{e:?}"),
        }
    }

    async fn send_raw(c: &ChainClient) -> Result<serde_json::Value, TransportError> {
        c.provider()
            .raw_request::<_, serde_json::Value>("eth_sendRawTransaction".into(), ("0x00",))
            .await
    }

    #[tokio::test]
    async fn a_send_fails_over_only_when_it_never_arrived() {
        let (hash, hash_hits) = server(
            200,
            r#"{"jsonrpc":"2.0","id":0,"result":"0x01"}"#,
            Duration::ZERO,
        )
        .await;
        let c = client(vec![refused().await, hash.clone()]);
        assert!(
            send_raw(&c).await.is_ok(),
            "connection refused: safe to move on"
        );
        assert_eq!(hash_hits.load(Ordering::Relaxed), 1);

        let (slow, slow_hits) = server(200, BLOCK, Duration::from_secs(5)).await;
        let c = client(vec![slow, hash]);
        assert!(send_raw(&c).await.is_err(), "it may have arrived: unknown");
        assert_eq!(slow_hits.load(Ordering::Relaxed), 1);
        assert_eq!(hash_hits.load(Ordering::Relaxed), 1, "not sent twice");
    }
}

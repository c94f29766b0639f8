//! One upstream JSON-RPC endpoint and how bodies reach it.
//!
//! A plain `http://` upstream (a node running beside the service) is spoken to over hyper's
//! HTTP/1.1 connections, kept idle per worker thread: actix runs one single-threaded runtime per
//! worker, and a connection owned by the worker that uses it never hands a call to another
//! thread. Under load this and mimalloc together took the proxy's CPU per call from about 25
//! to 18 µs, against a shared reqwest client (docs/benchmarks.md, "What the hot paths' special
//! cases bought"). `https://` upstreams, and URLs carrying credentials, go through reqwest
//! (TLS, HTTP/2 by ALPN, basic auth).

use std::cell::RefCell;
use std::time::Duration;

use actix_web::web::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Method, Request, Uri};
use hyper_util::rt::TokioIo;
use thread_local::ThreadLocal;
use tokio::net::TcpStream;

/// Idle connections kept per worker thread.
const MAX_IDLE: usize = 64;

/// Why an upstream gave no usable answer, in words fit for a client (never the URL, which
/// may carry an API key).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpstreamError {
    #[error("the upstream cannot be reached")]
    Unreachable,
    #[error("the upstream did not answer in time")]
    Timeout,
    #[error("the upstream answered HTTP {0}")]
    Status(u16),
    #[error("the upstream's answer broke off")]
    BrokenAnswer,
    #[error("the upstream's answer is larger than this proxy accepts")]
    TooLarge,
}

pub struct Upstream {
    transport: Transport,
    timeout: Duration,
    connect_timeout: Duration,
    /// Answers larger than this are refused, over either transport.
    max_answer: usize,
}

enum Transport {
    Plain(Box<Plain>),
    Reqwest {
        url: reqwest::Url,
        client: reqwest::Client,
    },
}

struct Plain {
    /// `host:port`, as dialled.
    address: String,
    host: HeaderValue,
    /// Origin-form target (path and query).
    target: Uri,
    idle: ThreadLocal<RefCell<Vec<SendRequest<Full<Bytes>>>>>,
}

impl Upstream {
    /// Parses `url`; `Err` names what is wrong with it (without echoing it).
    pub fn new(url: &str, timeout: Duration, max_answer: usize) -> Result<Self, String> {
        let parsed: reqwest::Url = url.parse().map_err(|_| "not a valid URL".to_string())?;
        let connect_timeout = timeout.min(Duration::from_secs(2));
        let transport = match parsed.scheme() {
            "http" if parsed.username().is_empty() && parsed.password().is_none() => {
                Transport::Plain(Box::new(Plain::new(&parsed)?))
            }
            "http" | "https" => Transport::Reqwest {
                client: reqwest::Client::builder()
                    .timeout(timeout)
                    .connect_timeout(connect_timeout)
                    .pool_max_idle_per_host(MAX_IDLE)
                    .build()
                    .map_err(|e| format!("the HTTP client cannot be built: {e}"))?,
                url: parsed,
            },
            other => return Err(format!("the scheme {other:?} is not http or https")),
        };
        Ok(Upstream {
            transport,
            timeout,
            connect_timeout,
            max_answer,
        })
    }

    /// POSTs a JSON body and returns the answer's bytes when the status is 2xx.
    pub async fn post(&self, body: Bytes) -> Result<Bytes, UpstreamError> {
        match &self.transport {
            Transport::Plain(plain) => {
                let post = plain.post(body, self.connect_timeout, self.max_answer);
                tokio::time::timeout(self.timeout, post)
                    .await
                    .unwrap_or(Err(UpstreamError::Timeout))
            }
            Transport::Reqwest { url, client } => {
                reqwest_post(client, url, body, self.max_answer).await
            }
        }
    }
}

impl Plain {
    fn new(url: &reqwest::Url) -> Result<Self, String> {
        let host = url.host_str().ok_or("the URL has no host")?;
        let port = url.port_or_known_default().unwrap_or(80);
        let host_header = match url.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.to_string(),
        };
        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        Ok(Plain {
            address: format!("{host}:{port}"),
            host: HeaderValue::from_str(&host_header).map_err(|_| "the host is not valid")?,
            target: target.parse().map_err(|_| "the path is not valid")?,
            idle: ThreadLocal::new(),
        })
    }

    async fn post(
        &self,
        body: Bytes,
        connect_timeout: Duration,
        max_answer: usize,
    ) -> Result<Bytes, UpstreamError> {
        if let Some(conn) = self.checkout().await {
            match self.exchange(conn, body.clone(), max_answer).await {
                Ok(answer) => return Ok(answer),
                // The node may have closed an idle connection just as it was reused; every
                // allowed method only reads, so sending again on a new one is safe.
                Err(Failure::Connection) => {}
                Err(Failure::Answer(e)) => return Err(e),
            }
        }
        let conn = self.connect(connect_timeout).await?;
        self.exchange(conn, body, max_answer)
            .await
            .map_err(|f| match f {
                Failure::Connection => UpstreamError::Unreachable,
                Failure::Answer(e) => e,
            })
    }

    /// An idle connection of this thread that can take a request now.
    async fn checkout(&self) -> Option<SendRequest<Full<Bytes>>> {
        loop {
            let mut conn = self.idle.get_or_default().borrow_mut().pop()?;
            if !conn.is_closed() && conn.ready().await.is_ok() {
                return Some(conn);
            }
        }
    }

    async fn connect(&self, limit: Duration) -> Result<SendRequest<Full<Bytes>>, UpstreamError> {
        let stream = tokio::time::timeout(limit, TcpStream::connect(&self.address))
            .await
            .map_err(|_| UpstreamError::Unreachable)?
            .map_err(|_| UpstreamError::Unreachable)?;
        stream.set_nodelay(true).ok();
        let (conn, driver) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|_| UpstreamError::Unreachable)?;
        tokio::spawn(async move {
            if let Err(e) = driver.await {
                tracing::debug!(error = %e, "RPC upstream connection ended");
            }
        });
        Ok(conn)
    }

    /// Sends one request and, once its answer is read, keeps the connection for the next.
    async fn exchange(
        &self,
        mut conn: SendRequest<Full<Bytes>>,
        body: Bytes,
        max_answer: usize,
    ) -> Result<Bytes, Failure> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.target.clone();
        let headers = request.headers_mut();
        headers.insert(HOST, self.host.clone());
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let response = conn
            .send_request(request)
            .await
            .map_err(|_| Failure::Connection)?;
        let status = response.status();
        let answer = Limited::new(response.into_body(), max_answer)
            .collect()
            .await
            .map_err(|e| {
                Failure::Answer(if e.is::<http_body_util::LengthLimitError>() {
                    UpstreamError::TooLarge
                } else {
                    UpstreamError::BrokenAnswer
                })
            })?
            .to_bytes();
        self.checkin(conn);
        if !status.is_success() {
            return Err(Failure::Answer(UpstreamError::Status(status.as_u16())));
        }
        Ok(answer)
    }

    fn checkin(&self, conn: SendRequest<Full<Bytes>>) {
        if conn.is_closed() {
            return;
        }
        let mut idle = self.idle.get_or_default().borrow_mut();
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
    }
}

enum Failure {
    /// No answer came back on the connection (closed, reset, refused).
    Connection,
    /// An answer came back and it is not usable.
    Answer(UpstreamError),
}

async fn reqwest_post(
    client: &reqwest::Client,
    url: &reqwest::Url,
    body: Bytes,
    max_answer: usize,
) -> Result<Bytes, UpstreamError> {
    let mut resp = client
        .post(url.clone())
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                UpstreamError::Timeout
            } else {
                UpstreamError::Unreachable
            }
        })?;
    if !resp.status().is_success() {
        return Err(UpstreamError::Status(resp.status().as_u16()));
    }
    if resp.content_length().is_some_and(|n| n > max_answer as u64) {
        return Err(UpstreamError::TooLarge);
    }
    // Read chunk by chunk: a chunked answer has no length to check up front.
    let mut answer = actix_web::web::BytesMut::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                if answer.len() + chunk.len() > max_answer {
                    return Err(UpstreamError::TooLarge);
                }
                answer.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(answer.freeze()),
            Err(e) if e.is_timeout() => return Err(UpstreamError::Timeout),
            Err(_) => return Err(UpstreamError::BrokenAnswer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `url`'s plain transport dials, its Host header and its request target.
    fn plain(url: &str) -> [String; 3] {
        match Upstream::new(url, Duration::from_secs(1), 1 << 20)
            .unwrap()
            .transport
        {
            Transport::Plain(p) => [
                p.address,
                p.host.to_str().unwrap().to_string(),
                p.target.to_string(),
            ],
            Transport::Reqwest { .. } => panic!("{url} should be plain"),
        }
    }

    #[test]
    fn plain_http_keeps_port_path_and_query() {
        assert_eq!(
            plain("http://127.0.0.1:8545/rpc/v1?key=abc"),
            ["127.0.0.1:8545", "127.0.0.1:8545", "/rpc/v1?key=abc"]
        );
    }

    #[test]
    fn default_port_and_ipv6() {
        let cases = [
            (
                "http://node.internal",
                ["node.internal:80", "node.internal", "/"],
            ),
            ("http://[::1]:8545", ["[::1]:8545", "[::1]:8545", "/"]),
        ];
        for (url, parts) in cases {
            assert_eq!(plain(url), parts, "{url}");
        }
    }

    #[test]
    fn tls_and_credentials_go_through_reqwest() {
        for url in ["https://rpc.example.com/v2/key", "http://user:pw@node:8545"] {
            let up = Upstream::new(url, Duration::from_secs(1), 1 << 20).unwrap();
            assert!(matches!(up.transport, Transport::Reqwest { .. }), "{url}");
        }
    }

    #[test]
    fn other_schemes_and_garbage_are_refused() {
        assert!(Upstream::new("ws://node:8546", Duration::from_secs(1), 1 << 20).is_err());
        assert!(Upstream::new("not a url", Duration::from_secs(1), 1 << 20).is_err());
    }
}

//! A fault-injecting HTTP/1.1 proxy for tests: put it in front of anvil or a facilitator and
//! make chosen requests slow, refused, cut after the upstream acted, or unanswered. Raw TCP,
//! because some faults must drop the connection at an exact moment.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)]
pub enum Fault {
    /// Forward and answer.
    Pass,
    /// Forward, but answer only after the delay.
    Delay(Duration),
    /// Close the connection at once; nothing reaches the upstream.
    Refuse,
    /// Forward (the upstream acts), then close the connection without answering.
    ForwardThenCut,
    /// Forward, then never answer (until the client gives up).
    ForwardThenHang,
    /// Answer this HTTP status without forwarding.
    Status(u16),
    /// Answer a JSON-RPC error as a node without the method does ("Method not found"),
    /// without forwarding.
    NoMethod,
}

struct Rule {
    needle: String,
    fault: Fault,
    times: Option<usize>,
}

#[derive(Default)]
struct State {
    rules: Vec<Rule>,
    forwarded: Vec<String>,
}

pub struct FaultProxy {
    pub url: String,
    state: Arc<Mutex<State>>,
}

impl FaultProxy {
    pub async fn start(upstream: &str) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state: Arc<Mutex<State>> = Arc::default();
        let upstream = upstream.to_string();
        let s = state.clone();
        tokio::spawn(async move {
            let http = reqwest::Client::new();
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(serve(conn, s.clone(), upstream.clone(), http.clone()));
            }
        });
        FaultProxy { url, state }
    }

    /// `fault` for requests whose path and body (`"{path} {body}"`) contain `needle` ("" matches
    /// all), for the next
    /// `times` of them (`None`: until cleared). The newest rule wins.
    pub fn set(&self, needle: &str, fault: Fault, times: Option<usize>) {
        self.state.lock().unwrap().rules.push(Rule {
            needle: needle.into(),
            fault,
            times,
        });
    }

    /// How many forwarded requests held `needle`.
    pub fn hits(&self, needle: &str) -> usize {
        let s = self.state.lock().unwrap();
        s.forwarded.iter().filter(|b| b.contains(needle)).count()
    }

    fn fault_for(&self, body: &str) -> Fault {
        fault_for(&self.state, body)
    }
}

fn fault_for(state: &Mutex<State>, body: &str) -> Fault {
    let mut s = state.lock().unwrap();
    let Some(i) = s.rules.iter().rposition(|r| body.contains(&r.needle)) else {
        return Fault::Pass;
    };
    let fault = s.rules[i].fault;
    if let Some(n) = s.rules[i].times.as_mut() {
        *n -= 1;
        if *n == 0 {
            s.rules.remove(i);
        }
    }
    fault
}

/// One HTTP/1.1 request: method, path, headers (lower-cased names), body.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

async fn read_request(r: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Option<Request> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let b = r.read_u8().await.ok()?;
        head.push(b);
        if head.len() > 64 * 1024 {
            return None;
        }
    }
    let text = String::from_utf8_lossy(&head).to_string();
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_string(), first.next()?.to_string());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body).await.ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

async fn serve(conn: TcpStream, state: Arc<Mutex<State>>, upstream: String, http: reqwest::Client) {
    let (read, mut write) = conn.into_split();
    let mut read = BufReader::new(read);
    while let Some(req) = read_request(&mut read).await {
        let body = format!("{} {}", req.path, String::from_utf8_lossy(&req.body));
        let fault = fault_for(&state, &body);
        let answer = match fault {
            Fault::Refuse => return,
            Fault::Status(code) => (code, "application/json".to_string(), b"{}".to_vec()),
            Fault::NoMethod => {
                let id = serde_json::from_slice::<serde_json::Value>(&req.body)
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .unwrap_or(serde_json::Value::Null);
                let error = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": { "code": -32601, "message": "Method not found" },
                });
                (
                    200,
                    "application/json".to_string(),
                    error.to_string().into_bytes(),
                )
            }
            _ => {
                state.lock().unwrap().forwarded.push(body.clone());
                let mut rb = http.request(
                    req.method.parse().unwrap_or(reqwest::Method::POST),
                    format!("{upstream}{}", req.path),
                );
                for (k, v) in &req.headers {
                    if matches!(k.as_str(), "content-type" | "authorization") {
                        rb = rb.header(k, v);
                    }
                }
                let Ok(resp) = rb.body(req.body).send().await else {
                    return;
                };
                let code = resp.status().as_u16();
                let ct = resp
                    .headers()
                    .get("content-type")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("application/json")
                    .to_string();
                let Ok(bytes) = resp.bytes().await else {
                    return;
                };
                (code, ct, bytes.to_vec())
            }
        };
        match fault {
            Fault::ForwardThenCut => return,
            Fault::ForwardThenHang => {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                return;
            }
            Fault::Delay(d) => tokio::time::sleep(d).await,
            _ => {}
        }
        let (code, ct, bytes) = answer;
        let head = format!(
            "HTTP/1.1 {code} X\r\ncontent-type: {ct}\r\ncontent-length: {}\r\n\r\n",
            bytes.len()
        );
        if write.write_all(head.as_bytes()).await.is_err() || write.write_all(&bytes).await.is_err()
        {
            return;
        }
    }
}

#[actix_web::test]
async fn the_proxy_forwards_and_injects_faults() {
    let chain = crate::devchain::TestChain::start().await;
    let proxy = FaultProxy::start(&chain.devnet.rpc_url).await;
    let http = reqwest::Client::new();
    let call = |method: &'static str| {
        let (http, url) = (http.clone(), proxy.url.clone());
        async move {
            http.post(url)
                .json(&serde_json::json!({"jsonrpc":"2.0","id":1,"method":method,"params":[]}))
                .timeout(Duration::from_secs(2))
                .send()
                .await
        }
    };
    let ok: serde_json::Value = call("eth_chainId").await.unwrap().json().await.unwrap();
    assert_eq!(ok["result"], "0x1237");
    proxy.set("eth_chainId", Fault::Status(503), Some(1));
    assert_eq!(call("eth_chainId").await.unwrap().status(), 503);
    assert!(
        call("eth_chainId").await.unwrap().status().is_success(),
        "one time only"
    );
    proxy.set("eth_blockNumber", Fault::Refuse, Some(1));
    assert!(call("eth_blockNumber").await.is_err());
    proxy.set("eth_blockNumber", Fault::ForwardThenCut, Some(1));
    assert!(call("eth_blockNumber").await.is_err());
    proxy.set("eth_blockNumber", Fault::ForwardThenHang, Some(1));
    assert!(call("eth_blockNumber").await.unwrap_err().is_timeout());
    assert_eq!(
        proxy.hits("eth_blockNumber"),
        2,
        "cut and hang reached the node"
    );
    assert_eq!(proxy.fault_for("nothing"), Fault::Pass);
}

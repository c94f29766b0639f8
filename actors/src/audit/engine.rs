//! The audit engines behind one trait: the built-in rules engine, alone or merged with an LLM
//! reviewer over an OpenAI-compatible chat-completions API.

use std::time::Duration;

use futures::future::BoxFuture;
use journal_market_audit::{Report, Submission, builtin, llm};

/// Why an engine gave no report: the caller answers 503 and the draft stays as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

pub trait Engine: Send + Sync {
    fn review<'a>(&'a self, sub: &'a Submission) -> BoxFuture<'a, Result<Report, Unavailable>>;
}

/// Deterministic, no network. Run on the blocking pool: a long draft takes milliseconds.
pub struct Builtin;

async fn builtin_report(sub: &Submission) -> Result<Report, Unavailable> {
    let sub = sub.clone();
    tokio::task::spawn_blocking(move || builtin::audit(&sub))
        .await
        .map_err(|_| Unavailable("the built-in audit engine failed".into()))
}

impl Engine for Builtin {
    fn review<'a>(&'a self, sub: &'a Submission) -> BoxFuture<'a, Result<Report, Unavailable>> {
        Box::pin(builtin_report(sub))
    }
}

/// Where the LLM reviewer is.
#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// Base URL of the API, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended.
    pub base_url: String,
    pub model: String,
    /// Bearer token; empty for a local server.
    pub api_key: String,
    pub timeout: Duration,
}

/// The built-in findings merged with an LLM reviewer's. A reviewer that does not answer in
/// time, or answers outside the schema, makes the engine unavailable: an audit is never
/// approved on half a review.
pub struct WithLlm {
    http: reqwest::Client,
    settings: LlmSettings,
}

impl WithLlm {
    pub fn new(settings: LlmSettings) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .build()
            .map_err(|e| anyhow::anyhow!("the LLM reviewer's HTTP client: {e}"))?;
        Ok(WithLlm { http, settings })
    }

    async fn ask(&self, sub: &Submission) -> Result<Vec<journal_market_audit::Issue>, Unavailable> {
        let s = &self.settings;
        let url = format!("{}/chat/completions", s.base_url.trim_end_matches('/'));
        let mut req = self.http.post(url).json(&llm::request_body(&s.model, sub));
        if !s.api_key.is_empty() {
            req = req.bearer_auth(&s.api_key);
        }
        let resp = req.send().await.map_err(|e| {
            Unavailable(if e.is_timeout() {
                "the LLM reviewer did not answer in time".into()
            } else {
                "the LLM reviewer could not be reached".into()
            })
        })?;
        let status = resp.status();
        if !status.is_success() {
            return Err(Unavailable(format!(
                "the LLM reviewer answered HTTP {}",
                status.as_u16()
            )));
        }
        let body: serde_json::Value = resp
            .json()
            .await
            .map_err(|_| Unavailable("the LLM reviewer's answer is not JSON".into()))?;
        llm::parse_reply(&body)
            .map_err(|e| Unavailable(format!("the LLM reviewer's answer is malformed: {e}")))
    }
}

impl Engine for WithLlm {
    fn review<'a>(&'a self, sub: &'a Submission) -> BoxFuture<'a, Result<Report, Unavailable>> {
        Box::pin(async move {
            let (base, extra) = tokio::join!(builtin_report(sub), self.ask(sub));
            Ok(llm::merge(base?, extra?, &self.settings.model))
        })
    }
}

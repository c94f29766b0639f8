//! The HTTP client: one method per endpoint, answers decoded into [`crate::api`] types.

use std::sync::{Arc, Mutex};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::api::{
    AuditOutcome, ConfigInfo, Desk, DraftInput, DraftView, EntryDetail, EntryRow, EntrySearchRow,
    ErrorBody, History, JournalDetail, JournalList, JournalRef, Me, MintedInput, NonceRequest,
    NonceResponse, Published, Quote, RegistrationFile, Saved, SwarmRun, VerifyRequest, VoteInput,
    VoteRecorded,
};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server answered with an error status and its `{ "error" }` body.
    #[error("{status}: {message}")]
    Api {
        status: StatusCode,
        message: String,
        problems: Vec<String>,
    },
    #[error("request failed: {0}")]
    Http(#[from] reqwest::Error),
    #[error("{0}")]
    Invalid(String),
}

impl ClientError {
    /// The HTTP status of an API error, if the server answered.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            ClientError::Api { status, .. } => Some(*status),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Client {
    base: String,
    http: reqwest::Client,
    /// The session cookie as `name=value`, sent with every request once signed in.
    session: Arc<Mutex<Option<String>>>,
}

impl Client {
    /// `base_url` is the API root and ends in `/api`, e.g. `http://127.0.0.1:8080/api`.
    pub fn new(base_url: impl Into<String>) -> Result<Self, ClientError> {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(60))
            .build()?;
        Ok(Self::with_http(base_url, http))
    }

    pub fn with_http(base_url: impl Into<String>, http: reqwest::Client) -> Self {
        let base = base_url.into().trim_end_matches('/').to_string();
        Client {
            base,
            http,
            session: Arc::default(),
        }
    }

    /// The session cookie (`name=value`), if signed in.
    pub fn session(&self) -> Option<String> {
        self.session.lock().ok().and_then(|s| s.clone())
    }

    pub fn set_session(&self, cookie: Option<String>) {
        if let Ok(mut s) = self.session.lock() {
            *s = cookie;
        }
    }

    pub(crate) fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let mut rb = self.http.request(method, self.url(path));
        if let Some(c) = self.session() {
            rb = rb.header(reqwest::header::COOKIE, c);
        }
        rb
    }

    /// Keeps the session cookie a response sets (or clears).
    pub(crate) fn take_cookie(&self, resp: &reqwest::Response) {
        for v in resp.headers().get_all(reqwest::header::SET_COOKIE) {
            let Ok(v) = v.to_str() else { continue };
            let pair = v.split(';').next().unwrap_or("").trim();
            let Some((name, value)) = pair.split_once('=') else {
                continue;
            };
            if !name.ends_with("svc_session") {
                continue;
            }
            let cleared = value.is_empty() || v.to_ascii_lowercase().contains("max-age=0");
            self.set_session((!cleared).then(|| pair.to_string()));
        }
    }

    /// Signs in with a local key: asks a nonce, signs the message with `personal_sign`,
    /// verifies it, and keeps the session cookie.
    pub async fn login(&self, signer: &PrivateKeySigner) -> Result<Me, ClientError> {
        self.sign_in(signer.address(), |message, _| {
            signer.sign_message_sync(message.as_bytes())
        })
        .await
    }

    /// Signs in as the devnet's `SmartWallet` at `wallet`, owned by `signer`: the owner signs
    /// the sign-in message's hash nested in the wallet's domain (ERC-7739 PersonalSign), which
    /// the service checks with the wallet's ERC-1271.
    pub async fn login_as(
        &self,
        wallet: alloy::primitives::Address,
        signer: &PrivateKeySigner,
    ) -> Result<Me, ClientError> {
        use journal_market_chain::erc7739;
        self.sign_in(wallet, |message, chain_id| {
            let hash = alloy::primitives::eip191_hash_message(message.as_bytes());
            let domain = erc7739::smart_wallet_domain(wallet, chain_id);
            signer.sign_hash_sync(&erc7739::personal_sign_hash(domain, hash))
        })
        .await
    }

    /// Asks a nonce for `wallet`, signs its message with `sign` (given the message and the
    /// chain it names), verifies it and keeps the session cookie.
    async fn sign_in(
        &self,
        wallet: alloy::primitives::Address,
        sign: impl Fn(&str, u64) -> alloy::signers::Result<alloy::signers::Signature>,
    ) -> Result<Me, ClientError> {
        let address = wallet.to_checksum(None);
        let issued: NonceResponse = self
            .post_json(
                "auth/nonce",
                &NonceRequest {
                    address: address.clone(),
                },
            )
            .await?;
        let chain_id: u64 = issued
            .message
            .lines()
            .find_map(|l| l.strip_prefix("Chain ID: "))
            .and_then(|c| c.trim().parse().ok())
            .ok_or_else(|| ClientError::Invalid("the sign-in message names no chain".into()))?;
        let sig = sign(&issued.message, chain_id)
            .map_err(|e| ClientError::Invalid(format!("cannot sign: {e}")))?;
        self.post_json(
            "auth/verify",
            &VerifyRequest {
                address,
                nonce: issued.nonce,
                signature: format!("0x{}", alloy::hex::encode(sig.as_bytes())),
            },
        )
        .await
    }

    pub async fn logout(&self) -> Result<(), ClientError> {
        let _: serde_json::Value = self
            .post_json("auth/logout", &serde_json::json!({}))
            .await?;
        self.set_session(None);
        Ok(())
    }

    pub async fn desk(&self) -> Result<Desk, ClientError> {
        self.get("me/desk", &[]).await
    }

    pub async fn history(&self) -> Result<History, ClientError> {
        self.get("me/history", &[]).await
    }

    /// Creates a draft (`id` absent) or updates one of the caller's own.
    pub async fn save_draft(&self, draft: &DraftInput) -> Result<Saved, ClientError> {
        self.post_json("journal/save", draft).await
    }

    /// Runs the audit agent on a draft (about 30 seconds with an LLM reviewer).
    pub async fn audit(&self, id: i64) -> Result<AuditOutcome, ClientError> {
        self.post_json("journal/audit", &JournalRef { id }).await
    }

    /// Reports the registration transaction of an approved journal; it goes live.
    pub async fn minted(&self, id: i64, tx: &str) -> Result<Published, ClientError> {
        self.post_json(
            "journal/minted",
            &MintedInput {
                id,
                tx: tx.to_string(),
            },
        )
        .await
    }

    /// The caller's own journal in any status, with its last audit report.
    pub async fn draft(&self, id: i64) -> Result<DraftView, ClientError> {
        self.get(&format!("journal/{id}/draft"), &[]).await
    }

    /// Reports a vote transaction (`giveFeedback` on the reputation registry).
    pub async fn record_vote(&self, tx: &str) -> Result<VoteRecorded, ClientError> {
        self.post_json("votes/record", &VoteInput { tx: tx.to_string() })
            .await
    }

    /// The token ledger; `None` when the service has no token configured.
    pub async fn token(&self) -> Result<Option<crate::api::TokenLedger>, ClientError> {
        self.get("token.json", &[]).await
    }

    /// A journal's ERC-8004 registration file.
    pub async fn registration(&self, id: i64) -> Result<RegistrationFile, ClientError> {
        self.get(&format!("meta/{id}"), &[]).await
    }

    /// POSTs JSON and decodes the answer, keeping any session cookie it sets.
    pub async fn post_json<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ClientError> {
        let resp = self.request(Method::POST, path).json(body).send().await?;
        self.take_cookie(&resp);
        decode(resp).await
    }

    pub fn base_url(&self) -> &str {
        &self.base
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base, path.trim_start_matches('/'))
    }

    async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ClientError> {
        let resp = self.request(Method::GET, path).query(query).send().await?;
        self.take_cookie(&resp);
        decode(resp).await
    }

    pub async fn config(&self) -> Result<ConfigInfo, ClientError> {
        self.get("config", &[]).await
    }

    pub async fn journals(&self, company: Option<&str>) -> Result<JournalList, ClientError> {
        match company {
            Some(t) => self.get("journals", &[("company", t)]).await,
            None => self.get("journals", &[]).await,
        }
    }

    /// A journal by slug or numeric id.
    pub async fn journal(&self, slug_or_id: &str) -> Result<JournalDetail, ClientError> {
        self.get(&format!("journals/{}", encode_segment(slug_or_id)), &[])
            .await
    }

    pub async fn entries(&self) -> Result<Vec<EntryRow>, ClientError> {
        self.get("entries.json", &[]).await
    }

    pub async fn entry(&self, accession: &str) -> Result<EntryDetail, ClientError> {
        self.get(&format!("entries/{}", encode_segment(accession)), &[])
            .await
    }

    pub async fn search_entries(&self, ticker: &str) -> Result<Vec<EntrySearchRow>, ClientError> {
        self.get("entries/search", &[("ticker", ticker)]).await
    }

    pub async fn swarm(&self) -> Result<SwarmRun, ClientError> {
        self.get("swarm.json", &[]).await
    }

    pub async fn me(&self) -> Result<Me, ClientError> {
        self.get("me", &[]).await
    }

    pub async fn quote(&self, ticker: &str) -> Result<Quote, ClientError> {
        self.get(&format!("quote/{}", encode_segment(ticker)), &[])
            .await
    }

    /// One JSON-RPC call through the server's read-only proxy; returns its `result`.
    pub async fn rpc(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, ClientError> {
        let body =
            serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
        let resp = self.request(Method::POST, "rpc").json(&body).send().await?;
        let status = resp.status();
        let answer: serde_json::Value = resp
            .json()
            .await
            .map_err(|e| ClientError::Invalid(format!("the proxy did not answer JSON: {e}")))?;
        if let Some(result) = answer.get("result") {
            return Ok(result.clone());
        }
        let message = answer["error"]["message"]
            .as_str()
            .unwrap_or("the proxy answered without a result")
            .to_string();
        Err(ClientError::Api {
            status,
            message,
            problems: Vec::new(),
        })
    }
}

/// Percent-encodes one path segment so user input cannot change the path.
fn encode_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(crate) async fn decode<T: DeserializeOwned>(resp: reqwest::Response) -> Result<T, ClientError> {
    let status = resp.status();
    let bytes = resp.bytes().await?;
    if status.is_success() {
        return serde_json::from_slice(&bytes)
            .map_err(|e| ClientError::Invalid(format!("unexpected answer from the server: {e}")));
    }
    match serde_json::from_slice::<ErrorBody>(&bytes) {
        Ok(body) => Err(ClientError::Api {
            status,
            message: body.error,
            problems: body.problems.unwrap_or_default(),
        }),
        Err(_) => Err(ClientError::Api {
            status,
            message: String::from_utf8_lossy(&bytes).chars().take(200).collect(),
            problems: Vec::new(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded() {
        assert_eq!(encode_segment("JM-NVDA-261120-01"), "JM-NVDA-261120-01");
        assert_eq!(encode_segment("a/b?c"), "a%2Fb%3Fc");
    }

    #[test]
    fn base_url_is_normalised() {
        let c = Client::new("http://x/api/").unwrap();
        assert_eq!(c.url("/journals"), "http://x/api/journals");
    }
}

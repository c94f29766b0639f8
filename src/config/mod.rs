//! Layered settings: `config.toml` defaults, then the `--config` file, then `JM__SECTION__KEY`
//! environment variables. Secrets are wrapped in [`Secret`] so they never reach a log.
//! Addresses and private keys are parsed here, once, as the settings are read: a bad one stops
//! the start with an error naming its setting (figment adds the key's path to the message).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;
use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// The defaults, compiled in so the binary runs from any directory.
pub const DEFAULT_TOML: &str = include_str!("../../config.toml");

/// A value that must not be printed: `Debug` and `Display` show `[redacted]`.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Secret)
    }
}

/// A private key setting (0x and 64 hex digits), parsed when read; empty: none. `Debug` shows
/// only whether there is one.
#[derive(Clone, Default)]
pub struct Key(Option<PrivateKeySigner>);

impl Key {
    /// The key, `None` when the setting is empty.
    pub fn signer(&self) -> Option<&PrivateKeySigner> {
        self.0.as_ref()
    }

    /// A key from its hex, for settings built in code.
    pub fn parse(s: &str) -> Result<Key, String> {
        match s.trim() {
            "" => Ok(Key(None)),
            k => k
                .parse::<PrivateKeySigner>()
                .map(|k| Key(Some(k)))
                .map_err(|_| "is not a valid private key (0x and 64 hex digits)".to_string()),
        }
    }
}

impl From<PrivateKeySigner> for Key {
    fn from(k: PrivateKeySigner) -> Self {
        Key(Some(k))
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "[redacted]"
        } else {
            "none"
        })
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Key::parse(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// An address setting, in any case (the checksum is not required).
fn address<'de, D: Deserializer<'de>>(d: D) -> Result<Address, D::Error> {
    let s = String::deserialize(d)?;
    parse_address(&s)?.ok_or_else(|| D::Error::custom("must be an address, not empty"))
}

/// An address setting that may be empty (none).
fn optional_address<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Address>, D::Error> {
    parse_address(&String::deserialize(d)?)
}

fn parse_address<E: serde::de::Error>(s: &str) -> Result<Option<Address>, E> {
    match s.trim() {
        "" => Ok(None),
        a => journal_market_domain::wallet::Wallet::parse(a)
            .map(|w| Some(w.address()))
            .map_err(|_| E::custom(format!("{a:?} is not an address (0x and 40 hex digits)"))),
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub demo: DemoSettings,
    pub cache: CacheSettings,
    pub chain: ChainSettings,
    pub rpc: RpcSettings,
    pub limits: LimitSettings,
    pub payments: PaymentSettings,
    pub auth: AuthSettings,
    pub publish: PublishSettings,
    pub audit: AuditConfig,
    pub indexer: IndexerConfig,
    pub wallet: WalletSettings,
    pub log: LogSettings,
    pub metrics: MetricsSettings,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ServerSettings {
    pub listen: String,
    pub api_prefix: String,
    pub origin: String,
    pub max_body_bytes: usize,
    pub workers: usize,
    pub compress: bool,
    pub shutdown_grace_secs: u64,
    /// The longest a request's body may take to arrive after its headers, on every route
    /// (0: no limit); past it 408.
    pub body_timeout_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseSettings {
    /// May carry a password, hence a secret.
    pub url: Secret,
    /// The pool's size; unset: [`DatabaseSettings::pool_size`]'s default for the backend.
    #[serde(default)]
    pub max_connections: Option<u32>,
    pub acquire_timeout_secs: u64,
}

impl DatabaseSettings {
    /// The pool's size: `max_connections`, else 16 on PostgreSQL and 4 on SQLite. SQLite has
    /// one writer at a time; more connections mostly wait for its lock, each polling it, and
    /// each drops its page cache whenever another one writes (docs/benchmarks.md, "What the hot
    /// paths' special cases bought": 4 against 16 connections cut the service's CPU per
    /// purchase from about 8 to under 5 ms).
    pub fn pool_size(&self) -> u32 {
        self.max_connections
            .unwrap_or(if self.url.expose().starts_with("sqlite:") {
                4
            } else {
                16
            })
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct DemoSettings {
    pub load_on_first_start: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CacheSettings {
    pub public_ttl_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ChainSettings {
    pub chain_id: u64,
    /// May carry a provider key in the URL, hence secrets.
    pub rpc_urls: Vec<Secret>,
    /// Upstreams of the public proxy (`POST /rpc`); empty: `rpc_urls`.
    pub proxy_rpc_urls: Vec<Secret>,
    #[serde(deserialize_with = "address")]
    pub usdg: Address,
    #[serde(deserialize_with = "address")]
    pub permit2: Address,
    #[serde(deserialize_with = "address")]
    pub permit2_proxy: Address,
    #[serde(deserialize_with = "address")]
    pub identity_registry: Address,
    #[serde(deserialize_with = "address")]
    pub reputation_registry: Address,
    /// The community token, its WETH pool, the pool's fee locker, WETH and an ETH / USD feed:
    /// the token ledger's contracts ("" = none; the ledger is null without the token).
    #[serde(deserialize_with = "optional_address")]
    pub token: Option<Address>,
    #[serde(deserialize_with = "optional_address")]
    pub pool: Option<Address>,
    #[serde(deserialize_with = "optional_address")]
    pub fee_locker: Option<Address>,
    #[serde(deserialize_with = "optional_address")]
    pub weth: Option<Address>,
    #[serde(deserialize_with = "optional_address")]
    pub eth_usd_feed: Option<Address>,
    pub check_interval_secs: u64,
    pub rpc_timeout_ms: u64,
    pub reorg_safe_distance: u64,
    /// Milliseconds between confirmation passes (settled payments and registrations that are
    /// not `reorg_safe_distance` deep yet).
    pub confirm_interval_ms: u64,
    pub quote_max_age_secs: u64,
    pub quote_cache_secs: u64,
    pub devnet_file: String,
    #[serde(default)]
    pub stock_tokens: BTreeMap<String, StockTokenSettings>,
    /// Test-only (builds with the `faults` feature; others refuse it): while a file exists at
    /// this path, every ChainWatch check panics (the actor is dead, restarted and counted until
    /// the file is removed). Not in config.toml on purpose.
    #[serde(default)]
    pub fault_panic_file: String,
}

/// The public JSON-RPC proxy's limits.
#[derive(Debug, Clone, Deserialize)]
pub struct RpcSettings {
    pub gas_cap: u64,
    pub fee_history_blocks: u64,
    pub max_state_age: u64,
    pub cache_bytes: u64,
    pub max_answer_bytes: usize,
    pub body_timeout_ms: u64,
}

/// Rate limits per client IP and route class.
#[derive(Debug, Clone, Deserialize)]
pub struct LimitSettings {
    pub enabled: bool,
    /// Peers whose `X-Forwarded-For` is believed (the reverse proxies in front).
    pub trusted_proxies: Vec<String>,
    /// Where the quotas are kept so that every instance naming it shares one quota per client
    /// (`redis://…`, may carry a password); empty: in this instance's memory.
    pub store: Secret,
    /// Prefix of the store's keys: instances that share quotas share it.
    pub store_prefix: String,
    /// The longest a request waits for the store before this instance decides alone.
    pub store_timeout_ms: u64,
    pub rpc: ClassLimit,
    pub auth: ClassLimit,
    pub pay: ClassLimit,
    pub publish: ClassLimit,
    pub reads: ClassLimit,
}

/// A sustained rate and the burst allowed above it.
#[derive(Debug, Clone, Deserialize)]
pub struct ClassLimit {
    pub per_minute: u32,
    pub burst: u32,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct StockTokenSettings {
    #[serde(deserialize_with = "address")]
    pub token: Address,
    #[serde(deserialize_with = "address")]
    pub price_feed: Address,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentSettings {
    pub enabled: bool,
    /// Empty: none (payments stay closed).
    #[serde(deserialize_with = "optional_address")]
    pub buyback_wallet: Option<Address>,
    pub facilitator: String,
    pub facilitator_token: Secret,
    pub relayer_key: Key,
    /// Private key (0x-hex) that signs purchase receipts (x402 offer-receipt); empty: none.
    #[serde(default)]
    pub receipt_key: Key,
    pub max_in_flight: usize,
    pub deadline_secs: u64,
    pub receipt_wait_ms: u64,
    pub lease_secs: u64,
    pub reconcile_every_ms: u64,
    pub instance_id: String,
    /// Test-only: where settlements stop as a crash would. Not in config.toml on purpose; a
    /// build without the `faults` feature accepts only `none`.
    #[serde(default)]
    pub fault: journal_market_actors::settlement::FaultPoint,
    pub sponsor: SponsorConfig,
}

/// `[payments.sponsor]`: x402 `erc20ApprovalGasSponsoring` with the built-in facilitator.
#[derive(Debug, Clone, Deserialize)]
pub struct SponsorConfig {
    pub enabled: bool,
    /// Funds the gas; empty: nothing is sponsored.
    pub key: Key,
    pub max_gas: u64,
    /// The gas bound (the approval's estimate × 1.25) is never below this.
    pub gas_floor: u64,
    /// In wei.
    pub max_fee_per_gas: u64,
    pub per_wallet_wei: u64,
    pub daily_wei: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AuthSettings {
    /// Empty: `__Host-` on an https origin, none on http ([`Settings::cookie_prefix`]).
    pub cookie_prefix: String,
    pub nonce_ttl_secs: u64,
    pub session_ttl_days: u64,
    pub session_cache_secs: u64,
    pub max_in_flight: usize,
    pub max_chain_checks: usize,
    pub signature_gas: u64,
    pub max_failures: u32,
    pub purge_every_secs: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PublishSettings {
    pub drafts_per_day: u32,
    pub audits_per_draft: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AuditConfig {
    pub engine: String,
    pub concurrency: usize,
    pub max_in_flight: usize,
    pub max_queued_per_wallet: usize,
    pub deadline_secs: u64,
    pub lease_secs: u64,
    pub sweep_every_ms: u64,
    pub llm_base_url: String,
    pub llm_model: String,
    pub llm_api_key: Secret,
    pub llm_timeout_secs: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct IndexerConfig {
    pub enabled: bool,
    pub start_block: u64,
    pub poll_ms: u64,
    pub max_range: u64,
    pub reorg_depth: u64,
    pub window: usize,
    pub ledger_max_age_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct WalletSettings {
    pub wc_project_id: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct MetricsSettings {
    /// Address of the Prometheus listener (`GET /metrics`); empty: no listener.
    pub listen: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LogSettings {
    pub filter: String,
    pub format: String,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(String);

impl Settings {
    /// Defaults, then `file` when given, then the environment.
    pub fn load(file: Option<&Path>) -> Result<Settings, ConfigError> {
        Self::load_from(file, Env::prefixed("JM__").split("__"))
    }

    fn load_from(file: Option<&Path>, env: Env) -> Result<Settings, ConfigError> {
        let mut fig = Figment::from(Toml::string(DEFAULT_TOML));
        if let Some(path) = file {
            if !path.exists() {
                return Err(ConfigError(format!("{} does not exist", path.display())));
            }
            fig = fig.merge(Toml::file(path));
        }
        let settings: Settings = fig.merge(env).extract().map_err(read_error)?;
        settings.validate()?;
        Ok(settings)
    }

    /// The checks [`Settings::load`] makes; the application makes them again at start, for
    /// settings built in code.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.server.api_prefix.starts_with('/') || self.server.api_prefix.ends_with('/') {
            return Err(ConfigError(
                "server.api_prefix must start with / and not end with /".into(),
            ));
        }
        if !(self.server.origin.starts_with("http://")
            || self.server.origin.starts_with("https://"))
        {
            return Err(ConfigError("server.origin must be an http(s) URL".into()));
        }
        if self.chain.rpc_urls.is_empty() {
            return Err(ConfigError("chain.rpc_urls needs at least one URL".into()));
        }
        check_cookie_prefix(&self.auth.cookie_prefix, &self.server.origin).map_err(ConfigError)?;
        if !journal_market_actors::FAULTS && !self.chain.fault_panic_file.trim().is_empty() {
            return Err(ConfigError(
                "chain.fault_panic_file is a test fault point; this build has none (the `faults` feature)".into(),
            ));
        }
        check_store(&self.limits)?;
        if self.database.max_connections == Some(0) {
            return Err(ConfigError(
                "database.max_connections must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The session cookie's name prefix in force: `auth.cookie_prefix`, or when that is empty
    /// `__Host-` on an https origin and none on http.
    pub fn cookie_prefix(&self) -> &str {
        match self.auth.cookie_prefix.as_str() {
            "" if self.server.origin.starts_with("https://") => HOST_PREFIX,
            p => p,
        }
    }

    /// The session cookie's name.
    pub fn cookie_name(&self) -> String {
        format!("{}svc_session", self.cookie_prefix())
    }

    /// The site origin without a trailing slash.
    pub fn origin(&self) -> &str {
        self.server.origin.trim_end_matches('/')
    }
}

/// A setting that does not read, named as the files spell it (`payments.relayer_key`: an
/// environment variable's key comes in upper case), with where it came from.
fn read_error(e: figment::Error) -> ConfigError {
    let all: Vec<String> = e
        .into_iter()
        .map(|e| {
            let from = e.metadata.as_ref().map(|m| m.name.to_string());
            let mut key = e.path.join(".");
            if from.as_deref().is_some_and(|f| f.contains("environment")) {
                key = key.to_lowercase();
            }
            let from = from.map(|f| format!(" (from {f})")).unwrap_or_default();
            match key.is_empty() {
                true => format!("{}{from}", e.kind),
                false => format!("{key}: {}{from}", e.kind),
            }
        })
        .collect();
    ConfigError(all.join("; "))
}

/// The shared rate-limit store, when one is named: a Redis URL without TLS (not built in), keys
/// under a prefix, and a time limit.
fn check_store(l: &LimitSettings) -> Result<(), ConfigError> {
    let url = l.store.expose().trim();
    if url.is_empty() {
        return Ok(());
    }
    if !["redis://", "redis+unix://", "unix://"]
        .iter()
        .any(|s| url.starts_with(s))
    {
        return Err(ConfigError(
            "limits.store must be a redis:// (or redis+unix://) URL; rediss:// (TLS) is not \
             built in: reach Redis over a private network"
                .into(),
        ));
    }
    if l.store_prefix.trim().is_empty() {
        return Err(ConfigError(
            "limits.store_prefix must not be empty: the store's keys need a namespace".into(),
        ));
    }
    if l.store_timeout_ms == 0 {
        return Err(ConfigError(
            "limits.store_timeout_ms must be at least 1".into(),
        ));
    }
    Ok(())
}

/// The cookie name prefix that binds a cookie to its exact origin: browsers keep it only when it
/// is Secure, has `Path=/` and no `Domain`, so no other host (a sibling subdomain) can set it.
pub const HOST_PREFIX: &str = "__Host-";

/// Whether `auth.cookie_prefix` can work with `origin` (why not, if it cannot). The session
/// cookie is `Secure` exactly on an https origin, with `Path=/` and no `Domain`:
/// - https: the prefix must start with `__Host-` (empty: `__Host-`). Anything else would let a
///   sibling subdomain plant a session, and nothing the service does needs a weaker cookie.
/// - http: no `__Host-` or `__Secure-` prefix (in any case, as newer browsers read them):
///   browsers drop such a cookie unless it is Secure, so nobody could sign in.
fn check_cookie_prefix(prefix: &str, origin: &str) -> Result<(), String> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if !prefix.chars().all(token) {
        return Err(format!(
            "auth.cookie_prefix {prefix:?} is not a cookie name (letters, digits and !#$%&'*+-.^_`|~)"
        ));
    }
    if origin.starts_with("https://") {
        if !prefix.is_empty() && !prefix.starts_with(HOST_PREFIX) {
            return Err(format!(
                "auth.cookie_prefix {prefix:?} on an https server.origin: the session cookie must \
                 be a __Host- cookie, or a sibling subdomain could plant a session in it; leave \
                 the key empty (the default, __Host-) or start it with __Host-"
            ));
        }
        return Ok(());
    }
    let lower = prefix.to_ascii_lowercase();
    if lower.starts_with("__host-") || lower.starts_with("__secure-") {
        return Err(format!(
            "auth.cookie_prefix {prefix:?} cannot work on the http server.origin {origin}: \
             browsers drop a __Host- or __Secure- cookie that is not Secure, and the session \
             cookie is Secure only on an https origin; leave the key empty"
        ));
    }
    Ok(())
}

/// `origin` with a port of 0 (`http://127.0.0.1:0`) given the listener's bound `port`: a
/// server on a free port (tests, several local instances) still names itself exactly, as the
/// sign-in-with-x challenge's domain must.
pub fn origin_on_port(origin: &str, port: u16) -> String {
    let o = origin.trim_end_matches('/');
    match o.strip_suffix(":0") {
        Some(host) if host.contains("://") => format!("{host}:{port}"),
        _ => origin.to_string(),
    }
}

#[cfg(test)]
mod tests;

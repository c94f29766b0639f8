//! Rate limits per client IP and route class (governor's GCRA, one keyed limiter per class).
//!
//! The client is the connection's peer, unless the peer is a configured trusted proxy: then it
//! is the right-most address of `X-Forwarded-For` that is not itself a trusted proxy (the
//! left-most entries are whatever the client wrote). Health endpoints are never limited, so an
//! orchestrator's probes always get through.
//!
//! With `limits.store` the quotas live in Redis instead ([`super::rate_limit_store`]), one per
//! client for every instance; the in-memory limiters then decide only while the store does not
//! answer.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::ServiceRequest;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::rate_limit_store::{Gcra, Store};
use crate::config::{ClassLimit, LimitSettings};
use crate::error::DomainError;
use crate::metrics::LimitStoreCounters;
use crate::toll::{Refused, Toll, Work};

/// The route classes, each with its own quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Rpc,
    /// Sign-in: nonces (which write a row each), verifies and logouts.
    Auth,
    Pay,
    /// Drafts, audits, registrations and vote reports.
    Publish,
    Reads,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Rpc => "rpc",
            Class::Auth => "auth",
            Class::Pay => "pay",
            Class::Publish => "publish",
            Class::Reads => "reads",
        }
    }
}

/// The class of a path below the API prefix; `None` for what is never limited.
pub fn classify(path: &str) -> Option<Class> {
    Some(match path {
        "/health" | "/health/ready" | "/health/actors" => return None,
        "/rpc" => Class::Rpc,
        p if p.starts_with("/auth/") => Class::Auth,
        p if p.starts_with("/pay/") => Class::Pay,
        "/journal/save" | "/journal/audit" | "/journal/minted" | "/votes/record" => Class::Publish,
        _ => Class::Reads,
    })
}

/// The class of a request: its path's, except that a read carrying a payment (the paid GET of
/// a journal's text) is counted as one: settling costs what `POST /pay/*` costs.
pub fn class_of(path: &str, paying: bool) -> Option<Class> {
    match classify(path)? {
        Class::Reads if paying => Some(Class::Pay),
        class => Some(class),
    }
}

/// Whether a request carries an x402 payment header.
fn carries_payment(req: &ServiceRequest) -> bool {
    let h = req.headers();
    h.contains_key(journal_market_x402::HEADER_SIGNATURE)
        || h.contains_key(journal_market_x402::HEADER_X_PAYMENT)
}

/// The client address a request is counted against.
pub fn client_ip(
    peer: Option<IpAddr>,
    forwarded_for: Option<&str>,
    trusted: &[IpAddr],
) -> Option<IpAddr> {
    let peer = peer?;
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let Some(list) = forwarded_for else {
        return Some(peer);
    };
    let mut last = peer;
    for hop in list.rsplit(',') {
        let Ok(ip) = hop.trim().parse::<IpAddr>() else {
            // A hop we cannot read: count against the last one we could.
            return Some(last);
        };
        if !trusted.contains(&ip) {
            return Some(ip);
        }
        last = ip;
    }
    Some(last)
}

pub struct RateLimits {
    enabled: bool,
    trusted: Vec<IpAddr>,
    limiters: [DefaultKeyedRateLimiter<IpAddr>; 5],
    clock: DefaultClock,
    /// The shared store, when one is named; the same quotas as `limiters`, as its script reads
    /// them.
    store: Option<(Store, [Gcra; 5])>,
    counters: LimitStoreCounters,
}

/// Why a request was refused: the class and how long until it would pass.
#[derive(Debug)]
pub struct Limited {
    pub class: Class,
    pub retry_after: Duration,
}

impl Limited {
    /// Whole seconds, rounded up (a client that waits them gets through).
    fn secs(&self) -> u64 {
        self.retry_after.as_secs() + 1
    }

    fn message(&self) -> String {
        format!(
            "too many {} requests from this address; retry in {} s",
            self.class.name(),
            self.secs()
        )
    }

    /// The 429.
    fn into_error(self) -> DomainError {
        DomainError::RateLimited {
            message: self.message(),
            retry_after_secs: self.secs(),
        }
    }
}

fn forwarded_for(req: &ServiceRequest) -> Option<&str> {
    req.headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
}

fn quota(c: &ClassLimit) -> Quota {
    // 0 is read as 1: a class cannot be shut off by a typo.
    let per_minute = NonZeroU32::new(c.per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(c.burst).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(burst)
}

fn gcra(c: &ClassLimit) -> Gcra {
    Gcra::new(c.per_minute, c.burst)
}

impl RateLimits {
    /// The limits of `s`, in memory only (`limits.store` is not read).
    pub fn new(s: &LimitSettings) -> anyhow::Result<Self> {
        let trusted = s
            .trusted_proxies
            .iter()
            .map(|t| {
                t.parse::<IpAddr>().map_err(|_| {
                    anyhow::anyhow!("limits.trusted_proxies: {t:?} is not an IP address")
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(RateLimits {
            enabled: s.enabled,
            trusted,
            limiters: [
                RateLimiter::keyed(quota(&s.rpc)),
                RateLimiter::keyed(quota(&s.auth)),
                RateLimiter::keyed(quota(&s.pay)),
                RateLimiter::keyed(quota(&s.publish)),
                RateLimiter::keyed(quota(&s.reads)),
            ],
            clock: DefaultClock::default(),
            store: None,
            counters: LimitStoreCounters::default(),
        })
    }

    /// The limits of `s`, with the store of `limits.store` when one is named (connected on first
    /// use; needs a Tokio runtime). Its failures are counted in `counters`.
    pub fn with_store(s: &LimitSettings, counters: LimitStoreCounters) -> anyhow::Result<Self> {
        let mut limits = Self::new(s)?;
        let url = s.store.expose().trim();
        if s.enabled && !url.is_empty() {
            let timeout = Duration::from_millis(s.store_timeout_ms.max(1));
            let store = Store::new(url, s.store_prefix.trim(), timeout, counters.clone())?;
            let quotas = [&s.rpc, &s.auth, &s.pay, &s.publish, &s.reads].map(gcra);
            limits.store = Some((store, quotas));
        }
        limits.counters = counters;
        Ok(limits)
    }

    /// Whether the quotas are shared through a store: then a check is a round trip to it
    /// ([`RateLimits::shared_refusal`]), and [`RateLimits::refusal`] is not to be used.
    pub fn shared(&self) -> bool {
        self.store.is_some()
    }

    /// The store, to ask it once at start; `None` in memory.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref().map(|(s, _)| s)
    }

    /// What a request is counted against: its class and its client; `None` when it is not
    /// limited.
    fn target(
        &self,
        class: Option<Class>,
        peer: Option<IpAddr>,
        forwarded_for: Option<&str>,
    ) -> Option<(Class, IpAddr)> {
        if !self.enabled {
            return None;
        }
        Some((class?, client_ip(peer, forwarded_for, &self.trusted)?))
    }

    /// Counts one request in this instance's memory.
    fn check_here(&self, class: Class, ip: IpAddr) -> Result<(), Limited> {
        let limiter = &self.limiters[class as usize];
        limiter.check_key(&ip).map_err(|not_until| Limited {
            class,
            retry_after: not_until.wait_time_from(self.clock.now()),
        })
    }

    /// Counts one unit of `class` against `ip`: in the shared store when there is one (in
    /// memory while it does not answer), else in memory.
    async fn check_class(&self, class: Class, ip: IpAddr) -> Result<(), Limited> {
        let Some((store, quotas)) = &self.store else {
            return self.check_here(class, ip);
        };
        match store.check(class.name(), ip, quotas[class as usize]).await {
            Some(verdict) => verdict.map_err(|retry_after| Limited { class, retry_after }),
            None => {
                self.counters.fallbacks.inc();
                self.check_here(class, ip)
            }
        }
    }

    /// Counts one request of `class` from this client in this instance's memory; `Err` when
    /// its class's quota is used up.
    pub fn check(
        &self,
        class: Option<Class>,
        peer: Option<IpAddr>,
        forwarded_for: Option<&str>,
    ) -> Result<(), Limited> {
        match self.target(class, peer, forwarded_for) {
            Some((class, ip)) => self.check_here(class, ip),
            None => Ok(()),
        }
    }

    /// The 429 for a request of `path` (below the API prefix) whose client has used up its
    /// class's quota in this instance's memory.
    pub fn refusal(&self, path: &str, req: &ServiceRequest) -> Option<DomainError> {
        let class = class_of(path, carries_payment(req));
        let l = self
            .check(class, req.peer_addr().map(|a| a.ip()), forwarded_for(req))
            .err()?;
        Some(l.into_error())
    }

    /// The 429 for a request whose client has used up its class's shared quota (in memory
    /// while the store does not answer, counted as a fallback).
    pub async fn shared_refusal(&self, path: &str, req: &ServiceRequest) -> Option<DomainError> {
        let class = class_of(path, carries_payment(req));
        let peer = req.peer_addr().map(|a| a.ip());
        let (class, ip) = self.target(class, peer, forwarded_for(req))?;
        let l = self.check_class(class, ip).await.err()?;
        Some(l.into_error())
    }

    /// What the request's client is charged for work its request causes beyond itself
    /// ([`Toll`]): a unit of its auth class for a contract wallet's signature check, one of its
    /// pay class for a payment its route did not count; `None` when limits are off.
    pub fn toll(limits: &Arc<RateLimits>, req: &ServiceRequest) -> Option<Toll> {
        if !limits.enabled {
            return None;
        }
        let peer = req.peer_addr().map(|a| a.ip());
        let ip = client_ip(peer, forwarded_for(req), &limits.trusted)?;
        let limits = limits.clone();
        Some(Toll::new(move |work| {
            let limits = limits.clone();
            let class = match work {
                Work::ChainCheck => Class::Auth,
                Work::Settlement => Class::Pay,
            };
            Box::pin(async move {
                limits.check_class(class, ip).await.map_err(|l| {
                    let retry_after_secs = l.secs();
                    Refused {
                        message: l.message(),
                        retry_after_secs,
                    }
                })
            })
        }))
    }

    /// Forgets clients whose quota is full again, so the maps do not grow with every address
    /// ever seen.
    pub fn forget_idle(&self) {
        for l in &self.limiters {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn classes() {
        assert_eq!(classify("/rpc"), Some(Class::Rpc));
        assert_eq!(classify("/auth/nonce"), Some(Class::Auth));
        assert_eq!(classify("/pay/burn"), Some(Class::Pay));
        assert_eq!(classify("/journal/audit"), Some(Class::Publish));
        assert_eq!(classify("/votes/record"), Some(Class::Publish));
        assert_eq!(classify("/journals"), Some(Class::Reads));
        assert_eq!(classify("/journal/5/draft"), Some(Class::Reads));
        assert_eq!(classify("/health/ready"), None);
        // A read that carries a payment is counted as one; other classes keep theirs.
        assert_eq!(class_of("/journals/a/text", true), Some(Class::Pay));
        assert_eq!(class_of("/journals/a/text", false), Some(Class::Reads));
        assert_eq!(class_of("/rpc", true), Some(Class::Rpc));
        assert_eq!(class_of("/health", true), None);
    }

    #[test]
    fn forwarded_for_is_read_only_from_trusted_proxies() {
        let proxy = ip("10.0.0.1");
        let trusted = [proxy, ip("10.0.0.2")];
        // Not a trusted peer: its header is ignored.
        assert_eq!(
            client_ip(Some(ip("1.2.3.4")), Some("9.9.9.9"), &trusted),
            Some(ip("1.2.3.4"))
        );
        // The right-most untrusted hop; what the client wrote to the left is ignored.
        assert_eq!(
            client_ip(Some(proxy), Some("6.6.6.6, 5.5.5.5, 10.0.0.2"), &trusted),
            Some(ip("5.5.5.5"))
        );
        assert_eq!(client_ip(Some(proxy), None, &trusted), Some(proxy));
        assert_eq!(
            client_ip(Some(proxy), Some("garbage, 10.0.0.2"), &trusted),
            Some(ip("10.0.0.2"))
        );
    }

    #[test]
    fn a_client_past_its_burst_waits_and_others_do_not() {
        let one = ClassLimit {
            per_minute: 60,
            burst: 2,
        };
        let s = LimitSettings {
            enabled: true,
            trusted_proxies: vec![],
            store: Default::default(),
            store_prefix: String::new(),
            store_timeout_ms: 100,
            rpc: one.clone(),
            auth: one.clone(),
            pay: one.clone(),
            publish: one.clone(),
            reads: one,
        };
        let l = RateLimits::new(&s).unwrap();
        let a = Some(ip("1.1.1.1"));
        let c = classify;
        assert!(l.check(c("/rpc"), a, None).is_ok());
        assert!(l.check(c("/rpc"), a, None).is_ok());
        let e = l.check(c("/rpc"), a, None).unwrap_err();
        assert_eq!(e.class, Class::Rpc);
        assert!(e.retry_after > Duration::ZERO && e.retry_after <= Duration::from_secs(1));
        // Another class, another client, the health probe: unaffected.
        assert!(l.check(c("/journals"), a, None).is_ok());
        assert!(l.check(c("/rpc"), Some(ip("2.2.2.2")), None).is_ok());
        assert!(l.check(c("/health/ready"), a, None).is_ok());
    }
}

//! Rate limits per client IP and route class (governor's GCRA, one keyed limiter per class).
//!
//! The client is the connection's peer, unless the peer is a configured trusted proxy: then it
//! is the right-most address of `X-Forwarded-For` that is not itself a trusted proxy (the
//! left-most entries are whatever the client wrote). Health endpoints are never limited, so an
//! orchestrator's probes always get through.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use actix_web::dev::ServiceRequest;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::config::{ClassLimit, LimitSettings};
use crate::error::ApiError;

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
}

/// Why a request was refused: the class and how long until it would pass.
#[derive(Debug)]
pub struct Limited {
    pub class: Class,
    pub retry_after: Duration,
}

fn quota(c: &ClassLimit) -> Quota {
    // 0 is read as 1: a class cannot be shut off by a typo.
    let per_minute = NonZeroU32::new(c.per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(c.burst).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(burst)
}

impl RateLimits {
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
        })
    }

    /// Counts one request of `path` (below the API prefix) from this client; `Err` when its
    /// class's quota is used up.
    pub fn check(
        &self,
        path: &str,
        peer: Option<IpAddr>,
        forwarded_for: Option<&str>,
    ) -> Result<(), Limited> {
        if !self.enabled {
            return Ok(());
        }
        let (Some(class), Some(ip)) = (
            classify(path),
            client_ip(peer, forwarded_for, &self.trusted),
        ) else {
            return Ok(());
        };
        let limiter = &self.limiters[class as usize];
        limiter.check_key(&ip).map_err(|not_until| Limited {
            class,
            retry_after: not_until.wait_time_from(self.clock.now()),
        })
    }

    /// The 429 for a request whose client has used up its class's quota (whole seconds,
    /// rounded up: a client that waits them gets through).
    pub fn refusal(&self, path: &str, req: &ServiceRequest) -> Option<ApiError> {
        let forwarded = req
            .headers()
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok());
        let l = self
            .check(path, req.peer_addr().map(|a| a.ip()), forwarded)
            .err()?;
        let secs = l.retry_after.as_secs() + 1;
        Some(ApiError::RateLimited {
            message: format!(
                "too many {} requests from this address; retry in {secs} s",
                l.class.name()
            ),
            retry_after_secs: secs,
        })
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
            rpc: one.clone(),
            auth: one.clone(),
            pay: one.clone(),
            publish: one.clone(),
            reads: one,
        };
        let l = RateLimits::new(&s).unwrap();
        let a = Some(ip("1.1.1.1"));
        assert!(l.check("/rpc", a, None).is_ok());
        assert!(l.check("/rpc", a, None).is_ok());
        let e = l.check("/rpc", a, None).unwrap_err();
        assert_eq!(e.class, Class::Rpc);
        assert!(e.retry_after > Duration::ZERO && e.retry_after <= Duration::from_secs(1));
        // Another class, another client, the health probe: unaffected.
        assert!(l.check("/journals", a, None).is_ok());
        assert!(l.check("/rpc", Some(ip("2.2.2.2")), None).is_ok());
        assert!(l.check("/health/ready", a, None).is_ok());
    }
}

//! The offer: the x402 challenge of a step's terms, the one builder of every 402 a purchase
//! answers (no payment yet, or a payment refused, saying why). The challenge is serialized once
//! per journal, step and recipient ([`Template`]); each answer fills in a fresh sign-in-with-x
//! nonce and its times.

use std::sync::Arc;

use alloy::primitives::{Address, U256};
use base64::Engine as _;
use chrono::{DateTime, Utc};
use journal_market_chain::bindings::IIdentityRegistry;
use journal_market_x402::extensions::{bazaar, gas_sponsoring, payment_identifier, siwx};
use journal_market_x402::{self as x402, PaymentRequired, Resource};

use super::terms::{Route, Terms, requirements};
use super::{DomainError, DomainResult, Purchases, Step};
use crate::error::Challenge;
use crate::queries::journals::LiveJournal;

/// What the plain challenge (no payment sent yet) says.
const PAYMENT_REQUIRED: &str =
    "payment required: sign the offer in accepts and send it in the PAYMENT-SIGNATURE header";

impl Purchases {
    /// The terms of an offer of `amount` to `pay_to` for the resource at `resource_url`.
    pub fn terms(&self, amount: i64, pay_to: Address, resource_url: String, route: Route) -> Terms {
        let a = &self.addresses;
        Terms {
            origin: self.site.origin().to_string(),
            api_prefix: self.site.api_prefix().to_string(),
            now: self.site.now(),
            chain_id: self.site.chain_id(),
            usdg: a.usdg,
            proxy: a.permit2_proxy,
            amount,
            pay_to,
            resource_url,
            route,
            sponsoring: self.sponsoring(),
        }
    }

    /// Whoever holds the journal's token now, read from the identity registry: the payee of
    /// the author's step.
    pub(super) async fn token_holder(&self, j: &LiveJournal) -> DomainResult<Address> {
        let token = j
            .token_id
            .as_deref()
            .and_then(|t| U256::from_str_radix(t, 10).ok())
            .ok_or_else(|| {
                DomainError::NotFound(format!(
                    "journal {} has no onchain token and is not on sale",
                    j.id
                ))
            })?;
        IIdentityRegistry::new(
            self.addresses.identity_registry,
            self.pay.facilitator.reader(),
        )
        .ownerOf(token)
        .call()
        .await
        .map_err(|_| {
            DomainError::unavailable(
                "the token's holder could not be read from the chain; retry shortly",
            )
        })
    }

    /// The plain challenge of `terms`: its template is kept per journal, step, recipient and
    /// resource until a write that public reads show.
    pub(super) async fn offer(
        &self,
        terms: &Terms,
        id: i32,
        step: Step,
    ) -> DomainResult<Challenge> {
        let key = (
            id,
            step.as_str(),
            terms.route.kind(),
            terms.pay_to,
            terms.resource_url.clone(),
        );
        // A resource that names its payer is one of as many as there are addresses: those are
        // kept apart, in a small cache of their own.
        let cache = match terms.resource_url.contains("?payer=") {
            true => &self.caches.payer_challenges,
            false => &self.caches.challenges,
        };
        let template = cache
            .get_or_try(&key, || async {
                Template::new(terms, PAYMENT_REQUIRED)
                    .map(Arc::new)
                    .map_err(unwritable)
            })
            .await?;
        fill(&template, terms.now, PAYMENT_REQUIRED)
    }
}

/// A payment refused or missing for a reason: a fresh challenge of `terms` saying why.
pub(super) fn refuse(why: String, terms: &Terms) -> DomainError {
    let challenge = Template::new(terms, &why)
        .map_err(unwritable)
        .and_then(|t| fill(&t, terms.now, &why));
    match challenge {
        Ok(c) => DomainError::PaymentRequired(Box::new(c)),
        Err(e) => e,
    }
}

fn unwritable(e: serde_json::Error) -> DomainError {
    DomainError::internal_msg(format!("the challenge could not be written: {e}"))
}

/// `template` with a sign-in-with-x nonce of its own (each answer carries one).
fn fill(template: &Template, now: DateTime<Utc>, why: &str) -> DomainResult<Challenge> {
    let fresh =
        Fresh::new(now).map_err(|_| DomainError::internal_msg("the random source failed"))?;
    let (body, header) = template.fill(&fresh);
    Ok(Challenge {
        why: why.to_string(),
        body,
        header,
    })
}

/// A fresh sign-in-with-x challenge: a nonce and the time it is issued at.
pub struct Fresh {
    /// 32 hex digits: the issue time's seconds (8), then 96 random bits (24).
    pub nonce: String,
    pub now: DateTime<Utc>,
}

impl Fresh {
    /// A nonce issued at `now` (the service's clock, which checks the proof). Used nonces are
    /// a table's key: nonces that start with their time land beside each other in its index,
    /// so a batch of them writes a page or two instead of a page each.
    pub fn new(now: DateTime<Utc>) -> Result<Fresh, getrandom::Error> {
        Ok(Fresh {
            nonce: time_ordered_nonce(now, random_12()?),
            now,
        })
    }
}

/// 12 bytes from the OS's random source, drawn 4 KiB at a time per thread: a challenge is the
/// hottest answer, and a system call each was a few percent of it.
fn random_12() -> Result<[u8; 12], getrandom::Error> {
    use std::cell::RefCell;
    const POOL: usize = 4096;
    thread_local! {
        static DRAWN: RefCell<(Box<[u8; POOL]>, usize)> = RefCell::new((Box::new([0; POOL]), POOL));
    }
    DRAWN.with(|d| {
        let (pool, used) = &mut *d.borrow_mut();
        if *used + 12 > POOL {
            getrandom::fill(&mut pool[..])?;
            *used = 0;
        }
        let mut out = [0u8; 12];
        out.copy_from_slice(&pool[*used..*used + 12]);
        // Each byte is handed out once.
        pool[*used..*used + 12].fill(0);
        *used += 12;
        Ok(out)
    })
}

fn time_ordered_nonce(now: DateTime<Utc>, random: [u8; 12]) -> String {
    let secs = u32::try_from(now.timestamp().max(0)).unwrap_or(u32::MAX);
    let mut hex = [b'0'; 32];
    // Both fit by length: 4 bytes in 8 digits, 12 in 24.
    let written = alloy::hex::encode_to_slice(secs.to_be_bytes(), &mut hex[..8])
        .and_then(|()| alloy::hex::encode_to_slice(random, &mut hex[8..]));
    debug_assert!(written.is_ok());
    hex.iter().map(|&b| char::from(b)).collect()
}

/// The challenge for `t` with the extensions every journal's 402 declares: `bazaar`,
/// `payment-identifier`, a `sign-in-with-x` with this nonce and these times, and
/// `erc20ApprovalGasSponsoring` when sponsored.
fn with_siwx(
    t: &Terms,
    error: impl Into<String>,
    nonce: &str,
    issued_at: &str,
    expires_at: &str,
) -> PaymentRequired {
    PaymentRequired {
        x402_version: x402::VERSION,
        error: error.into(),
        resource: Resource {
            url: t.resource_url.clone(),
            description: Some("the journal's full text".into()),
            mime_type: Some("application/json".into()),
        },
        accepts: vec![requirements(t)],
        extensions: Some({
            let mut e = serde_json::json!({
                bazaar::KEY: t.route.discovery(&t.api_prefix),
                payment_identifier::KEY: payment_identifier::declare(false),
                siwx::KEY: siwx::declare(
                    &t.origin,
                    &t.resource_url,
                    t.chain_id,
                    nonce,
                    issued_at,
                    expires_at,
                ),
            });
            if t.sponsoring {
                e[gas_sponsoring::KEY] = gas_sponsoring::declare();
            }
            e
        }),
    }
}

/// Stand-ins of the exact length of what they stand for (a nonce, two `ts` times).
const NONCE_MARK: &str = "@siwx-nonce-mark@@@@@@@@@@@@@@@@";
const ISSUED_MARK: &str = "@siwx-issued-mark@@Z";
const EXPIRES_MARK: &str = "@siwx-expires-mark@Z";
const MARKS: [&str; 3] = [NONCE_MARK, ISSUED_MARK, EXPIRES_MARK];

/// A serialized challenge whose SIWX nonce and times are filled in per answer: the rest is
/// serialized once, so a fresh challenge costs a copy and a base64 encoding.
pub struct Template {
    body: Vec<u8>,
    /// `body` in base64: a fill re-encodes only the few 3-byte groups that change.
    header: String,
    /// Where the nonce, the issue time and the expiry start in `body`.
    at: [usize; 3],
}

impl Template {
    pub fn new(t: &Terms, error: &str) -> Result<Template, serde_json::Error> {
        let c = with_siwx(t, error, NONCE_MARK, ISSUED_MARK, EXPIRES_MARK);
        let body = serde_json::to_vec(&c)?;
        let find = |mark: &str| {
            body.windows(mark.len())
                .position(|w| w == mark.as_bytes())
                .ok_or_else(|| serde::de::Error::custom(format!("the mark {mark} is missing")))
        };
        let at = [find(NONCE_MARK)?, find(ISSUED_MARK)?, find(EXPIRES_MARK)?];
        let header = base64::engine::general_purpose::STANDARD.encode(&body);
        Ok(Template { body, header, at })
    }

    /// The body with `fresh` filled in, and its PAYMENT-REQUIRED header value (standard
    /// base64, so ASCII).
    pub fn fill(&self, fresh: &Fresh) -> (Vec<u8>, Vec<u8>) {
        let mut body = self.body.clone();
        let mut header = self.header.clone().into_bytes();
        let (issued, expires) = times(&fresh.now);
        let values = [fresh.nonce.as_bytes(), &issued[..], &expires[..]];
        for ((at, mark), value) in self.at.iter().zip(MARKS).zip(values) {
            // Same lengths by construction (a year past 9999 would not fit: `times` writes `?`s).
            if value.len() == mark.len()
                && let Some(dst) = body.get_mut(*at..*at + mark.len())
            {
                dst.copy_from_slice(value);
                splice_base64(&mut header, &body, *at, *at + mark.len());
            }
        }
        (body, header)
    }
}

/// `siwx::ts` of `now` and of the proof's expiry after it, formatted once per second and
/// thread: every challenge of that second carries the same two.
fn times(now: &DateTime<Utc>) -> ([u8; 20], [u8; 20]) {
    use std::cell::Cell;
    /// A second, and its two times.
    type Second = (i64, [u8; 20], [u8; 20]);
    thread_local! {
        static LAST: Cell<Option<Second>> = const { Cell::new(None) };
    }
    let secs = now.timestamp();
    if let Some((at, issued, expires)) = LAST.get()
        && at == secs
    {
        return (issued, expires);
    }
    let to_20 = |s: String| {
        let mut out = [b'?'; 20];
        if s.len() == out.len() {
            out.copy_from_slice(s.as_bytes());
        }
        out
    };
    let issued = to_20(siwx::ts(now));
    let expires = to_20(siwx::ts(
        &(*now + chrono::Duration::seconds(siwx::MAX_AGE_SECS)),
    ));
    LAST.set(Some((secs, issued, expires)));
    (issued, expires)
}

/// Re-encodes into `header` (the standard base64 of `body` before bytes `from..to` changed)
/// the 3-byte groups holding those bytes: base64 maps each group to its own 4 characters.
fn splice_base64(header: &mut [u8], body: &[u8], from: usize, to: usize) {
    let first = from / 3;
    let end = to.div_ceil(3).saturating_mul(3).min(body.len());
    let Some(bytes) = body.get(first * 3..end) else {
        return;
    };
    let mut chunk = [0u8; 64];
    let Ok(n) = base64::engine::general_purpose::STANDARD.encode_slice(bytes, &mut chunk) else {
        return;
    };
    if let Some(dst) = header.get_mut(first * 4..first * 4 + n) {
        dst.copy_from_slice(&chunk[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::terms::tests::terms;
    use super::*;

    /// The challenge serialized directly, without a template: what a template must fill to.
    fn challenge(t: &Terms, why: &str, fresh: &Fresh) -> serde_json::Value {
        let expires = fresh.now + chrono::Duration::seconds(siwx::MAX_AGE_SECS);
        let c = with_siwx(
            t,
            why,
            &fresh.nonce,
            &siwx::ts(&fresh.now),
            &siwx::ts(&expires),
        );
        serde_json::to_value(c).unwrap()
    }

    #[test]
    fn gas_sponsoring_is_declared_only_when_sponsored_and_the_header_stays_small() {
        let fresh = Fresh::new(Utc::now()).unwrap();
        let plain = challenge(&terms(), "payment required", &fresh);
        assert!(plain["extensions"].get(gas_sponsoring::KEY).is_none());
        let t = Terms {
            sponsoring: true,
            resource_url: format!("http://x/api/journals/{}/text", "a".repeat(120)),
            ..terms()
        };
        let c = challenge(&t, "payment required", &fresh);
        assert_eq!(
            c["extensions"][gas_sponsoring::KEY],
            gas_sponsoring::declare()
        );
        // x402conf P6: a PAYMENT-REQUIRED header under 8 KB, even with a long slug.
        let (_, header) = Template::new(&t, "payment required").unwrap().fill(&fresh);
        assert!(header.len() < 8 * 1024, "{} bytes", header.len());
    }

    #[test]
    fn the_challenge_has_the_interface_shape() {
        let c = challenge(
            &terms(),
            "payment required",
            &Fresh::new(Utc::now()).unwrap(),
        );
        assert_eq!(c["x402Version"], 2);
        let a = &c["accepts"][0];
        assert_eq!(a["scheme"], "exact");
        assert_eq!(a["network"], "eip155:4663");
        assert_eq!(a["amount"], "100000");
        assert_eq!(a["maxTimeoutSeconds"], 300);
        assert_eq!(a["extra"]["assetTransferMethod"], "permit2");
        assert_eq!(a["extra"]["name"], "USDG");
        assert_eq!(c["resource"]["url"], "http://x/api/pay/burn");
        assert_eq!(
            c["extensions"]["payment-identifier"]["info"],
            serde_json::json!({ "required": false })
        );
    }

    #[test]
    fn a_template_fills_a_fresh_sign_in_per_answer() {
        let t = terms();
        let tpl = Template::new(&t, "payment required").unwrap();
        let fresh = Fresh {
            nonce: "0123456789abcdef0123456789abcdef".into(),
            now: DateTime::parse_from_rfc3339("2026-11-24T10:00:00Z")
                .unwrap()
                .with_timezone(&Utc),
        };
        let (body, header) = tpl.fill(&fresh);
        let filled: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let direct = challenge(&t, "payment required", &fresh);
        assert_eq!(filled, direct, "the template is the challenge");
        let from_header: serde_json::Value =
            x402::decode_header(std::str::from_utf8(&header).unwrap()).unwrap();
        assert_eq!(from_header, filled);
        let info = &filled["extensions"]["sign-in-with-x"]["info"];
        assert_eq!(info["nonce"], "0123456789abcdef0123456789abcdef");
        assert_eq!(info["issuedAt"], "2026-11-24T10:00:00Z");
        assert_eq!(info["expirationTime"], "2026-11-24T10:05:00Z");
        assert_eq!(info["domain"], "x");
        assert_eq!(info["uri"], "http://x/api/pay/burn");
        let (other, _) = tpl.fill(&Fresh::new(Utc::now()).unwrap());
        assert_ne!(other, body, "each answer has its own nonce");
        // The spliced header is the body's whole encoding, whatever the marks' alignment.
        for n in 0..40 {
            let t = Terms {
                resource_url: format!("http://x/api/journals/{}/text", "s".repeat(n)),
                ..terms()
            };
            let tpl = Template::new(&t, "payment required").unwrap();
            let (body, header) = tpl.fill(&Fresh::new(Utc::now()).unwrap());
            assert_eq!(
                header,
                base64::engine::general_purpose::STANDARD
                    .encode(&body)
                    .into_bytes()
            );
        }
    }

    #[test]
    fn the_times_formatted_once_a_second_are_the_seconds_own() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        for (now, later) in [
            ("2026-11-24T10:00:00.100Z", "2026-11-24T10:05:00Z"),
            ("2026-11-24T10:00:00.900Z", "2026-11-24T10:05:00Z"),
            ("2026-11-24T10:00:01Z", "2026-11-24T10:05:01Z"),
            ("2026-11-24T09:59:59Z", "2026-11-24T10:04:59Z"),
        ] {
            let (issued, expires) = times(&at(now));
            assert_eq!(&issued, siwx::ts(&at(now)).as_bytes(), "{now}");
            assert_eq!(&expires, later.as_bytes(), "{now}");
        }
    }

    #[test]
    fn nonces_sort_by_the_time_they_are_issued() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        let a = time_ordered_nonce(at("2026-11-24T10:00:00Z"), [0xff; 12]);
        let b = time_ordered_nonce(at("2026-11-24T10:00:01Z"), [0; 12]);
        assert!(a < b);
        assert_eq!(a.len(), 32);
        assert!(b.bytes().all(|c| c.is_ascii_hexdigit()));
        let fresh = Fresh::new(at("2026-11-24T10:00:00Z")).unwrap();
        assert_eq!(&fresh.nonce[..8], &a[..8]);
        // Across refills of the thread's pool, no nonce twice.
        let many: std::collections::HashSet<String> = (0..2_000)
            .map(|_| Fresh::new(fresh.now).unwrap().nonce)
            .collect();
        assert_eq!(many.len(), 2_000);
    }
}

//! A request id per request: the one a trusted front (a reverse proxy) sent in `X-Request-Id`
//! when it looks like an id, else a new one. It goes into every log line written while the
//! request's handler runs (a task-local that the log format reads: [`crate::telemetry`]) and
//! back to the client in the `X-Request-Id` header, so an operator can find a user's failed
//! request in the logs. A task-local, not a tracing span: a span cost a tenth of a 402
//! challenge's time (its fields formatted when it opens, entered and left at every poll).

use std::future::Future;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use actix_web::http::header::{HeaderName, HeaderValue};

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    static CURRENT: HeaderValue;
}

/// Ids are this process's random prefix and a counter: unique across instances, no syscall
/// per request.
fn prefix() -> u32 {
    static PREFIX: OnceLock<u32> = OnceLock::new();
    *PREFIX.get_or_init(|| {
        let mut b = [0u8; 4];
        getrandom::fill(&mut b).ok();
        u32::from_le_bytes(b)
    })
}

/// Whether a client's id may be kept: 1 to 64 characters of `[A-Za-z0-9._-]` (nothing that
/// could forge a log line or a header).
fn acceptable(s: &[u8]) -> bool {
    (1..=64).contains(&s.len())
        && s.iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// `prefix` and `n` as 8 and 10 lowercase hex digits (`n` modulo 16^10).
fn fresh(prefix: u32, n: u64) -> [u8; 18] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 18];
    for (i, b) in out.iter_mut().enumerate() {
        let nibble = if i < 8 {
            (u64::from(prefix) >> (4 * (7 - i))) & 0xf
        } else {
            (n >> (4 * (17 - i))) & 0xf
        };
        *b = HEX[nibble as usize];
    }
    out
}

/// The id of a request that came with `incoming` (the header's value, if any).
pub fn of(incoming: Option<&HeaderValue>) -> HeaderValue {
    if let Some(id) = incoming.filter(|v| acceptable(v.as_bytes())) {
        return id.clone();
    }
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let id = fresh(prefix(), NEXT.fetch_add(1, Ordering::Relaxed));
    // Hex digits are always a valid header value.
    HeaderValue::from_bytes(&id).unwrap_or(HeaderValue::from_static("0"))
}

/// `fut` with `id` as the request id of the log lines it writes.
pub fn scope<F: Future>(id: HeaderValue, fut: F) -> impl Future<Output = F::Output> {
    CURRENT.scope(id, fut)
}

/// `f` run with `id` as the request id of the log lines it writes.
pub fn sync_scope<R>(id: HeaderValue, f: impl FnOnce() -> R) -> R {
    CURRENT.sync_scope(id, f)
}

/// The request id of the running request, if any (only read when a log line is written).
pub fn current() -> Option<HeaderValue> {
    CURRENT.try_with(HeaderValue::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &HeaderValue) -> &str {
        v.to_str().unwrap()
    }

    #[test]
    fn keeps_sane_ids_and_makes_new_ones() {
        let sane = HeaderValue::from_static("abc-123_x.y");
        assert_eq!(text(&of(Some(&sane))), "abc-123_x.y");
        let long = "a".repeat(65);
        for bad in ["", "a b", "x\ty", &long] {
            let v = HeaderValue::from_str(bad).unwrap();
            let id = of(Some(&v));
            assert_ne!(text(&id), bad);
            assert!(acceptable(id.as_bytes()), "{id:?}");
        }
        let unicode = HeaderValue::from_bytes("ünï".as_bytes()).unwrap();
        assert!(acceptable(of(Some(&unicode)).as_bytes()));
        let (a, b) = (of(None), of(None));
        assert_ne!(a, b);
        assert_eq!(a.len(), 18);
        assert_eq!(text(&a)[..8], text(&b)[..8], "one prefix per process");
    }

    #[test]
    fn new_ids_are_the_prefix_and_the_counter_in_hex() {
        assert_eq!(&fresh(0xdead_beef, 0x1f), b"deadbeef000000001f");
        assert_eq!(&fresh(0, u64::MAX), b"00000000ffffffffff");
        assert_eq!(
            fresh(0x0123_4567, 42),
            *format!("{:08x}{:010x}", 0x0123_4567u32, 42u64).as_bytes()
        );
    }

    #[tokio::test]
    async fn the_id_is_there_while_its_request_runs() {
        assert_eq!(current(), None);
        let id = HeaderValue::from_static("req-1");
        let inside = scope(id.clone(), async {
            tokio::task::yield_now().await;
            current()
        })
        .await;
        assert_eq!(inside.as_ref(), Some(&id));
        assert_eq!(sync_scope(id.clone(), current).as_ref(), Some(&id));
        assert_eq!(current(), None);
    }
}

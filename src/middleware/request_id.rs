//! A request id per request: the one a trusted front (a reverse proxy) sent in `X-Request-Id`
//! when it looks like an id, else a new one. It goes into every log line of the request (a
//! tracing span) and back to the client in the `X-Request-Id` header, so an operator can find
//! a user's failed request in the logs.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

pub const HEADER: &str = "x-request-id";

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
fn acceptable(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The id of a request that came with `incoming` (the header's value, if any).
pub fn of(incoming: Option<&str>) -> String {
    if let Some(id) = incoming.filter(|s| acceptable(s)) {
        return id.to_string();
    }
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{:08x}{n:010x}", prefix())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_sane_ids_and_makes_new_ones() {
        assert_eq!(of(Some("abc-123_x.y")), "abc-123_x.y");
        for bad in ["", "a b", "x\r\ny", &"a".repeat(65), "ünï"] {
            let id = of(Some(bad));
            assert_ne!(id, bad);
            assert!(acceptable(&id), "{id}");
        }
        let (a, b) = (of(None), of(None));
        assert_ne!(a, b);
        assert_eq!(a.len(), 18);
        assert_eq!(a[..8], b[..8], "one prefix per process");
    }
}

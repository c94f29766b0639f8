//! Identical upstream requests in flight, shared: the first call sends, the calls that arrive
//! while it runs wait for its answer instead of sending their own.

use std::future::Future;
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use tokio::sync::Notify;

/// Requests in flight by key.
pub struct Flights<T> {
    map: DashMap<String, Arc<Flight<T>>>,
}

struct Flight<T> {
    /// The answer; `None` when the call that sent the request was dropped before it.
    answer: OnceLock<Option<T>>,
    landed: Notify,
}

/// The call that sends a flight's request. However it ends (answered, or dropped with its
/// client), the flight lands: the calls waiting on it wake, and the next call with its key
/// sends a new request.
struct Lead<'a, T> {
    map: &'a DashMap<String, Arc<Flight<T>>>,
    key: String,
    flight: Arc<Flight<T>>,
}

impl<T> Lead<'_, T> {
    fn land(&self, answer: Option<T>) {
        let _ = self.flight.answer.set(answer);
        self.map
            .remove_if(&self.key, |_, f| Arc::ptr_eq(f, &self.flight));
        self.flight.landed.notify_waiters();
    }
}

impl<T> Drop for Lead<'_, T> {
    fn drop(&mut self) {
        if self.flight.answer.get().is_none() {
            self.land(None);
        }
    }
}

impl<T: Clone> Flights<T> {
    pub fn new() -> Self {
        Flights {
            map: DashMap::new(),
        }
    }

    /// `send()`'s answer, or the answer of the request with the same key already in flight
    /// (then `true`). A call whose request's sender was dropped sends its own.
    pub async fn share<F, Fut>(&self, key: String, send: F) -> (T, bool)
    where
        F: Fn() -> Fut,
        Fut: Future<Output = T>,
    {
        let joined = match self.map.entry(key) {
            Entry::Occupied(e) => Err(e.get().clone()),
            Entry::Vacant(e) => {
                let flight = Arc::new(Flight {
                    answer: OnceLock::new(),
                    landed: Notify::new(),
                });
                let lead = Lead {
                    map: &self.map,
                    key: e.key().clone(),
                    flight: flight.clone(),
                };
                e.insert(flight);
                Ok(lead)
            }
        };
        match joined {
            Ok(lead) => {
                let answer = send().await;
                lead.land(Some(answer.clone()));
                (answer, false)
            }
            Err(flight) => {
                // Made before the answer is looked at, so a landing in between still wakes it.
                let landed = flight.landed.notified();
                if flight.answer.get().is_none() {
                    landed.await;
                }
                match flight.answer.get() {
                    Some(Some(answer)) => (answer.clone(), true),
                    _ => (send().await, false),
                }
            }
        }
    }

    /// Requests in flight now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.map.len()
    }
}

impl<T: Clone> Default for Flights<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    async fn slow(sent: &AtomicUsize, ms: u64) -> usize {
        let n = sent.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::time::sleep(Duration::from_millis(ms)).await;
        n
    }

    #[tokio::test]
    async fn calls_in_flight_share_one_request() {
        let (flights, sent) = (Flights::new(), AtomicUsize::new(0));
        let call = |k: &str| flights.share(k.to_string(), || slow(&sent, 50));
        let (a, b, c, other) = tokio::join!(call("k"), call("k"), call("k"), call("j"));
        assert_eq!(sent.load(Ordering::SeqCst), 2, "one request per key");
        assert_eq!([a.0, b.0, c.0].iter().filter(|n| **n == a.0).count(), 3);
        assert_eq!([a.1, b.1, c.1].iter().filter(|j| **j).count(), 2);
        assert!(!other.1);
        assert_eq!(flights.len(), 0, "landed flights are forgotten");
        // After it landed, the same key sends again.
        let (n, joined) = call("k").await;
        assert_eq!((n, joined), (3, false));
    }

    #[tokio::test]
    async fn a_call_waiting_on_a_dropped_one_sends_its_own() {
        let (flights, sent) = (Flights::new(), AtomicUsize::new(0));
        let call = || flights.share("k".to_string(), || slow(&sent, 200));
        let first = tokio::time::timeout(Duration::from_millis(50), call());
        let (first, second) = tokio::join!(first, async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            call().await
        });
        assert!(first.is_err(), "the first call was dropped");
        assert_eq!(second, (2, false), "the second sent its own request");
        assert_eq!(flights.len(), 0);
    }
}

//! A deadline for every request body: a client that sends its headers, then its body a byte at a
//! time (or never), holds a connection and a handler only until `server.body_timeout_ms` after
//! its headers arrived. Then the body reads as broken, and the answer, whatever the handler
//! made of the broken body, is 408 `{ "error" }`. Requests without a body carry no timer.

use std::cell::Cell;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::Bytes;
use futures::{Future, Stream};

use crate::error::DomainError;

/// The sentence of the 408 (and of `/rpc`'s, in its JSON-RPC error).
pub const TOO_SLOW: &str = "the request body did not arrive in time";

/// Whether a request's body ran out of time; shared by the body and the answer.
#[derive(Clone, Default)]
pub struct Expired(Rc<Cell<bool>>);

impl Expired {
    pub fn get(&self) -> bool {
        self.0.get()
    }

    /// The 408 that replaces the handler's answer.
    pub fn error() -> DomainError {
        DomainError::TooSlow(format!("{TOO_SLOW}; send it at once after the headers"))
    }
}

/// Whether a request says it has a body.
fn has_body(req: &ServiceRequest) -> bool {
    let h = req.headers();
    h.contains_key(header::TRANSFER_ENCODING)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

/// Puts the deadline on `req`'s body, when it has one.
pub fn arm(req: ServiceRequest, timeout: Duration) -> (ServiceRequest, Option<Expired>) {
    if timeout.is_zero() || !has_body(&req) {
        return (req, None);
    }
    let expired = Expired::default();
    let (http, payload) = req.into_parts();
    let body = Deadline {
        inner: payload,
        sleep: Box::pin(tokio::time::sleep(timeout)),
        expired: expired.clone(),
    };
    let body: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(body);
    let payload = Payload::from(body);
    (ServiceRequest::from_parts(http, payload), Some(expired))
}

/// Whether a body error is the deadline's.
pub fn is_timeout(e: &PayloadError) -> bool {
    matches!(e, PayloadError::Io(io) if io.kind() == io::ErrorKind::TimedOut)
}

struct Deadline {
    inner: Payload,
    sleep: Pin<Box<tokio::time::Sleep>>,
    expired: Expired,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.expired.get() {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Pending if this.sleep.as_mut().poll(cx).is_ready() => {
                this.expired.0.set(true);
                Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(
                    io::ErrorKind::TimedOut,
                    TOO_SLOW,
                )))))
            }
            other => other,
        }
    }
}

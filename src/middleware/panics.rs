//! A panic in a handler answers 500 with the usual JSON body instead of dropping the
//! connection; the panic goes to the log, never to the client.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use actix_web::Error;
use futures::FutureExt;

use crate::error::DomainError;

pub fn caught<T>(
    work: impl Future<Output = Result<T, Error>>,
) -> impl Future<Output = Result<T, Error>> {
    AssertUnwindSafe(work).catch_unwind().map(|res| {
        res.unwrap_or_else(|_| {
            tracing::error!("a request handler panicked");
            Err(DomainError::internal(anyhow::anyhow!("handler panicked")).into())
        })
    })
}

//! What every request passes through, one concern per module: rate limits, the cross-site
//! check, request ids, the access log, the security headers, panic catching (composed in [`Edge`], one layer: each
//! layer of actix middleware costs a boxed future per request), response compression and the
//! request metrics (layers of their own, each switched off as a whole by settings). With a
//! shared rate-limit store the refusals wait for its answer in [`shared::SharedLimits`], a layer
//! just inside [`Edge`] that only passes requests through when the limits are in memory.

pub mod access_log;
pub mod body_deadline;
pub mod compress;
pub mod csrf;
pub mod metrics;
pub mod panics;
pub mod rate_limit;
pub mod rate_limit_store;
pub mod request_id;
pub mod security;
pub mod shared;

use std::future::Future;
use std::sync::Arc;

use actix_web::dev::{Service, ServiceRequest, ServiceResponse};
use actix_web::{Error, ResponseError};
use futures::future::Either;

use crate::error::DomainError;
use rate_limit::RateLimits;

/// Requests with a `SIGN-IN-WITH-X` proof carry their client's toll ([`crate::toll::Toll`]).
const SIWX_HEADER: actix_web::http::header::HeaderName =
    actix_web::http::header::HeaderName::from_static(journal_market_x402::extensions::siwx::HEADER);

/// MCP calls carry their client's toll too: their proofs and payments are in the body.
const MCP_PATH: &str = "/mcp";

/// The per-request layer: refusals first (429, then 403 for a cross-site change), then the
/// handler with panics caught, its log lines carrying the request's id, which goes back in the
/// answer.
pub struct Edge {
    pub limits: Arc<RateLimits>,
    /// The API prefix: rate-limit classes are told by the path below it.
    pub prefix: String,
    pub cookie_name: String,
    pub origin: String,
    /// How long a request's body may take to arrive after its headers (`server.body_timeout_ms`).
    pub body_timeout: std::time::Duration,
}

impl Edge {
    /// The 403 for a state-changing request with the session cookie from another site.
    pub fn cross_site(&self, req: &ServiceRequest) -> Option<DomainError> {
        csrf::foreign_origin(req, &self.cookie_name, &self.origin).map(DomainError::Forbidden)
    }

    /// The path a request is counted by, below the API prefix: the path as the router reads it
    /// (percent-escapes of unreserved characters decoded, so `/api/%70ay/burn` is
    /// `/pay/burn`), never the raw one. Outside the API (the pages, the assets) it is `""`,
    /// which is a read.
    pub fn limited_path<'r>(&self, req: &'r ServiceRequest) -> &'r str {
        let path = req.match_info().get_ref().path();
        match path.strip_prefix(self.prefix.as_str()) {
            Some(rest) if rest.starts_with('/') => rest,
            _ => "",
        }
    }

    pub fn call<S>(
        &self,
        req: ServiceRequest,
        srv: &S,
    ) -> impl Future<Output = Result<ServiceResponse, Error>> + use<S>
    where
        S: Service<ServiceRequest, Response = ServiceResponse, Error = Error>,
    {
        let id = request_id::of(req.headers().get(request_id::HEADER));
        let line = access_log::Line::start(req.method().as_str(), req.path());
        let path = self.limited_path(&req);
        // Shared limits need a round trip: SharedLimits, inside, refuses then (in this order).
        let refusal = if self.limits.shared() {
            None
        } else {
            self.limits
                .refusal(path, &req)
                .or_else(|| self.cross_site(&req))
        };
        let mut expired = None;
        let answer = match refusal {
            Some(e) => {
                let resp = e.error_response();
                Either::Left(futures::future::ready(Ok(req.into_response(resp))))
            }
            // The scope is outside the catch, so a panic's log line carries the id too.
            None => {
                if (req.headers().contains_key(SIWX_HEADER)
                    || req.match_info().get_ref().path() == MCP_PATH)
                    && let Some(toll) = RateLimits::toll(&self.limits, &req)
                {
                    actix_web::HttpMessage::extensions_mut(&req).insert(toll);
                }
                let (req, armed) = body_deadline::arm(req, self.body_timeout);
                expired = armed;
                Either::Right(request_id::scope(id.clone(), panics::caught(srv.call(req))))
            }
        };
        async move {
            let mut res = answer.await;
            // A body that ran out of time is the answer, whatever the handler made of it.
            if let (Some(e), Ok(r)) = (&expired, &mut res)
                && e.get()
                && r.status() != actix_web::http::StatusCode::REQUEST_TIMEOUT
            {
                let resp = body_deadline::Expired::error().error_response();
                *r = ServiceResponse::new(r.request().clone(), resp);
            }
            if let Ok(r) = &mut res {
                let h = r.headers_mut();
                h.insert(request_id::HEADER, id.clone());
                security::protect(h);
            }
            if let Some(line) = line {
                let status = match &res {
                    Ok(r) => r.status(),
                    Err(e) => e.as_response_error().status_code(),
                };
                request_id::sync_scope(id, || line.finish(status));
            }
            res
        }
    }
}

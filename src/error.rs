//! The one error vocabulary of the service: every service and handler answers with a
//! [`DomainError`], each kind with a stable code ([`DomainError::code`], in logs), mapped to an
//! HTTP status and a `{ "error" }` body in one place ([`ResponseError`] below). The actors'
//! own errors become it here, through `From`. Internal causes are logged with their whole
//! chain and never sent to the client.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, ContentType, HeaderName, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use journal_market_actors::audit::AuditError;
use journal_market_actors::session::AuthError;
use journal_market_api::ErrorBody;

/// An x402 challenge as answered: its JSON body and the same in base64 (PAYMENT-REQUIRED), and
/// what its `error` says. Written by the purchase's offer, the one builder of a 402.
#[derive(Debug, Clone)]
pub struct Challenge {
    pub why: String,
    pub body: Vec<u8>,
    pub header: Vec<u8>,
}

/// The 402 of a challenge. Every 402 a purchase answers, a plain challenge or a refused
/// payment, is written here.
pub fn payment_required(c: Challenge) -> HttpResponse {
    // The x402 header's name, parsed once (a `&str` name is parsed at every use).
    const PAYMENT_REQUIRED: HeaderName =
        HeaderName::from_static(journal_market_x402::HEADER_REQUIRED);
    HttpResponse::PaymentRequired()
        .insert_header((PAYMENT_REQUIRED, base64_header(c.header)))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type(ContentType::json())
        .body(c.body)
}

/// A header value of standard base64, without the byte-by-byte check `HeaderValue::from_str`
/// makes: on a 5.5 KB challenge that check was an eighth of the service's time per 402.
fn base64_header(b64: Vec<u8>) -> HeaderValue {
    debug_assert!(
        b64.iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    );
    // SAFETY: standard base64 is written in A–Z, a–z, 0–9, `+`, `/` and `=`, all visible
    // ASCII, which is every byte a header value may hold.
    unsafe { HeaderValue::from_maybe_shared_unchecked(actix_web::web::Bytes::from(b64)) }
}

#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// 409 with `Retry-After`: a payment is on its way; the same request later gets its outcome.
    #[error("{0}")]
    StillSettling(String),
    /// 409 with `Retry-After`: what the request needs is on its way (a transaction not mined).
    #[error("{0}")]
    Pending(String),
    /// 402: the x402 challenge (or a refused payment) with its offer, also sent base64 in the
    /// PAYMENT-REQUIRED header.
    #[error("{}", .0.why)]
    PaymentRequired(Box<Challenge>),
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 408: the request body did not arrive within `server.body_timeout_ms`.
    #[error("{0}")]
    TooSlow(String),
    /// 422 of a draft's validation: every broken rule in `problems`.
    #[error("{message}")]
    Unprocessable {
        message: String,
        problems: Vec<String>,
    },
    /// 422 of anything else that is well-formed but not what the call takes (a transaction
    /// that is not a vote or a registration): no `problems`.
    #[error("{0}")]
    Unacceptable(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// 429 with `Retry-After`: a quota that frees up later.
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_secs: u64,
    },
    #[error("{message}")]
    Unavailable {
        message: String,
        retry_after_secs: Option<u64>,
    },
    /// A database error that is not an outage (see [`DomainError::db`]).
    #[error("the database could not complete the request")]
    Database(sea_orm::DbErr),
    #[error("an internal error occurred")]
    Internal(#[source] anyhow::Error),
}

impl From<sea_orm::DbErr> for DomainError {
    fn from(e: sea_orm::DbErr) -> Self {
        DomainError::db(e)
    }
}

impl From<serde_json::Error> for DomainError {
    /// Only our own answers are serialized with it: a failure is ours.
    fn from(e: serde_json::Error) -> Self {
        DomainError::internal(e)
    }
}

impl From<AuthError> for DomainError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::BadAddress => DomainError::BadRequest(e.to_string()),
            AuthError::Busy | AuthError::TimedOut | AuthError::Chain => {
                DomainError::unavailable(e.to_string())
            }
            AuthError::Db(db) => DomainError::db(db),
            AuthError::Random => DomainError::internal(anyhow::anyhow!("random source failed")),
            AuthError::RateLimited {
                message,
                retry_after_secs,
            } => DomainError::RateLimited {
                message,
                retry_after_secs,
            },
            _ => DomainError::Unauthorized(e.to_string()),
        }
    }
}

impl From<AuditError> for DomainError {
    fn from(e: AuditError) -> Self {
        let text = e.to_string();
        match e {
            AuditError::TooMany(_) => DomainError::TooManyRequests(text),
            AuditError::NotFound => DomainError::not_found(text),
            AuditError::Superseded => DomainError::Conflict(text),
            AuditError::WalletFull(_) => DomainError::RateLimited {
                message: text,
                retry_after_secs: 10,
            },
            AuditError::Unavailable(_) => DomainError::Unavailable {
                message: text,
                retry_after_secs: Some(10),
            },
            AuditError::Busy | AuditError::StillRunning => DomainError::Unavailable {
                message: text,
                retry_after_secs: Some(5),
            },
            AuditError::Db(db) => DomainError::db(db),
        }
    }
}

/// What a request that met a database outage is told to wait before it tries again.
const DB_RETRY_AFTER_SECS: u64 = 5;

impl DomainError {
    /// A database error: an outage (the server gone or restarting, the pool exhausted, a full
    /// disk, a lock held too long) is 503 with `Retry-After`, since the same request succeeds
    /// once it is over and nothing was written; anything else is a 500.
    pub fn db(e: sea_orm::DbErr) -> Self {
        if crate::db::is_outage(&e) {
            tracing::warn!(error = %chain(&e), "the database is unavailable");
            DomainError::Unavailable {
                message:
                    "the database is unavailable right now; nothing was changed, retry shortly"
                        .into(),
                retry_after_secs: Some(DB_RETRY_AFTER_SECS),
            }
        } else {
            DomainError::Database(e)
        }
    }

    pub fn not_found(what: impl Into<String>) -> Self {
        DomainError::NotFound(what.into())
    }
    pub fn bad_request(what: impl Into<String>) -> Self {
        DomainError::BadRequest(what.into())
    }
    pub fn unavailable(what: impl Into<String>) -> Self {
        DomainError::Unavailable {
            message: what.into(),
            retry_after_secs: Some(5),
        }
    }
    pub fn internal(e: impl Into<anyhow::Error>) -> Self {
        DomainError::Internal(e.into())
    }
    /// An internal error told by a message of ours (logged, never sent).
    pub fn internal_msg(what: impl Into<String>) -> Self {
        DomainError::Internal(anyhow::anyhow!(what.into()))
    }
}

/// `{:#}` of an error with its sources, for logs.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

impl ResponseError for DomainError {
    fn status_code(&self) -> StatusCode {
        match self {
            DomainError::BadRequest(_) => StatusCode::BAD_REQUEST,
            DomainError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            DomainError::Forbidden(_) => StatusCode::FORBIDDEN,
            DomainError::NotFound(_) => StatusCode::NOT_FOUND,
            DomainError::Conflict(_) | DomainError::StillSettling(_) | DomainError::Pending(_) => {
                StatusCode::CONFLICT
            }
            DomainError::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            DomainError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            DomainError::TooSlow(_) => StatusCode::REQUEST_TIMEOUT,
            DomainError::Unprocessable { .. } | DomainError::Unacceptable(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            DomainError::TooManyRequests(_) | DomainError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            DomainError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            DomainError::Database(_) | DomainError::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        self.log();
        if let DomainError::PaymentRequired(challenge) = self {
            return payment_required(challenge.as_ref().clone());
        }
        let body = ErrorBody {
            error: self.to_string(),
            problems: match self {
                DomainError::Unprocessable { problems, .. } => Some(problems.clone()),
                _ => None,
            },
        };
        let mut resp = HttpResponse::build(status);
        if let Some(secs) = self.retry_after() {
            resp.insert_header((header::RETRY_AFTER, HeaderValue::from(secs)));
        }
        resp.json(body)
    }
}

impl DomainError {
    /// The kind's stable code: what logs and dashboards key on, whatever the message says.
    pub fn code(&self) -> &'static str {
        match self {
            DomainError::BadRequest(_) => "bad_request",
            DomainError::Unauthorized(_) => "unauthorized",
            DomainError::Forbidden(_) => "forbidden",
            DomainError::NotFound(_) => "not_found",
            DomainError::Conflict(_) => "conflict",
            DomainError::StillSettling(_) => "still_settling",
            DomainError::Pending(_) => "pending",
            DomainError::PaymentRequired(_) => "payment_required",
            DomainError::PayloadTooLarge(_) => "payload_too_large",
            DomainError::TooSlow(_) => "too_slow",
            DomainError::Unprocessable { .. } => "unprocessable",
            DomainError::Unacceptable(_) => "unacceptable",
            DomainError::TooManyRequests(_) => "too_many_requests",
            DomainError::RateLimited { .. } => "rate_limited",
            DomainError::Unavailable { .. } => "unavailable",
            DomainError::Database(_) => "database",
            DomainError::Internal(_) => "internal",
        }
    }

    /// Internal causes go to the log with their whole chain, never to the client.
    pub(crate) fn log(&self) {
        let code = self.code();
        match self {
            DomainError::Database(e) => tracing::error!(code, error = %chain(e), "database error"),
            DomainError::Internal(e) => {
                tracing::error!(code, error = %format!("{e:#}"), "internal error")
            }
            _ => tracing::debug!(code, error = %self, "answered with an error"),
        }
    }

    /// Seconds after which the same request may succeed.
    pub(crate) fn retry_after(&self) -> Option<u64> {
        match self {
            DomainError::Unavailable {
                retry_after_secs, ..
            } => *retry_after_secs,
            DomainError::StillSettling(_) | DomainError::Pending(_) => Some(2),
            DomainError::RateLimited {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            _ => None,
        }
    }
}

pub type DomainResult<T> = Result<T, DomainError>;

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;

    #[test]
    fn each_kind_has_its_own_code() {
        let kinds = [
            DomainError::BadRequest(String::new()),
            DomainError::Unauthorized(String::new()),
            DomainError::Forbidden(String::new()),
            DomainError::NotFound(String::new()),
            DomainError::Conflict(String::new()),
            DomainError::StillSettling(String::new()),
            DomainError::Pending(String::new()),
            DomainError::PaymentRequired(Box::new(Challenge {
                why: String::new(),
                body: Vec::new(),
                header: Vec::new(),
            })),
            DomainError::PayloadTooLarge(String::new()),
            DomainError::TooSlow(String::new()),
            DomainError::Unprocessable {
                message: String::new(),
                problems: Vec::new(),
            },
            DomainError::Unacceptable(String::new()),
            DomainError::TooManyRequests(String::new()),
            DomainError::RateLimited {
                message: String::new(),
                retry_after_secs: 1,
            },
            DomainError::unavailable(""),
            DomainError::Database(sea_orm::DbErr::Custom(String::new())),
            DomainError::internal_msg(""),
        ];
        let codes: std::collections::HashSet<&str> = kinds.iter().map(DomainError::code).collect();
        assert_eq!(codes.len(), kinds.len());
    }

    #[actix_web::test]
    async fn internal_details_stay_inside() {
        let err = DomainError::internal(anyhow::anyhow!("secret path /etc/x"));
        let resp = err.error_response();
        assert_eq!(resp.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = to_bytes(resp.into_body()).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "an internal error occurred");
        assert!(!String::from_utf8_lossy(&body).contains("/etc/x"));
    }

    #[actix_web::test]
    async fn problems_only_on_422() {
        let err = DomainError::Unprocessable {
            message: "the draft breaks 1 rule".into(),
            problems: vec!["dek is too short".into()],
        };
        let body = to_bytes(err.error_response().into_body()).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["problems"][0], "dek is too short");
        let body = to_bytes(
            DomainError::not_found("no such journal")
                .error_response()
                .into_body(),
        )
        .await
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(v.get("problems").is_none());
    }
}

//! The one error type of the HTTP layer and its mapping to statuses and `{ "error" }` bodies;
//! each service's own error becomes it here, through `From`. Internal causes are logged with
//! their whole chain and never sent to the client.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use journal_market_actors::audit::AuditError;
use journal_market_actors::session::AuthError;
use journal_market_api::ErrorBody;

use crate::quotes::QuoteError;
use crate::services::catalog::CatalogError;
use crate::services::ledger::LedgerError;
use crate::services::publish::PublishError;
use crate::services::purchase::PurchaseError;
use crate::services::votes::VoteError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
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
    #[error("{}", .0.error)]
    PaymentRequired(Box<journal_market_chain::x402::PaymentRequired>),
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
    /// A database error that is not an outage (see [`ApiError::db`]).
    #[error("the database could not complete the request")]
    Database(sea_orm::DbErr),
    #[error("an internal error occurred")]
    Internal(#[source] anyhow::Error),
}

impl From<sea_orm::DbErr> for ApiError {
    fn from(e: sea_orm::DbErr) -> Self {
        ApiError::db(e)
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::BadAddress => ApiError::BadRequest(e.to_string()),
            AuthError::Busy | AuthError::TimedOut | AuthError::Chain => {
                ApiError::unavailable(e.to_string())
            }
            AuthError::Db(db) => ApiError::db(db),
            AuthError::Random => ApiError::internal(anyhow::anyhow!("random source failed")),
            AuthError::RateLimited {
                message,
                retry_after_secs,
            } => ApiError::RateLimited {
                message,
                retry_after_secs,
            },
            _ => ApiError::Unauthorized(e.to_string()),
        }
    }
}

impl From<CatalogError> for ApiError {
    fn from(e: CatalogError) -> Self {
        match e {
            CatalogError::NotFound(m) => ApiError::NotFound(m),
            CatalogError::BadQuery(m) => ApiError::BadRequest(m),
            CatalogError::Db(db) => ApiError::db(db),
            CatalogError::Encode(e) => ApiError::internal(e),
        }
    }
}

impl From<PurchaseError> for ApiError {
    fn from(e: PurchaseError) -> Self {
        match e {
            PurchaseError::NotOnSale(m) => ApiError::NotFound(m),
            PurchaseError::BadRequest(m) => ApiError::BadRequest(m),
            PurchaseError::Refused(m) => ApiError::Conflict(m),
            PurchaseError::StillSettling(m) => ApiError::StillSettling(m),
            PurchaseError::Unpaid(challenge) => ApiError::PaymentRequired(challenge),
            PurchaseError::Closed(m) => ApiError::unavailable(m),
            PurchaseError::Auth(e) => e.into(),
            PurchaseError::Catalog(e) => e.into(),
            PurchaseError::Db(db) => ApiError::db(db),
            PurchaseError::Internal(m) => ApiError::internal(anyhow::anyhow!(m)),
        }
    }
}

impl From<AuditError> for ApiError {
    fn from(e: AuditError) -> Self {
        let text = e.to_string();
        match e {
            AuditError::TooMany(_) => ApiError::TooManyRequests(text),
            AuditError::NotFound => ApiError::not_found(text),
            AuditError::Superseded => ApiError::Conflict(text),
            AuditError::WalletFull(_) => ApiError::RateLimited {
                message: text,
                retry_after_secs: 10,
            },
            AuditError::Unavailable(_) => ApiError::Unavailable {
                message: text,
                retry_after_secs: Some(10),
            },
            AuditError::Busy | AuditError::StillRunning => ApiError::Unavailable {
                message: text,
                retry_after_secs: Some(5),
            },
            AuditError::Db(db) => ApiError::db(db),
        }
    }
}

impl From<PublishError> for ApiError {
    fn from(e: PublishError) -> Self {
        match e {
            PublishError::NotFound(m) => ApiError::NotFound(m),
            PublishError::Invalid { message, problems } => {
                ApiError::Unprocessable { message, problems }
            }
            PublishError::NotRegistration(m) => ApiError::Unacceptable(m),
            PublishError::Conflict(m) => ApiError::Conflict(m),
            PublishError::Quota {
                message,
                retry_after_secs,
            } => ApiError::RateLimited {
                message,
                retry_after_secs,
            },
            PublishError::BadRequest(m) => ApiError::BadRequest(m),
            PublishError::NotMined(m) | PublishError::NotSeenYet(m) => ApiError::Pending(m),
            PublishError::ChainDown(message) => ApiError::Unavailable {
                message,
                retry_after_secs: Some(5),
            },
            PublishError::Audit(e) => e.into(),
            PublishError::Db(db) => ApiError::db(db),
            PublishError::Internal(m) => ApiError::internal(anyhow::anyhow!(m)),
        }
    }
}

impl From<VoteError> for ApiError {
    fn from(e: VoteError) -> Self {
        match e {
            VoteError::BadRequest(m) => ApiError::BadRequest(m),
            VoteError::NotSeenYet(m) => ApiError::Pending(m),
            VoteError::NotMined(m) => ApiError::Pending(m),
            VoteError::NotAVote(m) => ApiError::Unacceptable(m),
            VoteError::NotReader(m) => ApiError::Forbidden(m),
            VoteError::ChainDown(message) => ApiError::Unavailable {
                message,
                retry_after_secs: Some(5),
            },
            VoteError::Db(db) => ApiError::db(db),
        }
    }
}

impl From<LedgerError> for ApiError {
    fn from(e: LedgerError) -> Self {
        match e {
            LedgerError::Unavailable(m) => ApiError::unavailable(m),
            LedgerError::Db(db) => ApiError::db(db),
            LedgerError::Encode(e) => ApiError::internal(e),
            LedgerError::Failed => ApiError::internal(anyhow::anyhow!("the ledger task failed")),
        }
    }
}

impl From<QuoteError> for ApiError {
    fn from(e: QuoteError) -> Self {
        match e {
            QuoteError::Unknown(_) => ApiError::not_found(e.to_string()),
            _ => ApiError::unavailable(e.to_string()),
        }
    }
}

/// What a request that met a database outage is told to wait before it tries again.
const DB_RETRY_AFTER_SECS: u64 = 5;

impl ApiError {
    /// A database error: an outage (the server gone or restarting, the pool exhausted, a full
    /// disk, a lock held too long) is 503 with `Retry-After`, since the same request succeeds
    /// once it is over and nothing was written; anything else is a 500.
    pub fn db(e: sea_orm::DbErr) -> Self {
        if crate::db::is_outage(&e) {
            tracing::warn!(error = %chain(&e), "the database is unavailable");
            ApiError::Unavailable {
                message:
                    "the database is unavailable right now; nothing was changed, retry shortly"
                        .into(),
                retry_after_secs: Some(DB_RETRY_AFTER_SECS),
            }
        } else {
            ApiError::Database(e)
        }
    }

    pub fn not_found(what: impl Into<String>) -> Self {
        ApiError::NotFound(what.into())
    }
    pub fn bad_request(what: impl Into<String>) -> Self {
        ApiError::BadRequest(what.into())
    }
    pub fn unavailable(what: impl Into<String>) -> Self {
        ApiError::Unavailable {
            message: what.into(),
            retry_after_secs: Some(5),
        }
    }
    pub fn internal(e: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(e.into())
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

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::StillSettling(_) | ApiError::Pending(_) => {
                StatusCode::CONFLICT
            }
            ApiError::PaymentRequired(_) => StatusCode::PAYMENT_REQUIRED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooSlow(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Unprocessable { .. } | ApiError::Unacceptable(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::TooManyRequests(_) | ApiError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Database(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        self.log();
        if let ApiError::PaymentRequired(challenge) = self {
            let mut resp = HttpResponse::build(status);
            if let Ok(h) = journal_market_chain::x402::encode_header(challenge.as_ref()) {
                resp.insert_header((journal_market_chain::x402::HEADER_REQUIRED, h));
            }
            return resp.json(challenge.as_ref());
        }
        let body = ErrorBody {
            error: self.to_string(),
            problems: match self {
                ApiError::Unprocessable { problems, .. } => Some(problems.clone()),
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

impl ApiError {
    /// Internal causes go to the log with their whole chain, never to the client.
    pub(crate) fn log(&self) {
        match self {
            ApiError::Database(e) => tracing::error!(error = %chain(e), "database error"),
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "internal error"),
            _ => {}
        }
    }

    /// Seconds after which the same request may succeed.
    pub(crate) fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::Unavailable {
                retry_after_secs, ..
            } => *retry_after_secs,
            ApiError::StillSettling(_) | ApiError::Pending(_) => Some(2),
            ApiError::RateLimited {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            _ => None,
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;

    #[actix_web::test]
    async fn internal_details_stay_inside() {
        let err = ApiError::internal(anyhow::anyhow!("secret path /etc/x"));
        let resp = err.error_response();
        assert_eq!(resp.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = to_bytes(resp.into_body()).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "an internal error occurred");
        assert!(!String::from_utf8_lossy(&body).contains("/etc/x"));
    }

    #[actix_web::test]
    async fn problems_only_on_422() {
        let err = ApiError::Unprocessable {
            message: "the draft breaks 1 rule".into(),
            problems: vec!["dek is too short".into()],
        };
        let body = to_bytes(err.error_response().into_body()).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["problems"][0], "dek is too short");
        let body = to_bytes(
            ApiError::not_found("no such journal")
                .error_response()
                .into_body(),
        )
        .await
        .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(v.get("problems").is_none());
    }
}

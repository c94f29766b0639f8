//! The pages' errors: the API's error (its status and sentence, chosen in `src/error.rs`) shown
//! as an HTML page for a reader instead of a JSON body.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};

use super::views;
use crate::error::DomainError;

#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct PageError(pub DomainError);

impl<E> From<E> for PageError
where
    DomainError: From<E>,
{
    fn from(e: E) -> Self {
        PageError(DomainError::from(e))
    }
}

pub type PageResult = Result<HttpResponse, PageError>;

impl ResponseError for PageError {
    fn status_code(&self) -> StatusCode {
        self.0.status_code()
    }

    fn error_response(&self) -> HttpResponse {
        self.0.log();
        let mut resp = error_page(self.status_code(), &self.0.to_string());
        if let Some(secs) = self.0.retry_after() {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        resp
    }
}

/// An error as a page: the status, and the sentence the API would have sent.
pub fn error_page(status: StatusCode, message: &str) -> HttpResponse {
    let html = views::error(
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error"),
        message,
    );
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html.into_string())
}

pub fn not_found_page(message: &str) -> HttpResponse {
    error_page(StatusCode::NOT_FOUND, message)
}

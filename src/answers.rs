//! The answers every HTTP surface shares (the REST routes, the pages, MCP): a path's 405, an
//! already-serialized JSON body, private caching. Apart from `routes` so that the pages and MCP
//! need not import the routes (which import everything).

use actix_web::http::header::{self, ContentType, HeaderMap, HeaderValue};
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse, Responder};
use journal_market_api::ErrorBody;

/// A path and the one method it answers: any other method is 405 with `Allow` and the
/// `{ "error" }` body (HTTP's answer for a known path, where 404 would say it does not exist).
pub fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(move |req: HttpRequest| async move {
        not_allowed(&req, allow)
    }))
}

/// The 405 of a known path asked with another method.
pub fn not_allowed(req: &HttpRequest, allow: &'static str) -> HttpResponse {
    HttpResponse::MethodNotAllowed()
        .insert_header((header::ALLOW, allow))
        .json(ErrorBody {
            error: format!(
                "{} {} is not supported; use {allow}",
                req.method(),
                req.path()
            ),
            problems: None,
        })
}

/// An already-serialized JSON answer.
pub fn json_bytes(bytes: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(bytes)
}

/// Marks an answer about one wallet (its account, its draft, a paid text) as no cache's to
/// keep, and as one that the same address answers differently for each cookie.
pub fn private(headers: &mut HeaderMap) {
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
}

/// A handler's answer, success or error, made [`private`]: `/me…`, drafts, paid texts.
pub struct Private<R>(pub R);

impl<R: Responder> Responder for Private<R> {
    type Body = R::Body;

    fn respond_to(self, req: &HttpRequest) -> HttpResponse<Self::Body> {
        let mut resp = self.0.respond_to(req);
        private(resp.headers_mut());
        resp
    }
}

//! Cross-site request refusal: a state-changing request that carries the session cookie from
//! another site's page is refused. Requests without `Origin` come from non-browser clients, and
//! `SameSite=Lax` keeps browsers from sending the cookie on cross-site POSTs anyway.

use actix_web::dev::ServiceRequest;
use actix_web::http::{Method, header};

/// Why a state-changing request with the session cookie must be refused, if it must.
pub fn foreign_origin(req: &ServiceRequest, cookie_name: &str, origin: &str) -> Option<String> {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    // The Origin first: API clients send none, and then the cookies need not be parsed.
    let sent = req.headers().get(header::ORIGIN)?.to_str().unwrap_or("");
    req.cookie(cookie_name)?;
    (sent.trim_end_matches('/') != origin)
        .then(|| format!("cross-site request refused: Origin {sent:?} is not {origin}"))
}

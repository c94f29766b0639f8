//! The headers every answer carries, pages and API alike: a Content-Security-Policy that lets
//! a page run and style only the site's own files (`/assets/…`, no inline script or style) and
//! be framed by no one, `X-Content-Type-Options: nosniff`, and a Referrer-Policy that sends a
//! page's address to this site only.

use actix_web::http::header::{self, HeaderMap, HeaderValue};

/// The site's policy: everything from this origin only, no plugins, no `<base>`, forms posted
/// here only, never in a frame. The pages load nothing from elsewhere and have no inline
/// script, style or `style` attribute (`tests/api/pages.rs`); images may also be `data:`
/// (the pages' empty icon, `data:,`, which spares every page view a favicon request).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// No address of the site (a journal's slug, a draft's id) goes to another site with a link.
pub const REFERRER_POLICY: &str = "same-origin";

/// Puts the headers on an answer; a handler that set one of its own keeps it.
pub fn protect(h: &mut HeaderMap) {
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !h.contains_key(header::REFERRER_POLICY) {
        h.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static(REFERRER_POLICY),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_is_one_header_value() {
        assert!(HeaderValue::from_str(CONTENT_SECURITY_POLICY).is_ok());
        assert!(CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
        assert!(!CONTENT_SECURITY_POLICY.contains("  "));
    }
}

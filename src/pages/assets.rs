//! The site's own static files, compiled into the binary: no third-party request, and each
//! address carries a digest of its bytes so browsers may keep it for a year.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use sha2::{Digest, Sha256};

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// A file of `static/`, compiled in.
macro_rules! asset {
    ($name:literal, $content_type:expr) => {
        Asset {
            name: $name,
            content_type: $content_type,
            body: include_str!(concat!("static/", $name)),
        }
    };
}

const ASSETS: &[Asset] = &[
    asset!("site.css", CSS),
    asset!("wallet.js", JS),
    asset!("swarm.js", JS),
    asset!("desk.js", JS),
];

/// The first 10 hex digits of the bytes' SHA-256.
fn digest(body: &str) -> String {
    let d = Sha256::digest(body.as_bytes());
    d.iter().take(5).map(|b| format!("{b:02x}")).collect()
}

fn versioned(name: &str) -> String {
    let body = ASSETS
        .iter()
        .find(|a| a.name == name)
        .map(|a| a.body)
        .unwrap_or_default();
    format!("/assets/{name}?v={}", digest(body))
}

/// An asset's address with its digest (`/assets/site.css?v=…`).
pub fn path(name: &str) -> &'static str {
    static PATHS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    let paths = PATHS.get_or_init(|| ASSETS.iter().map(|a| (a.name, versioned(a.name))).collect());
    let bare = name.trim_start_matches("/assets/");
    paths
        .iter()
        .find(|(n, _)| *n == bare)
        .map(|(_, p)| p.as_str())
        .unwrap_or("/assets/missing")
}

/// The stylesheet's address, with its digest.
pub fn css_path() -> &'static str {
    path("site.css")
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(crate::answers::resource("/assets/{name}", "GET").route(web::get().to(serve)));
}

async fn serve(name: web::Path<String>) -> HttpResponse {
    match ASSETS.iter().find(|a| a.name == name.as_str()) {
        Some(a) => HttpResponse::Ok()
            .content_type(a.content_type)
            .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
            .body(a.body),
        None => super::not_found_page("There is no such file."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_carry_the_digest_of_the_bytes() {
        let p = css_path();
        assert!(p.starts_with("/assets/site.css?v="), "{p}");
        assert_eq!(p.len(), "/assets/site.css?v=".len() + 10);
        assert!(path("/assets/wallet.js").starts_with("/assets/wallet.js?v="));
    }
}

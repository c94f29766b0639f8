//! The benchmark's baseline: the smallest actix-web program that serves fixed answers from
//! memory.
//! `cargo run --release --example minimal -- PORT PATH=FILE [PATH=FILE@STATUS@HEADER@VALUEFILE …]`
//! The optional part makes it answer with that status and one extra header, so it sends the
//! same bytes as the service (e.g. a 402 with PAYMENT-REQUIRED).
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{App, HttpResponse, HttpServer, web};

/// The same allocator as the service, so the comparison is of the code, not of malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Clone)]
struct Answer {
    path: String,
    status: StatusCode,
    header: Option<(HeaderName, HeaderValue)>,
    body: web::Bytes,
}

fn parse(arg: &str) -> std::io::Result<Answer> {
    let bad = |what: &str| std::io::Error::other(format!("{arg}: {what}"));
    let (path, rest) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected PATH=FILE"))?;
    let mut parts = rest.split('@');
    let body = std::fs::read(parts.next().unwrap_or_default())?;
    let status = match parts.next() {
        Some(s) => s
            .parse::<u16>()
            .ok()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .ok_or_else(|| bad("bad status"))?,
        None => StatusCode::OK,
    };
    let header = match (parts.next(), parts.next()) {
        (Some(name), Some(file)) => Some((
            HeaderName::from_bytes(name.as_bytes()).map_err(|_| bad("bad header name"))?,
            HeaderValue::from_str(std::fs::read_to_string(file)?.trim())
                .map_err(|_| bad("bad header value"))?,
        )),
        _ => None,
    };
    Ok(Answer {
        path: path.to_string(),
        status,
        header,
        body: web::Bytes::from(body),
    })
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| std::io::Error::other("usage: minimal PORT PATH=FILE..."))?;
    let answers = args
        .map(|a| parse(&a))
        .collect::<std::io::Result<Vec<_>>>()?;
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(move || {
            let mut app = App::new();
            for a in answers.clone() {
                let path = a.path.clone();
                // Reading the body keeps POST connections alive, as the service does.
                app = app.route(
                    &path,
                    web::route().to(move |_body: web::Bytes| {
                        let a = a.clone();
                        async move {
                            let mut resp = HttpResponse::build(a.status);
                            resp.content_type("application/json");
                            if let Some(h) = a.header {
                                resp.insert_header(h);
                            }
                            resp.body(a.body)
                        }
                    }),
                );
            }
            app
        })
        .bind(("127.0.0.1", port))?
        .run()
        .await
    })
}

//! The benchmark's baseline: the smallest actix-web program that serves fixed bytes from memory.
//! `cargo run --release --example minimal -- PORT /api/journals=FILE [/api/entries.json=FILE …]`

use actix_web::{App, HttpResponse, HttpServer, web};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| std::io::Error::other("usage: minimal PORT PATH=FILE..."))?;
    let mut routes: Vec<(String, web::Bytes)> = Vec::new();
    for arg in args {
        let (path, file) = arg
            .split_once('=')
            .ok_or_else(|| std::io::Error::other(format!("{arg}: expected PATH=FILE")))?;
        routes.push((path.to_string(), web::Bytes::from(std::fs::read(file)?)));
    }
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(move || {
            let mut app = App::new();
            for (path, bytes) in routes.clone() {
                app = app.route(
                    &path,
                    // Reading the body keeps POST connections alive, as the service does.
                    web::route().to(move |_body: web::Bytes| {
                        let bytes = bytes.clone();
                        async move {
                            HttpResponse::Ok()
                                .content_type("application/json")
                                .body(bytes)
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

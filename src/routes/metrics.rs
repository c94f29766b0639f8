//! The metrics listener: `GET /metrics` and nothing else, on a port of its own
//! (`metrics.listen`), encoding the registry this instance's parts registered into.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{App, HttpResponse, HttpServer, web};

use crate::metrics::CONTENT_TYPE;
use crate::state::AppState;

async fn scrape(state: web::Data<AppState>) -> HttpResponse {
    // The one figure read from the database (every instance's sponsorships): read before the
    // encoding, which cannot wait.
    state.purchases.count_sponsorships().await;
    match state.ops.metrics.render() {
        Ok(text) => HttpResponse::Ok().content_type(CONTENT_TYPE).body(text),
        Err(e) => {
            tracing::error!(error = %e, "encoding the metrics failed");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// The metrics listener: `GET /metrics` and nothing else, on one worker.
pub fn server(listener: TcpListener, state: web::Data<AppState>) -> std::io::Result<Server> {
    Ok(HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .route("/metrics", web::get().to(scrape))
    })
    .workers(1)
    .disable_signals()
    .listen(listener)?
    .run())
}

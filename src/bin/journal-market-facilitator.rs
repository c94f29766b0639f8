//! `journal-market-facilitator`: the built-in settler served as a standard x402 v2 facilitator
//! (`/verify`, `/settle`, `/supported`) for the configured chain, with `payments.relayer_key`;
//! `payments.facilitator_token` as its bearer token when set. A binary of its own: a shop that
//! settles elsewhere runs it apart from the service.

use std::path::PathBuf;

use clap::Parser;
use journal_market::config::Settings;
use journal_market::{facilitator_server, telemetry};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "journal-market-facilitator", version, about)]
struct Cli {
    /// A TOML file layered over the built-in defaults (config.toml).
    #[arg(long, env = "JM_CONFIG")]
    config: Option<PathBuf>,
    #[arg(long, default_value = "127.0.0.1:4021")]
    listen: String,
}

fn main() {
    let cli = Cli::parse();
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("journal-market-facilitator: {e}");
            std::process::exit(2);
        }
    };
    telemetry::init(&settings.log);
    let result =
        actix_web::rt::System::new().block_on(facilitator_server::run(settings, &cli.listen));
    if let Err(e) = result {
        eprintln!("journal-market-facilitator: {e:#}");
        std::process::exit(1);
    }
}

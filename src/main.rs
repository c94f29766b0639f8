//! The `journal-market` command: serve (default), migrate, import, devnet. The facilitator is a
//! binary of its own (`journal-market-facilitator`, src/bin/).

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use journal_market::app::Application;
use journal_market::config::Settings;
use journal_market::{chain, db, import, telemetry};
use journal_market_devnet::start::Started;

/// glibc's allocator showed up as ~12% of the service's CPU under load (malloc, free and
/// consolidation across worker threads); mimalloc's thread-local heaps are cheaper.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "journal-market",
    version,
    about = "The Journal Marketplace Service"
)]
struct Cli {
    /// A TOML file layered over the built-in defaults (config.toml).
    #[arg(long, global = true, env = "JM_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service (the default).
    Serve,
    /// Apply database migrations and exit.
    Migrate,
    /// Import an archive file (docs/import-format.md).
    Import { path: PathBuf },
    /// Start a local anvil (chain 4663), deploy the dev contracts, write the devnet file, and
    /// serve against it. Stopping the command stops anvil.
    Devnet {
        /// Port of the anvil RPC.
        #[arg(long, default_value_t = 8545)]
        anvil_port: u16,
        /// Where to write the addresses and keys.
        #[arg(long, default_value = "data/devnet.json")]
        out: PathBuf,
        /// Only run the chain, without the HTTP service.
        #[arg(long)]
        no_serve: bool,
        /// Start over: a new chain and an emptied database, even when the last run's agree.
        #[arg(long)]
        fresh: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("journal-market: {e}");
            std::process::exit(2);
        }
    };
    telemetry::init(&settings.log);
    let result =
        actix_web::rt::System::new().block_on(run(cli.command.unwrap_or(Command::Serve), settings));
    if let Err(e) = result {
        eprintln!("journal-market: {e:#}");
        std::process::exit(1);
    }
}

async fn run(command: Command, settings: Settings) -> anyhow::Result<()> {
    match command {
        Command::Serve => {
            let app = Application::build(settings.clone()).await?;
            tracing::info!(
                "listening on http://{}:{}{}",
                settings
                    .server
                    .listen
                    .rsplit_once(':')
                    .map(|(h, _)| h)
                    .unwrap_or("127.0.0.1"),
                app.port(),
                settings.server.api_prefix
            );
            app.run_until_stopped().await?;
        }
        Command::Devnet {
            anvil_port,
            out,
            no_serve,
            fresh,
        } => devnet(settings, anvil_port, &out, no_serve, fresh).await?,
        Command::Migrate => {
            let conn = db::connect(&settings.database).await?;
            db::migrate(&conn).await?;
            println!("migrations applied");
        }
        Command::Import { path } => {
            let json = std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            let conn = db::connect(&settings.database).await?;
            db::migrate(&conn).await?;
            let summary = import::import_str(&conn, &json, true).await?;
            println!("{summary}");
        }
    }
    Ok(())
}

async fn devnet(
    mut settings: Settings,
    port: u16,
    out: &std::path::Path,
    no_serve: bool,
    fresh: bool,
) -> anyhow::Result<()> {
    let database = journal_market::devnet::ServiceDatabase(&settings);
    let chain_id = settings.chain.chain_id;
    let Started {
        anvil,
        devnet,
        resumed,
    } = journal_market_devnet::start::start(&database, chain_id, port, out, fresh).await?;
    tracing::info!(rpc = %anvil.url, file = %out.display(), resumed, "devnet ready");
    if no_serve {
        tokio::signal::ctrl_c().await?;
    } else {
        chain::apply_devnet(&mut settings, &devnet)?;
        settings.chain.devnet_file.clear();
        let prefix = settings.server.api_prefix.clone();
        let app = Application::build(settings).await?;
        let api = format!("http://127.0.0.1:{}{prefix}", app.port());
        tracing::info!("serving on port {} against the devnet", app.port());
        let server = actix_web::rt::spawn(app.run_until_stopped());
        if !resumed {
            journal_market_devnet::seed::demo(&api, &devnet).await?;
        }
        server.await??;
    }
    // Ctrl-C reached anvil too; otherwise it is asked to save and stop now.
    anvil.stop_saving(std::time::Duration::from_secs(10)).await;
    Ok(())
}

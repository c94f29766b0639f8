//! `jm`: the command-line client of the journal-market API.

use std::path::{Path, PathBuf};

use alloy::signers::local::PrivateKeySigner;
use clap::{Parser, Subcommand};
use journal_market_client::Client;
use serde::Serialize;

#[derive(Parser)]
#[command(name = "jm", about = "Command-line client of the journal-market API")]
struct Cli {
    /// API root, ending in /api.
    #[arg(long, env = "JM_BASE_URL", default_value = "http://127.0.0.1:8080/api")]
    base_url: String,
    /// Print the raw JSON answer instead of a summary.
    #[arg(long, global = true)]
    json: bool,
    /// Where `jm login` keeps the session cookie (default: ~/.jm/session).
    #[arg(long, global = true, env = "JM_SESSION_FILE")]
    session_file: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List published journals, newest first.
    Journals {
        /// Only journals about this ticker.
        #[arg(long)]
        company: Option<String>,
    },
    /// Show one journal by slug or id.
    Journal { slug: String },
    /// The newest archive entries, or the entries of one ticker.
    Entries {
        #[arg(long)]
        ticker: Option<String>,
    },
    /// Show one archive entry.
    Entry { accession: String },
    /// The service's public configuration.
    Config,
    /// Sign in with a wallet key and keep the session for later commands.
    Login {
        /// The wallet's private key (0x-hex); prefer the environment variable.
        #[arg(long, env = "JM_PRIVATE_KEY", hide_env_values = true)]
        private_key: String,
    },
    /// Buy a journal: answer each x402 challenge with a Permit2 signature, print the text.
    Buy {
        slug: String,
        #[arg(long, env = "JM_PRIVATE_KEY", hide_env_values = true)]
        private_key: String,
        /// A chain RPC that accepts transactions: when given, USDG is approved to Permit2
        /// (once, maximum allowance) if the wallet has not done so.
        #[arg(long, env = "JM_RPC_URL")]
        rpc_url: Option<String>,
        /// Where to keep the answer that delivered the text, as received (its body and
        /// PAYMENT-RESPONSE), for `jm verify-receipt`.
        #[arg(long)]
        save: Option<std::path::PathBuf>,
    },
    /// Check a saved answer's receipt against the service: its signer, and the body, the
    /// journal's audit report and the cited entries' sources it binds.
    VerifyReceipt { file: std::path::PathBuf },
    /// Read a journal the wallet bought, again, with sign-in-with-x (no payment, no session
    /// needed); print the text and keep the session it opens.
    Read {
        slug: String,
        #[arg(long, env = "JM_PRIVATE_KEY", hide_env_values = true)]
        private_key: String,
    },
    /// The signed-in wallet.
    Whoami,
    /// End the session.
    Logout,
    /// A stock token's current mid price.
    Quote { ticker: String },
    /// Write a journal: save a draft from a file, audit it, show it (needs `jm login`).
    Draft {
        #[command(subcommand)]
        command: DraftCommand,
    },
    /// Take an approved journal live: send register(metaUrl) to the identity registry with the
    /// key, then report the transaction (needs `jm login` with the same wallet).
    Publish {
        id: i64,
        #[arg(long, env = "JM_PRIVATE_KEY", hide_env_values = true)]
        private_key: String,
        /// A chain RPC that accepts transactions.
        #[arg(long, env = "JM_RPC_URL", default_value = "http://127.0.0.1:8545")]
        rpc_url: String,
    },
    /// Your journals in every status, with reads and earnings.
    Desk,
    /// Vote on a journal you bought: giveFeedback onchain with the key, then report it.
    Vote {
        slug: String,
        /// `up` or `down`.
        direction: String,
        /// accurate, well-sourced, insightful, misleading, outdated or thin.
        #[arg(long, default_value = "")]
        tag: String,
        #[arg(long, env = "JM_PRIVATE_KEY", hide_env_values = true)]
        private_key: String,
        #[arg(long, env = "JM_RPC_URL", default_value = "http://127.0.0.1:8545")]
        rpc_url: String,
    },
    /// The community token's ledger: swaps, fees, the pledge, burns, holders.
    Token,
    /// A read-only JSON-RPC call through the service, e.g. `jm rpc eth_blockNumber`.
    Rpc {
        method: String,
        /// JSON array of parameters.
        #[arg(default_value = "[]")]
        params: String,
    },
}

#[derive(Subcommand)]
enum DraftCommand {
    /// Create a draft from FILE.md (front matter: ticker, title, dek, price, author; `id` to
    /// update an existing draft), print its id.
    Save { file: PathBuf },
    /// Run the audit agent on a draft.
    Audit { id: i64 },
    /// A draft with its status and last audit report.
    Show { id: i64 },
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli).await {
        eprintln!("jm: {e}");
        std::process::exit(1);
    }
}

fn print_json<T: Serialize>(v: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

/// An answer as `--json` asks: the JSON itself, or `text`'s lines for a person.
fn show<T: Serialize>(json: bool, v: T, text: impl FnOnce(T)) -> anyhow::Result<()> {
    if json {
        return print_json(&v);
    }
    text(v);
    Ok(())
}

/// A purchase as `--json` prints it: the settlement transactions and the text.
fn purchase_json(p: &journal_market_client::payer::Purchase) -> serde_json::Value {
    serde_json::json!({ "txs": p.txs, "body": p.body })
}

/// The wallet a `--private-key` names.
fn signer(private_key: &str) -> anyhow::Result<PrivateKeySigner> {
    private_key
        .trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("the private key is not valid 32-byte hex"))
}

fn session_path(flag: Option<PathBuf>) -> PathBuf {
    flag.unwrap_or_else(|| {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."));
        home.join(".jm").join("session")
    })
}

fn save_session(path: &Path, cookie: Option<String>) -> anyhow::Result<()> {
    match cookie {
        Some(c) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, c)?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
            }
        }
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let client = Client::new(cli.base_url)?;
    let session_file = session_path(cli.session_file);
    if let Ok(c) = std::fs::read_to_string(&session_file) {
        client.set_session(Some(c.trim().to_string()));
    }
    match cli.command {
        Command::Login { private_key } => {
            let signer = signer(&private_key)?;
            let me = client.login(&signer).await?;
            save_session(&session_file, client.session())?;
            println!("signed in as {}", me.address.unwrap_or_default());
        }
        Command::Buy {
            slug,
            private_key,
            rpc_url,
            save,
        } => {
            let signer = signer(&private_key)?;
            if let Some(rpc) = rpc_url {
                let usdg = client.config().await?.usdg.parse()?;
                approve_permit2(&rpc, &signer, usdg).await?;
            }
            let bought = client.buy(&slug, &signer).await?;
            save_session(&session_file, client.session())?;
            if let Some(path) = save {
                let saved = bought.saved.as_ref().ok_or_else(|| {
                    anyhow::anyhow!("the last answer carried no PAYMENT-RESPONSE")
                })?;
                std::fs::write(&path, serde_json::to_vec_pretty(saved)?)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            }
            show(cli.json, purchase_json(&bought), |_| {
                for tx in &bought.txs {
                    eprintln!("paid in {tx}");
                }
                println!("{}", bought.body);
            })?;
        }
        Command::VerifyReceipt { file } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let saved: journal_market_client::receipt::SavedAnswer = serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("{} is not a saved answer: {e}", file.display()))?;
            let v = journal_market_client::receipt::verify(&client, &saved).await?;
            show(
                cli.json,
                serde_json::json!({ "verified": true, "signer": v.signer, "slug": v.slug,
                    "transaction": v.transaction, "payer": v.payer }),
                |_| {
                    println!(
                        "verified: {} signed the delivery of {} to {} (transaction {})",
                        v.signer, v.slug, v.payer, v.transaction
                    )
                },
            )?;
        }
        Command::Read { slug, private_key } => {
            let signer = signer(&private_key)?;
            let read = client.read_bought(&slug, &signer).await?;
            save_session(&session_file, client.session())?;
            show(cli.json, purchase_json(&read), |_| {
                println!("{}", read.body)
            })?;
        }
        Command::Draft { command } => draft(&client, command, cli.json).await?,
        Command::Publish {
            id,
            private_key,
            rpc_url,
        } => {
            let signer = signer(&private_key)?;
            let published =
                journal_market_client::publisher::publish(&client, &rpc_url, &signer, id).await?;
            show(cli.json, published, |p| println!("live: {}", p.slug))?;
        }
        Command::Vote {
            slug,
            direction,
            tag,
            private_key,
            rpc_url,
        } => {
            let up = match direction.as_str() {
                "up" => true,
                "down" => false,
                other => anyhow::bail!("the direction is up or down, not {other:?}"),
            };
            let signer = signer(&private_key)?;
            let r =
                journal_market_client::publisher::vote(&client, &rpc_url, &signer, &slug, up, &tag)
                    .await?;
            show(cli.json, r, |r| {
                println!(
                    "voted {} on {} in {} ({} up, {} down)",
                    if r.value > 0 { "up" } else { "down" },
                    r.slug,
                    r.tx,
                    r.votes.up,
                    r.votes.down
                )
            })?;
        }
        Command::Token => show(cli.json, client.token().await?, print_token)?,
        Command::Desk => {
            show(cli.json, client.desk().await?, |desk| {
                println!(
                    "{}: {} live, {} reads, {} USDG earned",
                    desk.address,
                    desk.totals.live,
                    desk.totals.reads,
                    desk.totals.earned_units as f64 / 1e6
                );
                for j in desk.written {
                    println!(
                        "{:>5} {:<9} {:<5} {:>4} reads  {}",
                        j.id, j.status, j.ticker, j.reads, j.title
                    );
                }
            })?;
        }
        Command::Whoami => match client.me().await?.address {
            Some(a) => println!("{a}"),
            None => println!("not signed in"),
        },
        Command::Logout => {
            client.logout().await?;
            save_session(&session_file, None)?;
            println!("signed out");
        }
        Command::Journals { company } => {
            show(
                cli.json,
                client.journals(company.as_deref()).await?,
                |list| {
                    for j in list.journals {
                        println!(
                            "{:<5} {:<44} {:>8} USDG  {}",
                            j.company.ticker, j.slug, j.price_usdg, j.title
                        );
                    }
                },
            )?;
        }
        Command::Journal { slug } => {
            show(cli.json, client.journal(&slug).await?, |j| {
                println!("{} ({})", j.item.title, j.item.company.ticker);
                println!(
                    "by {}, {} USDG, {} min",
                    j.item.author.name, j.item.price_usdg, j.item.read_minutes
                );
                println!("\n{}\n", j.item.preview);
                for e in &j.evidence {
                    println!("[{}] {} {}", e.id, e.date, e.title);
                }
                if let Some(body) = j.body {
                    println!("\n{body}");
                }
            })?;
        }
        Command::Entries { ticker } => {
            let line =
                |id, date, kind, title: String| println!("{id:<20} {date} {kind:<6} {title}");
            match ticker {
                Some(t) => show(cli.json, client.search_entries(&t).await?, |rows| {
                    for r in rows {
                        line(r.id, r.date_of_record, r.kind, r.title);
                    }
                })?,
                None => show(cli.json, client.entries().await?, |rows| {
                    for r in rows {
                        line(r.id, r.date_of_record, r.kind, r.title);
                    }
                })?,
            }
        }
        Command::Entry { accession } => {
            show(cli.json, client.entry(&accession).await?, |e| {
                println!(
                    "{} {} {} ({})",
                    e.id, e.date_of_record, e.title, e.company.name
                );
                println!(
                    "{}\n\n{} — {}\n{}",
                    e.summary, e.source.name, e.source.url, e.source.says
                );
            })?;
        }
        Command::Config => print_json(&client.config().await?)?,
        Command::Quote { ticker } => {
            show(cli.json, client.quote(&ticker).await?, |q| {
                println!("{} {}", q.ticker, q.mid)
            })?;
        }
        Command::Rpc { method, params } => {
            let params: serde_json::Value = serde_json::from_str(&params)
                .map_err(|e| anyhow::anyhow!("PARAMS must be a JSON array: {e}"))?;
            print_json(&client.rpc(&method, params).await?)?;
        }
    }
    Ok(())
}

/// The token's ledger for a person: the pool, its fees and burns.
fn print_token(ledger: Option<journal_market_client::api::TokenLedger>) {
    let Some(l) = ledger else {
        println!("no token is configured");
        return;
    };
    let usd = |v: Option<f64>| {
        v.map_or("n/a".to_string(), |v| {
            if v.abs() < 1.0 {
                format!("${v:.6}")
            } else {
                format!("${v:.2}")
            }
        })
    };
    println!(
        "token {}  pool {}  block {:?}{}",
        l.ca,
        l.pool,
        l.block,
        if l.caught_up { "" } else { " (catching up)" }
    );
    println!(
        "pool fee {}%  creator share {}%  pledge {}%",
        l.pool_fee_pct, l.creator_share_pct, l.buyback_pct
    );
    println!(
        "{} swaps, {:.6} WETH volume, 24h {}",
        l.swaps,
        l.volume_weth,
        usd(l.volume24h_usd)
    );
    println!(
        "fees {:.6} WETH value ({:.6} WETH + {:.2} DOVE) = {}; pledged {:.6} WETH value = {}",
        l.fees_value_weth,
        l.fees_weth,
        l.fees_dove,
        usd(l.fees_usd),
        l.committed_value_weth,
        usd(l.committed_usd)
    );
    println!(
        "burned {:.2} ({:.6}%), price {}, market cap {}, {} holders",
        l.burned,
        l.burned_pct,
        usd(l.price_usd),
        usd(l.market_cap_usd),
        l.holders_total
    );
    for b in &l.burns {
        println!("  burn {} {:.2} at block {}", b.tx, b.amount, b.block);
    }
}

/// Approves USDG to the canonical Permit2 with the maximum allowance, unless already approved.
async fn approve_permit2(
    rpc: &str,
    signer: &PrivateKeySigner,
    usdg: alloy::primitives::Address,
) -> anyhow::Result<()> {
    use alloy::primitives::U256;
    use journal_market_chain::bindings::IERC20;
    let provider = journal_market_chain::devnet_file::wallet_provider(rpc, signer.clone())?;
    let token = IERC20::new(usdg, &provider);
    if token
        .allowance(signer.address(), journal_market_x402::canonical::PERMIT2)
        .call()
        .await?
        >= U256::MAX >> 1
    {
        return Ok(());
    }
    let receipt = token
        .approve(journal_market_x402::canonical::PERMIT2, U256::MAX)
        .send()
        .await?
        .get_receipt()
        .await?;
    anyhow::ensure!(receipt.status(), "the Permit2 approval reverted");
    eprintln!(
        "approved USDG to Permit2 in {:#x}",
        receipt.transaction_hash
    );
    Ok(())
}

async fn draft(client: &Client, command: DraftCommand, json: bool) -> anyhow::Result<()> {
    match command {
        DraftCommand::Save { file } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let input = journal_market_client::publisher::parse_draft_file(&text)?;
            match client.save_draft(&input).await {
                Ok(saved) if json => print_json(&saved)?,
                Ok(saved) => println!("saved draft {}", saved.id),
                Err(journal_market_client::ClientError::Api {
                    message, problems, ..
                }) if !problems.is_empty() => {
                    let list: Vec<String> = problems.iter().map(|p| format!("  - {p}")).collect();
                    anyhow::bail!("{message}:\n{}", list.join("\n"));
                }
                Err(e) => return Err(e.into()),
            }
        }
        DraftCommand::Audit { id } => {
            show(json, client.audit(id).await?, |out| {
                println!(
                    "{}: score {} ({})",
                    out.status, out.report.score, out.report.summary
                );
                for i in &out.report.issues {
                    println!("  {:<8} {:<20} {}", i.severity, i.check, i.detail);
                }
                if let Some(url) = out.meta_url {
                    println!("metaUrl: {url}\nnext: jm publish {id} --private-key …");
                }
            })?;
        }
        DraftCommand::Show { id } => {
            show(json, client.draft(id).await?, |d| {
                println!(
                    "{} [{}] {} ({} USDG)",
                    d.id, d.status, d.title, d.price_usdg
                );
                println!("audits: {} ({} left)", d.audits, d.audits_left);
                if let Some(r) = d.report {
                    println!("last audit: {} {} ({})", r.verdict, r.score, r.summary);
                    for i in &r.issues {
                        println!("  {:<8} {:<20} {}", i.severity, i.check, i.detail);
                    }
                }
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::show;

    #[test]
    fn show_prints_json_or_the_text_not_both() {
        let mut texts = 0;
        show(true, [1, 2], |_| texts += 1).unwrap();
        assert_eq!(texts, 0, "--json prints only the JSON");
        show(false, [1, 2], |v| texts += v.len()).unwrap();
        assert_eq!(texts, 2, "without --json the text is printed");
    }
}

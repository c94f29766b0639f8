//! Starting a local anvil: the binary from the repo's npm package (or PATH), chain id 4663.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use alloy::providers::{Provider, ProviderBuilder};
use tokio::process::{Child, Command};

/// A running anvil; killed when dropped.
pub struct Anvil {
    child: Child,
    pub port: u16,
    pub url: String,
}

impl Anvil {
    /// Stops the node (also done on drop).
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// `JM_ANVIL`, else `node_modules/.bin/anvil` in this folder or a parent, else `anvil` on PATH.
pub fn binary() -> PathBuf {
    if let Ok(p) = std::env::var("JM_ANVIL") {
        return PathBuf::from(p);
    }
    let starts = [
        std::env::current_dir().ok(),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
    ];
    for start in starts.into_iter().flatten() {
        let mut dir: Option<&Path> = Some(&start);
        while let Some(d) = dir {
            let candidate = d.join("node_modules/.bin/anvil");
            if candidate.exists() {
                return candidate;
            }
            dir = d.parent();
        }
    }
    PathBuf::from("anvil")
}

/// A port nobody listens on right now.
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// How the dev chain runs, besides its port and chain id (docs/decisions.md, "The dev chain"):
/// - Cancun, the EVM version the dev contracts are compiled for. From Prague on, every block
///   writes its parent's hash into the EIP-2935 history contract and anvil hashes that
///   contract's whole storage again for each block, so blocks got slower as the chain grew.
/// - The states of the last 256 blocks kept in memory and none written to disk (by default
///   anvil writes one per block once its in-memory history is full). Calls at older blocks
///   are refused; logs, blocks, receipts and `evm_snapshot`/`evm_revert` are unaffected.
///
/// 1,000 empty blocks took 0.8 s on a fresh node and 6.9 s at 4,000 blocks; with both, about
/// 0.1 s at any height.
pub const DEV_CHAIN_ARGS: [&str; 8] = [
    "--accounts",
    "10",
    "--balance",
    "10000",
    "--hardfork",
    "cancun",
    "--prune-history",
    "256",
];

/// Starts anvil on `port` (a free one when `None`) and waits until it answers.
pub async fn spawn(port: Option<u16>, chain_id: u64) -> anyhow::Result<Anvil> {
    let port = match port {
        // Another node on the port would answer the readiness check below, and the contracts
        // would go to it while this anvil exits.
        Some(p) if std::net::TcpListener::bind(("127.0.0.1", p)).is_err() => anyhow::bail!(
            "cannot start anvil: port {p} is in use (another node, or one still stopping)"
        ),
        Some(p) => p,
        None => free_port()?,
    };
    let bin = binary();
    let child = Command::new(&bin)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--chain-id", &chain_id.to_string()])
        .args(DEV_CHAIN_ARGS)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot start anvil ({}): {e}; run `npm ci` to install it",
                bin.display()
            )
        })?;
    let url = format!("http://127.0.0.1:{port}");
    let mut anvil = Anvil { child, port, url };
    let provider = ProviderBuilder::new().connect_http(anvil.url.parse()?);
    for _ in 0..200 {
        if let Ok(Some(status)) = anvil.child.try_wait() {
            anyhow::bail!("anvil exited ({status}) before answering on port {port}");
        }
        if provider.get_chain_id().await.is_ok() {
            return Ok(anvil);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("anvil did not answer on {} within 10 s", anvil.url)
}

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
    /// The node's process id (tests pause it with SIGSTOP).
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Stops the node (also done on drop, without saving).
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }

    /// Stops the node as Ctrl-C would, so one started with a state file saves it on the way
    /// out; killed if it has not exited after `wait`.
    pub async fn stop_saving(mut self, wait: Duration) {
        if let Some(pid) = self.child.id().and_then(|p| i32::try_from(p).ok()) {
            // SAFETY: kill(2) on our own child's pid; no memory is involved.
            unsafe {
                libc::kill(pid, libc::SIGINT);
            }
            if tokio::time::timeout(wait, self.child.wait()).await.is_ok() {
                return;
            }
        }
        let _ = self.child.kill().await;
    }
}

/// How often a node with a state file saves it: a kill loses at most this much of the chain.
pub const STATE_INTERVAL_SECS: u64 = 5;

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
    spawn_with_state(port, chain_id, None).await
}

/// As [`spawn`]; with `state`, the chain is loaded from that file when it exists and saved to
/// it every [`STATE_INTERVAL_SECS`] and on a clean stop ([`Anvil::stop_saving`], or when this
/// process dies: the node is sent SIGINT then, so it saves and exits instead of living on).
pub async fn spawn_with_state(
    port: Option<u16>,
    chain_id: u64,
    state: Option<&Path>,
) -> anyhow::Result<Anvil> {
    let taken = |p: u16| std::net::TcpListener::bind(("127.0.0.1", p)).is_err();
    if let (Some(p), Some(_)) = (port, state) {
        // The last run's node may still be saving its state (it was told when that run died).
        let until = std::time::Instant::now() + Duration::from_secs(15);
        while taken(p) && std::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let port = match port {
        // Another node on the port would answer the readiness check below, and the contracts
        // would go to it while this anvil exits.
        Some(p) if taken(p) => anyhow::bail!(
            "cannot start anvil: port {p} is in use (another node, or one still stopping)"
        ),
        Some(p) => p,
        None => free_port()?,
    };
    let bin = binary();
    let mut cmd = Command::new(&bin);
    cmd.args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--chain-id", &chain_id.to_string()])
        .args(DEV_CHAIN_ARGS);
    if let Some(state) = state {
        cmd.arg("--state")
            .arg(state)
            .args(["--state-interval", &STATE_INTERVAL_SECS.to_string()]);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl(2) only, between fork and exec: async-signal-safe, touches no memory.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGINT);
                Ok(())
            });
        }
    }
    let child = cmd
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

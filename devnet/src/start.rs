//! `journal-market devnet`: a local marketplace that lasts. The chain is anvil with its state
//! in a file next to the devnet file (loaded on start, saved every few seconds and on stop),
//! so a second start serves the first one's journals, purchases and sessions. When the saved
//! chain and the database disagree, both start fresh, said in one line; never a crash loop.

use std::future::Future;
use std::path::{Path, PathBuf};

use alloy::providers::{Provider, ProviderBuilder};
use journal_market_chain::devnet_file::Devnet;

use crate::anvil::{self, Anvil};

/// The product's database as the devnet sees it: what it has indexed, and how to empty it.
/// The service implements it (the devnet crate knows no database).
pub trait Database {
    /// The blocks the indexer recorded: number, and hash unless it was final when written.
    /// An error says why there are none to compare (the database cannot be opened, is empty).
    fn indexed_blocks(&self) -> impl Future<Output = Result<Vec<(i64, Option<String>)>, String>>;

    /// Empties the database: the chain starts fresh, so must it.
    fn empty(&self) -> impl Future<Output = anyhow::Result<()>>;
}

/// The running chain, its contracts, and whether it is the last run's.
pub struct Started {
    pub anvil: Anvil,
    pub devnet: Devnet,
    /// The chain and the database are the last run's: nothing is deployed or seeded again.
    pub resumed: bool,
}

/// Where the chain's state is kept: next to the devnet file.
pub fn state_path(devnet_file: &Path) -> PathBuf {
    devnet_file.with_file_name("anvil-state.json")
}

/// Starts the last run's chain when it and the database agree (unless `fresh`), else a new
/// chain with the contracts deployed and an emptied database.
pub async fn start(
    db: &impl Database,
    chain_id: u64,
    port: u16,
    out: &Path,
    fresh: bool,
) -> anyhow::Result<Started> {
    let state = state_path(out);
    if !fresh && out.exists() && state.exists() {
        let anvil = anvil::spawn_with_state(Some(port), chain_id, Some(&state)).await?;
        let resumed = match Devnet::load(out) {
            Ok(mut devnet) => {
                devnet.rpc_url = anvil.url.clone();
                agrees(db, &devnet).await.map(|()| devnet)
            }
            Err(e) => Err(e.to_string()),
        };
        match resumed {
            Ok(devnet) => {
                tracing::info!(state = %state.display(), "the last run's chain and database agree: serving them");
                return Ok(Started {
                    anvil,
                    devnet,
                    resumed: true,
                });
            }
            Err(why) => {
                tracing::warn!(
                    "the saved chain and the database disagree ({why}): starting both fresh"
                );
                // Not saved on the way out: the file is replaced below.
                anvil.stop().await;
            }
        }
    }
    remove_if_there(&state)?;
    db.empty().await?;
    let anvil = anvil::spawn_with_state(Some(port), chain_id, Some(&state)).await?;
    let devnet = crate::deploy::deploy(&anvil.url).await?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, serde_json::to_string_pretty(&devnet)? + "\n")
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    Ok(Started {
        anvil,
        devnet,
        resumed: false,
    })
}

/// Whether the database was written against this chain: the contracts are there, and every
/// block the indexer recorded is on the chain with the same hash.
async fn agrees(db: &impl Database, devnet: &Devnet) -> Result<(), String> {
    let url = devnet.rpc_url.parse().map_err(|e| format!("{e}"))?;
    let chain = ProviderBuilder::new().connect_http(url);
    let code = chain
        .get_code_at(devnet.contracts.usdg)
        .await
        .map_err(|e| format!("the chain does not answer: {e}"))?;
    if code.is_empty() {
        return Err("the saved chain has no contracts".into());
    }
    let cursors = db.indexed_blocks().await?;
    if cursors.is_empty() {
        return Err("the database has not indexed this chain".into());
    }
    for (number, hash) in cursors {
        let block = chain
            .get_block_by_number(u64::try_from(number).unwrap_or(0).into())
            .await
            .map_err(|e| format!("the chain does not answer: {e}"))?;
        match block {
            None => {
                return Err(format!(
                    "the database has seen block {number}, past the saved chain's end"
                ));
            }
            // A cursor without a hash was final when written: being on the chain is enough.
            Some(b)
                if hash
                    .as_deref()
                    .is_some_and(|h| !format!("{:#x}", b.header.hash).eq_ignore_ascii_case(h)) =>
            {
                return Err(format!(
                    "block {number} differs from the one the database saw"
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

pub fn remove_if_there(f: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(f) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => anyhow::bail!("cannot remove {}: {e}", f.display()),
    }
}

//! `journal-market devnet`: a local marketplace that lasts. The chain is anvil with its state
//! in a file next to the devnet file (loaded on start, saved every few seconds and on stop),
//! so a second start serves the first one's journals, purchases and sessions. When the saved
//! chain and the database disagree, both start fresh, said in one line; never a crash loop.

use std::path::{Path, PathBuf};

use alloy::providers::{Provider, ProviderBuilder};
use journal_market_chain::anvil::{self, Anvil};
use journal_market_chain::devnet::Devnet;
use journal_market_entity::indexer_cursors;
use sea_orm::EntityTrait;

use crate::config::Settings;

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
    settings: &Settings,
    port: u16,
    out: &Path,
    fresh: bool,
) -> anyhow::Result<Started> {
    let state = state_path(out);
    let chain_id = settings.chain.chain_id;
    if !fresh && out.exists() && state.exists() {
        let anvil = anvil::spawn_with_state(Some(port), chain_id, Some(&state)).await?;
        let resumed = match Devnet::load(out) {
            Ok(mut devnet) => {
                devnet.rpc_url = anvil.url.clone();
                agrees(settings, &devnet).await.map(|()| devnet)
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
    empty_database(settings).await?;
    let anvil = anvil::spawn_with_state(Some(port), chain_id, Some(&state)).await?;
    let devnet = journal_market_chain::devnet::deploy(&anvil.url).await?;
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
async fn agrees(settings: &Settings, devnet: &Devnet) -> Result<(), String> {
    let url = devnet.rpc_url.parse().map_err(|e| format!("{e}"))?;
    let chain = ProviderBuilder::new().connect_http(url);
    let code = chain
        .get_code_at(devnet.contracts.usdg)
        .await
        .map_err(|e| format!("the chain does not answer: {e}"))?;
    if code.is_empty() {
        return Err("the saved chain has no contracts".into());
    }
    let db = crate::db::connect(&settings.database)
        .await
        .map_err(|e| format!("the database cannot be opened: {e}"))?;
    let cursors = indexer_cursors::Entity::find().all(&db).await;
    let _ = db.close().await;
    let cursors = cursors.map_err(|_| "the database is empty".to_string())?;
    if cursors.is_empty() {
        return Err("the database has not indexed this chain".into());
    }
    for c in cursors {
        let number = c.block;
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
                if c.block_hash
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

/// An empty database: a SQLite file is removed (with its journal files), any other database
/// has its tables dropped and migrated again.
async fn empty_database(settings: &Settings) -> anyhow::Result<()> {
    if let Some(path) = crate::db::sqlite_path(settings.database.url.expose()) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            remove_if_there(Path::new(&format!("{path}{suffix}")))?;
        }
        return Ok(());
    }
    let db = crate::db::connect(&settings.database).await?;
    crate::db::reset(&db).await?;
    db.close().await?;
    Ok(())
}

fn remove_if_there(f: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(f) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => anyhow::bail!("cannot remove {}: {e}", f.display()),
    }
}

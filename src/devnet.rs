//! The service's side of `journal-market devnet`: its database, as the devnet crate's start
//! asks for it (what the indexer recorded, and emptying it when the chain starts fresh).

use std::path::Path;

use journal_market_devnet::start::{Database, remove_if_there};
use journal_market_entity::indexer_cursors;
use sea_orm::EntityTrait;

use crate::config::Settings;

/// The database `settings` name.
pub struct ServiceDatabase<'a>(pub &'a Settings);

impl Database for ServiceDatabase<'_> {
    async fn indexed_blocks(&self) -> Result<Vec<(i64, Option<String>)>, String> {
        let db = crate::db::connect(&self.0.database)
            .await
            .map_err(|e| format!("the database cannot be opened: {e}"))?;
        let cursors = indexer_cursors::Entity::find().all(&db).await;
        let _ = db.close().await;
        let cursors = cursors.map_err(|_| "the database is empty".to_string())?;
        Ok(cursors
            .into_iter()
            .map(|c| (c.block, c.block_hash))
            .collect())
    }

    /// A SQLite file is removed (with its journal files), any other database has its tables
    /// dropped and migrated again.
    async fn empty(&self) -> anyhow::Result<()> {
        let settings = self.0;
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
}

//! The journals on sale, as the purchase and the reads find them.

use std::sync::Arc;

use crate::error::{ApiError, ApiResult};
use crate::queries::journals;
use crate::state::AppState;

/// A live journal by slug or id, through the public cache.
pub async fn live(state: &AppState, key: &str) -> ApiResult<Arc<journals::LiveJournal>> {
    state
        .journals
        .get_or_try(key.to_string(), || async {
            journals::find_live(&state.db, state.origin(), key)
                .await?
                .map(Arc::new)
                .ok_or_else(|| {
                    ApiError::not_found(format!("no published journal has the slug or id {key:?}"))
                })
        })
        .await
}

//! Signed purchase receipts (x402 `offer-receipt`, EIP-712), one per settled payment. A receipt
//! is a pure function of its payment (the network, the journal's paid-text URL, the payer, the
//! time the payment arrived, its transaction) and ECDSA signing here is deterministic, so the
//! receipt in a paid answer and the one `/me/history` lists are the same bytes.

use std::collections::HashMap;

use alloy::primitives::{Address, B256};
use journal_market_actors::settlement::store;
use journal_market_chain::extensions::offer_receipt::{self, ReceiptPayload, SignedReceipt};
use journal_market_client::api::History;
use journal_market_entity::{journals, payments};
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};

use crate::state::AppState;

/// The receipt of a settled payment `row` for the journal `slug`, when receipts are on.
fn of_row(state: &AppState, slug: &str, row: &payments::Model) -> Option<SignedReceipt> {
    let key = state.pay.receipts.as_ref()?;
    let payer: Address = row.wallet.parse().ok()?;
    let tx: B256 = row.tx.as_deref()?.parse().ok()?;
    let payload = ReceiptPayload {
        version: offer_receipt::VERSION,
        network: format!("eip155:{}", state.settings.chain.chain_id),
        resource_url: state.text_url(slug, None),
        payer: payer.to_checksum(None),
        issued_at: u64::try_from(row.created_at.timestamp()).unwrap_or(0),
        transaction: format!("{tx:#x}"),
    };
    offer_receipt::sign(payload, key)
        .inspect_err(|e| tracing::warn!(error = %e, "a receipt could not be signed"))
        .ok()
}

/// The receipt of the settled payment `tx` of `payer` for journal `journal_id`. The payment
/// is made already: a receipt that cannot be read now is left out of the answer, never turned
/// into an error that would hide the text that was paid for.
pub async fn of_payment(
    state: &AppState,
    slug: &str,
    journal_id: i32,
    payer: Address,
    tx: B256,
) -> Option<SignedReceipt> {
    state.pay.receipts.as_ref()?;
    let row = store::of_wallet(&format!("{payer:#x}"), journal_id)
        .filter(payments::Column::Tx.eq(format!("{tx:#x}")))
        .one(&state.db)
        .await
        .inspect_err(|e| tracing::warn!(error = %e, "the paid answer goes without its receipt"))
        .ok()??;
    of_row(state, slug, &row)
}

/// Puts on each unlock of `history` the receipt of the payment that completed it (the
/// wallet's last settled payment for that journal).
pub async fn fill(state: &AppState, wallet: Address, history: &mut History) -> Result<(), DbErr> {
    if state.pay.receipts.is_none() || history.unlocks.is_empty() {
        return Ok(());
    }
    let rows = payments::Entity::find()
        .filter(payments::Column::Wallet.eq(format!("{wallet:#x}")))
        .filter(payments::Column::State.eq(store::SETTLED))
        .order_by_asc(payments::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let slugs: HashMap<i32, String> = journals::Entity::find()
        .filter(journals::Column::Id.is_in(rows.iter().map(|r| r.journal_id)))
        .all(&state.db)
        .await?
        .into_iter()
        .filter_map(|j| Some((j.id, j.slug?)))
        .collect();
    // Later rows overwrite earlier ones: the last payment completed the purchase.
    let mut last: HashMap<&str, &payments::Model> = HashMap::new();
    for r in &rows {
        if let Some(slug) = slugs.get(&r.journal_id) {
            last.insert(slug, r);
        }
    }
    for u in &mut history.unlocks {
        u.receipt = last
            .get(u.slug.as_str())
            .and_then(|r| of_row(state, &u.slug, r))
            .and_then(|r| serde_json::to_value(r).ok());
    }
    Ok(())
}

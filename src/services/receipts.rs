//! Signed purchase receipts (x402 `offer-receipt`, EIP-712), one per settled payment. A receipt
//! is a pure function of its payment (the network, the journal's paid-text URL, the payer, the
//! time the payment arrived, its transaction) and ECDSA signing here is deterministic, so the
//! receipt in a paid answer and the one `/me/history` lists are the same bytes.

use std::collections::HashMap;

use alloy::primitives::{Address, B256};
use alloy::signers::local::PrivateKeySigner;
use journal_market_actors::settlement::store;
use journal_market_api::History;
use journal_market_chain::extensions::offer_receipt::{self, ReceiptPayload, SignedReceipt};
use journal_market_entity::{journals, payments};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};

use crate::domain::wallet::lower;
use crate::site::Site;

/// Signs receipts with the configured key; without one, there are none.
#[derive(Clone)]
pub struct Receipts {
    db: DatabaseConnection,
    site: Site,
    key: Option<PrivateKeySigner>,
}

impl Receipts {
    pub fn new(db: DatabaseConnection, site: Site, key: Option<PrivateKeySigner>) -> Self {
        Receipts { db, site, key }
    }

    /// The address receipts are signed by, when they are.
    pub fn signer(&self) -> Option<Address> {
        self.key.as_ref().map(|k| k.address())
    }

    /// The receipt of a settled payment `row` for the journal `slug`, when receipts are on.
    fn of_row(&self, slug: &str, row: &payments::Model) -> Option<SignedReceipt> {
        let key = self.key.as_ref()?;
        let payer: Address = row.wallet.parse().ok()?;
        let tx: B256 = row.tx.as_deref()?.parse().ok()?;
        let payload = ReceiptPayload {
            version: offer_receipt::VERSION,
            network: format!("eip155:{}", self.site.chain_id()),
            resource_url: self.site.text_url(slug, None),
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
        &self,
        slug: &str,
        journal_id: i32,
        payer: Address,
        tx: B256,
    ) -> Option<SignedReceipt> {
        self.key.as_ref()?;
        let row = store::of_wallet(&lower(&payer), journal_id)
            .filter(payments::Column::Tx.eq(format!("{tx:#x}")))
            .one(&self.db)
            .await
            .inspect_err(|e| tracing::warn!(error = %e, "the paid answer goes without its receipt"))
            .ok()??;
        self.of_row(slug, &row)
    }

    /// Puts on each unlock of `history` the receipt of the payment that completed it (the
    /// wallet's last settled payment for that journal).
    pub async fn fill(&self, wallet: Address, history: &mut History) -> Result<(), DbErr> {
        if self.key.is_none() || history.unlocks.is_empty() {
            return Ok(());
        }
        let rows = payments::Entity::find()
            .filter(payments::Column::Wallet.eq(lower(&wallet)))
            .filter(payments::Column::State.eq(store::SETTLED))
            .order_by_asc(payments::Column::CreatedAt)
            .all(&self.db)
            .await?;
        let slugs: HashMap<i32, String> = journals::Entity::find()
            .filter(journals::Column::Id.is_in(rows.iter().map(|r| r.journal_id)))
            .all(&self.db)
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
                .and_then(|r| self.of_row(&u.slug, r))
                .and_then(|r| serde_json::to_value(r).ok());
        }
        Ok(())
    }
}

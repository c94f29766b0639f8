//! Signed purchase receipts (x402 `offer-receipt`, EIP-712), one per settled payment. A receipt
//! is a pure function of its payment (the network, what it paid for: the journal's paid-text
//! URL for the payment that completed a purchase, the fee step and its amount for a
//! person-written journal's fee; the payer, the time the payment arrived, its transaction) and ECDSA signing here is deterministic, so the
//! receipt in a paid answer and the one `/me/history` lists are the same bytes.

use std::collections::HashMap;

use alloy::primitives::{Address, B256};
use alloy::signers::local::PrivateKeySigner;
use chrono::{DateTime, Utc};
use journal_market_api::History;
use journal_market_chain::fast_key::{FastSigner, fast};
use journal_market_entity::{PaymentState, Wallet, journals, payments};
use journal_market_x402::extensions::offer_receipt::{
    self, Delivery, ReceiptPayload, SignedReceipt,
};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};

use crate::site::Site;

/// Signs receipts with the configured key; without one, there are none.
#[derive(Clone)]
pub struct Receipts {
    db: DatabaseConnection,
    site: Site,
    key: Option<FastSigner>,
}

impl Receipts {
    /// Receipts are signed with libsecp256k1 (one per paid answer); a key it cannot take
    /// (none that parsed as a private key) leaves receipts off, with a warning.
    pub fn new(db: DatabaseConnection, site: Site, key: Option<PrivateKeySigner>) -> Self {
        let key = key.and_then(|k| {
            fast(&k)
                .inspect_err(
                    |e| tracing::warn!(error = %e, "the receipt key cannot sign; receipts are off"),
                )
                .ok()
        });
        Receipts { db, site, key }
    }

    /// The address receipts are signed by, when they are.
    pub fn signer(&self) -> Option<Address> {
        self.key.as_ref().map(|k| k.address())
    }

    /// The receipt of a settled payment `row` that completed the purchase of the journal
    /// `slug` (its text), when receipts are on.
    fn of_row(&self, slug: &str, row: &payments::Model) -> Option<SignedReceipt> {
        let tx = row.tx?;
        self.of_payment(
            &self.site.text_url(slug, None),
            row.wallet.address(),
            tx.into(),
            row.created_at,
        )
    }

    /// The receipt of the payment `tx` of `payer` for `resource` (the journal's text, or a
    /// fee step: [`Site::fee_url`]), which arrived at `paid_at` (its row's creation), when
    /// receipts are on. The payment is made already: a receipt that cannot be signed is left
    /// out of the answer, never turned into an error that would hide the text that was paid
    /// for.
    pub fn of_payment(
        &self,
        resource: &str,
        payer: Address,
        tx: B256,
        paid_at: DateTime<Utc>,
    ) -> Option<SignedReceipt> {
        self.signed(resource, payer, tx, paid_at, None)
    }

    /// The receipt of the payment that delivered a text: also binds `delivery` (the body as
    /// delivered, the audit report, the cited sources), as version 2.
    pub fn of_delivery(
        &self,
        resource: &str,
        payer: Address,
        tx: B256,
        paid_at: DateTime<Utc>,
        delivery: Delivery,
    ) -> Option<SignedReceipt> {
        self.signed(resource, payer, tx, paid_at, Some(delivery))
    }

    fn signed(
        &self,
        resource: &str,
        payer: Address,
        tx: B256,
        paid_at: DateTime<Utc>,
        delivery: Option<Delivery>,
    ) -> Option<SignedReceipt> {
        let key = self.key.as_ref()?;
        let payload = ReceiptPayload {
            version: match delivery {
                Some(_) => offer_receipt::VERSION_DELIVERY,
                None => offer_receipt::VERSION,
            },
            network: format!("eip155:{}", self.site.chain_id()),
            resource_url: resource.to_string(),
            payer: payer.to_checksum(None),
            issued_at: u64::try_from(paid_at.timestamp()).unwrap_or(0),
            transaction: format!("{tx:#x}"),
            delivery,
        };
        offer_receipt::sign(payload, key)
            .inspect_err(|e| tracing::warn!(error = %e, "a receipt could not be signed"))
            .ok()
    }

    /// Puts on each unlock of `history` the receipt of the payment that completed it (the
    /// wallet's last settled payment for that journal).
    pub async fn fill(&self, wallet: Address, history: &mut History) -> Result<(), DbErr> {
        if self.key.is_none() || history.unlocks.is_empty() {
            return Ok(());
        }
        let rows = payments::Entity::find()
            .filter(payments::Column::Wallet.eq(Wallet(wallet)))
            .filter(payments::Column::State.eq(PaymentState::Settled))
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

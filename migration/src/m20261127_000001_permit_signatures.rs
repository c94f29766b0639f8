//! A permit's signature pays for one wallet. Permit2's digest does not name its owner, so a
//! signature an EOA gave could be reposted with `from` set to a contract wallet that accepts
//! its owner's signature over the bare digest. Each payment row keeps a key of its signature
//! (low-s, normalized `v`), unique: a second row with the same signature, for any wallet, is
//! refused by the write itself. Rows from before have no key.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{add_columns, drop_columns, drop_index, named_index};

#[derive(DeriveMigrationName)]
pub struct Migration;

const UNIQUE_SIGNATURE: &str = "ux_payments_signature_key";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        add_columns(m, "payments", [string_null("signature_key")]).await?;
        m.create_index(
            named_index(UNIQUE_SIGNATURE, "payments", &["signature_key"])
                .unique()
                .take(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(drop_index(UNIQUE_SIGNATURE, "payments"))
            .await?;
        drop_columns(m, "payments", &["signature_key"]).await
    }
}

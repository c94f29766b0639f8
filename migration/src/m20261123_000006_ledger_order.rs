//! The ledger's event rows keyed in chain order, `(block, log_index)`, instead of by
//! `(tx, log_index)`. A log's index is its place in its block, so the key is as unique as
//! before, but the indexer now appends to the key's b-tree instead of writing at random places
//! in it (transaction hashes are random): a catch-up dirtied nearly every page of that index
//! between two WAL checkpoints. The key also serves the rollback's `block > n`, so the separate
//! block index goes. Rows are copied, nothing is re-read from the chain.

use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{Columns, drop_tables, named_index, table};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// A ledger table's columns, beside `tx`, `log_index` and `block`.
struct Shape {
    table: &'static str,
    columns: fn(&mut TableCreateStatement),
    /// Their names, in the order `columns` adds them.
    names: &'static str,
    /// Indexes other than the key: (name, column).
    indexes: &'static [(&'static str, &'static str)],
}

fn transfer_columns(t: &mut TableCreateStatement) {
    t.col(string("sender"))
        .col(string("recipient"))
        .col(string("amount"));
}

fn swap_columns(t: &mut TableCreateStatement) {
    t.col(string("amount0"))
        .col(string("amount1"))
        .col(string("sqrt_price_x96"))
        .col(timestamp_with_time_zone_null("block_time"));
}

const TRANSFERS: Shape = Shape {
    table: "token_transfers",
    columns: transfer_columns,
    names: "sender, recipient, amount",
    indexes: &[("ix_token_transfers_recipient", "recipient")],
};

const SWAPS: Shape = Shape {
    table: "swaps",
    columns: swap_columns,
    names: "amount0, amount1, sqrt_price_x96, block_time",
    indexes: &[],
};

/// Rebuilds `shape.table` with `key` as its primary key (SQLite cannot change a key in place)
/// and `block_index` as its own index when given.
async fn rebuild(
    m: &SchemaManager<'_>,
    shape: &Shape,
    key: [&'static str; 2],
    block_index: Option<&str>,
) -> Result<(), DbErr> {
    let next = format!("{}_next", shape.table);
    let mut create = table(Alias::new(&next));
    create.chain_log();
    (shape.columns)(&mut create);
    // Named by its columns: the table is renamed afterwards, and PostgreSQL keeps the name a
    // key got at creation, so "<table>_next_pkey" would clash on the way back.
    create.primary_key(
        Index::create()
            .name(format!("pk_{}_{}_{}", shape.table, key[0], key[1]))
            .col(key[0])
            .col(key[1]),
    );
    m.create_table(create.to_owned()).await?;
    let db = m.get_connection();
    let columns = format!("tx, log_index, block, {}", shape.names);
    db.execute_unprepared(&format!(
        "INSERT INTO {next} ({columns}) SELECT {columns} FROM {}",
        shape.table
    ))
    .await?;
    drop_tables(m, &[shape.table]).await?;
    m.rename_table(
        Table::rename()
            .table(Alias::new(&next), shape.table)
            .to_owned(),
    )
    .await?;
    let mut indexes: Vec<(String, &str)> = shape
        .indexes
        .iter()
        .map(|(n, c)| (String::from(*n), *c))
        .collect();
    if let Some(name) = block_index {
        indexes.push((name.to_string(), "block"));
    }
    for (name, col) in indexes {
        m.create_index(named_index(&name, shape.table, &[col]))
            .await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    // Each way runs in one transaction on one connection: SQLite runs migrations outside a
    // transaction, and a pooled connection that did not see the drop refuses the new index's
    // name as taken.
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let t = m.begin().await?;
        rebuild(&t, &TRANSFERS, ["block", "log_index"], None).await?;
        rebuild(&t, &SWAPS, ["block", "log_index"], None).await?;
        t.commit().await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let t = m.begin().await?;
        let back = ["tx", "log_index"];
        rebuild(&t, &TRANSFERS, back, Some("ix_token_transfers_block")).await?;
        rebuild(&t, &SWAPS, back, Some("ix_swaps_block")).await?;
        t.commit().await
    }
}

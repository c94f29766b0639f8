//! Builders the migrations share: the names the schema gives its keys and indexes, the columns
//! several tables have, and the statements SQLite takes one at a time. What they build is in
//! deployed databases: a change here changes what old migrations would make (tests/schema.rs
//! pins it).

use sea_orm_migration::{prelude::*, schema::*};

/// A new table, to be given its columns and created with [`create`].
pub fn table<T: IntoIden + 'static>(name: T) -> TableCreateStatement {
    Table::create().table(name).take()
}

pub async fn create(m: &SchemaManager<'_>, table: &mut TableCreateStatement) -> Result<(), DbErr> {
    m.create_table(table.take()).await
}

pub async fn drop_tables(m: &SchemaManager<'_>, tables: &[&'static str]) -> Result<(), DbErr> {
    for t in tables {
        m.drop_table(Table::drop().table(*t).take()).await?;
    }
    Ok(())
}

/// Column groups several tables share, in the order they are added.
pub trait Columns {
    /// A chain log's place: its transaction, its index in its block, the block.
    fn chain_log(&mut self) -> &mut Self;
    /// When the row was written, and last changed.
    fn created_updated(&mut self) -> &mut Self;
}

impl Columns for TableCreateStatement {
    fn chain_log(&mut self) -> &mut Self {
        self.col(string("tx"))
            .col(integer("log_index"))
            .col(big_integer("block"))
    }

    fn created_updated(&mut self) -> &mut Self {
        self.col(timestamp_with_time_zone("created_at"))
            .col(timestamp_with_time_zone("updated_at"))
    }
}

/// The key `(tx, log_index)` of a table of chain logs, as they were first keyed.
pub fn tx_log_key() -> IndexCreateStatement {
    Index::create().col("tx").col("log_index").take()
}

/// A foreign key from `from.col` to `to.to_col`, named `fk_{from}_{col}`.
pub fn foreign_key(
    from: &'static str,
    col: &'static str,
    to: &'static str,
    to_col: &'static str,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(format!("fk_{from}_{col}"))
        .from(from, col)
        .to(to, to_col)
        .take()
}

/// A [`foreign_key`] whose rows go with the row they refer to.
pub fn cascade(
    from: &'static str,
    col: &'static str,
    to: &'static str,
    to_col: &'static str,
) -> ForeignKeyCreateStatement {
    foreign_key(from, col, to, to_col)
        .on_delete(ForeignKeyAction::Cascade)
        .take()
}

/// An index of `cols`, named `ix_{table}_{cols joined by _}`.
pub fn index(table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    named_index(&format!("ix_{table}_{}", cols.join("_")), table, cols)
}

/// An index named otherwise (a name in a deployed database stays as it was given).
pub fn named_index(name: &str, table: &'static str, cols: &[&'static str]) -> IndexCreateStatement {
    let mut stmt = Index::create();
    stmt.name(name).table(table);
    for c in cols {
        stmt.col(*c);
    }
    stmt
}

pub fn drop_index(name: &str, table: &'static str) -> IndexDropStatement {
    Index::drop().name(name).table(table).to_owned()
}

/// Adds `columns` to `table`, one ALTER TABLE each: SQLite takes one column per ALTER TABLE.
pub async fn add_columns(
    m: &SchemaManager<'_>,
    table: &'static str,
    columns: impl IntoIterator<Item = ColumnDef>,
) -> Result<(), DbErr> {
    for col in columns {
        m.alter_table(Table::alter().table(table).add_column(col).take())
            .await?;
    }
    Ok(())
}

/// Drops `columns` from `table`, one ALTER TABLE each, in the order given.
pub async fn drop_columns(
    m: &SchemaManager<'_>,
    table: &'static str,
    columns: &[&'static str],
) -> Result<(), DbErr> {
    for col in columns {
        m.alter_table(Table::alter().table(table).drop_column(*col).take())
            .await?;
    }
    Ok(())
}

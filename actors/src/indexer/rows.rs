//! Multi-row INSERTs written as SQL text with bound values. A catch-up stores thousands of
//! rows a range; making them through ActiveModels and the query builder (which clones every
//! value and builds the statement anew each time) cost more than running them.

use std::fmt::Write;

use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement, Value};

/// The most rows in one INSERT: fewer, larger statements cost less to run than many small
/// ones (1,024 rows of 7 values stay far under SQLite's 32,766 and PostgreSQL's 65,535
/// parameters).
const ROWS_PER_INSERT: usize = 1024;

/// A table rows are added to: its name, the columns given for each row, and what follows
/// the VALUES (an ON CONFLICT clause, or nothing).
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [&'static str],
    pub then: &'static str,
}

/// Adds the rows whose values `values` holds, row after row (`columns.len()` values each),
/// in INSERTs of power-of-two sizes: at most eleven statement shapes a table, so the driver's
/// prepared statements are reused instead of one parsed (and cached) per range's row count.
pub async fn insert(db: &impl ConnectionTrait, t: &Table, values: Vec<Value>) -> Result<(), DbErr> {
    let width = t.columns.len();
    debug_assert_eq!(
        values.len() % width,
        0,
        "a row of {} has missing values",
        t.name
    );
    let backend = db.get_database_backend();
    let mut values = values.into_iter();
    for rows in chunk_sizes(values.len() / width) {
        let sql = statement(backend, t, rows);
        let chunk = values.by_ref().take(rows * width);
        db.execute_raw(Statement::from_sql_and_values(backend, sql, chunk))
            .await?;
    }
    Ok(())
}

/// `INSERT INTO "t" ("a","b") VALUES (?,?),(?,?) <then>`, with `$n` placeholders on PostgreSQL.
fn statement(backend: DbBackend, t: &Table, rows: usize) -> String {
    let width = t.columns.len();
    let mut sql = String::with_capacity(64 + t.then.len() + rows * width * 7);
    let columns: Vec<String> = t.columns.iter().map(|c| format!("\"{c}\"")).collect();
    // Writing to a String cannot fail.
    let _ = write!(
        sql,
        "INSERT INTO \"{}\" ({}) VALUES ",
        t.name,
        columns.join(",")
    );
    let mut n = 0;
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ",(" });
        for column in 0..width {
            if column > 0 {
                sql.push(',');
            }
            n += 1;
            match backend {
                DbBackend::Postgres => {
                    let _ = write!(sql, "${n}");
                }
                _ => sql.push('?'),
            }
        }
        sql.push(')');
    }
    if !t.then.is_empty() {
        sql.push(' ');
        sql.push_str(t.then);
    }
    sql
}

/// Splits `rows` into power-of-two sizes up to [`ROWS_PER_INSERT`], largest first.
fn chunk_sizes(mut rows: usize) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if rows == 0 {
            return None;
        }
        let size = ROWS_PER_INSERT.min(1 << rows.ilog2());
        rows -= size;
        Some(size)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_have_power_of_two_sizes() {
        let sizes = |n: usize| chunk_sizes(n).collect::<Vec<_>>();
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(1), vec![1]);
        assert_eq!(sizes(800), vec![512, 256, 32]);
        assert_eq!(sizes(1024), vec![1024]);
        assert_eq!(sizes(2500), vec![1024, 1024, 256, 128, 64, 4]);
        for n in 0..3000 {
            let s = sizes(n);
            assert_eq!(s.iter().sum::<usize>(), n);
            assert!(
                s.iter()
                    .all(|k| k.is_power_of_two() && *k <= ROWS_PER_INSERT)
            );
        }
    }

    const T: Table = Table {
        name: "t",
        columns: &["a", "b"],
        then: "ON CONFLICT (\"a\") DO NOTHING",
    };

    #[test]
    fn statements_number_their_placeholders_per_backend() {
        assert_eq!(
            statement(DbBackend::Sqlite, &T, 2),
            "INSERT INTO \"t\" (\"a\",\"b\") VALUES (?,?),(?,?) ON CONFLICT (\"a\") DO NOTHING"
        );
        assert_eq!(
            statement(DbBackend::Postgres, &T, 2),
            "INSERT INTO \"t\" (\"a\",\"b\") VALUES ($1,$2),($3,$4) ON CONFLICT (\"a\") DO NOTHING"
        );
        let plain = Table { then: "", ..T };
        assert_eq!(
            statement(DbBackend::Sqlite, &plain, 1),
            "INSERT INTO \"t\" (\"a\",\"b\") VALUES (?,?)"
        );
    }
}

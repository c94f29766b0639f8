//! Running totals of the token ledger, so that `GET /token.json` reads one row instead of every
//! swap and burn: `ledger_totals` holds, per index (the indexer cursor's name), the sums of its
//! swaps and burns that the figures need (`journal_market_domain::ledger::Totals`: the swap
//! count; per pool token, Σ|amount|, Σ amount paid in, Σ amount paid in while the other was not
//! and the value of the latter in the other token; Σ burned) and the number of holders. The
//! indexer adjusts them in the transactions that write and remove those rows. Sums are decimal
//! strings of integers like the amounts they add up, exact on both databases (SQLite has no
//! integer past 64 bits and keeps a larger NUMERIC as a float); they are added in Rust. The
//! totals are made here from the rows already indexed. The reads left are bounded too: an index
//! on `swaps.block_time` serves the last 24 hours' volume, and the index on the transfers'
//! recipient gains the chain order, `(recipient, block, log_index)`, so each burn address's
//! latest burns are read newest first from it (with the recipient alone, a plan either sorts
//! every burn or scans the newest transfers until it has 12 burns, every transfer when there
//! are fewer). It replaces the recipient's own index (its prefix), so a transfer's insert
//! still updates one index beside the key.

use journal_market_domain::ledger::{BURN_TARGETS, Swap, Totals};
use sea_orm_migration::sea_orm::{ConnectionTrait, QueryResult};
use sea_orm_migration::{prelude::*, schema::*};

use crate::build::{create, drop_index, drop_tables, index, named_index, table};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The indexer cursor's name: the index the rows are of.
const INDEX: &str = "chain";
/// The transfers' index by recipient, and the one in chain order that replaces it.
const RECIPIENT: &str = "ix_token_transfers_recipient";
const RECIPIENT_BLOCK: &str = "ix_token_transfers_recipient_block";
/// Swaps read at a time.
const PAGE: u64 = 10_000;
const SUMS: [&str; 9] = [
    "volume0",
    "volume1",
    "paid_in0",
    "paid_in1",
    "sold0",
    "sold1",
    "sold_value0",
    "sold_value1",
    "burned",
];

fn big<T: std::str::FromStr + Default>(row: &QueryResult, col: &str) -> Result<T, DbErr> {
    Ok(row.try_get::<String>("", col)?.parse().unwrap_or_default())
}

/// The totals of every swap and burn indexed, and the number of holders.
async fn made_from_rows(db: &impl ConnectionTrait) -> Result<(Totals, i64), DbErr> {
    let mut totals = Totals::default();
    let mut after: Option<(i64, i32)> = None;
    loop {
        let mut q = Query::select();
        q.columns(["block", "log_index", "amount0", "amount1", "sqrt_price_x96"])
            .from("swaps")
            .order_by("block", Order::Asc)
            .order_by("log_index", Order::Asc)
            .limit(PAGE);
        if let Some((block, log_index)) = after {
            q.cond_where(
                Cond::any().add(Expr::col("block").gt(block)).add(
                    Expr::col("block")
                        .eq(block)
                        .and(Expr::col("log_index").gt(log_index)),
                ),
            );
        }
        let rows = db.query_all(&q).await?;
        for r in &rows {
            totals += &Totals::swap(&Swap {
                amount0: big(r, "amount0")?,
                amount1: big(r, "amount1")?,
                sqrt_price_x96: big(r, "sqrt_price_x96")?,
            });
        }
        match rows.last() {
            Some(r) if rows.len() as u64 == PAGE => {
                after = Some((r.try_get("", "block")?, r.try_get("", "log_index")?))
            }
            _ => break,
        }
    }
    let targets = BURN_TARGETS.map(|a| format!("{a:#x}"));
    let burns = db
        .query_all(
            Query::select()
                .column("amount")
                .from("token_transfers")
                .and_where(Expr::col("recipient").is_in(targets.clone())),
        )
        .await?;
    for r in &burns {
        totals += &Totals::burn(big(r, "amount")?);
    }
    let holders = db
        .query_one(
            Query::select()
                .expr_as(Expr::col("address").count(), "n")
                .from("token_holders")
                .and_where(Expr::col("balance").ne("0"))
                .and_where(Expr::col("address").is_not_in(targets)),
        )
        .await?
        .map(|r| r.try_get::<i64>("", "n"))
        .transpose()?
        .unwrap_or(0);
    Ok((totals, holders))
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    // In one transaction: the table appears with its row, made from the rows as they are.
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let t = m.begin().await?;
        let mut ledger = table("ledger_totals");
        ledger
            .col(string("name").primary_key())
            .col(big_integer("swaps"));
        for col in SUMS {
            ledger.col(string(col));
        }
        create(&t, ledger.col(big_integer("holders"))).await?;
        t.create_index(index("swaps", &["block_time"])).await?;
        t.drop_index(drop_index(RECIPIENT, "token_transfers"))
            .await?;
        t.create_index(named_index(
            RECIPIENT_BLOCK,
            "token_transfers",
            &["recipient", "block", "log_index"],
        ))
        .await?;
        let db = t.get_connection();
        let (totals, holders) = made_from_rows(db).await?;
        let [s0, s1] = &totals.sides;
        let sums = [
            s0.volume,
            s1.volume,
            s0.paid_in,
            s1.paid_in,
            s0.sold,
            s1.sold,
            s0.sold_value,
            s1.sold_value,
            totals.burned,
        ];
        let mut values: Vec<SimpleExpr> = vec![INDEX.into(), (totals.swaps as i64).into()];
        values.extend(sums.iter().map(|v| v.to_string().into()));
        values.push(holders.into());
        let mut columns = vec!["name", "swaps"];
        columns.extend(SUMS);
        columns.push("holders");
        let mut insert = Query::insert();
        insert
            .into_table("ledger_totals")
            .columns(columns)
            .values(values)
            .map_err(|e| DbErr::Custom(e.to_string()))?;
        db.execute(&insert).await?;
        t.commit().await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let t = m.begin().await?;
        t.drop_index(drop_index(RECIPIENT_BLOCK, "token_transfers"))
            .await?;
        t.create_index(named_index(RECIPIENT, "token_transfers", &["recipient"]))
            .await?;
        t.drop_index(drop_index("ix_swaps_block_time", "swaps"))
            .await?;
        drop_tables(&t, &["ledger_totals"]).await?;
        t.commit().await
    }
}

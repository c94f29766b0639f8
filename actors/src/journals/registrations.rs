//! A live journal's registration as the chain has it now: its block, when it became final,
//! and the token id a reorg changed (or cleared). Written by the ConfirmActor.

use journal_market_entity::journals;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};

/// Writes what the re-read found, unless the journal took another registration meanwhile.
pub async fn correct_registration(
    db: &DatabaseConnection,
    j: &journals::Model,
    token: Option<String>,
    block: Option<i64>,
    final_at: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<(), DbErr> {
    let res = journals::Entity::update_many()
        .col_expr(journals::Column::TokenId, Expr::value(token.clone()))
        .col_expr(journals::Column::MintBlock, Expr::value(block))
        .col_expr(journals::Column::MintFinalAt, Expr::value(final_at))
        .filter(journals::Column::Id.eq(j.id))
        .filter(journals::Column::MintTx.eq(j.mint_tx))
        .exec(db)
        .await;
    match res {
        Ok(_) => Ok(()),
        // The corrected token belongs to another journal's row: the chain says one token per
        // registration, so that row is the stale one; the next pass of it corrects it first.
        Err(e)
            if matches!(
                e.sql_err(),
                Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
            ) =>
        {
            tracing::error!(journal = j.id, token = ?token, "the corrected token is held by another journal's row");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

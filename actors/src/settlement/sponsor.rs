//! Gas sponsoring (x402 `erc20ApprovalGasSponsoring`) with the built-in settler: its settings,
//! its budgets, and its rows. A sponsorship is a row before the sponsor sends anything; the
//! budgets are sums over those rows, checked in the transaction that inserts the new one, so
//! what has left the sponsor is never forgotten by a restart or by another instance.

use chrono::{DateTime, Duration, Utc};
use journal_market_domain::state::PaymentState;
use journal_market_domain::tx::TxHash;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::{payments, sponsorships};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter, QuerySelect,
};

pub const SENDING: &str = "sending";
pub const APPROVED: &str = "approved";
pub const FAILED: &str = "failed";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SponsorSettings {
    /// The most gas a sponsored approval may ask for.
    pub max_gas: u64,
    /// The highest `maxFeePerGas` funded, in wei.
    pub max_fee_per_gas: u128,
    /// The most wei funded for one wallet, ever.
    pub per_wallet_wei: u64,
    /// The most wei funded for all wallets over any 24 hours.
    pub daily_wei: u64,
    /// The gas limit sponsored is the approval's estimate × 1.25, but never below this (the
    /// reference x402 clients sign 70,000 gas for any approval).
    pub gas_floor: u64,
}

/// What was funded so far, against which a new sponsorship is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spent {
    pub wallet_wei: u64,
    pub day_wei: u64,
}

/// Whether funding `need` wei more stays within both budgets (the reason when it does not).
pub fn within_budget(spent: Spent, need: u64, s: &SponsorSettings) -> Result<(), String> {
    if spent.wallet_wei.saturating_add(need) > s.per_wallet_wei {
        return Err(format!(
            "gas sponsoring for this wallet is used up ({} of {} wei funded; this approval needs {need}): approve Permit2 with your own gas",
            spent.wallet_wei, s.per_wallet_wei
        ));
    }
    if spent.day_wei.saturating_add(need) > s.daily_wei {
        return Err(
            "today's gas sponsoring budget is used up: approve Permit2 with your own gas, or retry tomorrow"
                .into(),
        );
    }
    Ok(())
}

/// The funded wei of the rows `filter` selects (failed ones too: their funding left).
async fn funded(db: &impl ConnectionTrait, filter: sea_orm::Condition) -> Result<u64, DbErr> {
    // CAST: PostgreSQL sums a BIGINT column into NUMERIC.
    let sum: Option<Option<i64>> = sponsorships::Entity::find()
        .select_only()
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(funded_wei), 0) AS BIGINT)"),
            "total",
        )
        .filter(filter)
        .into_tuple()
        .one(db)
        .await?;
    Ok(sum.flatten().unwrap_or(0).max(0) as u64)
}

pub async fn spent(
    db: &impl ConnectionTrait,
    wallet: Wallet,
    now: DateTime<Utc>,
) -> Result<Spent, DbErr> {
    use sea_orm::Condition;
    Ok(Spent {
        wallet_wei: funded(
            db,
            Condition::all().add(sponsorships::Column::Wallet.eq(wallet)),
        )
        .await?,
        day_wei: funded(
            db,
            Condition::all().add(sponsorships::Column::CreatedAt.gt(now - Duration::days(1))),
        )
        .await?,
    })
}

pub struct NewSponsorship {
    pub payment_id: i32,
    pub wallet: Wallet,
    pub approval_tx: TxHash,
    pub funded_wei: u64,
    pub now: DateTime<Utc>,
}

/// Inserts the sponsorship if the budgets allow it, in one transaction with their sums
/// (`Ok(Err(why))` when they do not). Callers on one instance serialise it; instances do not
/// sponsor at once (only the relayer key's holder sends).
pub async fn reserve(
    db: &DatabaseConnection,
    n: &NewSponsorship,
    s: &SponsorSettings,
) -> Result<Result<i32, String>, DbErr> {
    let funded_wei = i64::try_from(n.funded_wei)
        .map_err(|_| DbErr::Custom("the gas funding does not fit a BIGINT".into()))?;
    // IMMEDIATE on SQLite: the sums and the insert under one write lock (a deferred
    // transaction that reads first fails with SQLITE_BUSY when another writer is in between).
    let txn = crate::db::begin_write(db).await?;
    if let Err(why) = within_budget(spent(&txn, n.wallet, n.now).await?, n.funded_wei, s) {
        txn.rollback().await?;
        return Ok(Err(why));
    }
    let row = sponsorships::ActiveModel {
        payment_id: Set(n.payment_id),
        wallet: Set(n.wallet),
        approval_tx: Set(n.approval_tx),
        funding_tx: Set(None),
        funded_wei: Set(funded_wei),
        state: Set(SENDING.into()),
        error: Set(None),
        created_at: Set(n.now),
        updated_at: Set(n.now),
        ..Default::default()
    };
    let id = sponsorships::Entity::insert(row)
        .exec(&txn)
        .await?
        .last_insert_id;
    txn.commit().await?;
    Ok(Ok(id))
}

pub async fn record_funding(
    db: &impl ConnectionTrait,
    id: i32,
    tx: TxHash,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    sponsorships::Entity::update_many()
        .col_expr(sponsorships::Column::FundingTx, Expr::value(tx))
        .col_expr(sponsorships::Column::UpdatedAt, Expr::value(now))
        .filter(sponsorships::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// The sponsor's real spend on a sponsorship once its funding is mined: the value sent and the
/// funding transaction's gas (the row held their upper bound until then).
pub async fn record_spend(db: &impl ConnectionTrait, id: i32, wei: u64) -> Result<(), DbErr> {
    let wei = i64::try_from(wei).unwrap_or(i64::MAX);
    sponsorships::Entity::update_many()
        .col_expr(sponsorships::Column::FundedWei, Expr::value(wei))
        .filter(sponsorships::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// Moves a sponsorship on from `sending` (approved, or failed with `error`).
pub async fn finish(
    db: &impl ConnectionTrait,
    id: i32,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    sponsorships::Entity::update_many()
        .col_expr(
            sponsorships::Column::State,
            Expr::value(if error.is_some() { FAILED } else { APPROVED }),
        )
        .col_expr(sponsorships::Column::Error, Expr::value(error))
        .col_expr(sponsorships::Column::UpdatedAt, Expr::value(now))
        .filter(sponsorships::Column::Id.eq(id))
        .filter(sponsorships::Column::State.eq(SENDING))
        .exec(db)
        .await?;
    Ok(())
}

/// Every sponsorship by what became of its payment, and the wei funded in all.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// The payment settled: the approval did what it was for.
    pub settled: u64,
    /// The payment is still open.
    pub pending: u64,
    /// The payment failed: the sponsor paid for an approval no settle followed.
    pub unsettled: u64,
    pub funded_wei: u64,
}

pub async fn tally(db: &impl ConnectionTrait) -> Result<Tally, DbErr> {
    // One row per payment state; CAST: PostgreSQL sums a BIGINT column into NUMERIC.
    let rows: Vec<(PaymentState, i64, i64)> = sponsorships::Entity::find()
        .select_only()
        .column_as(payments::Column::State, "payment_state")
        .column_as(Expr::cust("COUNT(*)"), "n")
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(sponsorships.funded_wei), 0) AS BIGINT)"),
            "wei",
        )
        .join(
            sea_orm::JoinType::InnerJoin,
            sponsorships::Entity::belongs_to(payments::Entity)
                .from(sponsorships::Column::PaymentId)
                .to(payments::Column::Id)
                .into(),
        )
        .group_by(payments::Column::State)
        .into_tuple()
        .all(db)
        .await?;
    let mut t = Tally::default();
    for (state, n, wei) in rows {
        let n = n.max(0) as u64;
        t.funded_wei = t.funded_wei.saturating_add(wei.max(0) as u64);
        match state {
            PaymentState::Settled => t.settled += n,
            PaymentState::Pending => t.pending += n,
            PaymentState::Failed => t.unsettled += n,
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SponsorSettings {
        SponsorSettings {
            max_gas: 100_000,
            max_fee_per_gas: 100_000_000_000,
            per_wallet_wei: 1_000,
            daily_wei: 5_000,
            gas_floor: 70_000,
        }
    }

    #[test]
    fn a_sponsorship_fits_both_budgets_or_is_refused_with_which() {
        let s = settings();
        let spent = |wallet_wei, day_wei| Spent {
            wallet_wei,
            day_wei,
        };
        assert!(within_budget(spent(0, 0), 1_000, &s).is_ok());
        assert!(within_budget(spent(400, 4_000), 600, &s).is_ok());
        assert!(
            within_budget(spent(400, 0), 601, &s)
                .unwrap_err()
                .contains("this wallet")
        );
        assert!(
            within_budget(spent(0, 4_500), 501, &s)
                .unwrap_err()
                .contains("today")
        );
        // Nothing to fund still counts against nothing.
        assert!(within_budget(spent(1_000, 5_000), 0, &s).is_ok());
        assert!(within_budget(spent(u64::MAX, 0), 1, &s).is_err());
    }
}

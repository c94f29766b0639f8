//! Claiming a payment step: its pending row, inserted only while the purchase rules allow it.
//! The rules are judged on a read of where the wallet stands; the insert is one statement
//! whose `WHERE` asserts that the database still says so. When the standing moved meanwhile
//! (an unlock, a fee settled or failed), nothing is inserted, and the step is read and judged
//! again. The unique indexes catch a second row of the permit, of its signature (under any
//! wallet), of the payment-identifier or of the open step.

use journal_market_domain::purchase::{Standing, Step, Verdict, rules};
use journal_market_domain::state::PaymentState;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::payments;
use sea_orm::sea_query::{Expr, ExprTrait, InsertStatement, Query, SelectStatement};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, DbErr};

use super::{Claim, NewPayment, seen, seen::unlock, unique_violation};

/// The guard: the purchase rules as the write that records a payment applies them to the
/// standing it inserts under; the verdict when it may not pay.
fn guard(standing: Standing, p: &NewPayment<'_>) -> Option<Verdict> {
    match rules(standing, p.step, p.swarm) {
        Verdict::Pay => None,
        verdict => Some(verdict),
    }
}

/// How many times a claim reads and judges again when the standing moved under it; each
/// time another write changed it, so more than a few means something is wrong.
const TRIES: usize = 4;

/// Inserts the pending row when the rules allow it: no handler mistake can record an author
/// step without a settled fee, or a step of an unlocked journal. `read`: where the wallet
/// stood when the caller judged the step (see [`super::Seen::standing`]).
pub async fn claim(
    db: &impl ConnectionTrait,
    p: &NewPayment<'_>,
    read: Standing,
) -> Result<Claim, DbErr> {
    let mut standing = read;
    for _ in 0..TRIES {
        if let Some(verdict) = guard(standing, p) {
            return Ok(Claim::Rules(verdict));
        }
        let insert = insert_while(p, standing)?;
        let lost = match db
            .query_all_raw(db.get_database_backend().build(&insert))
            .await
        {
            Ok(rows) => match rows.first() {
                Some(row) => return Ok(Claim::Claimed(row.try_get("", "id")?)),
                // The standing moved.
                None => None,
            },
            // A concurrent request won the step, the permit or the payment-identifier.
            Err(e) if unique_violation(&e) => Some(e),
            Err(e) => return Err(e),
        };
        // Read again what the step is judged by, in one statement.
        let now = seen(db, p.payment_id, p.permit(), p.journal_id).await?;
        if let Some(row) = now.known(p.payment_id, p.permit()) {
            return Ok(Claim::Known(Box::new(row.clone())));
        }
        if let Some(e) = lost {
            return match now.open_step(p.wallet, p.journal_id, p.step) {
                Some(row) => Ok(Claim::StepHeld(Box::new(row.clone()))),
                None => Err(e),
            };
        }
        standing = now.standing(p.wallet, p.journal_id, p.author_wallet);
    }
    Err(DbErr::Custom(format!(
        "the standing of {} with journal {} changed {TRIES} times during a claim",
        p.wallet, p.journal_id
    )))
}

/// `INSERT INTO payments … SELECT <the row> WHERE <the standing still holds> RETURNING id`.
fn insert_while(p: &NewPayment<'_>, standing: Standing) -> Result<InsertStatement, DbErr> {
    use payments::Column as C;
    let values: [(C, Expr); 17] = [
        (C::Wallet, Expr::val(p.wallet)),
        (C::JournalId, Expr::val(p.journal_id)),
        (C::Step, Expr::val(p.step.as_str())),
        (C::AmountUnits, Expr::val(p.amount_units)),
        (C::PayTo, Expr::val(p.pay_to)),
        (C::PermitNonce, Expr::val(p.permit_nonce)),
        (C::PermitDeadline, Expr::val(p.permit_deadline)),
        (C::Payload, Expr::val(p.payload)),
        (C::State, Expr::val(PaymentState::Pending)),
        (C::CreatedAt, Expr::val(p.now)),
        (C::UpdatedAt, Expr::val(p.now)),
        (C::LeaseOwner, Expr::val(p.lease.map(|l| l.0))),
        (C::LeaseUntil, Expr::val(p.lease.map(|l| l.1))),
        (C::Attempts, Expr::val(0)),
        (C::PaymentId, Expr::val(p.payment_id)),
        (C::Fingerprint, Expr::val(Some(p.fingerprint))),
        (C::SignatureKey, Expr::val(Some(p.signature_key))),
    ];
    let row = Query::select()
        .exprs(values.iter().map(|(_, v)| v.clone()))
        .cond_where(still(p.wallet, p.journal_id, standing))
        .to_owned();
    Ok(Query::insert()
        .into_table(payments::Entity)
        .columns(values.iter().map(|(c, _)| *c))
        .select_from(row)
        .map_err(|e| DbErr::Custom(e.to_string()))?
        .returning_col(C::Id)
        .to_owned())
}

/// The database says what `standing` says of the facts it reads (the unlock and the settled
/// fee; whether the wallet wrote the journal is not read from the payments).
fn still(wallet: Wallet, journal_id: i32, standing: Standing) -> Condition {
    let holds = |exists: SelectStatement, yes: bool| {
        let e = Expr::exists(exists);
        if yes { e } else { e.not() }
    };
    Condition::all()
        .add(holds(unlock(wallet, journal_id), standing.unlocked))
        .add(holds(settled_fee(wallet, journal_id), standing.fee_paid))
}

/// The wallet's settled fee step of the journal, as a subquery. `state <> 'failed'` is written
/// out so SQLite looks it up in the open-step index (one row at most), not in
/// `ix_payments_state` (every settled payment): a partial index serves a query only when the
/// query repeats its condition, literal for literal.
pub fn settled_fee(wallet: Wallet, journal_id: i32) -> SelectStatement {
    Query::select()
        .expr(Expr::val(1))
        .from(payments::Entity)
        .and_where(payments::Column::Wallet.eq(wallet))
        .and_where(payments::Column::JournalId.eq(journal_id))
        .and_where(payments::Column::Step.eq(Step::Burn.as_str()))
        .and_where(open_row())
        .and_where(payments::Column::State.eq(PaymentState::Settled))
        .to_owned()
}

/// `state <> 'failed'` with the literal in the SQL (see [`settled_fee`]).
fn open_row() -> Expr {
    Expr::col(payments::Column::State).ne(Expr::cust(format!("'{}'", PaymentState::Failed)))
}

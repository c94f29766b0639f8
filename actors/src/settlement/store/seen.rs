//! The reads a payment step is judged by: where a wallet stands with a journal, the row of a
//! permit or a payment-identifier, a step's open row. Read before a claim (to answer early)
//! and again inside its write transaction (where the rules hold).

use journal_market_domain::purchase::{Standing, Step};
use journal_market_domain::state::PaymentState;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::{payments, unlocks};
use sea_orm::sea_query::{Asterisk, Expr, JoinType, Query, SelectStatement};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DbErr, EntityTrait, FromQueryResult, QueryFilter,
    Select,
};

/// Where `wallet` stands with the journal, read inside `db` (a transaction when writing), in
/// one statement.
pub async fn standing(
    db: &impl ConnectionTrait,
    wallet: Wallet,
    journal_id: i32,
    author_wallet: Option<Wallet>,
) -> Result<Standing, DbErr> {
    Ok(read(db, of_journal(wallet, journal_id), wallet, journal_id)
        .await?
        .standing(wallet, journal_id, author_wallet))
}

/// What a payment request is judged by, read in one statement: the rows of the
/// payment-identifier, of the permit and of the wallet's steps of the journal, and the unlock.
pub struct Seen {
    rows: Vec<payments::Model>,
    unlocked: bool,
}

/// What identifies a signed payment: its wallet with its Permit2 nonce, and its signature
/// (normalized, `signature::key`), which pays for one wallet only.
#[derive(Clone, Copy)]
pub struct PermitKey<'a> {
    pub wallet: Wallet,
    pub nonce: &'a str,
    pub signature: &'a str,
}

/// Reads what a payment with this permit (and payment-identifier) for `journal_id` is judged
/// by, inside `db` (a transaction when writing). Each term of the `OR` is a lookup of its own
/// index, so the cost does not grow with the table.
pub async fn seen(
    db: &impl ConnectionTrait,
    payment_id: Option<&str>,
    permit: PermitKey<'_>,
    journal_id: i32,
) -> Result<Seen, DbErr> {
    let mut any = Condition::any()
        .add(of_journal(permit.wallet, journal_id))
        .add(
            Condition::all()
                .add(payments::Column::Wallet.eq(permit.wallet))
                .add(payments::Column::PermitNonce.eq(permit.nonce)),
        )
        .add(payments::Column::SignatureKey.eq(permit.signature));
    if let Some(id) = payment_id {
        any = any.add(payments::Column::PaymentId.eq(id));
    }
    read(db, any, permit.wallet, journal_id).await
}

/// The wallet's unlock of the journal, as a subquery.
pub(super) fn unlock(wallet: Wallet, journal_id: i32) -> SelectStatement {
    Query::select()
        .expr(Expr::val(1))
        .from(unlocks::Entity)
        .and_where(unlocks::Column::Wallet.eq(wallet))
        .and_where(unlocks::Column::JournalId.eq(journal_id))
        .to_owned()
}

/// The wallet's rows of a journal.
fn of_journal(wallet: Wallet, journal_id: i32) -> Condition {
    Condition::all()
        .add(payments::Column::Wallet.eq(wallet))
        .add(payments::Column::JournalId.eq(journal_id))
}

/// The payment rows `rows` picks and whether `wallet` unlocked the journal, in one statement
/// (one trip to the database's connection, where each is a thread hop on SQLite): the unlock's
/// flag is a one-row table the rows are LEFT JOINed to, so it comes back when none match.
async fn read(
    db: &impl ConnectionTrait,
    rows: Condition,
    wallet: Wallet,
    journal_id: i32,
) -> Result<Seen, DbErr> {
    const FLAG: &str = "unlocked";
    let flag = Query::select()
        .expr_as(Expr::exists(unlock(wallet, journal_id)), FLAG)
        .to_owned();
    let query = Query::select()
        .column(("u", FLAG))
        .column((payments::Entity, Asterisk))
        .from_subquery(flag, "u")
        .join(JoinType::LeftJoin, payments::Entity, rows)
        .to_owned();
    let mut seen = Seen {
        rows: Vec::new(),
        unlocked: false,
    };
    for row in db
        .query_all_raw(db.get_database_backend().build(&query))
        .await?
    {
        seen.unlocked = row.try_get::<bool>("", FLAG)?;
        // The one row of a wallet with no payment picked has no id.
        if row.try_get::<Option<i32>>("", "id")?.is_some() {
            seen.rows
                .push(payments::Model::from_query_result(&row, "")?);
        }
    }
    Ok(seen)
}

impl Seen {
    /// The row the payment-identifier came with first, else the row of the permit, else the
    /// row of its signature (under another wallet: a replay): a request that has one is a retry
    /// or a replay.
    pub fn known(
        &self,
        payment_id: Option<&str>,
        permit: PermitKey<'_>,
    ) -> Option<&payments::Model> {
        payment_id
            .and_then(|id| {
                self.rows
                    .iter()
                    .find(|r| r.payment_id.as_deref() == Some(id))
            })
            .or_else(|| {
                self.rows
                    .iter()
                    .find(|r| r.wallet == permit.wallet && r.permit_nonce == permit.nonce)
            })
            .or_else(|| {
                self.rows
                    .iter()
                    .find(|r| r.signature_key.as_deref() == Some(permit.signature))
            })
    }

    /// Where `wallet` stands with the journal (as [`standing`]).
    pub fn standing(
        &self,
        wallet: Wallet,
        journal_id: i32,
        author_wallet: Option<Wallet>,
    ) -> Standing {
        Standing {
            wrote_it: author_wallet == Some(wallet),
            unlocked: self.unlocked,
            fee_paid: self.rows.iter().any(|p| {
                p.wallet == wallet
                    && p.journal_id == journal_id
                    && p.state == PaymentState::Settled
                    && p.step == Step::Burn.as_str()
            }),
        }
    }

    /// The pending or settled row of a step, if any.
    pub fn open_step(
        &self,
        wallet: Wallet,
        journal_id: i32,
        step: Step,
    ) -> Option<&payments::Model> {
        self.rows.iter().find(|p| {
            p.wallet == wallet
                && p.journal_id == journal_id
                && p.step == step.as_str()
                && p.state != PaymentState::Failed
        })
    }
}

/// The payments of `wallet` for a journal. It must stay a lookup of the wallet's rows: filter
/// their state in Rust, not with `state = ?` in SQL, where SQLite takes `ix_payments_state`
/// and walks every settled payment.
pub fn of_wallet(wallet: Wallet, journal_id: i32) -> Select<payments::Entity> {
    payments::Entity::find().filter(of_journal(wallet, journal_id))
}

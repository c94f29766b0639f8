//! May this wallet read this journal: one answer for every place that asks (the paid text's
//! route and its sign-in-with-x re-read, `/journal/{id}/body`, the journal's JSON and page,
//! and votes). Each asker keeps its own rule about what to do with it (an author reads but does
//! not buy or vote), written as a method here.

use alloy::primitives::Address;
use journal_market_entity::{PaymentState, Wallet, payments, unlocks};
use sea_orm::sea_query::{Expr, Query};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QuerySelect};

use crate::cache::PublicCaches;

/// Where a wallet stands with a journal's paid text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The wallet wrote the journal.
    Author,
    /// The wallet bought it, and no reorg can take the purchase back.
    Reader,
    /// The wallet bought it, but a payment of it is still settling or not final: a reorg could
    /// withdraw it (it reads until then).
    ReaderUnconfirmed,
    None,
}

impl Access {
    /// Whether the paid text is shown: to its author and its readers.
    pub fn reads(self) -> bool {
        self != Access::None
    }

    /// Whether the wallet bought it: a re-read with sign-in-with-x answers the text, and the
    /// wallet may vote on it.
    pub fn bought(self) -> bool {
        matches!(self, Access::Reader | Access::ReaderUnconfirmed)
    }

    /// `wallet`'s access to the journal `id` written by `author`, when there is one.
    /// A final purchase is kept in the readers' cache (a re-read asks on every request): no reorg
    /// takes it back. A purchase the chain could still take back, or none, is read again each
    /// time, so a purchase reads at once and a withdrawn one closes at once.
    pub async fn of(
        db: &impl ConnectionTrait,
        caches: &PublicCaches,
        wallet: Address,
        id: i32,
        author: Option<Wallet>,
    ) -> Result<Access, DbErr> {
        let w = Wallet(wallet);
        if author == Some(w) {
            return Ok(Access::Author);
        }
        let readers = &caches.readers;
        let key = (wallet, id);
        if readers.stats().lookup(readers.get(&key)).is_some() {
            return Ok(Access::Reader);
        }
        let generation = readers.generation();
        let access = unlock_of(db, w, id).await?;
        if access == Access::Reader {
            readers.put(key, generation, ());
        }
        Ok(access)
    }
}

/// Whether `wallet` bought the journal, with its finality, in one statement.
async fn unlock_of(
    db: &impl ConnectionTrait,
    wallet: Wallet,
    journal_id: i32,
) -> Result<Access, DbErr> {
    let unconfirmed = Query::select()
        .expr(Expr::val(1))
        .from(payments::Entity)
        .and_where(payments::Column::Wallet.eq(wallet))
        .and_where(payments::Column::JournalId.eq(journal_id))
        .and_where(payments::Column::State.ne(PaymentState::Failed))
        .and_where(payments::Column::FinalAt.is_null())
        .take();
    let found: Option<bool> = unlocks::Entity::find_by_id((wallet, journal_id))
        .select_only()
        .column_as(Expr::exists(unconfirmed), "unconfirmed")
        .into_tuple()
        .one(db)
        .await?;
    Ok(match found {
        None => Access::None,
        Some(true) => Access::ReaderUnconfirmed,
        Some(false) => Access::Reader,
    })
}

#[cfg(test)]
mod tests {
    use super::Access;

    #[test]
    fn authors_read_but_only_readers_bought() {
        use Access::*;
        let reads: Vec<bool> = [Author, Reader, ReaderUnconfirmed, None]
            .map(Access::reads)
            .to_vec();
        assert_eq!(reads, [true, true, true, false]);
        let bought: Vec<bool> = [Author, Reader, ReaderUnconfirmed, None]
            .map(Access::bought)
            .to_vec();
        assert_eq!(bought, [false, true, true, false]);
    }
}

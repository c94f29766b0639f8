//! sea-orm entities, one module per table, matching the migrations column for column. Wallets,
//! transaction hashes, statuses and states are typed (the domain's value types, stored as the
//! text they always were).

pub use journal_market_domain::state::{JobState, PaymentState};
pub use journal_market_domain::status::JournalStatus;
pub use journal_market_domain::tx::TxHash;
pub use journal_market_domain::wallet::Wallet;

pub mod audit_jobs;
pub mod audit_reports;
pub mod burns;
pub mod companies;
pub mod entries;
pub mod indexer_cursors;
pub mod journal_citations;
pub mod journals;
pub mod ledger_totals;
pub mod nonces;
pub mod payment_txs;
pub mod payments;
pub mod quotes;
pub mod relayer_leases;
pub mod sessions;
pub mod sitting_logs;
pub mod sittings;
pub mod sponsorships;
pub mod stories;
pub mod swaps;
pub mod token_holders;
pub mod token_transfers;
pub mod unlocks;
pub mod vote_events;
pub mod votes;

//! What a request does beyond a read: handlers call these and stay thin.

pub mod catalog;
pub mod ledger;
pub mod publish;
pub mod purchase;
pub mod receipts;
pub mod votes;

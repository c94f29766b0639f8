//! What a request does beyond parsing and answering: each service a struct holding only what
//! it uses, with its own error type (mapped to HTTP in `crate::error`). Handlers call these and
//! stay thin.

pub mod accounts;
pub mod catalog;
pub mod ledger;
pub mod publish;
pub mod receipts;
pub mod votes;

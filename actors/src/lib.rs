//! The service's actors, each behind a typed handle with async methods, and the health registry
//! they report to. Nothing outside this crate touches an actix `Addr`.

/// Whether this build has the test fault points (the `faults` feature).
pub const FAULTS: bool = cfg!(feature = "faults");

pub mod audit;
pub mod chain_watch;
pub mod clock;
pub mod confirm;
pub mod db;
pub mod handle;
pub mod health;
pub mod indexer;
pub mod journals;
pub mod metrics;
pub mod session;
pub mod settlement;
pub mod supervise;

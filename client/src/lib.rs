//! A typed client of the journal-market API, and the wire types it shares with the server.

/// The wire types, from their own crate (the server writes the same ones).
pub use journal_market_api as api;
mod client;
pub mod payer;
pub mod publisher;
pub mod receipt;
pub mod siwx;

pub use client::{Client, ClientError};

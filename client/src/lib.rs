//! A typed client of the journal-market API, and the wire types it shares with the server.

pub mod api;
mod client;
pub mod payer;
pub mod publisher;
pub mod siwx;

pub use client::{Client, ClientError};

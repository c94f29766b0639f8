//! journal-market: the Journal Marketplace Service.

pub mod answers;
pub mod app;
pub mod cache;
pub mod chain;
pub mod config;
pub mod db;
pub mod devnet;
/// The pure rules, from their own crate (the actors use them too).
pub use journal_market_domain as domain;
pub mod error;
pub mod facilitator_server;
pub mod import;
pub mod mcp;
pub mod metrics;
pub mod middleware;
pub mod pages;
pub mod purchase;
pub mod queries;
pub mod quotes;
pub mod routes;
pub mod rpc;
pub mod services;
pub mod session;
pub mod site;
pub mod state;
pub mod telemetry;
pub mod toll;

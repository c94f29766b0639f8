//! The read-only JSON-RPC proxy behind `POST /rpc`.

pub mod flights;
pub mod jsonrpc;
pub mod params;
pub mod proxy;
pub mod stats;
pub mod upstream;

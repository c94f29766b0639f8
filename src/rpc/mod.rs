//! The read-only JSON-RPC proxy behind `POST /rpc`.

pub mod jsonrpc;
pub mod proxy;
pub mod upstream;

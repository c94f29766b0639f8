//! Shared by the load examples, each of which includes it with `mod common;`.
// Each example uses only part of it.
#![allow(dead_code)]

pub mod args;
pub mod latency;

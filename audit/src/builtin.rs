//! The built-in engine: deterministic, no network.

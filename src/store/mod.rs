//! Writes, one writer per table.

pub mod journals;

//! Pure domain logic: no I/O, unit-tested.

pub mod accession;
pub mod draft;
pub mod ledger;
pub mod money;
pub mod purchase;
pub mod render;
pub mod state;
pub mod status;
pub mod stored;
pub mod swap_buckets;
pub mod text;
pub mod time;
pub mod tx;
pub mod wallet;

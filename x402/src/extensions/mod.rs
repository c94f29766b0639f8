//! x402 v2 extensions (protocols.md §2.1): what a server declares under `extensions` in a
//! challenge, and what a client echoes in its payload. Pure types and checks.

pub mod bazaar;
pub mod gas_sponsoring;
pub mod offer_receipt;
pub mod payment_identifier;
pub mod siwx;

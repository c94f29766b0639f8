//! Everything that speaks to the chain's contracts: bindings with the exact signatures of
//! protocols.md, the proxy's calls made from the Permit2 witness transfer, contract wallets'
//! signature checks, the built-in facilitator, and the reader of the devnet file. The x402 wire
//! types, extensions and the settler trait are `journal_market_x402`'s; deploying the dev
//! chain and running anvil are `journal_market_devnet`'s.

mod artifacts;
pub mod bindings;
pub mod client;
pub mod devnet_file;
pub mod erc7739;
pub mod erc8004;
pub mod facilitator;
pub mod fast_key;
pub mod logs;
pub mod permit2;
pub mod signature;
mod wire_log;

/// Entry points for the fuzz targets (`fuzz/`) into parsers that are otherwise private.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::wire_log::page as logs_page;
}

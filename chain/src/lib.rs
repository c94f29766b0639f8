//! Everything that speaks to the chain's contracts: bindings with the exact signatures of
//! protocols.md, the proxy's calls made from the Permit2 witness transfer (whose EIP-712 types,
//! like the x402 wire types, are the domain crate's), the dev chain's deployment, and the anvil
//! process.

pub mod anvil;
pub mod artifacts;
pub mod bindings;
pub mod client;
pub mod devnet;
pub mod erc7739;
pub mod erc8004;
pub mod extensions;
pub mod facilitator;
pub mod fast_key;
pub mod logs;
pub mod permit2;
pub mod signature;
mod wire_log;
/// The x402 wire types: pure, from the domain crate.
pub use journal_market_domain::x402;

/// Entry points for the fuzz targets (`fuzz/`) into parsers that are otherwise private.
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::wire_log::page as logs_page;
}

/// Canonical addresses, the same on every chain (protocols.md §1).
pub mod canonical {
    use alloy::primitives::{Address, address};

    pub const PERMIT2: Address = address!("0x000000000022D473030F116dDEE9F6B43aC78BA3");
    pub const X402_PERMIT2_PROXY: Address = address!("0x402085c248EeA27D92E8b30b2C58ed07f9E20001");
}

/// The key 0x01…01 that unit tests sign with: research/x402-extensions.md signs its examples
/// with it.
#[cfg(test)]
pub(crate) fn test_key() -> alloy::signers::local::PrivateKeySigner {
    "0x0101010101010101010101010101010101010101010101010101010101010101"
        .parse()
        .unwrap()
}

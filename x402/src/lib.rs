//! x402 version 2 (protocols.md §2): the wire types at the root (the challenge, the signed
//! payload, the facilitator's answers, base64 for the headers), the Permit2 witness transfer a
//! payer signs, the extensions a server declares and a client echoes, what a signature alone
//! says, the `Settler` trait both settlers implement, and the canonical addresses. No I/O but
//! what that trait names (contract wallets' checks need the chain: `journal_market_chain`).

pub mod extensions;
pub mod facilitator;
pub mod permit2;
pub mod signature;
mod wire;

pub use wire::*;

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

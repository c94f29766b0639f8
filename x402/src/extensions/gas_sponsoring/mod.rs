//! `erc20ApprovalGasSponsoring` (research/x402-extensions.md §3): a payer without a Permit2
//! allowance and without gas signs, but does not send, `token.approve(Permit2, amount)`; the
//! facilitator funds the gas, broadcasts it, then settles. Pure: the checks on the echoed
//! extension and the signed transaction. What needs the chain (the nonce against
//! `eth_getTransactionCount(from, "pending")`, the payer's balance, the funding) is the
//! caller's.
//!
//! Its parts: `declaration` (what a challenge declares), `echoed` (the info a client sends
//! back, and its fields against the payment), `transaction` (the signed approval itself).

use alloy::primitives::{Address, B256, Bytes, U256};

/// Unless `cond` holds, returns the refusal with `code` and `message`: each check reads as the
/// rule it keeps.
macro_rules! ensure {
    ($cond:expr, $code:expr, $message:expr $(,)?) => {
        if !$cond {
            return Err(refuse($code, $message));
        }
    };
}

mod declaration;
mod echoed;
#[cfg(test)]
mod fixtures;
mod transaction;

pub use declaration::declare;
pub use echoed::{Info, of};
pub use transaction::APPROVE_SELECTOR;

/// The extension's name under `extensions`, in a challenge and in a payload.
pub const KEY: &str = "erc20ApprovalGasSponsoring";

/// Why a sponsored approval is refused, with the reference error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

fn refuse(code: &'static str, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// The reference's code for any field of the echoed info that is not of the declared form.
const FORMAT: &str = "invalid_erc20_approval_extension_format";

/// What this facilitator allows a sponsored approval to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub chain_id: u64,
    /// The token being paid with: the only contract an approval may call.
    pub token: Address,
    pub permit2: Address,
    /// The most gas the approval may ask for (the reference clients ask 70000).
    pub max_gas: u64,
    /// The highest `maxFeePerGas` the sponsor funds, in wei.
    pub max_fee_per_gas: u128,
}

impl Limits {
    /// What the unit tests and the fuzz target (`fuzz/`) check approvals against: chain 4663,
    /// the token 0x11…11, the canonical Permit2, 100000 gas at 10 gwei at most.
    #[doc(hidden)]
    pub const SAMPLE: Limits = Limits {
        chain_id: 4663,
        token: Address::repeat_byte(0x11),
        permit2: crate::canonical::PERMIT2,
        max_gas: 100_000,
        max_fee_per_gas: 10_000_000_000,
    };
}

/// A checked approval, ready to be funded and broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    pub from: Address,
    /// Not checked here: the caller compares it with `eth_getTransactionCount(from, "pending")`
    /// (a lower one can never be mined; a higher one waits for a gap that may never fill).
    pub nonce: u64,
    pub gas_limit: u64,
    pub max_fee_per_gas: u128,
    pub max_priority_fee_per_gas: u128,
    /// The token it calls.
    pub to: Address,
    /// Its calldata: `approve(Permit2, amount)`.
    pub input: Bytes,
    /// The signed transaction as sent to `eth_sendRawTransaction`.
    pub raw: Bytes,
    pub hash: B256,
}

impl Approval {
    /// The most the sender can spend on gas: what the sponsor must make sure it holds.
    pub fn cost(&self) -> U256 {
        U256::from(self.gas_limit) * U256::from(self.max_fee_per_gas)
    }
}

/// Checks an approval against the payment it comes with: the reference facilitator's checks
/// (format, from, asset, spender, signer, target, selector, calldata spender), plus what it
/// leaves out and a sponsor must not: the chain, a zero value, the amount, gas and fee bounds.
pub fn check(
    info: &Info,
    payer: Address,
    required_amount: U256,
    limits: &Limits,
) -> Result<Approval, Refusal> {
    let hex = echoed::check(info, payer, limits)?;
    transaction::check(hex, payer, required_amount, limits)
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;

    #[test]
    fn the_reference_clients_approval_passes() {
        let raw = sign(reference_tx(), &key());
        assert_eq!(raw[0], 2);
        let a = check(&info(&raw), key().address(), U256::from(10_000), &limits()).unwrap();
        assert_eq!(a.from, key().address());
        assert_eq!(a.nonce, 7);
        assert_eq!(a.gas_limit, 70_000);
        assert_eq!(a.max_fee_per_gas, 3_000_000_000);
        assert_eq!(a.max_priority_fee_per_gas, 1_000_000_000);
        assert_eq!(a.raw, raw);
        assert_eq!(a.hash, alloy::primitives::keccak256(&raw));
        assert_eq!(a.cost(), U256::from(70_000u64 * 3_000_000_000));
        // Addresses in any case.
        let mut i = info(&raw);
        i.from = i.from.to_lowercase();
        i.spender = i.spender.to_uppercase().replacen("0X", "0x", 1);
        assert!(check(&i, key().address(), U256::from(10_000), &limits()).is_ok());
    }
}

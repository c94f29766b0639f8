//! The unit tests' approval: the transaction the reference clients sign, by a known payer, and
//! the limits it is checked against.

use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::eips::eip2930::AccessList;
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, Bytes, TxKind, U256};
use alloy::signers::local::PrivateKeySigner;

use super::{APPROVE_SELECTOR, Approval, Info, Limits, Refusal, check};
/// The payer.
pub(super) use crate::test_key as key;

pub(super) const CHAIN: u64 = Limits::SAMPLE.chain_id;
pub(super) const TOKEN: Address = Limits::SAMPLE.token;
pub(super) const PERMIT2: Address = Limits::SAMPLE.permit2;

pub(super) fn limits() -> Limits {
    Limits::SAMPLE
}

pub(super) fn calldata(spender: Address, amount: U256) -> Bytes {
    let mut d = APPROVE_SELECTOR.to_vec();
    d.extend_from_slice(spender.into_word().as_slice());
    d.extend_from_slice(&amount.to_be_bytes::<32>());
    d.into()
}

/// The transaction the reference clients sign (§3.2's decoded example).
pub(super) fn reference_tx() -> TxEip1559 {
    TxEip1559 {
        chain_id: CHAIN,
        nonce: 7,
        gas_limit: 70_000,
        max_fee_per_gas: 3_000_000_000,
        max_priority_fee_per_gas: 1_000_000_000,
        to: TxKind::Call(TOKEN),
        value: U256::ZERO,
        access_list: AccessList::default(),
        input: calldata(PERMIT2, U256::MAX),
    }
}

pub(super) fn sign(mut tx: TxEip1559, by: &PrivateKeySigner) -> Bytes {
    let sig = by.sign_transaction_sync(&mut tx).unwrap();
    TxEnvelope::from(tx.into_signed(sig)).encoded_2718().into()
}

pub(super) fn info(raw: &[u8]) -> Info {
    Info {
        from: key().address().to_string(),
        asset: TOKEN.to_string(),
        spender: PERMIT2.to_string(),
        amount: U256::MAX.to_string(),
        signed_transaction: alloy::primitives::hex::encode_prefixed(raw),
        version: "1".into(),
    }
}

pub(super) fn check_tx(tx: TxEip1559) -> Result<Approval, Refusal> {
    check(
        &info(&sign(tx, &key())),
        key().address(),
        U256::from(10_000),
        &limits(),
    )
}

pub(super) fn code(r: Result<Approval, Refusal>) -> &'static str {
    r.unwrap_err().code
}

//! The `erc20ApprovalGasSponsoring` extension: the echoed info's fields and the signed EIP-1559
//! approval a payer sends for the facilitator to broadcast.
//!
//! Input: a mode byte, then the transaction's bytes (mode 0: as sent; mode 1: decoded, signed
//! again by the payer's key, so the checks after the signature are reached too), or (mode 2) the
//! info's six fields, one a line. Asserts what an accepted approval must hold.
#![no_main]

use alloy::consensus::{SignableTransaction, TxEnvelope};
use alloy::eips::eip2718::{Decodable2718, Encodable2718};
use alloy::network::TxSignerSync;
use alloy::primitives::{Address, B256, TxKind, U256, keccak256};
use alloy::signers::local::PrivateKeySigner;
use journal_market_x402::canonical::PERMIT2;
use journal_market_x402::extensions::gas_sponsoring::{self, Info, Limits};
use libfuzzer_sys::fuzz_target;

const CHAIN: u64 = Limits::SAMPLE.chain_id;
const TOKEN: Address = Limits::SAMPLE.token;
const REQUIRED: u64 = 10_000;

fn key() -> PrivateKeySigner {
    PrivateKeySigner::from_bytes(&B256::repeat_byte(1)).expect("a valid key")
}

fn info(payer: Address, raw: &[u8]) -> Info {
    Info {
        from: payer.to_string(),
        asset: TOKEN.to_string(),
        spender: PERMIT2.to_string(),
        amount: REQUIRED.to_string(),
        signed_transaction: alloy::hex::encode_prefixed(raw),
        version: "1".into(),
    }
}

/// Checks `info`; an approval that passes must be what the limits allow, its bytes those sent.
fn check(info: &Info, payer: Address, resigned: bool) {
    let l = Limits::SAMPLE;
    let r = gas_sponsoring::check(info, payer, U256::from(REQUIRED), &l);
    let a = match r {
        Ok(a) => a,
        Err(e) => {
            assert!(!e.code.is_empty() && !e.message.is_empty());
            if resigned {
                assert_ne!(
                    e.code, "erc20_approval_tx_signer_mismatch",
                    "signed by the payer: {e}"
                );
            }
            return;
        }
    };
    assert_eq!(a.from, payer);
    assert!((21_000..=l.max_gas).contains(&a.gas_limit));
    assert!(a.max_fee_per_gas <= l.max_fee_per_gas);
    assert!(a.max_priority_fee_per_gas <= a.max_fee_per_gas);
    assert_eq!(a.hash, keccak256(&a.raw));
    let hex = info
        .signed_transaction
        .strip_prefix("0x")
        .unwrap_or_default();
    assert_eq!(alloy::hex::encode(&a.raw), hex.to_ascii_lowercase());
    let Ok(TxEnvelope::Eip1559(signed)) = TxEnvelope::decode_2718_exact(&a.raw) else {
        panic!("an accepted approval is a type-2 transaction");
    };
    let tx = signed.tx();
    assert_eq!(tx.chain_id, CHAIN);
    assert_eq!(tx.to, TxKind::Call(TOKEN));
    assert!(tx.value.is_zero());
    assert!(tx.access_list.is_empty());
    assert_eq!(tx.input.len(), 68);
    assert!(U256::from_be_slice(&tx.input[36..68]) >= U256::from(REQUIRED));
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let key = key();
    let payer = key.address();
    match mode % 3 {
        0 => check(&info(payer, rest), payer, false),
        1 => {
            let Ok(TxEnvelope::Eip1559(signed)) = TxEnvelope::decode_2718(&mut &rest[..]) else {
                return;
            };
            let mut tx = signed.strip_signature();
            let Ok(sig) = key.sign_transaction_sync(&mut tx) else {
                return;
            };
            let raw = TxEnvelope::from(tx.into_signed(sig)).encoded_2718();
            check(&info(payer, &raw), payer, true);
        }
        _ => {
            let Ok(text) = std::str::from_utf8(rest) else {
                return;
            };
            let mut lines = text.split('\n').map(str::to_string);
            let mut next = || lines.next().unwrap_or_default();
            let info = Info {
                from: next(),
                asset: next(),
                spender: next(),
                amount: next(),
                signed_transaction: next(),
                version: next(),
            };
            check(&info, payer, false);
        }
    }
});

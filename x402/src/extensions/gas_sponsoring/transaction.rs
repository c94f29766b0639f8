//! The signed approval: one canonical EIP-1559 transaction by the payer, on this chain, calling
//! the token's `approve(Permit2, amount)` and nothing else, within the gas and fees a sponsor
//! funds.

use alloy::consensus::{SignableTransaction, TxEnvelope};
use alloy::eips::eip2718::{Decodable2718, Encodable2718};
use alloy::primitives::{Address, Bytes, TxKind, U256};

use super::{Approval, Limits, Refusal, refuse};
use crate::signature;

/// `approve(address,uint256)`.
pub const APPROVE_SELECTOR: [u8; 4] = [0x09, 0x5e, 0xa7, 0xb3];
/// Selector, spender word, amount word.
const APPROVE_CALLDATA_LEN: usize = 4 + 32 + 32;
/// The intrinsic gas of any transaction: less can never be mined.
const MIN_GAS: u64 = 21_000;
/// The first byte of a type-2 transaction's encoding.
const EIP1559_TYPE: u8 = 2;

/// Decodes the approval from `hex` (checked for form already) and checks it against the
/// payment and the limits.
pub(super) fn check(
    hex: &str,
    payer: Address,
    required_amount: U256,
    limits: &Limits,
) -> Result<Approval, Refusal> {
    const PARSE: &str = "erc20_approval_tx_parse_failed";
    let raw: Bytes = alloy::primitives::hex::decode(hex)
        .map_err(|_| refuse(PARSE, "the signed transaction is not whole bytes of hex"))?
        .into();
    ensure!(
        raw.first() == Some(&EIP1559_TYPE),
        PARSE,
        "the signed transaction must be an EIP-1559 (type 2) transaction",
    );
    let signed = match TxEnvelope::decode_2718_exact(&raw) {
        Ok(TxEnvelope::Eip1559(signed)) => signed,
        Ok(_) => return Err(refuse(PARSE, "the signed transaction is not type 2")),
        Err(e) => {
            return Err(refuse(
                PARSE,
                format!("the signed transaction does not decode: {e}"),
            ));
        }
    };
    // Only the canonical encoding: the bytes broadcast are the bytes checked and hashed.
    ensure!(
        TxEnvelope::from(signed.clone()).encoded_2718() == raw.as_ref(),
        PARSE,
        "the signed transaction is not canonically encoded",
    );
    let tx = signed.tx();

    // Low s only: a node refuses the malleable copy anyway (EIP-2).
    let signer =
        signature::recover(&tx.signature_hash(), &signed.signature().as_bytes()).map_err(|e| {
            refuse(
                "erc20_approval_tx_invalid_signature",
                format!("the approval's signature does not recover: {e}"),
            )
        })?;
    ensure!(
        signer == payer,
        "erc20_approval_tx_signer_mismatch",
        format!("the approval is signed by {signer}, not the payer {payer}"),
    );
    ensure!(
        tx.chain_id == limits.chain_id,
        "erc20_approval_tx_wrong_chain",
        format!(
            "the approval is for chain {}, not chain {}",
            tx.chain_id, limits.chain_id
        ),
    );
    ensure!(
        tx.to == TxKind::Call(limits.token),
        "erc20_approval_tx_wrong_target",
        "the approval transaction must call the token paid with",
    );
    // The sponsor funds gas only; value would come out of that funding.
    ensure!(
        tx.value.is_zero(),
        "erc20_approval_tx_value_not_zero",
        "the approval transaction must send no ether",
    );
    let data = tx.input.as_ref();
    ensure!(
        data.starts_with(&APPROVE_SELECTOR),
        "erc20_approval_tx_wrong_selector",
        "the approval transaction must call approve(address,uint256)",
    );
    ensure!(
        data.len() == APPROVE_CALLDATA_LEN,
        "erc20_approval_tx_invalid_calldata",
        format!(
            "approve calldata must be {APPROVE_CALLDATA_LEN} bytes, not {}",
            data.len()
        ),
    );
    // The whole word: dirty high bytes make a strict ABI decoder revert.
    ensure!(
        data[4..36] == limits.permit2.into_word()[..],
        "erc20_approval_tx_wrong_spender",
        "the approval transaction must approve Permit2",
    );
    let approved = U256::from_be_slice(&data[36..68]);
    ensure!(
        approved >= required_amount,
        "erc20_approval_tx_amount_too_low",
        format!("the approval allows {approved}, less than the {required_amount} to pay"),
    );
    ensure!(
        (MIN_GAS..=limits.max_gas).contains(&tx.gas_limit),
        "erc20_approval_tx_gas_out_of_bounds",
        format!(
            "the approval's gas limit {} must be between {MIN_GAS} and {}",
            tx.gas_limit, limits.max_gas
        ),
    );
    ensure!(
        tx.max_fee_per_gas <= limits.max_fee_per_gas,
        "erc20_approval_tx_fee_out_of_bounds",
        format!(
            "the approval's max fee per gas {} is above the {} wei this facilitator sponsors",
            tx.max_fee_per_gas, limits.max_fee_per_gas
        ),
    );
    ensure!(
        tx.max_priority_fee_per_gas <= tx.max_fee_per_gas,
        "erc20_approval_tx_fee_out_of_bounds",
        "the approval's priority fee is above its max fee per gas",
    );
    // Gas the sponsor pays for nothing an approve needs.
    ensure!(
        tx.access_list.is_empty(),
        "erc20_approval_tx_has_access_list",
        "the approval transaction must have an empty access list",
    );
    Ok(Approval {
        from: payer,
        nonce: tx.nonce,
        gas_limit: tx.gas_limit,
        max_fee_per_gas: tx.max_fee_per_gas,
        max_priority_fee_per_gas: tx.max_priority_fee_per_gas,
        hash: *signed.hash(),
        to: limits.token,
        input: tx.input.clone(),
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{check, fixtures::*};
    use super::*;
    use alloy::consensus::{Signed, TxEip1559, TxEip2930, TxLegacy};
    use alloy::eips::eip2930::{AccessList, AccessListItem};
    use alloy::network::TxSignerSync;
    use alloy::primitives::{B256, Signature};
    use alloy::signers::local::PrivateKeySigner;

    #[test]
    fn only_a_whole_canonical_eip1559_transaction_parses() {
        let payer = key().address();
        let run = |raw: &[u8]| code(check(&info(raw), payer, U256::ZERO, &limits()));
        let parse = "erc20_approval_tx_parse_failed";

        let mut legacy = TxLegacy {
            chain_id: Some(CHAIN),
            nonce: 7,
            gas_price: 1_000_000_000,
            gas_limit: 70_000,
            to: TxKind::Call(TOKEN),
            value: U256::ZERO,
            input: calldata(PERMIT2, U256::MAX),
        };
        let sig = key().sign_transaction_sync(&mut legacy).unwrap();
        let raw = TxEnvelope::from(legacy.into_signed(sig)).encoded_2718();
        assert_eq!(run(&raw), parse);

        let mut t2930 = TxEip2930 {
            chain_id: CHAIN,
            nonce: 7,
            gas_price: 1_000_000_000,
            gas_limit: 70_000,
            to: TxKind::Call(TOKEN),
            value: U256::ZERO,
            access_list: AccessList::default(),
            input: calldata(PERMIT2, U256::MAX),
        };
        let sig = key().sign_transaction_sync(&mut t2930).unwrap();
        let raw = TxEnvelope::from(t2930.into_signed(sig)).encoded_2718();
        assert_eq!(run(&raw), parse);

        let good = sign(reference_tx(), &key());
        let mut junk = good.to_vec();
        junk.push(0);
        assert_eq!(run(&junk), parse);
        assert_eq!(run(&good[..good.len() - 1]), parse);
        assert_eq!(run(&[2, 0xc0]), parse);
        let mut odd = info(&good);
        odd.signed_transaction.push('0');
        assert_eq!(code(check(&odd, payer, U256::ZERO, &limits())), parse);
    }

    #[test]
    fn the_signature_must_recover_to_the_payer() {
        let tx = reference_tx();
        let sig = key().sign_transaction_sync(&mut tx.clone()).unwrap();
        // The malleable copy (high s) of a good signature.
        let n = U256::from_str_radix(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
            16,
        )
        .unwrap();
        let high = Signature::new(sig.r(), n - sig.s(), !sig.v());
        let hash = tx.signature_hash();
        let raw = TxEnvelope::from(Signed::new_unchecked(tx.clone(), high, hash)).encoded_2718();
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_invalid_signature"
        );
        let zero = Signature::new(U256::ZERO, U256::ZERO, false);
        let raw = TxEnvelope::from(Signed::new_unchecked(tx.clone(), zero, hash)).encoded_2718();
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_invalid_signature"
        );

        let other = PrivateKeySigner::random();
        let raw = sign(tx, &other);
        assert_eq!(
            code(check(&info(&raw), key().address(), U256::ZERO, &limits())),
            "erc20_approval_tx_signer_mismatch"
        );
    }

    #[test]
    fn the_transaction_must_be_a_plain_approve_of_permit2() {
        let with = |f: fn(&mut TxEip1559)| {
            let mut tx = reference_tx();
            f(&mut tx);
            code(check_tx(tx))
        };
        assert_eq!(with(|t| t.chain_id = 1), "erc20_approval_tx_wrong_chain");
        assert_eq!(
            with(|t| t.to = TxKind::Call(Address::repeat_byte(9))),
            "erc20_approval_tx_wrong_target"
        );
        assert_eq!(
            with(|t| t.to = TxKind::Create),
            "erc20_approval_tx_wrong_target"
        );
        assert_eq!(
            with(|t| t.value = U256::from(1)),
            "erc20_approval_tx_value_not_zero"
        );
        assert_eq!(
            with(|t| {
                let mut d = t.input.to_vec();
                d[0] = 0xa9;
                t.input = d.into();
            }),
            "erc20_approval_tx_wrong_selector"
        );
        assert_eq!(
            with(|t| t.input = Bytes::new()),
            "erc20_approval_tx_wrong_selector"
        );
        assert_eq!(
            with(|t| t.input = t.input.slice(..36)),
            "erc20_approval_tx_invalid_calldata"
        );
        assert_eq!(
            with(|t| t.input = [t.input.as_ref(), &[0u8; 32]].concat().into()),
            "erc20_approval_tx_invalid_calldata"
        );
        assert_eq!(
            with(|t| t.input = calldata(Address::repeat_byte(9), U256::MAX)),
            "erc20_approval_tx_wrong_spender"
        );
        assert_eq!(
            with(|t| {
                let mut d = t.input.to_vec();
                d[4] = 1; // a dirty high byte in the spender word
                t.input = d.into();
            }),
            "erc20_approval_tx_wrong_spender"
        );
        assert_eq!(
            with(|t| t.input = calldata(PERMIT2, U256::from(9_999))),
            "erc20_approval_tx_amount_too_low"
        );
        assert_eq!(
            with(|t| t.gas_limit = 100_001),
            "erc20_approval_tx_gas_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.gas_limit = 20_999),
            "erc20_approval_tx_gas_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.max_fee_per_gas = 10_000_000_001),
            "erc20_approval_tx_fee_out_of_bounds"
        );
        assert_eq!(
            with(|t| t.max_priority_fee_per_gas = t.max_fee_per_gas + 1),
            "erc20_approval_tx_fee_out_of_bounds"
        );
        assert_eq!(
            with(|t| {
                t.access_list = AccessList(vec![AccessListItem {
                    address: TOKEN,
                    storage_keys: vec![B256::ZERO],
                }])
            }),
            "erc20_approval_tx_has_access_list"
        );
        // The bounds themselves pass, and so does the exact amount.
        assert!(
            check_tx(TxEip1559 {
                gas_limit: 100_000,
                max_fee_per_gas: 10_000_000_000,
                max_priority_fee_per_gas: 10_000_000_000,
                input: calldata(PERMIT2, U256::from(10_000)),
                ..reference_tx()
            })
            .is_ok()
        );
    }
}

//! What a request that presents a known permit (or a known payment-identifier) is answered.
//! Pure. A settled permit is public on the chain (the proxy's `settle` calldata holds all of
//! it), so it proves a payment, never who is asking: only the request that claimed the row,
//! or a retry that carries the row's own payment-identifier with the same payment, gets the
//! answer that opens the purchase (the text and a session).

use journal_market_domain::state::PaymentState;
use journal_market_domain::wallet::Wallet;
use journal_market_entity::payments;

use super::{Paid, PayError, Step};

/// What the request presenting a known permit or payment-identifier asks for.
#[derive(Clone, Copy)]
pub struct Asked<'a> {
    pub journal_id: i32,
    pub step: Step,
    /// Its payment-identifier, if any.
    pub id: Option<&'a str>,
    /// The fingerprint of the payment it carries.
    pub fingerprint: &'a str,
    /// The wallet that signed that payment (verified).
    pub signer: Wallet,
}

/// The answer for `row`, found by the permit of the request's payment or by its
/// payment-identifier. The same id with the same payment is a retry; so is the same id with a
/// payment the same wallet signed anew for the same step (reference clients sign a fresh
/// permit on every try): neither is settled again. Any other payment under the id is a reuse.
pub fn answer(row: payments::Model, asked: Asked<'_>) -> Result<Paid, PayError> {
    let Asked {
        journal_id,
        step,
        id,
        fingerprint,
        signer,
    } = asked;
    let retry = match (row.payment_id.as_deref(), id) {
        (Some(first), Some(id)) if first == id => {
            let same_payment = row.fingerprint.as_deref() == Some(fingerprint);
            let signed_anew =
                row.wallet == signer && row.journal_id == journal_id && row.step == step.as_str();
            if !same_payment && !signed_anew {
                return Err(PayError::IdReused);
            }
            true
        }
        _ => false,
    };
    // Permit2's digest does not name its owner: the same signature under another `from` (a
    // contract wallet accepting its owner's signature) is a replay, never a payment.
    if row.wallet != signer {
        return Err(PayError::Rejected(
            "this signature was already used to pay from another wallet".into(),
        ));
    }
    if row.journal_id != journal_id || row.step != step.as_str() {
        return Err(PayError::Rejected(
            "this signed payment was already used".into(),
        ));
    }
    let payer = row.wallet.address();
    match row.state {
        PaymentState::Settled => match row.tx {
            Some(tx) if retry => Ok(Paid::Settled {
                payer,
                tx: tx.into(),
                at: row.created_at,
            }),
            Some(tx) => Ok(Paid::Used {
                payer,
                tx: tx.into(),
                at: row.created_at,
            }),
            None => Err(PayError::Rejected(
                "the settled payment is unreadable".into(),
            )),
        },
        PaymentState::Pending => Err(PayError::StillSettling),
        PaymentState::Failed => Err(PayError::Rejected(format!(
            "settlement failed: {}; sign a new payment",
            row.error.unwrap_or_default()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::Address;
    use chrono::Utc;

    const PAYER: &str = "0x00000000000000000000000000000000000000aa";
    const TX: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";

    fn row(state: PaymentState, id: Option<&str>) -> payments::Model {
        let now = Utc::now();
        payments::Model {
            id: 1,
            wallet: PAYER.parse().unwrap(),
            journal_id: 5,
            step: "burn".into(),
            amount_units: 100,
            pay_to: Wallet(Address::repeat_byte(2)),
            permit_nonce: "7".into(),
            permit_deadline: now,
            payload: "{}".into(),
            state,
            tx: (state == PaymentState::Settled).then(|| TX.parse().unwrap()),
            error: (state == PaymentState::Failed).then(|| "expired".to_string()),
            created_at: now,
            updated_at: now,
            lease_owner: None,
            lease_until: None,
            next_check_at: None,
            attempts: 0,
            payment_id: id.map(str::to_string),
            fingerprint: Some("fp".into()),
            block_number: None,
            block_hash: None,
            final_at: None,
            reorged_at: None,
            signature_key: Some("0xsig".into()),
        }
    }

    const ID: &str = "pay_0123456789abcdef";

    fn asked<'a>(journal_id: i32, id: Option<&'a str>, fingerprint: &'a str) -> Asked<'a> {
        Asked {
            journal_id,
            step: Step::Burn,
            id,
            fingerprint,
            signer: PAYER.parse().unwrap(),
        }
    }

    #[test]
    fn a_settled_permit_alone_opens_nothing() {
        let a = answer(row(PaymentState::Settled, None), asked(5, None, "fp")).unwrap();
        assert!(matches!(a, Paid::Used { .. }), "{a:?}");
        // Another id, or an id against a row that had none, is not the original request.
        let a = answer(
            row(PaymentState::Settled, Some(ID)),
            asked(5, Some("pay_another_id_0000"), "fp"),
        );
        assert!(matches!(a, Ok(Paid::Used { .. })), "{a:?}");
        let a = answer(row(PaymentState::Settled, None), asked(5, Some(ID), "fp"));
        assert!(matches!(a, Ok(Paid::Used { .. })), "{a:?}");
    }

    #[test]
    fn a_retry_with_the_same_id_and_payment_gets_the_first_answer() {
        let first = row(PaymentState::Settled, Some(ID));
        let at = first.created_at;
        let a = answer(first, asked(5, Some(ID), "fp")).unwrap();
        assert_eq!(
            a,
            Paid::Settled {
                payer: PAYER.parse().unwrap(),
                tx: TX.parse().unwrap(),
                at,
            }
        );
    }

    #[test]
    fn the_same_id_with_another_payment_is_a_conflict() {
        let other_wallet = "0x00000000000000000000000000000000000000bb";
        for state in [
            PaymentState::Settled,
            PaymentState::Pending,
            PaymentState::Failed,
        ] {
            let by_other = Asked {
                signer: other_wallet.parse().unwrap(),
                ..asked(5, Some(ID), "other")
            };
            let a = answer(row(state, Some(ID)), by_other);
            assert!(matches!(a, Err(PayError::IdReused)), "{state}: {a:?}");
            let other_journal = answer(row(state, Some(ID)), asked(6, Some(ID), "other"));
            assert!(matches!(other_journal, Err(PayError::IdReused)), "{state}");
            let other_step = Asked {
                step: Step::Author,
                ..asked(5, Some(ID), "other")
            };
            let a = answer(row(state, Some(ID)), other_step);
            assert!(matches!(a, Err(PayError::IdReused)), "{state}: {a:?}");
        }
    }

    #[test]
    fn the_payer_signing_anew_under_its_id_gets_the_first_answer() {
        let a = answer(
            row(PaymentState::Settled, Some(ID)),
            asked(5, Some(ID), "resigned"),
        )
        .unwrap();
        assert!(matches!(a, Paid::Settled { .. }), "{a:?}");
        let a = answer(
            row(PaymentState::Pending, Some(ID)),
            asked(5, Some(ID), "resigned"),
        );
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
    }

    #[test]
    fn pending_and_failed_rows_answer_as_before() {
        let a = answer(
            row(PaymentState::Pending, Some(ID)),
            asked(5, Some(ID), "fp"),
        );
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
        let a = answer(row(PaymentState::Pending, None), asked(5, None, "fp"));
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
        let a = answer(
            row(PaymentState::Failed, Some(ID)),
            asked(5, Some(ID), "fp"),
        );
        assert!(matches!(a, Err(PayError::Rejected(m)) if m.contains("expired")));
        // The permit of another journal's payment.
        let a = answer(
            row(PaymentState::Settled, Some(ID)),
            asked(6, Some(ID), "fp"),
        );
        assert!(matches!(a, Err(PayError::Rejected(m)) if m.contains("already used")));
    }

    #[test]
    fn a_signature_settled_for_one_wallet_pays_for_no_other() {
        let other_wallet = "0x00000000000000000000000000000000000000bb";
        for state in [
            PaymentState::Settled,
            PaymentState::Pending,
            PaymentState::Failed,
        ] {
            let a = answer(
                row(state, None),
                Asked {
                    signer: other_wallet.parse().unwrap(),
                    ..asked(5, None, "other")
                },
            );
            assert!(
                matches!(&a, Err(PayError::Rejected(m)) if m.contains("another wallet")),
                "{state}: {a:?}"
            );
        }
    }
}

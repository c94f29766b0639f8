//! What a request that presents a known permit (or a known payment-identifier) is answered.
//! Pure. A settled permit is public on the chain (the proxy's `settle` calldata holds all of
//! it), so it proves a payment, never who is asking: only the request that claimed the row,
//! or a retry that carries the row's own payment-identifier with the same payment, gets the
//! answer that opens the purchase (the text and a session).

use alloy::primitives::{Address, B256};
use journal_market_entity::payments;

use super::{Paid, PayError, Step, store};

/// What the request presenting a known permit or payment-identifier asks for.
#[derive(Clone, Copy)]
pub struct Asked<'a> {
    pub journal_id: i32,
    pub step: Step,
    /// Its payment-identifier, if any.
    pub id: Option<&'a str>,
    /// The fingerprint of the payment it carries.
    pub fingerprint: &'a str,
    /// The wallet that signed that payment (verified), lowercase hex.
    pub signer: &'a str,
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
    match row.state.as_str() {
        store::SETTLED => match (
            row.wallet.parse::<Address>(),
            row.tx.as_deref().map(str::parse::<B256>),
        ) {
            (Ok(payer), Some(Ok(tx))) if retry => Ok(Paid::Settled {
                payer,
                tx,
                at: row.created_at,
            }),
            (Ok(payer), Some(Ok(tx))) => Ok(Paid::Used {
                payer,
                tx,
                at: row.created_at,
            }),
            _ => Err(PayError::Rejected(
                "the settled payment is unreadable".into(),
            )),
        },
        store::PENDING => Err(PayError::StillSettling),
        _ => Err(PayError::Rejected(format!(
            "settlement failed: {}; sign a new payment",
            row.error.unwrap_or_default()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    const PAYER: &str = "0x00000000000000000000000000000000000000aa";
    const TX: &str = "0x1111111111111111111111111111111111111111111111111111111111111111";

    fn row(state: &str, id: Option<&str>) -> payments::Model {
        let now = Utc::now();
        payments::Model {
            id: 1,
            wallet: PAYER.into(),
            journal_id: 5,
            step: "burn".into(),
            amount_units: 100,
            pay_to: "0x02".into(),
            permit_nonce: "7".into(),
            permit_deadline: now,
            payload: "{}".into(),
            state: state.into(),
            tx: (state == store::SETTLED).then(|| TX.to_string()),
            error: (state == store::FAILED).then(|| "expired".to_string()),
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
            signer: PAYER,
        }
    }

    #[test]
    fn a_settled_permit_alone_opens_nothing() {
        let a = answer(row(store::SETTLED, None), asked(5, None, "fp")).unwrap();
        assert!(matches!(a, Paid::Used { .. }), "{a:?}");
        // Another id, or an id against a row that had none, is not the original request.
        let a = answer(
            row(store::SETTLED, Some(ID)),
            asked(5, Some("pay_another_id_0000"), "fp"),
        );
        assert!(matches!(a, Ok(Paid::Used { .. })), "{a:?}");
        let a = answer(row(store::SETTLED, None), asked(5, Some(ID), "fp"));
        assert!(matches!(a, Ok(Paid::Used { .. })), "{a:?}");
    }

    #[test]
    fn a_retry_with_the_same_id_and_payment_gets_the_first_answer() {
        let first = row(store::SETTLED, Some(ID));
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
        for state in [store::SETTLED, store::PENDING, store::FAILED] {
            let by_other = Asked {
                signer: other_wallet,
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
            row(store::SETTLED, Some(ID)),
            asked(5, Some(ID), "resigned"),
        )
        .unwrap();
        assert!(matches!(a, Paid::Settled { .. }), "{a:?}");
        let a = answer(
            row(store::PENDING, Some(ID)),
            asked(5, Some(ID), "resigned"),
        );
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
    }

    #[test]
    fn pending_and_failed_rows_answer_as_before() {
        let a = answer(row(store::PENDING, Some(ID)), asked(5, Some(ID), "fp"));
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
        let a = answer(row(store::PENDING, None), asked(5, None, "fp"));
        assert!(matches!(a, Err(PayError::StillSettling)), "{a:?}");
        let a = answer(row(store::FAILED, Some(ID)), asked(5, Some(ID), "fp"));
        assert!(matches!(a, Err(PayError::Rejected(m)) if m.contains("expired")));
        // The permit of another journal's payment.
        let a = answer(row(store::SETTLED, Some(ID)), asked(6, Some(ID), "fp"));
        assert!(matches!(a, Err(PayError::Rejected(m)) if m.contains("already used")));
    }

    #[test]
    fn a_signature_settled_for_one_wallet_pays_for_no_other() {
        let other_wallet = "0x00000000000000000000000000000000000000bb";
        for state in [store::SETTLED, store::PENDING, store::FAILED] {
            let a = answer(
                row(state, None),
                Asked {
                    signer: other_wallet,
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

//! The reads a payment is judged by (`settlement::store::{seen, standing}`), on each database:
//! the payment rows and the unlock come back from one statement, the unlock also when no row
//! matches.

use alloy::primitives::address;
use chrono::Utc;
use journal_market_actors::settlement::store::{PermitKey, seen, standing};
use journal_market_domain::purchase::{Standing, Step};
use journal_market_entity::{PaymentState, Wallet, payments, unlocks};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, DatabaseConnection};

use crate::helpers::TestApp;

const BUYER: Wallet = Wallet(address!("00000000000000000000000000000000000000b1"));
const OTHER: Wallet = Wallet(address!("00000000000000000000000000000000000000b2"));

/// A permit of `wallet` with `nonce`; its signature's key is its own (`wallet:nonce`).
fn pk(wallet: Wallet, nonce: &'static str) -> PermitKey<'static> {
    PermitKey {
        wallet,
        nonce,
        signature: Box::leak(format!("{wallet}:{nonce}").into_boxed_str()),
    }
}

async fn payment(
    db: &DatabaseConnection,
    journal_id: i32,
    (step, state): (Step, PaymentState),
    nonce: &str,
    payment_id: Option<&str>,
) {
    let now = Utc::now();
    payments::ActiveModel {
        wallet: Set(BUYER),
        journal_id: Set(journal_id),
        step: Set(step.as_str().into()),
        amount_units: Set(100),
        pay_to: Set(OTHER),
        permit_nonce: Set(nonce.into()),
        permit_deadline: Set(now),
        payload: Set("{}".into()),
        state: Set(state),
        created_at: Set(now),
        updated_at: Set(now),
        payment_id: Set(payment_id.map(str::to_string)),
        signature_key: Set(Some(format!("{BUYER}:{nonce}"))),
        ..Default::default()
    }
    .insert(db)
    .await
    .unwrap();
}

#[actix_web::test]
async fn a_payment_is_judged_by_its_rows_and_the_unlock_read_together() {
    let app = TestApp::spawn().await;
    let db = app.db.connect().await;
    let list = app.client.journals(None).await.unwrap().journals;
    let (a, b) = (list[0].journal_id as i32, list[1].journal_id as i32);

    // Nothing yet: no row, no unlock.
    assert_eq!(
        standing(&db, BUYER, a, None).await.unwrap(),
        Standing::default()
    );
    let s = seen(&db, Some("pid-1"), pk(BUYER, "1"), a).await.unwrap();
    assert!(s.known(Some("pid-1"), pk(BUYER, "1")).is_none());
    assert!(s.open_step(BUYER, a, Step::Burn).is_none());
    assert!(s.standing(BUYER, a, Some(BUYER)).wrote_it);

    // An unlock with no payment row of the journal (the join's row without a payment).
    unlocks::ActiveModel {
        wallet: Set(BUYER),
        journal_id: Set(b),
        paid_units: Set(100),
        paid_at: Set(Utc::now()),
    }
    .insert(&db)
    .await
    .unwrap();
    let unlocked = Standing {
        unlocked: true,
        ..Standing::default()
    };
    assert_eq!(standing(&db, BUYER, b, None).await.unwrap(), unlocked);
    assert_eq!(
        seen(&db, None, pk(BUYER, "1"), b)
            .await
            .unwrap()
            .standing(BUYER, b, None),
        unlocked
    );

    // A settled fee, a failed author step and a payment-identifier on journal a.
    payment(
        &db,
        a,
        (Step::Burn, PaymentState::Settled),
        "7",
        Some("pid-7"),
    )
    .await;
    payment(&db, a, (Step::Author, PaymentState::Failed), "8", None).await;
    let fee_paid = Standing {
        fee_paid: true,
        ..Standing::default()
    };
    assert_eq!(standing(&db, BUYER, a, None).await.unwrap(), fee_paid);
    let s = seen(&db, None, pk(BUYER, "9"), a).await.unwrap();
    assert_eq!(s.standing(BUYER, a, None), fee_paid);
    assert_eq!(s.open_step(BUYER, a, Step::Burn).unwrap().permit_nonce, "7");
    // A failed step is history, not an open step.
    assert!(s.open_step(BUYER, a, Step::Author).is_none());
    assert!(s.known(None, pk(BUYER, "9")).is_none());

    // From another journal: the permit's row, and the payment-identifier's before it.
    let s = seen(&db, Some("pid-7"), pk(BUYER, "8"), b).await.unwrap();
    assert_eq!(
        s.known(Some("pid-7"), pk(BUYER, "8")).unwrap().permit_nonce,
        "7"
    );
    assert_eq!(s.known(None, pk(BUYER, "8")).unwrap().permit_nonce, "8");
    assert_eq!(s.standing(BUYER, b, None), unlocked);
    // Another wallet's permit of the same nonce is not this one's.
    let s = seen(&db, None, pk(OTHER, "7"), a).await.unwrap();
    assert!(s.known(None, pk(OTHER, "7")).is_none());
    // The signature of the buyer's permit presented for another wallet finds the buyer's row.
    let replay = PermitKey {
        signature: pk(BUYER, "7").signature,
        ..pk(OTHER, "7")
    };
    let s = seen(&db, None, replay, a).await.unwrap();
    assert_eq!(s.known(None, replay).unwrap().wallet, BUYER);
    assert_eq!(s.standing(OTHER, a, None), Standing::default());
}

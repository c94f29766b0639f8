//! The two writes of a purchase step (`settlement::store::{claim, settle}`), on each database:
//! a claim inserts its row only while the wallet stands where the rules judged it (read again
//! and judged anew when it moved); a settle marks the row, keeps the hash as the row's and
//! writes the last step's unlock, or does nothing.

use alloy::primitives::{B256, address};
use chrono::Utc;
use journal_market_actors::db::Lanes;
use journal_market_actors::settlement::store::{
    Claim, NewPayment, RowKey, claim, find, record_tx, settle,
};
use journal_market_domain::purchase::{Refusal, Standing, Step, Verdict};
use journal_market_entity::{PaymentState, TxHash, Wallet, payments, unlocks};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait, EntityTrait};

use crate::helpers::TestApp;

const BUYER: Wallet = Wallet(address!("00000000000000000000000000000000000000c1"));
const AUTHOR: Wallet = Wallet(address!("00000000000000000000000000000000000000c2"));

/// A transaction hash of 32 `b` bytes.
fn h(b: u8) -> TxHash {
    TxHash(B256::repeat_byte(b))
}

fn new<'a>(
    journal_id: i32,
    step: Step,
    nonce: &'a str,
    payment_id: Option<&'a str>,
) -> NewPayment<'a> {
    let now = Utc::now();
    NewPayment {
        wallet: BUYER,
        journal_id,
        author_wallet: Some(AUTHOR),
        swarm: false,
        step,
        amount_units: if step == Step::Burn { 10 } else { 90 },
        pay_to: AUTHOR,
        permit_nonce: nonce,
        // Each test permit has its own signature.
        signature_key: nonce,
        permit_deadline: now,
        payload: "{}",
        payment_id,
        fingerprint: "fp",
        now,
        lease: None,
    }
}

fn claimed(c: Claim) -> i32 {
    match c {
        Claim::Claimed(id) => id,
        other => panic!("not claimed: {other:?}"),
    }
}

fn key(id: i32, journal_id: i32) -> RowKey {
    RowKey {
        id,
        wallet: BUYER,
        journal_id,
    }
}

async fn unlock(db: &impl ConnectionTrait, journal_id: i32) -> Option<unlocks::Model> {
    unlocks::Entity::find_by_id((BUYER, journal_id))
        .one(db)
        .await
        .unwrap()
}

#[actix_web::test]
async fn a_step_is_claimed_and_settled_only_while_the_rules_hold() {
    let app = TestApp::spawn().await;
    let db = Lanes::new(app.db.connect().await, 1);
    let list = app.client.journals(None).await.unwrap().journals;
    let j = list[0].journal_id as i32;
    let fresh = Standing::default();
    let fee_paid = Standing {
        fee_paid: true,
        ..fresh
    };

    // The author step before the fee: refused, also when the caller believed the fee paid
    // (the insert finds no settled fee, reads again and judges again).
    for read in [fresh, fee_paid] {
        assert!(matches!(
            claim(&db, &new(j, Step::Author, "1", None), read)
                .await
                .unwrap(),
            Claim::Rules(Verdict::Refused(Refusal::FeeFirst))
        ));
    }

    // The fee step: claimed once; the same permit again is that row, another permit for the
    // same step finds the step held.
    let fee = claimed(
        claim(&db, &new(j, Step::Burn, "2", None), fresh)
            .await
            .unwrap(),
    );
    assert_eq!(find(&db, fee).await.unwrap().state, PaymentState::Pending);
    match claim(&db, &new(j, Step::Burn, "2", None), fresh)
        .await
        .unwrap()
    {
        Claim::Known(row) => assert_eq!(row.id, fee),
        other => panic!("{other:?}"),
    }
    match claim(&db, &new(j, Step::Burn, "3", None), fresh)
        .await
        .unwrap()
    {
        Claim::StepHeld(row) => assert_eq!(row.id, fee),
        other => panic!("{other:?}"),
    }
    // The fee permit's signature under another wallet (a contract wallet accepting its
    // owner's signature): the write finds the first row, whatever was read before.
    let other = Wallet(address!("00000000000000000000000000000000000000c3"));
    let reposted = NewPayment {
        wallet: other,
        ..new(j, Step::Burn, "2", None)
    };
    match claim(&db, &reposted, fresh).await.unwrap() {
        Claim::Known(row) => assert_eq!((row.id, row.wallet), (fee, BUYER)),
        other => panic!("{other:?}"),
    }

    // Settled once, by its hash; not again, and not the fee step's unlock.
    assert!(
        settle(&db, key(fee, j), h(0xf1), false, Utc::now())
            .await
            .unwrap()
    );
    let row = find(&db, fee).await.unwrap();
    assert_eq!((row.state, row.tx), (PaymentState::Settled, Some(h(0xf1))));
    assert!(row.lease_owner.is_none());
    assert!(
        !settle(&db, key(fee, j), h(0xf1), false, Utc::now())
            .await
            .unwrap()
    );
    assert!(unlock(&db, j).await.is_none());

    // A second fee when the caller read none: the insert sees the settled fee and answers so.
    assert!(matches!(
        claim(&db, &new(j, Step::Burn, "4", None), fresh)
            .await
            .unwrap(),
        Claim::Rules(Verdict::FeeAlreadyPaid)
    ));

    // The author step, now that the fee is paid. (A read from before the fee settled is
    // refused by the rules before any insert, as the request would have been a moment
    // earlier.)
    assert!(matches!(
        claim(&db, &new(j, Step::Author, "5", None), fresh)
            .await
            .unwrap(),
        Claim::Rules(Verdict::Refused(Refusal::FeeFirst))
    ));
    let author = claimed(
        claim(&db, &new(j, Step::Author, "5", None), fee_paid)
            .await
            .unwrap(),
    );
    // The fee's hash settles nothing else.
    assert!(
        !settle(&db, key(author, j), h(0xf1), true, Utc::now())
            .await
            .unwrap()
    );
    assert_eq!(
        find(&db, author).await.unwrap().state,
        PaymentState::Pending
    );
    assert!(unlock(&db, j).await.is_none());
    // Recorded before its send (as the request path does), then settled: the unlock holds
    // what both steps paid.
    assert!(record_tx(&db, author, h(0xa1), Utc::now()).await.unwrap());
    assert!(
        settle(&db, key(author, j), h(0xa1), true, Utc::now())
            .await
            .unwrap()
    );
    assert_eq!(unlock(&db, j).await.unwrap().paid_units, 100);

    // Unlocked: a step judged on a read from before is refused.
    assert!(matches!(
        claim(&db, &new(j, Step::Burn, "6", None), fresh)
            .await
            .unwrap(),
        Claim::Rules(Verdict::Refused(Refusal::Unlocked))
    ));

    // A payment-identifier names one row: another permit under it is that row.
    let k = list[1].journal_id as i32;
    let first = claimed(
        claim(&db, &new(k, Step::Burn, "7", Some("pid-w")), fresh)
            .await
            .unwrap(),
    );
    match claim(&db, &new(k, Step::Author, "8", Some("pid-w")), fee_paid)
        .await
        .unwrap()
    {
        Claim::Known(row) => assert_eq!(row.id, first),
        other => panic!("{other:?}"),
    }
}

/// An app, one lane of its database, two journals' ids, and the id of a burn step claimed on
/// the first.
async fn one_burn_claimed() -> (TestApp, Lanes, (i32, i32), i32) {
    let app = TestApp::spawn().await;
    let db = Lanes::new(app.db.connect().await, 1);
    let list = app.client.journals(None).await.unwrap().journals;
    let (j, k) = (list[0].journal_id as i32, list[1].journal_id as i32);
    let a = claimed(
        claim(&db, &new(j, Step::Burn, "1", None), Standing::default())
            .await
            .unwrap(),
    );
    (app, db, (j, k), a)
}

#[actix_web::test]
async fn a_settle_that_fails_midway_leaves_no_transaction_open() {
    let (app, db, (j, k), a) = one_burn_claimed().await;
    let fresh = Standing::default();
    let b = claimed(
        claim(&db, &new(k, Step::Burn, "2", None), fresh)
            .await
            .unwrap(),
    );
    assert!(
        settle(&db, key(a, j), h(0xaa), false, Utc::now())
            .await
            .unwrap()
    );
    // Row b's hash, as recorded for b, is already row a's `tx` (a state no write of ours makes):
    // the settle's update breaks the unique `tx` after its hash insert ran.
    let mut row: payments::ActiveModel = find(&db, a).await.unwrap().into();
    row.tx = Set(Some(h(0xbb)));
    row.update(&db).await.unwrap();
    assert!(record_tx(&db, b, h(0xbb), Utc::now()).await.unwrap());
    assert!(
        !settle(&db, key(b, k), h(0xbb), true, Utc::now())
            .await
            .unwrap()
    );
    assert_eq!(find(&db, b).await.unwrap().state, PaymentState::Pending);

    // Nothing of it stayed open: the next settle (on a new lane: the failed one was closed)
    // commits, and another connection sees it.
    assert!(
        settle(&db, key(b, k), h(0xcc), true, Utc::now())
            .await
            .unwrap()
    );
    let other = app.db.connect().await;
    assert_eq!(find(&other, b).await.unwrap().state, PaymentState::Settled);
    assert_eq!(unlock(&other, k).await.unwrap().paid_units, 10);
}

#[actix_web::test]
async fn a_settle_whose_caller_stops_waiting_leaves_no_transaction_open() {
    use futures::FutureExt;
    let (app, db, (j, k), a) = one_burn_claimed().await;
    let fresh = Standing::default();
    // Dropped after its first poll, when the command is on its way to the connection's
    // thread or running there: that lane is closed, not handed on.
    let mut dropped = 0;
    for _ in 0..20 {
        if settle(&db, key(a, j), h(0xaa), false, Utc::now())
            .now_or_never()
            .is_none()
        {
            dropped += 1;
        }
    }
    assert!(dropped > 0, "every settle finished in its first poll");
    // Whatever ran is committed or rolled back: another connection writes, and the row is
    // settled by the next settle or was by a dropped one.
    let other = app.db.connect().await;
    let b = claimed(
        claim(&other, &new(k, Step::Burn, "2", None), fresh)
            .await
            .unwrap_or_else(|e| panic!("another connection could not write: {e}")),
    );
    settle(&db, key(a, j), h(0xaa), false, Utc::now())
        .await
        .unwrap();
    assert_eq!(find(&other, a).await.unwrap().state, PaymentState::Settled);
    assert_eq!(find(&other, b).await.unwrap().state, PaymentState::Pending);
}

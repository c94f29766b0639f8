//! The typed entity fields (wallets, hashes, statuses, states) store the text the string
//! fields did, byte for byte, on each database: written through the entities, read back with
//! raw SQL. A stored value that does not read as its type is an error, not a panic.

use alloy::primitives::{B256, address};
use chrono::Utc;
use journal_market_entity::{
    JobState, JournalStatus, PaymentState, TxHash, Wallet, audit_jobs, journals, payments, unlocks,
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ConnectionTrait, DatabaseConnection, EntityTrait, Statement,
};

use crate::helpers::TestApp;

/// The text columns `cols` of the row `id` of `table`, as stored.
async fn raw(db: &DatabaseConnection, table: &str, cols: &[&str], cond: &str) -> Vec<String> {
    let sql = format!("SELECT {} FROM {table} WHERE {cond}", cols.join(", "));
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    cols.iter()
        .map(|c| row.try_get::<String>("", c).unwrap())
        .collect()
}

#[actix_web::test]
async fn typed_fields_store_the_same_text_and_a_wrong_one_is_an_error() {
    let app = TestApp::spawn().await;
    let db = app.db.connect().await;
    let j = journals::Entity::find().one(&db).await.unwrap().unwrap();
    // A mixed-case address is stored as the lower-case key, as `lower()` wrote it.
    let buyer = Wallet(address!("5FbDB2315678afecb367f032d93F642f64180aa3"));
    let pay_to = Wallet(address!("00000000000000000000000000000000000000A1"));
    let tx = TxHash(B256::repeat_byte(0xAB));
    let now = Utc::now();
    let p = payments::ActiveModel {
        wallet: Set(buyer),
        journal_id: Set(j.id),
        step: Set("burn".into()),
        amount_units: Set(1),
        pay_to: Set(pay_to),
        permit_nonce: Set("1".into()),
        permit_deadline: Set(now),
        payload: Set("{}".into()),
        state: Set(PaymentState::Settled),
        tx: Set(Some(tx)),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&db)
    .await
    .unwrap();
    assert_eq!(
        raw(
            &db,
            "payments",
            &["wallet", "pay_to", "state", "tx"],
            &format!("id = {}", p.id)
        )
        .await,
        [
            "0x5fbdb2315678afecb367f032d93f642f64180aa3".to_string(),
            "0x00000000000000000000000000000000000000a1".into(),
            "settled".into(),
            format!("0x{}", "ab".repeat(32)),
        ]
    );
    unlocks::ActiveModel {
        wallet: Set(buyer),
        journal_id: Set(j.id),
        paid_units: Set(1),
        paid_at: Set(now),
    }
    .insert(&db)
    .await
    .unwrap();
    let u = unlocks::Entity::find_by_id((buyer, j.id))
        .one(&db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(u.wallet, buyer);
    assert_eq!(
        raw(
            &db,
            "unlocks",
            &["wallet"],
            &format!("wallet = '{buyer}' AND journal_id = {}", j.id)
        )
        .await,
        ["0x5fbdb2315678afecb367f032d93f642f64180aa3"]
    );
    let job = audit_jobs::ActiveModel {
        journal_id: Set(j.id),
        revision: Set(j.revision),
        state: Set(JobState::Superseded),
        attempts: Set(0),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&db)
    .await
    .unwrap();
    assert_eq!(
        raw(&db, "audit_jobs", &["state"], &format!("id = {}", job.id)).await,
        ["superseded"]
    );
    let mut draft: journals::ActiveModel = j.clone().into();
    draft.status = Set(JournalStatus::Approved);
    draft.author_wallet = Set(Some(pay_to));
    draft.mint_tx = Set(Some(tx));
    draft.update(&db).await.unwrap();
    assert_eq!(
        raw(
            &db,
            "journals",
            &["status", "author_wallet", "mint_tx"],
            &format!("id = {}", j.id)
        )
        .await,
        [
            "approved".to_string(),
            "0x00000000000000000000000000000000000000a1".into(),
            format!("0x{}", "ab".repeat(32)),
        ]
    );

    // Text no version wrote: the read is an error naming the type.
    for (table, set, id) in [
        ("payments", "state = 'paid'", p.id),
        ("payments", "wallet = 'nobody'", p.id),
        ("payments", "tx = '0x12'", p.id),
        ("journals", "status = 'LIVE'", j.id),
    ] {
        db.execute_unprepared(&format!("UPDATE {table} SET {set} WHERE id = {id}"))
            .await
            .unwrap();
        let e = if table == "payments" {
            payments::Entity::find_by_id(id).one(&db).await.map(|_| ())
        } else {
            journals::Entity::find_by_id(id).one(&db).await.map(|_| ())
        };
        assert!(e.is_err(), "{table} {set}: read");
        db.execute_unprepared(&format!(
            "UPDATE payments SET state = 'settled', wallet = '{buyer}', tx = '{tx}' WHERE id = {}",
            p.id
        ))
        .await
        .unwrap();
        db.execute_unprepared(&format!(
            "UPDATE journals SET status = 'approved' WHERE id = {}",
            j.id
        ))
        .await
        .unwrap();
    }
    assert_eq!(
        payments::Entity::find_by_id(p.id)
            .one(&db)
            .await
            .unwrap()
            .unwrap()
            .wallet,
        buyer
    );
}

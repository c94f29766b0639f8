//! Group commit of used nonces. Sign-in-with-x proofs verified at the same time write their
//! nonces in one `INSERT … ON CONFLICT DO NOTHING RETURNING nonce` (one transaction: one
//! fsync on SQLite) instead of one each. Every caller still waits for the commit that holds
//! its nonce, and the unique key decides, so a nonce is used once across instances as before.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use journal_market_entity::nonces;
use sea_orm::sea_query::{OnConflict, Query};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbErr};
use tokio::sync::{mpsc, oneshot};

/// The most nonces written by one statement (well under both backends' bind limits: 6 each).
const MAX_BATCH: usize = 256;
/// Nonces waiting for the writer before callers are told to retry (backpressure).
const QUEUE: usize = 4_096;

pub struct UsedNonce {
    pub nonce: String,
    pub address: String,
    pub message: String,
    pub expires_at: DateTime<Utc>,
    pub now: DateTime<Utc>,
}

struct Waiting {
    row: UsedNonce,
    done: oneshot::Sender<Result<bool, String>>,
}

/// The handle callers write through; the writer task ends when the last handle is dropped.
#[derive(Clone)]
pub struct UsedNonces {
    queue: mpsc::Sender<Waiting>,
}

impl UsedNonces {
    pub fn start(db: DatabaseConnection) -> UsedNonces {
        let (queue, rx) = mpsc::channel(QUEUE);
        tokio::spawn(writer(db, rx));
        UsedNonces { queue }
    }

    /// Records the nonce as used: `false` when it was used before (on any instance, or by an
    /// earlier proof of this batch).
    pub async fn use_once(&self, row: UsedNonce) -> Result<bool, DbErr> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Waiting { row, done })
            .await
            .map_err(|_| DbErr::Custom("the nonce writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| DbErr::Custom("the nonce writer dropped the nonce".into()))?
            .map_err(DbErr::Custom)
    }
}

/// Writes whatever has queued up while the last write ran, as one statement. When proofs
/// arrive together (more than one queued), it first waits [`LINGER`] for more: a commit costs
/// about the same for one nonce as for a hundred, so under load fewer, fuller commits spend
/// less. A lone proof is written at once.
async fn writer(db: DatabaseConnection, mut rx: mpsc::Receiver<Waiting>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if linger(batch.len()) {
            tokio::time::sleep(LINGER).await;
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(w) => batch.push(w),
                    Err(_) => break,
                }
            }
        }
        let (firsts, repeats) = split_repeats(std::mem::take(&mut batch));
        let written = insert(&db, &firsts).await;
        for w in firsts {
            let answer = match &written {
                Ok(inserted) => Ok(inserted.contains(&w.row.nonce)),
                Err(e) => Err(format!("writing used nonces failed: {e}")),
            };
            // A caller that gave up is no one to tell.
            let _ = w.done.send(answer);
        }
        for w in repeats {
            let _ = w
                .done
                .send(written.as_ref().map(|_| false).map_err(|e| e.to_string()));
        }
    }
}

/// How long a batch waits for company once proofs arrive together.
const LINGER: std::time::Duration = std::time::Duration::from_millis(1);

/// Whether a batch of `queued` waits for more before it is written.
fn linger(queued: usize) -> bool {
    (2..MAX_BATCH).contains(&queued)
}

/// The first of each nonce, and the later ones (which lose to it whatever the table says).
fn split_repeats(batch: Vec<Waiting>) -> (Vec<Waiting>, Vec<Waiting>) {
    let mut seen = HashSet::new();
    batch
        .into_iter()
        .partition(|w| seen.insert(w.row.nonce.clone()))
}

/// Inserts the rows that are new; answers the nonces it inserted.
async fn insert(db: &DatabaseConnection, rows: &[Waiting]) -> Result<HashSet<String>, DbErr> {
    if rows.is_empty() {
        return Ok(HashSet::new());
    }
    let mut q = Query::insert();
    q.into_table(nonces::Entity).columns([
        nonces::Column::Nonce,
        nonces::Column::Address,
        nonces::Column::Message,
        nonces::Column::ExpiresAt,
        nonces::Column::UsedAt,
        nonces::Column::Failures,
    ]);
    for w in rows {
        let r = &w.row;
        q.values([
            r.nonce.clone().into(),
            r.address.clone().into(),
            r.message.clone().into(),
            r.expires_at.into(),
            Some(r.now).into(),
            0i32.into(),
        ])
        .map_err(|e| DbErr::Custom(e.to_string()))?;
    }
    q.on_conflict(
        OnConflict::column(nonces::Column::Nonce)
            .do_nothing()
            .to_owned(),
    );
    q.returning_col(nonces::Column::Nonce);
    let stmt = db.get_database_backend().build(&q);
    let rows = db.query_all_raw(stmt).await?;
    rows.iter()
        .map(|r| r.try_get::<String>("", "nonce"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(nonce: &str) -> Waiting {
        let (done, _) = oneshot::channel();
        Waiting {
            row: UsedNonce {
                nonce: nonce.into(),
                address: "0xa".into(),
                message: "m".into(),
                expires_at: Utc::now(),
                now: Utc::now(),
            },
            done,
        }
    }

    #[test]
    fn only_proofs_that_arrive_together_wait_for_more() {
        assert!(!linger(1), "a lone proof is written at once");
        assert!(linger(2) && linger(MAX_BATCH - 1));
        assert!(!linger(MAX_BATCH), "a full batch is written at once");
    }

    #[test]
    fn the_first_of_a_nonce_in_a_batch_is_written_and_the_rest_lose() {
        let (firsts, repeats) = split_repeats(vec![
            waiting("a"),
            waiting("b"),
            waiting("a"),
            waiting("c"),
            waiting("b"),
        ]);
        let names = |v: &[Waiting]| v.iter().map(|w| w.row.nonce.clone()).collect::<Vec<_>>();
        assert_eq!(names(&firsts), ["a", "b", "c"]);
        assert_eq!(names(&repeats), ["a", "b"]);
    }
}

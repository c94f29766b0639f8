//! `POST /votes/record`: a vote proven by its transaction. The checks here give the caller a
//! clear answer; the write (`indexer::store::apply_vote`) applies the same rules again, and the
//! indexer applies every vote nobody reported the same way.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::Address;
use alloy::providers::Provider;
use journal_market_actors::indexer::store::{self, Applied};
use journal_market_actors::indexer::votes::{self as rules, Event};
use journal_market_api::{VoteRecorded, Votes};
use journal_market_chain::client::{ChainClient, ChainError};
use journal_market_chain::erc8004::parse_tx_hash;
use journal_market_entity::{journals, vote_events, votes};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use std::sync::Arc;

use crate::cache::PublicCaches;
use crate::domain::status::JournalStatus;
use crate::domain::wallet::lower;
use crate::error::DomainError;
use crate::purchase::Access;
use crate::services::publish::NOT_SEEN_YET;
use crate::site::Site;

fn not_a_vote(why: impl Into<String>) -> DomainError {
    DomainError::Unacceptable(why.into())
}

/// Records votes reported by their transaction.
pub struct Voting {
    db: DatabaseConnection,
    site: Site,
    client: ChainClient,
    registry: Address,
    caches: Arc<PublicCaches>,
}

impl Voting {
    pub fn new(
        db: DatabaseConnection,
        site: Site,
        client: ChainClient,
        registry: Address,
        caches: Arc<PublicCaches>,
    ) -> Self {
        Voting {
            db,
            site,
            client,
            registry,
            caches,
        }
    }

    pub async fn record(&self, tx: &str) -> Result<VoteRecorded, DomainError> {
        let hash = parse_tx_hash(tx).ok_or_else(|| {
            DomainError::BadRequest(
                "tx must be a transaction hash: 0x and 64 hexadecimal digits".into(),
            )
        })?;
        let chain_down = |e: alloy::transports::TransportError| {
            DomainError::unavailable(format!(
                "the chain cannot be read right now ({}); retry shortly",
                ChainError::of(&e)
            ))
        };
        let p = self.client.provider();
        let registry = self.registry;
        let Some(receipt) = p.get_transaction_receipt(hash).await.map_err(chain_down)? else {
            // No receipt: sent and waiting, or not seen at all (yet).
            return Err(
                match p.get_transaction_by_hash(hash).await.map_err(chain_down)? {
                    Some(_) => DomainError::Pending(
                        "the transaction is not mined yet; report it again once it is".into(),
                    ),
                    None => DomainError::Pending(NOT_SEEN_YET.into()),
                },
            );
        };
        if !receipt.status() {
            return Err(not_a_vote("the transaction reverted: it cast no vote"));
        }
        // What the registry recorded is the vote, whoever sent the transaction: a Safe, an
        // ERC-4337 account or any relaying contract calls giveFeedback itself, and the log's
        // clientAddress is that account (the caller the registry saw).
        let event = receipt
            .inner
            .logs()
            .iter()
            .filter(|l| l.address() == registry)
            .find_map(rules::decode);
        let Some(Event::Feedback(mut feedback)) = event else {
            return Err(not_a_vote(
                "not a vote: the transaction logged no NewFeedback on the reputation registry",
            ));
        };
        rules::rules(&feedback).map_err(not_a_vote)?;
        let token = feedback.token.to_string();
        let journal = journals::Entity::find()
            .filter(journals::Column::TokenId.eq(token.clone()))
            .filter(journals::Column::Status.eq(JournalStatus::Live))
            .one(&self.db)
            .await?
            .ok_or_else(|| not_a_vote(format!("token {token} is not a live journal's")))?;
        let wallet = lower(&feedback.wallet);
        let access = Access::of(
            &self.db,
            &self.caches,
            feedback.wallet,
            journal.id,
            journal.author_wallet,
        )
        .await?;
        if !access.bought() {
            return Err(DomainError::Forbidden(format!(
                "{} has not unlocked this journal: only its readers vote on it",
                feedback.wallet.to_checksum(None)
            )));
        }
        let tx = format!("{hash:#x}");
        // A vote stored already (reported before, or read by the indexer) changes nothing when
        // reported again: no write, and no cache emptied (a reporter could otherwise empty every
        // public cache with one old transaction, as often as its quota lets it).
        let known = vote_events::Entity::find_by_id((tx.clone(), feedback.at.log_index as i32))
            .one(&self.db)
            .await?
            .is_some();
        if !known {
            if feedback.at.block_time.is_none() {
                feedback.at.block_time = p
                    .get_block_by_number(BlockNumberOrTag::Number(feedback.at.block))
                    .await
                    .map_err(chain_down)?
                    .map(|b| b.header.timestamp);
            }
            let txn = journal_market_actors::db::begin_write(&self.db).await?;
            let applied =
                store::apply_vote(&txn, &Event::Feedback(feedback.clone()), self.site.now())
                    .await?;
            txn.commit().await?;
            if let Applied::Stored {
                valid: false,
                reason: Some(why),
                ..
            } = &applied
            {
                return Err(not_a_vote(why.clone()));
            }
            self.caches.invalidate();
        }
        let standing = votes::Entity::find()
            .filter(votes::Column::JournalId.eq(journal.id))
            .all(&self.db)
            .await?;
        let counted = standing.iter().any(|v| v.wallet == wallet && v.tx == tx);
        let up = standing.iter().filter(|v| v.value > 0).count() as i64;
        Ok(VoteRecorded {
            ok: true,
            slug: journal.slug.unwrap_or_default(),
            value: i64::from(if feedback.value > 0 { 1 } else { -1 }),
            tag: feedback.tag1,
            tx,
            counted,
            votes: Votes {
                up,
                down: standing.len() as i64 - up,
            },
        })
    }
}

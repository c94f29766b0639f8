//! Publishing: save a draft, audit it, and take it live after its onchain registration.
//! Handlers call these; the rules that must hold are enforced again in the writes
//! (`journal_market_actors::journals`, the one writer of the table).

use std::sync::Arc;

use alloy::primitives::Address;
use journal_market_actors::audit::{AuditHandle, Outcome};
use journal_market_api::{
    AuditIssue, AuditOutcome, AuditReport, AuditSupport, DraftView, Published, Saved,
};
use journal_market_chain::client::ChainClient;
use journal_market_entity::{audit_reports, entries, journals};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};
use serde::Deserialize;

use crate::cache::PublicCaches;
use crate::domain::draft::{self, Draft, Known};
use crate::domain::money::{units_string, units_to_usdg};
use crate::domain::status::JournalStatus;
use crate::domain::text::citations;
use crate::domain::time::ts;
use crate::domain::tx::TxHash;
use crate::domain::wallet::Wallet;
use crate::error::{DomainError, DomainResult};
use crate::queries::entries::company_exists;
use crate::quotes::Quotes;
use crate::site::Site;
use journal_market_actors::journals::{
    self as store, Created, DraftRow, Minted, Updated, WentLive,
};

/// A transaction hash the node does not know: it may still be on its way to the node (sent
/// through another one, or a moment ago), so the answer is to retry, not "no such thing".
pub const NOT_SEEN_YET: &str = "the chain has not seen this transaction yet: if it was just \
    sent, call again shortly; a hash that never arrives was never sent";

/// Drafts, audits and registrations: what publishing reads and the workers it asks.
pub struct Publishing {
    db: DatabaseConnection,
    site: Site,
    audit: AuditHandle,
    client: ChainClient,
    identity_registry: Address,
    quotes: Arc<Quotes>,
    caches: Arc<PublicCaches>,
}

/// `POST /journal/save` as sent: a missing field is a broken rule reported with the others.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveRequest {
    #[serde(default, deserialize_with = "journal_market_api::integral_opt")]
    #[schema(minimum = 1, maximum = 2147483647)]
    pub id: Option<i64>,
    pub ticker: Option<String>,
    pub title: Option<String>,
    pub dek: Option<String>,
    pub body: Option<String>,
    pub price_usdg: Option<f64>,
    pub author_name: Option<String>,
}

fn live_not_editable() -> DomainError {
    DomainError::Conflict(
        "the journal is already published; published journals cannot be edited".into(),
    )
}

fn journal_id(id: i64) -> DomainResult<i32> {
    i32::try_from(id)
        .ok()
        .filter(|i| *i > 0)
        .ok_or_else(|| DomainError::NotFound(format!("you have no journal with id {id}")))
}

fn missing(p: &mut Vec<String>, field: &str, v: &Option<String>) {
    if v.is_none() {
        p.push(format!("{field} is missing"));
    }
}

impl Publishing {
    pub fn new(
        db: DatabaseConnection,
        site: Site,
        audit: AuditHandle,
        client: ChainClient,
        identity_registry: Address,
        quotes: Arc<Quotes>,
        caches: Arc<PublicCaches>,
    ) -> Self {
        Publishing {
            db,
            site,
            audit,
            client,
            identity_registry,
            quotes,
            caches,
        }
    }

    pub fn identity_registry(&self) -> Address {
        self.identity_registry
    }

    /// One of the caller's own person-written journals; another wallet's is "not found".
    async fn own(&self, wallet: Address, id: i64) -> DomainResult<journals::Model> {
        let key = journal_id(id)?;
        journals::Entity::find_by_id(key)
            .one(&self.db)
            .await?
            .filter(|j| !j.swarm && j.author_wallet == Some(Wallet(wallet)))
            .ok_or_else(|| DomainError::NotFound(format!("you have no journal with id {id}")))
    }

    /// An approved or live journal, whose registration file is public; drafts and unknown ids
    /// are "not found".
    pub async fn registered(&self, id: &str) -> DomainResult<journals::Model> {
        let not_found =
            || DomainError::NotFound(format!("no approved or published journal has id {id}"));
        let key: i32 = id.parse().map_err(|_| not_found())?;
        journals::Entity::find_by_id(key)
            .one(&self.db)
            .await?
            .filter(|j| !j.swarm && j.status.registrable())
            .ok_or_else(not_found)
    }

    pub async fn save(&self, wallet: Address, req: SaveRequest) -> DomainResult<Saved> {
        // Whose journal and whether it may change come before what the edit says: an invalid
        // edit of a live journal is 409, another wallet's journal 404, whatever the fields.
        // (The write checks both again.)
        if let Some(id) = req.id {
            let j = self.own(wallet, id).await?;
            if !j.status.editable() {
                return Err(live_not_editable());
            }
        }
        let mut problems = Vec::new();
        for (field, v) in [
            ("ticker", &req.ticker),
            ("title", &req.title),
            ("dek", &req.dek),
            ("body", &req.body),
            ("authorName", &req.author_name),
        ] {
            missing(&mut problems, field, v);
        }
        if req.price_usdg.is_none() {
            problems.push("priceUsdg is missing".into());
        }
        let d = Draft {
            ticker: req.ticker.unwrap_or_default().trim().to_string(),
            title: req.title.unwrap_or_default().trim().to_string(),
            dek: req.dek.unwrap_or_default().trim().to_string(),
            body: req.body.unwrap_or_default(),
            price_usdg: req.price_usdg.unwrap_or(0.0),
            author_name: req.author_name.unwrap_or_default().trim().to_string(),
        };
        let cited = citations(&d.body);
        let known = Known {
            company: !d.ticker.is_empty() && company_exists(&self.db, &d.ticker).await?,
            entries: entries::Entity::find()
                .filter(entries::Column::Accession.is_in(cited.clone()))
                .all(&self.db)
                .await?
                .into_iter()
                .map(|e| (e.accession, e.ticker))
                .collect(),
        };
        if problems.is_empty() {
            problems = draft::problems(&d, &known);
        }
        let price_units = draft::price_units(&d);
        let (true, Some(price_units)) = (problems.is_empty(), price_units) else {
            return Err(DomainError::Unprocessable {
                message: format!(
                    "the draft breaks {} rule{}",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                ),
                problems,
            });
        };
        let row = DraftRow {
            ticker: &d.ticker,
            title: &d.title,
            dek: &d.dek,
            body: &d.body,
            price_units,
            author_name: &d.author_name,
            citations: &cited,
        };
        let me = Wallet(wallet);
        let now = self.site.now();
        let per_day = self.site.settings.publish.drafts_per_day;
        match req.id {
            None => match store::create_draft(&self.db, me, &row, now, per_day).await? {
                Created::Id(id) => Ok(Saved { id: id.into() }),
                Created::Quota { retry_after_secs } => Err(DomainError::RateLimited {
                    message: format!(
                        "you created {per_day} drafts in the last 24 hours; the next one is possible in {retry_after_secs} seconds",
                    ),
                    retry_after_secs,
                }),
            },
            Some(id) => {
                match store::update_draft(&self.db, me, journal_id(id)?, &row, now).await? {
                    Updated::Saved => Ok(Saved { id }),
                    Updated::NotFound => Err(DomainError::NotFound(format!(
                        "you have no journal with id {id}"
                    ))),
                    Updated::Live => Err(live_not_editable()),
                }
            }
        }
    }
}

pub fn report_view(r: &audit_reports::Model, support: Vec<AuditSupport>) -> AuditReport {
    AuditReport {
        support,
        verdict: r.verdict.clone(),
        score: r.score,
        summary: r.summary.clone(),
        issues: serde_json::from_value::<Vec<AuditIssue>>(r.issues.clone()).unwrap_or_default(),
        engine: r.engine.clone(),
        audited_at: ts(&r.audited_at),
    }
}

fn outcome_view(o: Outcome, support: Vec<AuditSupport>) -> AuditOutcome {
    AuditOutcome {
        status: o.status.to_string(),
        report: report_view(&o.report, support),
        meta_url: o.meta_url,
    }
}

/// Which sentence of the journal's current text rests on which sentence of a cited entry: the
/// report's `support`. Pure but not free on a long draft (a few ms), so off the worker thread.
impl Publishing {
    async fn support(&self, j: &journals::Model) -> DomainResult<Vec<AuditSupport>> {
        let sub = journal_market_actors::audit::submission(&self.db, j.clone()).await?;
        let found =
            tokio::task::spawn_blocking(move || journal_market_audit::builtin::support(&sub))
                .await
                .map_err(|e| {
                    DomainError::internal_msg(format!("the support reading failed: {e}"))
                })?;
        Ok(found
            .into_iter()
            .map(|s| AuditSupport {
                sentence: s.sentence,
                entry: s.entry,
                quote: s.quote,
                judgement: s.judgement.as_str().to_string(),
                missing: s.missing,
            })
            .collect())
    }

    /// Audits a draft. A draft already audited in its current text answers that audit again
    /// (a retry after a lost answer), without counting another.
    pub async fn audit(&self, wallet: Address, id: i64) -> DomainResult<AuditOutcome> {
        let j = self.own(wallet, id).await?;
        match j.status {
            s if s.auditable() => {
                let o = self.audit.audit(j.id, j.revision).await?;
                Ok(outcome_view(o, self.support(&j).await?))
            }
            JournalStatus::Live => Err(DomainError::Conflict(
                "the journal is published; published journals are not audited again".into(),
            )),
            _ => match self.audit.last_outcome(&j).await? {
                Some(o) => Ok(outcome_view(o, self.support(&j).await?)),
                None => Err(DomainError::Conflict(format!(
                    "the journal is {}; save it again to audit it",
                    j.status
                ))),
            },
        }
    }

    /// The caller's own journal with its last audit report.
    pub async fn draft_view(&self, wallet: Address, id: i64) -> DomainResult<DraftView> {
        let j = self.own(wallet, id).await?;
        let report = audit_reports::Entity::find()
            .filter(audit_reports::Column::JournalId.eq(j.id))
            .order_by_desc(audit_reports::Column::AuditedAt)
            .order_by_desc(audit_reports::Column::Id)
            .one(&self.db)
            .await?;
        let max = i64::from(self.site.settings.publish.audits_per_draft);
        let report = match report {
            Some(r) => Some(report_view(&r, self.support(&j).await?)),
            None => None,
        };
        Ok(DraftView {
            id: j.id.into(),
            status: j.status.to_string(),
            ticker: j.ticker,
            title: j.title,
            dek: j.dek,
            body: j.body,
            price_usdg: units_to_usdg(j.price_units),
            price_units: units_string(j.price_units),
            author_name: j.author_name,
            slug: j.slug,
            meta_url: j.meta_url,
            content_hash: j.content_hash,
            token_id: j.token_id.and_then(|t| t.parse().ok()),
            mint_tx: j.mint_tx.map(|t| t.to_string()),
            author_holds_stock_token: j.author_holds_stock,
            audits: j.audit_count.into(),
            audits_left: (max - i64::from(j.audit_count)).max(0),
            report,
            updated_at: ts(&j.updated_at),
        })
    }

    /// Takes an approved journal live once its registration transaction proves, from the chain,
    /// that the signed-in wallet registered this journal's metaUrl.
    pub async fn minted(&self, wallet: Address, id: i64, tx: &str) -> DomainResult<Published> {
        use journal_market_chain::erc8004::{self, RegistrationError};

        let hash = erc8004::parse_tx_hash(tx).ok_or_else(|| {
            DomainError::BadRequest(
                "tx must be a transaction hash: 0x and 64 hexadecimal digits".into(),
            )
        })?;
        let tx = TxHash(hash);
        let j = self.own(wallet, id).await?;
        // A live journal whose registration a reorg dropped (token cleared) takes a new one.
        if j.status == JournalStatus::Live && j.token_id.is_some() {
            return match (j.mint_tx == Some(tx), j.slug) {
                (true, Some(slug)) => Ok(Published { slug }),
                _ => Err(DomainError::Conflict("the journal is already live".into())),
            };
        }
        if !j.status.registrable() {
            return Err(DomainError::Conflict(format!(
                "the journal is {}: only an approved journal goes live",
                j.status
            )));
        }
        let meta_url = j.meta_url.clone().ok_or_else(|| {
            DomainError::internal_msg(format!("approved journal {} has no metaUrl", j.id))
        })?;
        let chain_down = |e: journal_market_chain::client::ChainError| {
            DomainError::unavailable(format!(
                "the chain cannot be read right now ({e}); retry shortly"
            ))
        };
        let registry = self.identity_registry;
        let reg = match erc8004::registration(self.client.provider(), registry, hash).await {
            Ok(r) => r,
            Err(RegistrationError::Unknown) => {
                return Err(DomainError::Pending(NOT_SEEN_YET.into()));
            }
            Err(RegistrationError::Pending) => {
                return Err(DomainError::Pending(
                    "the transaction is not mined yet; call again once it is".into(),
                ));
            }
            Err(RegistrationError::Reverted) => {
                return Err(DomainError::Unacceptable(
                    "the transaction reverted: it registered nothing".into(),
                ));
            }
            Err(RegistrationError::Chain(e)) => return Err(chain_down(e)),
        };
        // The registry's mint to the signed-in wallet is the proof, whoever sent the
        // transaction: a Safe or an ERC-4337 account registers through its own contract (the
        // token is minted to the caller the registry saw), and a mint to this wallet can only
        // come from a call the wallet made.
        let not_registration = DomainError::Unacceptable;
        let mine: Vec<_> = reg.mints.iter().filter(|(to, _)| *to == wallet).collect();
        if mine.is_empty() {
            return Err(not_registration(if reg.mints.is_empty() {
                "the transaction minted no token on the identity registry: send register(metaUrl) to it"
                .into()
            } else {
                "the transaction minted its token to another wallet, not to the signed-in one"
                    .into()
            }));
        }
        for (_, id) in mine {
            let taken = journals::Entity::find()
                .filter(journals::Column::TokenId.eq(id.to_string()))
                .filter(journals::Column::Id.ne(j.id))
                .one(&self.db)
                .await?;
            if taken.is_some() {
                return Err(DomainError::Conflict(format!(
                    "token {id} already belongs to another journal"
                )));
            }
        }
        let (token, others) =
            erc8004::journal_token(self.client.provider(), registry, &reg, wallet, &meta_url)
                .await
                .map_err(chain_down)?;
        let Some(token) = token else {
            return Err(not_registration(format!(
                "the registered token's tokenURI is {:?}, not this journal's metaUrl {meta_url:?}",
                others.first().map(String::as_str).unwrap_or_default()
            )));
        };
        let token_id = token.to_string();
        let stock_price = match self.quotes.mid(&j.ticker).await {
            Ok(p) => Some(p),
            Err(e) => {
                tracing::warn!(ticker = %j.ticker, error = %e, "no stock token price at publication");
                None
            }
        };
        let minted = Minted {
            token_id: &token_id,
            tx,
            block: reg.block,
            stock_price,
            now: self.site.now(),
        };
        match store::go_live(&self.db, j.id, &minted).await? {
            WentLive::Live { slug } => {
                self.caches.invalidate();
                Ok(Published { slug })
            }
            WentLive::NotApproved => Err(DomainError::Conflict(
                "the journal changed while it was being published; it is no longer approved".into(),
            )),
            WentLive::TokenTaken => Err(DomainError::Conflict(format!(
                "token {token_id} or this transaction already belongs to another journal"
            ))),
        }
    }
}

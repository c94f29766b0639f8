//! A request's sponsored approval (x402 `erc20ApprovalGasSponsoring`): checked against the
//! budgets, funded and broadcast before the settle; a row of its own before anything is sent.

use alloy::primitives::{B256, U256};
use alloy::rpc::types::TransactionReceipt;
use futures::future::BoxFuture;
use journal_market_domain::tx::TxHash;
use journal_market_domain::wallet::Wallet;
use journal_market_x402::extensions::gas_sponsoring;
use journal_market_x402::facilitator::{Permit, SettleError};

use super::outcome::{PayError, rejected};
use super::{Inner, PayStep, sponsor};

/// What a sponsorship costs the sponsor, in wei.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cost {
    /// Sent to the payer.
    pub value: u64,
    /// The most the funding transaction's own gas costs.
    pub gas: u64,
}

impl Cost {
    /// What the budgets count before anything is sent.
    fn most(self) -> u64 {
        self.value.saturating_add(self.gas)
    }
}

impl Inner {
    /// The sponsored approval a payment carries, checked and with the wei its gas needs, when
    /// this settler sponsors and the payload asks for it (`None`: a plain payment).
    pub(super) async fn sponsorable(
        &self,
        s: &PayStep,
        permit: &Permit,
        sender: bool,
    ) -> Result<Option<(gas_sponsoring::Approval, Cost)>, PayError> {
        let Some(cfg) = &self.settings.sponsoring else {
            return Ok(None);
        };
        let refused = |r: gas_sponsoring::Refusal| PayError::Rejected(r.message);
        let Some(info) = gas_sponsoring::of(s.payload.extensions.as_ref()).map_err(refused)? else {
            return Ok(None);
        };
        let limits = gas_sponsoring::Limits {
            chain_id: self.chain.chain_id(),
            token: permit.permit.permitted.token,
            permit2: self.chain.permit2(),
            max_gas: cfg.max_gas,
            max_fee_per_gas: cfg.max_fee_per_gas,
        };
        let approval =
            gas_sponsoring::check(&info, permit.from, permit.permit.permitted.amount, &limits)
                .map_err(refused)?;
        if !sender {
            // The sponsor's nonces are kept by the instance that holds the relayer key.
            return Err(PayError::Busy);
        }
        let funding = self
            .chain
            .prepare_approval(&approval, permit, cfg.gas_floor)
            .await
            .map_err(rejected)?;
        let too_much =
            || PayError::Rejected("the approval's gas would cost more than can be funded".into());
        let cost = Cost {
            value: u64::try_from(funding.value).map_err(|_| too_much())?,
            gas: u64::try_from(funding.gas_cost).map_err(|_| too_much())?,
        };
        let spent = sponsor::spent(&self.db, Wallet(approval.from), self.clock.now()).await?;
        sponsor::within_budget(spent, cost.most(), cfg).map_err(PayError::Rejected)?;
        Ok(Some((approval, cost)))
    }

    /// Funds and broadcasts the sponsored approval of payment `id`, whose row this request
    /// holds, and waits until it is mined. A refusal fails the payment (nothing of the buyer's
    /// moved); an approval not mined in time leaves the payment to reconciliation, which
    /// settles it once the allowance is there (or fails it at the permit's deadline).
    pub(super) async fn sponsor(
        &self,
        id: i32,
        wallet: Wallet,
        a: &gas_sponsoring::Approval,
        cost: Cost,
    ) -> Result<(), PayError> {
        let Some(cfg) = &self.settings.sponsoring else {
            return Ok(());
        };
        let new = sponsor::NewSponsorship {
            payment_id: id,
            wallet,
            approval_tx: TxHash(a.hash),
            funded_wei: cost.most(),
            now: self.clock.now(),
        };
        let reserved = {
            let _one = self.sponsoring.lock().await;
            sponsor::reserve(self.db.pool(), &new, cfg).await?
        };
        let sid = match reserved {
            Ok(sid) => sid,
            Err(why) => {
                self.fail(id, &why).await?;
                return Err(PayError::Rejected(why));
            }
        };
        let landed = match self.fund_gas(sid, a, cost.value).await? {
            Landed::Mined => self.broadcast_approval(id, sid, a, cost.value).await?,
            not => not,
        };
        match landed {
            Landed::Mined => {}
            Landed::Refused(why) => {
                sponsor::finish(&self.db, sid, Some(&why), self.clock.now()).await?;
                self.fail(id, &why).await?;
                return Err(PayError::Rejected(why));
            }
            Landed::NotYet => {
                self.give_back(id).await?;
                return Err(PayError::StillSettling);
            }
        }
        #[cfg(feature = "faults")]
        if self.settings.fault == super::FaultPoint::AfterApproval {
            return Err(PayError::Interrupted);
        }
        Ok(())
    }

    /// Sends the payer the wei its approval's gas needs (none: nothing to send), recording the
    /// funding's hash before it leaves and, once mined, what it really cost.
    async fn fund_gas(
        &self,
        sid: i32,
        a: &gas_sponsoring::Approval,
        need: u64,
    ) -> Result<Landed, PayError> {
        if need == 0 {
            return Ok(Landed::Mined);
        }
        let db = self.db.clone();
        let clock = self.clock.clone();
        let record = move |tx: B256| -> BoxFuture<'_, Result<(), String>> {
            let (db, clock) = (db.clone(), clock.clone());
            Box::pin(async move {
                sponsor::record_funding(&db, sid, TxHash(tx), clock.now())
                    .await
                    .map_err(|e| format!("recording the funding failed: {e}"))
            })
        };
        let funded = match self.chain.fund(a.from, U256::from(need), &record).await {
            Ok(sent) => match sent.receipt {
                Some(r) => Some(r),
                None => self.receipt_within(sent.tx).await,
            },
            Err(e) => {
                return Ok(Landed::Refused(format!(
                    "funding the approval's gas failed: {e}"
                )));
            }
        };
        match funded {
            Some(r) if r.status() => {
                // The budgets now count what the funding really cost.
                let gas = u128::from(r.gas_used).saturating_mul(r.effective_gas_price);
                let gas = u64::try_from(gas).unwrap_or(u64::MAX);
                sponsor::record_spend(&self.db, sid, need.saturating_add(gas)).await?;
                Ok(Landed::Mined)
            }
            Some(_) => Ok(Landed::Refused(
                "funding the approval's gas reverted".into(),
            )),
            None => Ok(Landed::NotYet),
        }
    }

    /// Broadcasts the payer's signed approval and waits for it to be mined.
    async fn broadcast_approval(
        &self,
        id: i32,
        sid: i32,
        a: &gas_sponsoring::Approval,
        funded: u64,
    ) -> Result<Landed, PayError> {
        let mined = match self.chain.broadcast(&a.raw, a.hash).await {
            Ok(Some(r)) => Some(r),
            Ok(None) => self.receipt_within(a.hash).await,
            Err(SettleError::Invalid(i)) => return Ok(Landed::Refused(i.message)),
            Err(e) => {
                tracing::warn!(payment = id, error = %e, "the approval's broadcast had no answer");
                None
            }
        };
        match mined {
            Some(r) if r.status() => {
                let burned = u128::from(r.gas_used).saturating_mul(r.effective_gas_price);
                self.stats
                    .sponsored(funded, u64::try_from(burned).unwrap_or(u64::MAX));
                sponsor::finish(&self.db, sid, None, self.clock.now()).await?;
                Ok(Landed::Mined)
            }
            Some(_) => Ok(Landed::Refused("the sponsored approval reverted".into())),
            None => Ok(Landed::NotYet),
        }
    }

    /// A transaction's receipt within the settings' wait (`None`: not yet, or no answer).
    async fn receipt_within(&self, tx: B256) -> Option<TransactionReceipt> {
        self.chain
            .receipt_within(tx, self.settings.receipt_wait)
            .await
            .ok()
            .flatten()
    }
}

/// Where one of a sponsorship's transactions stands after its wait.
enum Landed {
    Mined,
    /// Refused or reverted: nothing of the buyer's moved.
    Refused(String),
    /// Not mined within the wait: reconciliation decides.
    NotYet,
}

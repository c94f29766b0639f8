//! A request's sponsored approval (x402 `erc20ApprovalGasSponsoring`): checked against the
//! budgets, funded and broadcast before the settle; a row of its own before anything is sent.

use alloy::primitives::{B256, U256};
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
        let now = self.clock.now();
        let reserved = {
            let _one = self.sponsoring.lock().await;
            sponsor::reserve(
                self.db.pool(),
                &sponsor::NewSponsorship {
                    payment_id: id,
                    wallet,
                    approval_tx: TxHash(a.hash),
                    funded_wei: cost.most(),
                    now,
                },
                cfg,
            )
            .await?
        };
        let sid = match reserved {
            Ok(sid) => sid,
            Err(why) => {
                self.fail(id, &why).await?;
                return Err(PayError::Rejected(why));
            }
        };
        let failed = |why: String| async move {
            let now = self.clock.now();
            sponsor::finish(&self.db, sid, Some(&why), now).await?;
            self.fail(id, &why).await?;
            Err::<(), PayError>(PayError::Rejected(why))
        };
        let pending = || async {
            self.give_back(id).await?;
            Err::<(), PayError>(PayError::StillSettling)
        };
        let wait = self.settings.receipt_wait;
        let need = cost.value;
        if need > 0 {
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
                    None => self
                        .chain
                        .receipt_within(sent.tx, wait)
                        .await
                        .ok()
                        .flatten(),
                },
                Err(e) => return failed(format!("funding the approval's gas failed: {e}")).await,
            };
            match funded {
                Some(r) if r.status() => {
                    // The budgets now count what the funding really cost.
                    let gas = u128::from(r.gas_used).saturating_mul(r.effective_gas_price);
                    let gas = u64::try_from(gas).unwrap_or(u64::MAX);
                    sponsor::record_spend(&self.db, sid, need.saturating_add(gas)).await?;
                }
                Some(_) => return failed("funding the approval's gas reverted".into()).await,
                None => return pending().await,
            }
        }
        let mined = match self.chain.broadcast(&a.raw, a.hash).await {
            Ok(Some(r)) => Some(r),
            Ok(None) => self.chain.receipt_within(a.hash, wait).await.ok().flatten(),
            Err(SettleError::Invalid(i)) => return failed(i.message).await,
            Err(e) => {
                tracing::warn!(payment = id, error = %e, "the approval's broadcast had no answer");
                None
            }
        };
        match mined {
            Some(r) if r.status() => {
                let burned = u128::from(r.gas_used).saturating_mul(r.effective_gas_price);
                self.stats
                    .sponsored(need, u64::try_from(burned).unwrap_or(u64::MAX));
                sponsor::finish(&self.db, sid, None, self.clock.now()).await?;
            }
            Some(_) => return failed("the sponsored approval reverted".into()).await,
            None => return pending().await,
        }
        #[cfg(feature = "faults")]
        if self.settings.fault == super::FaultPoint::AfterApproval {
            return Err(PayError::Interrupted);
        }
        Ok(())
    }
}

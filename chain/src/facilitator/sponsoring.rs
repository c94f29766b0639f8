//! The chain's side of `erc20ApprovalGasSponsoring`: whether a checked approval can be mined,
//! the gas funding from the sponsor key, and the payer's signed approval handed to the node.

use alloy::eips::BlockNumberOrTag;
use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::simulate::{SimBlock, SimulatePayload};
use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
use alloy::signers::local::PrivateKeySigner;

use super::{
    Facilitator, Permit, Record, Relayer, SendError, SendFailure, Sent, SettleError, chain_failure,
    invalid,
};
use crate::bindings::IERC20;
use journal_market_x402::extensions::gas_sponsoring;

/// Blocks whose base fee an approval's fee cap is judged by (the highest of them).
const BASE_FEE_BLOCKS: u64 = 8;
/// The gas a sponsored approval may ask for: the node's estimate × 5 / 4.
const GAS_MARGIN_NUM: u64 = 5;
const GAS_MARGIN_DEN: u64 = 4;
/// The gas of the funding transaction, a plain transfer, as counted against the budgets.
pub const FUNDING_GAS: u64 = 21_000;

/// What a sponsored approval costs the sponsor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Funding {
    /// Wei sent to the payer so it can pay for the approval's gas.
    pub value: U256,
    /// The most the funding transaction's own gas costs (nothing when nothing is sent).
    pub gas_cost: U256,
}

impl Facilitator {
    /// The key that funds sponsored approvals, if any.
    pub fn sponsor_address(&self) -> Option<Address> {
        self.sponsor.as_ref().map(|r| r.address)
    }

    /// Funds a sponsored approval from another key than the relayer's.
    pub fn with_sponsor(mut self, key: PrivateKeySigner) -> Self {
        self.sponsor = Some(match &self.relayer {
            // One key, one nonce book.
            Some(r) if r.address == key.address() => r.clone(),
            _ => std::sync::Arc::new(Relayer::new(key)),
        });
        self
    }

    /// The chain's side of a sponsored approval that passed [`gas_sponsoring::check`], and what
    /// the sponsor would spend on it. The payer must still need it (no Permit2 allowance for
    /// the permit's amount) and hold the USDG; the approval's nonce must be the payer's next
    /// one with nothing of the payer's waiting in the pool (a lower one can never be mined, a
    /// higher one waits on a gap, a waiting one can replace the approval once funded). The
    /// sponsor pays the fee market, not the ceilings: the gas limit may be at most the node's
    /// estimate of this very `approve` × 1.25 (never below `gas_floor`), the fee cap at most
    /// twice the base fee plus the approval's own tip (at most the node's suggested tip).
    /// Then the settle is simulated after the approval (`eth_simulateV1`: the approve, then
    /// the settle, one block), and only a settle that would pass is funded.
    pub async fn prepare_approval(
        &self,
        a: &gas_sponsoring::Approval,
        permit: &Permit,
        gas_floor: u64,
    ) -> Result<Funding, SettleError> {
        let amount = permit.permit.permitted.amount;
        let usdg = IERC20::new(self.usdg, &self.reader);
        let allowance_read = usdg.allowance(a.from, self.permit2);
        let usdg_read = usdg.balanceOf(a.from);
        let approve = TransactionRequest::default()
            .from(a.from)
            .to(a.to)
            .input(a.input.clone().into());
        let (allowance, tokens, pending, latest, balance, history, tip, estimate) = tokio::join!(
            allowance_read.call(),
            usdg_read.call(),
            self.reader
                .get_transaction_count(a.from)
                .pending()
                .into_future(),
            self.reader
                .get_transaction_count(a.from)
                .latest()
                .into_future(),
            self.reader.get_balance(a.from).pending().into_future(),
            self.reader
                .get_fee_history(BASE_FEE_BLOCKS, BlockNumberOrTag::Latest, &[]),
            self.reader.get_max_priority_fee_per_gas().into_future(),
            self.reader.estimate_gas(approve.clone()).into_future(),
        );
        let refuse = |code, message: String| Err(SettleError::Invalid(invalid(code, message)));
        if allowance.map_err(chain_failure)? >= amount {
            return refuse(
                "erc20_approval_not_needed",
                "the payer has approved Permit2 already: pay without a sponsored approval".into(),
            );
        }
        if tokens.map_err(chain_failure)? < amount {
            return refuse(
                "permit2_insufficient_balance",
                "the payer's USDG balance is too low".into(),
            );
        }
        let next = pending.map_err(chain_failure)?;
        if a.nonce != next {
            return refuse(
                "erc20_approval_tx_wrong_nonce",
                format!(
                    "the approval's nonce is {}, but the payer's next transaction is {next}",
                    a.nonce
                ),
            );
        }
        let mined = latest.map_err(chain_failure)?;
        if mined != next {
            return refuse(
                "erc20_approval_tx_nonce_taken",
                format!(
                    "a transaction of the payer's is waiting at nonce {mined}: the approval's nonce is taken until it is mined"
                ),
            );
        }
        // The base fee: the highest of the last blocks' and the next one's, so that an
        // approval signed a few blocks ago, while it was higher, still passes.
        let history = history.map_err(chain_failure)?;
        let base_fee = history.base_fee_per_gas.iter().copied().max().unwrap_or(0);
        let next_base_fee = history.base_fee_per_gas.last().copied().unwrap_or(0);
        if a.max_fee_per_gas < next_base_fee {
            return refuse(
                "erc20_approval_tx_fee_too_low",
                format!(
                    "the approval's max fee per gas {} is below the base fee {next_base_fee}",
                    a.max_fee_per_gas
                ),
            );
        }
        let tip = a.max_priority_fee_per_gas.min(tip.map_err(chain_failure)?);
        let fee_bound = base_fee.saturating_mul(2).saturating_add(tip);
        if a.max_fee_per_gas > fee_bound {
            return refuse(
                "erc20_approval_tx_fee_above_need",
                format!(
                    "the approval's max fee per gas {} is above the {fee_bound} wei sponsored (twice the base fee {base_fee}, plus a tip of {tip}): sign it again with at most that",
                    a.max_fee_per_gas
                ),
            );
        }
        let estimate = match estimate {
            Ok(gas) => gas,
            Err(e) if e.as_error_resp().is_none() => return Err(chain_failure(e)),
            Err(e) => {
                return refuse(
                    "erc20_approval_simulation_failed",
                    format!(
                        "the approval would fail: {}",
                        crate::client::short(&e.to_string())
                    ),
                );
            }
        };
        let gas_bound = estimate
            .saturating_mul(GAS_MARGIN_NUM)
            .div_ceil(GAS_MARGIN_DEN)
            .max(gas_floor);
        if a.gas_limit > gas_bound {
            return refuse(
                "erc20_approval_tx_gas_above_need",
                format!(
                    "the approval's gas limit {} is above the {gas_bound} sponsored (its estimate {estimate} × 1.25): sign it again with at most that",
                    a.gas_limit
                ),
            );
        }
        self.simulate_after_approval(approve, permit).await?;
        let balance = balance.map_err(chain_failure)?;
        let value = a.cost().saturating_sub(balance);
        let gas_cost = if value.is_zero() {
            U256::ZERO
        } else {
            let fees = self.fees().await?;
            U256::from(FUNDING_GAS) * U256::from(fees.max_fee_per_gas)
        };
        Ok(Funding { value, gas_cost })
    }

    /// The settle of `permit` simulated right after `approve` in one block (`eth_simulateV1`):
    /// only a payment that settles once approved is funded.
    async fn simulate_after_approval(
        &self,
        approve: TransactionRequest,
        permit: &Permit,
    ) -> Result<(), SettleError> {
        let payload = SimulatePayload {
            block_state_calls: vec![SimBlock {
                block_overrides: None,
                state_overrides: None,
                calls: vec![approve, self.settle_request(permit)],
            }],
            trace_transfers: false,
            validation: false,
            return_full_transactions: false,
        };
        let blocks = match self.reader.simulate(&payload).await {
            Ok(blocks) => blocks,
            Err(e) if e.as_error_resp().is_none() => return Err(chain_failure(e)),
            // No simulation, no funding.
            Err(e) => {
                return Err(SettleError::Invalid(invalid(
                    "permit2_simulation_failed",
                    format!(
                        "the settle after the approval cannot be simulated: {}",
                        crate::client::short(&e.to_string())
                    ),
                )));
            }
        };
        let calls: Vec<_> = blocks.iter().flat_map(|b| b.calls.iter()).collect();
        match calls.as_slice() {
            [approved, settled] if approved.status && settled.status => Ok(()),
            [approved, _] if !approved.status => Err(SettleError::Invalid(invalid(
                "erc20_approval_simulation_failed",
                "the approval would revert",
            ))),
            _ => Err(SettleError::Invalid(invalid(
                "permit2_simulation_failed",
                "the settle would revert after the approval: nothing is funded",
            ))),
        }
    }

    /// Sends `value` wei from the sponsor key to `to`, `record` given the hash first.
    pub async fn fund(
        &self,
        to: Address,
        value: U256,
        record: Record<'_>,
    ) -> Result<Sent, SettleError> {
        let sponsor = self
            .sponsor
            .as_ref()
            .ok_or_else(|| SettleError::Failed("no sponsor key is configured".into()))?;
        let call = alloy::rpc::types::TransactionRequest::default()
            .from(sponsor.address)
            .to(to)
            .value(value);
        // A plain transfer, unless `to` runs code on receipt (a delegated EOA).
        let gas = self
            .reader
            .estimate_gas(call.clone())
            .await
            .map_err(chain_failure)?;
        self.send_from(sponsor, call, gas, record).await
    }

    /// Hands a transaction someone else signed to the node. `Ok(Some)`: mined, with its
    /// receipt; `Ok(None)`: taken, not mined yet.
    pub async fn broadcast(
        &self,
        raw: &[u8],
        hash: B256,
    ) -> Result<Option<TransactionReceipt>, SettleError> {
        match self.send_raw(raw, hash).await {
            Ok(receipt) => Ok(receipt),
            // Sent before (a retry): the node knows it; its receipt is read as usual.
            Err(SendError::Node(m)) if SendFailure::of(&m) == SendFailure::NonceTaken => Ok(None),
            Err(SendError::Node(m)) => Err(SettleError::Invalid(invalid(
                "erc20_approval_broadcast_failed",
                format!("the node refused the approval: {m}"),
            ))),
            Err(e) => Err(SettleError::Chain(e.to_string())),
        }
    }
}

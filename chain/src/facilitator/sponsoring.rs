//! The chain's side of `erc20ApprovalGasSponsoring`: whether a checked approval can be mined,
//! the gas funding from the sponsor key, and the payer's signed approval handed to the node.

use alloy::primitives::{Address, B256, U256};
use alloy::providers::Provider;
use alloy::rpc::types::TransactionReceipt;
use alloy::signers::local::PrivateKeySigner;

use super::{Facilitator, Record, Relayer, SendError, SendFailure, Sent, SettleError, invalid};
use crate::bindings::IERC20;
use crate::extensions::gas_sponsoring;

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

    /// The chain's side of a sponsored approval that passed [`gas_sponsoring::check`]: the
    /// payer must still need it (no Permit2 allowance for `amount`) and hold the USDG, the
    /// approval's nonce must be the payer's next one (a lower one can never be mined, a higher
    /// one waits on a gap), and its fee cap must reach the current base fee (else the funding
    /// would sit unused). Answers the wei the sponsor must send so the payer can pay for the
    /// gas the approval may use.
    pub async fn prepare_approval(
        &self,
        a: &gas_sponsoring::Approval,
        amount: U256,
    ) -> Result<U256, SettleError> {
        let usdg = IERC20::new(self.usdg, &self.reader);
        let allowance_read = usdg.allowance(a.from, self.permit2);
        let usdg_read = usdg.balanceOf(a.from);
        let (allowance, tokens, nonce, balance, block) = tokio::join!(
            allowance_read.call(),
            usdg_read.call(),
            self.reader
                .get_transaction_count(a.from)
                .pending()
                .into_future(),
            self.reader.get_balance(a.from).pending().into_future(),
            self.reader
                .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
                .into_future(),
        );
        let refuse = |code, message: String| Err(SettleError::Invalid(invalid(code, message)));
        if allowance.map_err(SettleError::chain)? >= amount {
            return refuse(
                "erc20_approval_not_needed",
                "the payer has approved Permit2 already: pay without a sponsored approval".into(),
            );
        }
        if tokens.map_err(SettleError::chain)? < amount {
            return refuse(
                "permit2_insufficient_balance",
                "the payer's USDG balance is too low".into(),
            );
        }
        let next = nonce.map_err(SettleError::chain)?;
        if a.nonce != next {
            return refuse(
                "erc20_approval_tx_wrong_nonce",
                format!(
                    "the approval's nonce is {}, but the payer's next transaction is {next}",
                    a.nonce
                ),
            );
        }
        let base_fee = block
            .map_err(SettleError::chain)?
            .and_then(|b| b.header.base_fee_per_gas)
            .unwrap_or(0);
        if a.max_fee_per_gas < u128::from(base_fee) {
            return refuse(
                "erc20_approval_tx_fee_too_low",
                format!(
                    "the approval's max fee per gas {} is below the base fee {base_fee}",
                    a.max_fee_per_gas
                ),
            );
        }
        let balance = balance.map_err(SettleError::chain)?;
        Ok(a.cost().saturating_sub(balance))
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
            .map_err(SettleError::chain)?;
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

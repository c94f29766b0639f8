//! The chain's side of the reference checks: the settle call simulated (its gas estimate, which
//! the send then uses), and when it would revert, which check it fails.

use alloy::providers::Provider;

use super::{Checked, Facilitator, Permit, SettleError, chain_failure, invalid};
use crate::bindings::{IERC20, IPermit2};
use crate::client::short;
use journal_market_x402::permit2::nonce_position;

impl Facilitator {
    /// The chain's side of the reference checks for a signed permit: unused nonce, balance,
    /// allowance, and a simulation of the settle call. The simulation is the settle call's gas
    /// estimate, and it runs first: when it passes, so do the three reads (Permit2 reverts on a
    /// used nonce, the token on a short balance or allowance), so they are made only to name
    /// what failed, in the reference order.
    pub async fn verify_state(&self, permit: &Permit) -> Result<Checked, SettleError> {
        Ok(Checked {
            gas: Some(self.simulate(permit).await?),
        })
    }

    /// The settle call's gas estimate, which is its simulation: a revert is named by
    /// [`Facilitator::why_not`].
    pub(super) async fn simulate(&self, permit: &Permit) -> Result<u64, SettleError> {
        match self.reader.estimate_gas(self.settle_request(permit)).await {
            Ok(gas) => Ok(gas),
            // No answer from the node is no verdict on the permit.
            Err(e) if e.as_error_resp().is_none() => Err(chain_failure(e)),
            Err(e) => Err(self.why_not(permit, &e.to_string()).await),
        }
    }

    /// Why a permit's settle would revert: the first of the reference checks it fails, else
    /// the node's own words.
    async fn why_not(&self, permit: &Permit, node_said: &str) -> SettleError {
        let (word, bit) = nonce_position(permit.permit.nonce);
        let usdg = IERC20::new(self.usdg, &self.reader);
        let permit2 = IPermit2::new(self.permit2, &self.reader);
        let nonce_read = permit2.nonceBitmap(permit.from, word);
        let balance_read = usdg.balanceOf(permit.from);
        let allowance_read = usdg.allowance(permit.from, self.permit2);
        let (bitmap, balance, allowance) = tokio::join!(
            nonce_read.call(),
            balance_read.call(),
            allowance_read.call()
        );
        let amount = permit.permit.permitted.amount;
        let (code, message) = match (bitmap, balance, allowance) {
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return chain_failure(e),
            (Ok(b), _, _) if b.bit(bit) => (
                "permit2_invalid_nonce",
                "the permit's nonce was already used".to_string(),
            ),
            (_, Ok(b), _) if b < amount => (
                "permit2_insufficient_balance",
                "the payer's USDG balance is too low".to_string(),
            ),
            (_, _, Ok(a)) if a < amount => (
                "permit2_allowance_required",
                "the payer has not approved USDG to Permit2".to_string(),
            ),
            _ => (
                "permit2_simulation_failed",
                format!("settling would fail: {}", short(node_said)),
            ),
        };
        SettleError::Invalid(invalid(code, message))
    }
}

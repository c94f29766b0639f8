//! Who signed the permit (ECDSA, or ERC-1271 for a wallet with code), checked before anything
//! is read for that wallet; and `verify`, the reference checks in their order.

use super::{Checked, Facilitator, Permit, SettleError, invalid};
use crate::signature;
use journal_market_x402::{PaymentPayload, PaymentRequirements};

impl Facilitator {
    /// The reference checks: terms, signature (ECDSA or ERC-1271), unused nonce, balance and
    /// allowance, then a simulation of the settle call.
    pub async fn verify(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<(Permit, Checked), SettleError> {
        let permit = self.verify_signature(p, r, now).await?;
        let checked = self.verify_state(&permit).await?;
        Ok((permit, checked))
    }

    /// The terms and whether `from` signed the permit (ECDSA, or ERC-1271 when `from` has
    /// code, with a signature the wallet binds to itself: `signature::verify_payer`): what
    /// proves who pays, before anything is looked up for that wallet.
    pub async fn verify_signature(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<Permit, SettleError> {
        let permit = self.check(p, r, now).map_err(SettleError::Invalid)?;
        let hash = permit.permit.signing_hash(self.chain_id, self.permit2);
        match signature::verify_payer(
            &self.reader,
            permit.from,
            hash,
            &permit.signature,
            signature::SIGNATURE_GAS,
        )
        .await
        {
            Ok(()) => Ok(permit),
            Err(journal_market_x402::signature::SignatureError::Chain(e)) => {
                Err(SettleError::Chain(e))
            }
            Err(e) => Err(SettleError::Invalid(invalid(
                "invalid_permit2_signature",
                format!("the permit's signature is not the payer's: {e}"),
            ))),
        }
    }
}

//! The x402 Permit2 proxy's call arguments made from a Permit2 witness transfer (whose
//! EIP-712 types are `journal_market_x402::permit2`'s).

use journal_market_x402::permit2::PermitWitnessTransferFrom;

use crate::bindings::IX402ExactPermit2Proxy;

/// The x402 Permit2 proxy's `settle` arguments for a signed transfer.
pub fn settle_args(
    p: &PermitWitnessTransferFrom,
) -> (
    IX402ExactPermit2Proxy::PermitTransferFrom,
    IX402ExactPermit2Proxy::Witness,
) {
    (
        IX402ExactPermit2Proxy::PermitTransferFrom {
            permitted: IX402ExactPermit2Proxy::TokenPermissions {
                token: p.permitted.token,
                amount: p.permitted.amount,
            },
            nonce: p.nonce,
            deadline: p.deadline,
        },
        IX402ExactPermit2Proxy::Witness {
            to: p.witness.to,
            validAfter: p.witness.validAfter,
        },
    )
}

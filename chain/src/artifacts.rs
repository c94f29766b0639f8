//! The one compiled contract the product runs, embedded at build time: EIP-6492's deployless
//! validator (`signature::verify_hash` executes its creation code in an `eth_call`). The dev
//! chain's contracts are the devnet crate's.

use alloy::primitives::Bytes;
use serde::Deserialize;

const UNIVERSAL_SIG_VALIDATOR: &str =
    include_str!("../../contracts/artifacts/UniversalSigValidator.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Artifact {
    bytecode: String,
}

/// The validator's creation code (its constructor arguments go after it).
pub fn universal_sig_validator() -> anyhow::Result<Bytes> {
    let a: Artifact = serde_json::from_str(UNIVERSAL_SIG_VALIDATOR)?;
    Ok(a.bytecode.parse::<Bytes>()?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_validator_parses() {
        assert!(!super::universal_sig_validator().unwrap().is_empty());
    }
}

//! The compiled contracts of `contracts/artifacts/` the dev chain deploys, embedded at build
//! time.

use alloy::primitives::Bytes;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Artifact {
    bytecode: String,
    deployed_bytecode: String,
}

macro_rules! artifact {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../contracts/artifacts/", $name, ".json")),
        )
    };
}

const ALL: &[(&str, &str)] = &[
    artifact!("USDG"),
    artifact!("Permit2"),
    artifact!("X402ExactPermit2Proxy"),
    artifact!("IdentityRegistry"),
    artifact!("ReputationRegistry"),
    artifact!("StockToken"),
    artifact!("PriceFeed"),
    artifact!("WETH"),
    artifact!("CommunityToken"),
    artifact!("Pool"),
    artifact!("FeeLocker"),
    artifact!("SmartWallet"),
    artifact!("SmartWalletFactory"),
    artifact!("BareHashWallet"),
];

fn find(name: &str) -> anyhow::Result<Artifact> {
    let (_, json) = ALL
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| anyhow::anyhow!("no artifact named {name}"))?;
    Ok(serde_json::from_str(json)?)
}

fn hex_bytes(s: &str) -> anyhow::Result<Bytes> {
    Ok(s.parse::<Bytes>()?)
}

/// Creation code (constructor arguments go after it).
pub fn bytecode(name: &str) -> anyhow::Result<Bytes> {
    hex_bytes(&find(name)?.bytecode)
}

/// Runtime code, for `anvil_setCode` at canonical addresses.
pub fn deployed_bytecode(name: &str) -> anyhow::Result<Bytes> {
    hex_bytes(&find(name)?.deployed_bytecode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_artifact_parses() {
        for (name, _) in ALL {
            assert!(!bytecode(name).unwrap().is_empty(), "{name}");
        }
        assert!(!deployed_bytecode("Permit2").unwrap().is_empty());
    }
}

//! Publishing from a wallet key: a draft file (front matter and a body), and taking an
//! approved journal live by sending `register(metaUrl)` to the identity registry, then
//! reporting the transaction to `POST /journal/minted`.

use alloy::network::Ethereum;
use alloy::primitives::{Address, B256};
use alloy::providers::PendingTransactionBuilder;
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::bindings::IIdentityRegistry;
use journal_market_chain::devnet_file::wallet_provider;

use crate::api::{ConfigInfo, DraftInput, Published};
use crate::client::{Client, ClientError};

fn invalid(e: impl std::fmt::Display) -> ClientError {
    ClientError::Invalid(e.to_string())
}

/// The address of the ERC-8004 registry `name` that the service's `/config` names (`pick`).
async fn registry_address(
    client: &Client,
    name: &str,
    pick: impl FnOnce(&ConfigInfo) -> &String,
) -> Result<Address, ClientError> {
    pick(&client.config().await?)
        .parse()
        .map_err(|_| invalid(format!("the service's {name} registry is not an address")))
}

/// The hash of a sent transaction once it is mined, or why `call` was not sent, not mined or
/// reverted.
async fn mined(
    call: &str,
    sent: Result<PendingTransactionBuilder<Ethereum>, alloy::contract::Error>,
) -> Result<B256, ClientError> {
    let receipt = sent
        .map_err(|e| invalid(format!("{call} could not be sent: {e}")))?
        .get_receipt()
        .await
        .map_err(|e| invalid(format!("{call} was not mined: {e}")))?;
    if !receipt.status() {
        return Err(invalid(format!("{call} reverted")));
    }
    Ok(receipt.transaction_hash)
}

/// Sends `register(meta_url)` with `signer` and waits for it to be mined.
pub async fn register(
    rpc_url: &str,
    registry: Address,
    signer: &PrivateKeySigner,
    meta_url: &str,
) -> Result<B256, ClientError> {
    let provider = wallet_provider(rpc_url, signer.clone()).map_err(invalid)?;
    let sent = IIdentityRegistry::new(registry, &provider)
        .register_0(meta_url.to_string())
        .send()
        .await;
    mined("register", sent).await
}

/// Registers an approved journal of the signed-in wallet and takes it live.
pub async fn publish(
    client: &Client,
    rpc_url: &str,
    signer: &PrivateKeySigner,
    id: i64,
) -> Result<Published, ClientError> {
    let draft = client.draft(id).await?;
    let meta_url = match (draft.status.as_str(), draft.meta_url) {
        ("approved", Some(url)) => url,
        (status, _) => {
            return Err(invalid(format!(
                "journal {id} is {status}: only an approved journal can be published"
            )));
        }
    };
    let registry = registry_address(client, "identity", |c| &c.identity_registry).await?;
    let tx = register(rpc_url, registry, signer, &meta_url).await?;
    client.minted(id, &format!("{tx:#x}")).await
}

/// Reads a draft file: a front matter block between `---` lines with `ticker`, `title`, `dek`,
/// `price` (USDG) and `author` (the author name), an optional `id`, then the body.
pub fn parse_draft_file(text: &str) -> Result<DraftInput, ClientError> {
    let text = text.trim_start_matches('\u{feff}');
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| invalid("the file must start with a `---` front matter block"))?;
    let end = rest
        .find("\n---")
        .ok_or_else(|| invalid("the front matter block is not closed by a `---` line"))?;
    let (front, body) = (&rest[..end], &rest[end + 4..]);
    let body = body.trim_start_matches(['\r', '\n']).to_string();
    let mut get = std::collections::HashMap::new();
    for line in front.lines().filter(|l| !l.trim().is_empty()) {
        let (k, v) = line
            .split_once(':')
            .ok_or_else(|| invalid(format!("front matter line {line:?} is not `key: value`")))?;
        let v = v.trim().trim_matches('"').to_string();
        get.insert(k.trim().to_ascii_lowercase(), v);
    }
    let need = |k: &str| {
        get.get(k)
            .cloned()
            .ok_or_else(|| invalid(format!("the front matter needs `{k}:`")))
    };
    Ok(DraftInput {
        id: match get.get("id") {
            Some(v) => Some(v.parse().map_err(|_| invalid("id must be a number"))?),
            None => None,
        },
        ticker: need("ticker")?,
        title: need("title")?,
        dek: need("dek")?,
        body,
        price_usdg: need("price")?
            .parse()
            .map_err(|_| invalid("price must be a number of USDG, e.g. 0.80"))?,
        author_name: need("author")?,
    })
}

/// Votes on a journal from `signer`: `giveFeedback(tokenId, ±1, 0, tag, "", page, "", 0)` on
/// the reputation registry, then reports the transaction to `POST /votes/record`.
pub async fn vote(
    client: &Client,
    rpc_url: &str,
    signer: &PrivateKeySigner,
    slug: &str,
    up: bool,
    tag: &str,
) -> Result<crate::api::VoteRecorded, ClientError> {
    let j = client.journal(slug).await?;
    let token = j.token_id.ok_or_else(|| {
        invalid(format!(
            "{slug} has no onchain token: swarm journals take no votes"
        ))
    })?;
    let registry = registry_address(client, "reputation", |c| &c.reputation_registry).await?;
    let provider = wallet_provider(rpc_url, signer.clone()).map_err(invalid)?;
    let sent = journal_market_chain::bindings::IReputationRegistry::new(registry, &provider)
        .giveFeedback(
            alloy::primitives::U256::from(token),
            if up { 1 } else { -1 },
            0,
            tag.to_string(),
            String::new(),
            j.item.url.clone(),
            String::new(),
            B256::ZERO,
        )
        .send()
        .await;
    let tx = mined("giveFeedback", sent).await?;
    client.record_vote(&format!("{tx:#x}")).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_front_matter_and_body() {
        let d = parse_draft_file(
            "---\nticker: NVDA\ntitle: \"A title: with colon\"\ndek: The dek\nprice: 0.80\nauthor: A. Writer\n---\n\n## One\ntext\n",
        )
        .unwrap();
        assert_eq!(d.ticker, "NVDA");
        assert_eq!(d.title, "A title: with colon");
        assert_eq!(d.price_usdg, 0.8);
        assert_eq!(d.body, "## One\ntext\n");
        assert_eq!(d.id, None);
        assert!(parse_draft_file("no front matter").is_err());
        assert!(parse_draft_file("---\nticker: X\n---\nbody").is_err());
    }
}

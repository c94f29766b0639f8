//! An x402 v2 payer for `exact` offers with Permit2: answers a 402 by signing the
//! PermitWitnessTransferFrom the offer describes, and buys journals step by step.

use alloy::primitives::{Address, B256, U256};
use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use journal_market_chain::erc7739;
use journal_market_x402::canonical;
use journal_market_x402::extensions::{gas_sponsoring, payment_identifier};
use journal_market_x402::permit2::{PermitWitnessTransferFrom, TokenPermissions, Witness};
use journal_market_x402::{
    self as x402, PaymentPayload, PaymentRequired, PaymentRequirements, Permit2Authorization,
    Permit2Payload, Permitted, WitnessJson,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::api::PaymentAnswer;
use crate::receipt::SavedAnswer;
use crate::{Client, ClientError};

/// Seconds a signed permit stays valid (the offer allows 300).
pub const DEADLINE_SECS: u64 = 280;

fn invalid(s: impl Into<String>) -> ClientError {
    ClientError::Invalid(s.into())
}

fn random_nonce() -> Result<U256, ClientError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|_| invalid("the random source failed"))?;
    Ok(U256::from_be_bytes(b))
}

/// Signs an offer: the payload to send back in PAYMENT-SIGNATURE.
pub fn sign_payment(
    offer: &PaymentRequirements,
    resource: Option<x402::Resource>,
    signer: &PrivateKeySigner,
    now: u64,
) -> Result<PaymentPayload, ClientError> {
    sign_payment_from(offer, resource, signer.address(), now, |hash| {
        signer.sign_hash_sync(&hash)
    })
}

/// Signs an offer for the devnet's `SmartWallet` at `wallet`, owned by `owner`: the payment
/// comes from the wallet, and the owner signs the permit's hash nested in the wallet's own
/// domain (ERC-7739 PersonalSign), which that wallet alone accepts.
pub fn sign_payment_as_wallet(
    offer: &PaymentRequirements,
    resource: Option<x402::Resource>,
    owner: &PrivateKeySigner,
    wallet: Address,
    now: u64,
) -> Result<PaymentPayload, ClientError> {
    let chain_id = chain_of(offer)?;
    sign_payment_from(offer, resource, wallet, now, |hash| {
        let domain = erc7739::smart_wallet_domain(wallet, chain_id);
        owner.sign_hash_sync(&erc7739::personal_sign_hash(domain, hash))
    })
}

fn chain_of(offer: &PaymentRequirements) -> Result<u64, ClientError> {
    offer
        .network
        .strip_prefix("eip155:")
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| invalid(format!("unsupported network {}", offer.network)))
}

fn sign_payment_from(
    offer: &PaymentRequirements,
    resource: Option<x402::Resource>,
    from: Address,
    now: u64,
    sign: impl Fn(B256) -> alloy::signers::Result<alloy::signers::Signature>,
) -> Result<PaymentPayload, ClientError> {
    let chain_id = chain_of(offer)?;
    let parse = |what: &str, s: &str| {
        s.parse::<Address>()
            .map_err(|_| invalid(format!("the offer's {what} is not an address")))
    };
    let token = parse("asset", &offer.asset)?;
    let to = parse("payTo", &offer.pay_to)?;
    let spender = parse("spender", &offer.extra.spender)?;
    let amount = U256::from_str_radix(&offer.amount, 10)
        .map_err(|_| invalid("the offer's amount is not a number"))?;
    let nonce = random_nonce()?;
    let deadline = now + DEADLINE_SECS;
    let permit = PermitWitnessTransferFrom {
        permitted: TokenPermissions { token, amount },
        spender,
        nonce,
        deadline: U256::from(deadline),
        witness: Witness {
            to,
            validAfter: U256::ZERO,
        },
    };
    // Clients sign for the canonical Permit2, as every x402 client does.
    let hash = permit.signing_hash(chain_id, canonical::PERMIT2);
    let sig = sign(hash).map_err(|e| invalid(format!("cannot sign: {e}")))?;
    Ok(PaymentPayload {
        x402_version: x402::VERSION,
        resource,
        accepted: offer.clone(),
        payload: Permit2Payload {
            signature: format!("0x{}", alloy::hex::encode(sig.as_bytes())),
            permit2_authorization: Permit2Authorization {
                from: from.to_checksum(None),
                permitted: Permitted {
                    token: offer.asset.clone(),
                    amount: offer.amount.clone(),
                },
                spender: offer.extra.spender.clone(),
                nonce: nonce.to_string(),
                deadline: deadline.to_string(),
                witness: WitnessJson {
                    to: offer.pay_to.clone(),
                    valid_after: "0".into(),
                },
            },
        },
        extensions: None,
    })
}

/// The fees and nonce of a signed approval, as the reference clients choose them.
#[derive(Debug, Clone, Copy)]
pub struct ApprovalTx {
    pub chain_id: u64,
    /// The wallet's next nonce (`eth_getTransactionCount(wallet, "pending")`).
    pub nonce: u64,
    /// 70000 in the reference clients.
    pub gas: u64,
    /// Twice the base fee plus the tip, in the reference clients.
    pub max_fee_per_gas: u128,
    pub max_priority_fee_per_gas: u128,
}

/// The `erc20ApprovalGasSponsoring` info for a wallet without gas: `approve(Permit2, max)` on
/// `token`, signed and not sent (the facilitator funds its gas and broadcasts it).
pub fn sign_approval(
    signer: &PrivateKeySigner,
    token: Address,
    tx: ApprovalTx,
) -> Result<Value, ClientError> {
    use alloy::consensus::{SignableTransaction, TxEip1559, TxEnvelope};
    use alloy::eips::eip2718::Encodable2718;
    use alloy::network::TxSignerSync;
    let mut input = gas_sponsoring::APPROVE_SELECTOR.to_vec();
    input.extend_from_slice(canonical::PERMIT2.into_word().as_slice());
    input.extend_from_slice(&U256::MAX.to_be_bytes::<32>());
    let mut t = TxEip1559 {
        chain_id: tx.chain_id,
        nonce: tx.nonce,
        gas_limit: tx.gas,
        max_fee_per_gas: tx.max_fee_per_gas,
        max_priority_fee_per_gas: tx.max_priority_fee_per_gas,
        to: alloy::primitives::TxKind::Call(token),
        value: U256::ZERO,
        access_list: Default::default(),
        input: input.into(),
    };
    let sig = signer
        .sign_transaction_sync(&mut t)
        .map_err(|e| invalid(format!("cannot sign the approval: {e}")))?;
    let raw = TxEnvelope::from(t.into_signed(sig)).encoded_2718();
    Ok(json!({
        "from": signer.address().to_checksum(None),
        "asset": token.to_checksum(None),
        "spender": canonical::PERMIT2.to_checksum(None),
        "amount": U256::MAX.to_string(),
        "signedTransaction": alloy::hex::encode_prefixed(raw),
        "version": "1",
    }))
}

/// Puts a signed approval (`sign_approval`) into a payload's extensions.
pub fn with_approval(mut p: PaymentPayload, info: Value) -> PaymentPayload {
    let mut ext = match p.extensions.take() {
        Some(Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    ext.insert(gas_sponsoring::KEY.into(), json!({ "info": info }));
    p.extensions = Some(Value::Object(ext));
    p
}

/// A new x402 `payment-identifier`: `pay_` and 32 random hex digits.
pub fn new_payment_id() -> Result<String, ClientError> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|_| invalid("the random source failed"))?;
    Ok(format!("pay_{}", alloy::hex::encode(b)))
}

/// Puts `id` into a payload as its `payment-identifier`: a retry of the very same payload with
/// it gets the first answer again, and is never charged twice.
pub fn with_payment_id(mut p: PaymentPayload, id: &str) -> PaymentPayload {
    let mut ext = match p.extensions.take() {
        Some(Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    ext.insert(
        payment_identifier::KEY.into(),
        json!({ "info": { "required": false, "id": id } }),
    );
    p.extensions = Some(Value::Object(ext));
    p
}

/// Sends of one payment before giving up on "still settling" or a lost connection.
const RETRIES: u32 = 8;

/// The pause a `Retry-After` header asks for, between 1 and 10 seconds.
fn retry_after(h: &reqwest::header::HeaderValue) -> std::time::Duration {
    let secs = h
        .to_str()
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(2);
    std::time::Duration::from_secs(secs.clamp(1, 10))
}

/// What a bought journal gives: the text and the settlement transactions.
#[derive(Debug, Clone)]
pub struct Purchase {
    pub txs: Vec<String>,
    pub body: String,
    pub html: String,
    /// The answer that delivered the text, as received, for `receipt::verify`.
    pub saved: Option<SavedAnswer>,
}

/// A payment answer, decoded, and kept as received when it carries a PAYMENT-RESPONSE.
async fn decode_saving(
    resp: reqwest::Response,
) -> Result<(PaymentAnswer, Option<SavedAnswer>), ClientError> {
    let header = resp
        .headers()
        .get(x402::HEADER_RESPONSE)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string);
    if !resp.status().is_success() {
        return Err(crate::client::decode::<PaymentAnswer>(resp)
            .await
            .err()
            .unwrap_or_else(|| invalid("an error status with a payment answer")));
    }
    let bytes = resp.bytes().await?;
    let answer = serde_json::from_slice(&bytes)
        .map_err(|e| invalid(format!("unexpected answer from the server: {e}")))?;
    let saved = header.map(|payment_response| SavedAnswer {
        payment_response,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    });
    Ok((answer, saved))
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Client {
    /// POSTs `{ journalId }` to a payment endpoint, with an optional payment header.
    pub async fn pay_request(
        &self,
        path: &str,
        journal_id: i64,
        payment: Option<&PaymentPayload>,
    ) -> Result<reqwest::Response, ClientError> {
        let mut rb = self
            .request(Method::POST, path)
            .json(&json!({ "journalId": journal_id }));
        if let Some(p) = payment {
            let h = x402::encode_header(p).map_err(|e| invalid(e.to_string()))?;
            rb = rb.header(x402::HEADER_SIGNATURE, h);
        }
        let resp = rb.send().await?;
        self.take_cookie(&resp);
        Ok(resp)
    }

    /// One x402 exchange: ask, check the offer (USDG, at most `max_units`), sign, send.
    pub async fn pay_step(
        &self,
        path: &str,
        journal_id: i64,
        signer: &PrivateKeySigner,
        usdg: Address,
        max_units: U256,
    ) -> Result<PaymentAnswer, ClientError> {
        self.pay_step_saved(path, journal_id, signer, usdg, max_units)
            .await
            .map(|(answer, _)| answer)
    }

    /// [`Client::pay_step`], with its answer kept as received when it settled a payment.
    async fn pay_step_saved(
        &self,
        path: &str,
        journal_id: i64,
        signer: &PrivateKeySigner,
        usdg: Address,
        max_units: U256,
    ) -> Result<(PaymentAnswer, Option<SavedAnswer>), ClientError> {
        let resp = self.pay_request(path, journal_id, None).await?;
        if resp.status() != StatusCode::PAYMENT_REQUIRED {
            return decode_saving(resp).await;
        }
        let header = resp
            .headers()
            .get(x402::HEADER_REQUIRED)
            .and_then(|h| h.to_str().ok())
            .ok_or_else(|| invalid("a 402 without a PAYMENT-REQUIRED header"))?
            .to_string();
        let required: PaymentRequired = x402::decode_header(&header).map_err(invalid)?;
        let offer = required
            .accepts
            .iter()
            .find(|a| a.scheme == x402::SCHEME && a.extra.asset_transfer_method == "permit2")
            .ok_or_else(|| invalid("no exact/permit2 offer in the challenge"))?;
        if offer.asset.parse::<Address>().ok() != Some(usdg) {
            return Err(invalid(format!(
                "the offer asks for {}, not USDG",
                offer.asset
            )));
        }
        let amount = U256::from_str_radix(&offer.amount, 10)
            .map_err(|_| invalid("the offer's amount is not a number"))?;
        if amount > max_units {
            return Err(invalid(format!(
                "the offer asks {amount} base units, more than the price {max_units}"
            )));
        }
        let payment = sign_payment(offer, Some(required.resource.clone()), signer, now())?;
        let declared = required
            .extensions
            .as_ref()
            .is_some_and(|e| e.get(payment_identifier::KEY).is_some());
        if !declared {
            let resp = self.pay_request(path, journal_id, Some(&payment)).await?;
            return decode_saving(resp).await;
        }
        // With a payment-identifier, a lost answer or "still settling" is retried with the
        // very same payload: the service answers it as the first time, and never charges twice.
        let payment = with_payment_id(payment, &new_payment_id()?);
        let mut tries = 0;
        loop {
            tries += 1;
            let retry_in = match self.pay_request(path, journal_id, Some(&payment)).await {
                Ok(resp) if resp.status() == StatusCode::CONFLICT => {
                    match resp.headers().get(reqwest::header::RETRY_AFTER) {
                        Some(h) if tries < RETRIES => retry_after(h),
                        _ => return decode_saving(resp).await,
                    }
                }
                Ok(resp) => return decode_saving(resp).await,
                Err(ClientError::Http(_)) if tries < RETRIES => std::time::Duration::from_secs(1),
                Err(e) => return Err(e),
            };
            tokio::time::sleep(retry_in).await;
        }
    }

    /// Buys a journal: one payment for the swarm's, two for a person's.
    pub async fn buy(&self, key: &str, signer: &PrivateKeySigner) -> Result<Purchase, ClientError> {
        let j = self.journal(key).await?;
        let config = self.config().await?;
        let usdg: Address = config
            .usdg
            .parse()
            .map_err(|_| invalid("the service's USDG address is not valid"))?;
        let price = U256::from_str_radix(&j.item.price_units, 10)
            .map_err(|_| invalid("priceUnits is not a number"))?;
        let mut steps = vec!["pay/burn"];
        if !j.item.author.swarm {
            steps.push("pay/author");
        }
        let mut txs = Vec::new();
        let (mut last, mut saved) = (PaymentAnswer::already(), None);
        for path in steps {
            (last, saved) = self
                .pay_step_saved(path, j.item.journal_id, signer, usdg, price)
                .await?;
            if let Some(tx) = last.tx() {
                txs.push(tx.to_string());
            }
        }
        Ok(Purchase {
            txs,
            body: last.body().unwrap_or_default().to_string(),
            html: last.html().unwrap_or_default().to_string(),
            saved,
        })
    }
}

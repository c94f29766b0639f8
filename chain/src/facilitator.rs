//! The built-in x402 v2 facilitator for `exact` + Permit2 on one chain: the reference checks
//! before any money moves, submission of the proxy's `settle` by a relayer key, and
//! confirmation from the receipt's USDG `Transfer` (never from anyone's word).

use std::time::Duration;

use alloy::consensus::Transaction as _;
use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::{Filter, TransactionReceipt};
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall, SolEvent};

use crate::bindings::{IERC20, IPermit2, IX402ExactPermit2Proxy};
use crate::permit2::{PermitWitnessTransferFrom, TokenPermissions, Witness, nonce_position};
use crate::signature;
use crate::x402::{PaymentPayload, PaymentRequirements, SCHEME, SettleResponse, VERSION};

/// A payment that must not be settled, with the reference error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub code: &'static str,
    pub message: String,
}

fn invalid(code: &'static str, message: impl Into<String>) -> Invalid {
    Invalid {
        code,
        message: message.into(),
    }
}

/// A permit read out of a payload, numbers parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Permit {
    pub from: Address,
    pub permit: PermitWitnessTransferFrom,
    pub signature: Bytes,
}

fn addr(field: &str, s: &str) -> Result<Address, Invalid> {
    s.parse()
        .map_err(|_| invalid("invalid_payload", format!("{field} is not an address")))
}

fn uint(field: &str, s: &str) -> Result<U256, Invalid> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(
            "invalid_payload",
            format!("{field} must be a decimal string"),
        ));
    }
    U256::from_str_radix(s, 10)
        .map_err(|_| invalid("invalid_payload", format!("{field} is too large")))
}

/// Everything that can be checked without the chain, in the reference order.
pub fn check_terms(
    p: &PaymentPayload,
    r: &PaymentRequirements,
    chain_id: u64,
    usdg: Address,
    proxy: Address,
    now: u64,
) -> Result<Permit, Invalid> {
    if p.x402_version != VERSION {
        return Err(invalid(
            "invalid_x402_version",
            format!("x402Version must be {VERSION}"),
        ));
    }
    let network = format!("eip155:{chain_id}");
    if p.accepted.scheme != SCHEME || r.scheme != SCHEME {
        return Err(invalid("unsupported_scheme", "the scheme must be exact"));
    }
    if p.accepted.network != network || r.network != network {
        return Err(invalid(
            "invalid_network",
            format!("the network must be {network}"),
        ));
    }
    let a = &p.payload.permit2_authorization;
    let from = addr("permit2Authorization.from", &a.from)?;
    let spender = addr("permit2Authorization.spender", &a.spender)?;
    let token = addr("permit2Authorization.permitted.token", &a.permitted.token)?;
    let to = addr("permit2Authorization.witness.to", &a.witness.to)?;
    let amount = uint("permit2Authorization.permitted.amount", &a.permitted.amount)?;
    let nonce = uint("permit2Authorization.nonce", &a.nonce)?;
    let deadline = uint("permit2Authorization.deadline", &a.deadline)?;
    let valid_after = uint(
        "permit2Authorization.witness.validAfter",
        &a.witness.valid_after,
    )?;
    let pay_to = addr("payTo", &r.pay_to)?;
    let asset = addr("asset", &r.asset)?;
    let required = uint("amount", &r.amount)?;

    if spender != proxy {
        return Err(invalid(
            "invalid_permit2_spender",
            "the spender must be the x402 Permit2 proxy",
        ));
    }
    if to != pay_to {
        return Err(invalid(
            "invalid_permit2_recipient_mismatch",
            "the witness pays another recipient",
        ));
    }
    if deadline < U256::from(now + 6) {
        return Err(invalid(
            "permit2_deadline_expired",
            "the permit's deadline has passed",
        ));
    }
    if deadline > U256::from(now + r.max_timeout_seconds + 30) {
        return Err(invalid(
            "permit2_deadline_too_far",
            format!(
                "the deadline is more than {} seconds away",
                r.max_timeout_seconds
            ),
        ));
    }
    if valid_after > U256::from(now) {
        return Err(invalid(
            "permit2_not_yet_valid",
            "the permit is not valid yet",
        ));
    }
    if amount != required {
        return Err(invalid(
            "permit2_amount_mismatch",
            "the permitted amount differs from the price",
        ));
    }
    if token != asset || asset != usdg {
        return Err(invalid(
            "permit2_token_mismatch",
            "the permitted token is not USDG",
        ));
    }
    let signature = signature::parse_hex(&p.payload.signature)
        .map_err(|_| invalid("invalid_permit2_signature", "the signature is not hex"))?;
    Ok(Permit {
        from,
        permit: PermitWitnessTransferFrom {
            permitted: TokenPermissions { token, amount },
            spender,
            nonce,
            deadline,
            witness: Witness {
                to,
                validAfter: valid_after,
            },
        },
        signature,
    })
}

/// Blocks per `eth_getLogs` when searching: providers cap ranges, and a payment's window (from
/// shortly before its row to its deadline) is minutes long, so one or two calls cover it.
const LOG_RANGE: u64 = 5_000;

pub struct Facilitator {
    chain_id: u64,
    usdg: Address,
    permit2: Address,
    proxy: Address,
    reader: DynProvider,
    relayer: Option<DynProvider>,
    relayer_address: Option<Address>,
    receipt_timeout: Duration,
}

/// Why settlement did not happen.
#[derive(Debug, thiserror::Error)]
pub enum SettleError {
    #[error("{0}")]
    Invalid(Invalid),
    #[error("the settlement transaction failed: {0}")]
    Failed(String),
    #[error("the chain could not be reached: {0}")]
    Chain(String),
}

fn short(s: &str) -> String {
    s.split(" for url")
        .next()
        .unwrap_or(s)
        .chars()
        .take(200)
        .collect()
}

impl Facilitator {
    /// `relayer` signs the settle transactions; without it the facilitator only verifies.
    pub fn new(
        rpc_url: &str,
        chain_id: u64,
        usdg: Address,
        permit2: Address,
        proxy: Address,
        relayer: Option<PrivateKeySigner>,
    ) -> anyhow::Result<Self> {
        let url: alloy::transports::http::reqwest::Url = rpc_url.parse()?;
        let reader = ProviderBuilder::new().connect_http(url.clone()).erased();
        let relayer_address = relayer.as_ref().map(|s| s.address());
        let relayer = relayer.map(|s| {
            // Cached nonces: concurrent settlements from one key never reuse a nonce.
            ProviderBuilder::new()
                .with_cached_nonce_management()
                .wallet(EthereumWallet::from(s))
                .connect_http(url.clone())
                .erased()
        });
        Ok(Facilitator {
            chain_id,
            usdg,
            permit2,
            proxy,
            reader,
            relayer,
            relayer_address,
            receipt_timeout: Duration::from_secs(60),
        })
    }

    pub fn network(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    /// A read-only provider for the chain.
    pub fn reader(&self) -> &DynProvider {
        &self.reader
    }

    pub fn relayer_address(&self) -> Option<Address> {
        self.relayer_address
    }

    /// The checks that need no chain, with this facilitator's chain, token and proxy.
    pub fn check(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<Permit, Invalid> {
        check_terms(p, r, self.chain_id, self.usdg, self.proxy, now)
    }

    /// The reference checks: terms, signature (ECDSA or ERC-1271), unused nonce, balance and
    /// allowance, then a simulation of the settle call.
    pub async fn verify(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<Permit, SettleError> {
        let permit = check_terms(p, r, self.chain_id, self.usdg, self.proxy, now)
            .map_err(SettleError::Invalid)?;
        let hash = permit.permit.signing_hash(self.chain_id, self.permit2);
        match signature::verify_hash(&self.reader, permit.from, hash, &permit.signature).await {
            Ok(()) => {}
            Err(signature::SignatureError::Chain(e)) => return Err(SettleError::Chain(e)),
            Err(e) => {
                return Err(SettleError::Invalid(invalid(
                    "invalid_permit2_signature",
                    format!("the permit's signature is not the payer's: {e}"),
                )));
            }
        }
        let chain = |e: alloy::contract::Error| SettleError::Chain(short(&e.to_string()));
        let (word, bit) = nonce_position(permit.permit.nonce);
        let bitmap = IPermit2::new(self.permit2, &self.reader)
            .nonceBitmap(permit.from, word)
            .call()
            .await
            .map_err(chain)?;
        if bitmap.bit(bit) {
            return Err(SettleError::Invalid(invalid(
                "permit2_invalid_nonce",
                "the permit's nonce was already used",
            )));
        }
        let usdg = IERC20::new(self.usdg, &self.reader);
        let amount = permit.permit.permitted.amount;
        if usdg.balanceOf(permit.from).call().await.map_err(chain)? < amount {
            return Err(SettleError::Invalid(invalid(
                "permit2_insufficient_balance",
                "the payer's USDG balance is too low",
            )));
        }
        if usdg
            .allowance(permit.from, self.permit2)
            .call()
            .await
            .map_err(chain)?
            < amount
        {
            return Err(SettleError::Invalid(invalid(
                "permit2_allowance_required",
                "the payer has not approved USDG to Permit2",
            )));
        }
        let (pt, witness) = permit.permit.settle_args();
        let sim = IX402ExactPermit2Proxy::new(self.proxy, &self.reader)
            .settle(pt, permit.from, witness, permit.signature.clone())
            .from(self.relayer_address.unwrap_or(self.proxy))
            .call()
            .await;
        if let Err(e) = sim {
            return Err(SettleError::Invalid(invalid(
                "permit2_simulation_failed",
                format!("settling would fail: {}", short(&e.to_string())),
            )));
        }
        Ok(permit)
    }

    /// Sends the proxy's `settle` (after `verify`); returns the transaction hash at once.
    pub async fn submit(&self, permit: &Permit) -> Result<B256, SettleError> {
        let relayer = self
            .relayer
            .as_ref()
            .ok_or_else(|| SettleError::Failed("no relayer key is configured".into()))?;
        let (pt, witness) = permit.permit.settle_args();
        let pending = IX402ExactPermit2Proxy::new(self.proxy, relayer)
            .settle(pt, permit.from, witness, permit.signature.clone())
            .send()
            .await
            .map_err(|e| SettleError::Failed(short(&e.to_string())))?;
        Ok(*pending.tx_hash())
    }

    /// Waits for the receipt of `tx`.
    pub async fn receipt(&self, tx: B256) -> Result<Option<TransactionReceipt>, SettleError> {
        let deadline = tokio::time::Instant::now() + self.receipt_timeout;
        loop {
            match self.reader.get_transaction_receipt(tx).await {
                Ok(Some(r)) => return Ok(Some(r)),
                Ok(None) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Ok(None) => return Ok(None),
                Err(e) => return Err(SettleError::Chain(short(&e.to_string()))),
            }
        }
    }

    /// Whether the receipt holds a USDG `Transfer` of exactly `amount` from `from` to `to`.
    pub fn transfer_in(
        &self,
        r: &TransactionReceipt,
        from: Address,
        to: Address,
        amount: U256,
    ) -> bool {
        r.status()
            && r.inner.logs().iter().any(|l| {
                l.address() == self.usdg
                    && IERC20::Transfer::decode_log(&l.inner)
                        .is_ok_and(|t| t.from == from && t.to == to && t.value == amount)
            })
    }

    /// The settle transaction that spent `owner`'s Permit2 `nonce` paying `amount` USDG to `to`,
    /// mined between `since` and `until` (unix seconds; Permit2 refuses a permit after its
    /// deadline, so `until` is the deadline): for a payment whose transaction hash was lost (a
    /// crash between sending and recording it). Permit2 logs no nonce, so candidates are the
    /// USDG `Transfer`s from `owner` to `to` of `amount`, and the one whose calldata is the
    /// proxy's `settle` with that owner and nonce is the answer: an identical transfer for
    /// another purchase (same price, same recipient) never matches.
    pub async fn find_settlement(
        &self,
        owner: Address,
        to: Address,
        amount: U256,
        nonce: U256,
        since: u64,
        until: u64,
    ) -> Result<Option<B256>, SettleError> {
        let chain =
            |e: alloy::transports::TransportError| SettleError::Chain(short(&e.to_string()));
        let head = self.reader.get_block_number().await.map_err(chain)?;
        let mut from = self.first_block_from(since, head).await?;
        let end = self.first_block_from(until.saturating_add(1), head).await?;
        while from < end {
            let to_block = (from + LOG_RANGE - 1).min(end - 1);
            let filter = Filter::new()
                .address(self.usdg)
                .event_signature(IERC20::Transfer::SIGNATURE_HASH)
                .topic1(owner.into_word())
                .topic2(to.into_word())
                .from_block(from)
                .to_block(to_block);
            for log in self.reader.get_logs(&filter).await.map_err(chain)? {
                let matches =
                    IERC20::Transfer::decode_log(&log.inner).is_ok_and(|t| t.value == amount);
                let Some(hash) = log.transaction_hash.filter(|_| matches) else {
                    continue;
                };
                let Some(tx) = self
                    .reader
                    .get_transaction_by_hash(hash)
                    .await
                    .map_err(chain)?
                else {
                    continue;
                };
                if tx.inner.to() == Some(self.proxy)
                    && IX402ExactPermit2Proxy::settleCall::abi_decode(tx.inner.input())
                        .is_ok_and(|c| c.owner == owner && c.permit.nonce == nonce)
                {
                    return Ok(Some(hash));
                }
            }
            from = to_block + 1;
        }
        Ok(None)
    }

    /// The first block whose timestamp is at or after `t` (unix seconds), by bisection;
    /// `head + 1` when every block is older.
    async fn first_block_from(&self, t: u64, head: u64) -> Result<u64, SettleError> {
        let (mut lo, mut hi) = (0u64, head + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let block = self
                .reader
                .get_block_by_number(mid.into())
                .await
                .map_err(|e| SettleError::Chain(short(&e.to_string())))?
                .ok_or_else(|| SettleError::Chain(format!("block {mid} is missing")))?;
            if block.header.timestamp < t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// Whether Permit2 has marked the nonce used.
    pub async fn nonce_used(&self, from: Address, nonce: U256) -> Result<bool, SettleError> {
        let (word, bit) = nonce_position(nonce);
        IPermit2::new(self.permit2, &self.reader)
            .nonceBitmap(from, word)
            .call()
            .await
            .map(|b| b.bit(bit))
            .map_err(|e| SettleError::Chain(short(&e.to_string())))
    }

    /// verify + submit + confirm: the facilitator's `/settle`.
    pub async fn settle(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> SettleResponse {
        let payer = p.payload.permit2_authorization.from.clone();
        let fail = |reason: &str, message: String| SettleResponse {
            success: false,
            transaction: String::new(),
            network: self.network(),
            payer: payer.clone(),
            error_reason: Some(reason.to_string()),
            error_message: Some(message),
        };
        let permit = match self.verify(p, r, now).await {
            Ok(permit) => permit,
            Err(SettleError::Invalid(i)) => return fail(i.code, i.message),
            Err(e) => return fail("unexpected_settle_error", e.to_string()),
        };
        let tx = match self.submit(&permit).await {
            Ok(tx) => tx,
            Err(e) => return fail("unexpected_settle_error", e.to_string()),
        };
        match self.receipt(tx).await {
            Ok(Some(r))
                if self.transfer_in(
                    &r,
                    permit.from,
                    permit.permit.witness.to,
                    permit.permit.permitted.amount,
                ) =>
            {
                SettleResponse {
                    success: true,
                    transaction: format!("{tx:#x}"),
                    network: self.network(),
                    payer,
                    error_reason: None,
                    error_message: None,
                }
            }
            Ok(_) => fail(
                "settle_transaction_failed",
                format!("transaction {tx:#x} moved no matching USDG"),
            ),
            Err(e) => fail("unexpected_settle_error", e.to_string()),
        }
    }
}

//! The built-in x402 v2 facilitator for `exact` + Permit2 on one chain: the reference checks
//! before any money moves, submission of the proxy's `settle` by a relayer key, and
//! confirmation from the receipt's USDG `Transfer` (never from anyone's word).

use std::time::Duration;

use alloy::consensus::Transaction as _;
use alloy::eips::eip1559::Eip1559Estimation;
use alloy::eips::eip2718::Encodable2718 as _;
use alloy::network::EthereumWallet;
use alloy::network::{NetworkTransactionBuilder as _, TransactionBuilder as _};
use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::{Filter, TransactionReceipt};
use alloy::signers::local::PrivateKeySigner;
use alloy::sol_types::{SolCall, SolEvent};

use crate::bindings::{IERC20, IPermit2, IX402ExactPermit2Proxy};
use crate::client::short;
use crate::extensions::gas_sponsoring;
use crate::permit2::{PermitWitnessTransferFrom, TokenPermissions, Witness, nonce_position};
use crate::signature;
use crate::x402::{PaymentPayload, PaymentRequirements, SCHEME, SettleResponse, VERSION};

/// `errorReason` of a `/settle` answer whose transaction was sent but had no receipt in time.
pub const RECEIPT_TIMEOUT: &str = "settle_receipt_timeout";
/// `errorReason` of a `/settle` answer that failed other than by a check.
pub const UNEXPECTED: &str = "unexpected_settle_error";

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
    if deadline < U256::from(now.saturating_add(6)) {
        return Err(invalid(
            "permit2_deadline_expired",
            "the permit's deadline has passed",
        ));
    }
    if deadline
        > U256::from(now)
            .saturating_add(U256::from(r.max_timeout_seconds))
            .saturating_add(U256::from(30))
    {
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

/// Called with the hash of a signed settle transaction before it is sent; an error stops the
/// send.
pub type Record<'a> =
    &'a (dyn Fn(B256) -> futures::future::BoxFuture<'a, Result<(), String>> + Send + Sync);

/// Blocks per `eth_getLogs` when searching: providers cap ranges, and a payment's window (from
/// shortly before its row to its deadline) is minutes long, so one or two calls cover it.
const LOG_RANGE: u64 = 5_000;

pub struct Facilitator {
    chain_id: u64,
    usdg: Address,
    permit2: Address,
    proxy: Address,
    reader: DynProvider,
    relayer: Option<std::sync::Arc<Relayer>>,
    /// The key that funds sponsored approvals' gas (the relayer's own, unless another is set).
    sponsor: Option<std::sync::Arc<Relayer>>,
    receipt_timeout: Duration,
    /// How long a send waits for the node's answer (with `eth_sendRawTransactionSync`, the
    /// receipt).
    send_wait: Duration,
    /// Set once the node has said it does not know `eth_sendRawTransactionSync`.
    no_sync_send: std::sync::atomic::AtomicBool,
    /// The last fee estimate and when it was made: one `eth_feeHistory` per [`FEE_TTL`], not
    /// one per settle.
    fees: std::sync::Mutex<Option<(std::time::Instant, Eip1559Estimation)>>,
}

/// How long a fee estimate is used. Fees are capped at twice the base fee plus the tip, so an
/// estimate a second old still pays a block's fee; a refused send drops it.
const FEE_TTL: Duration = Duration::from_secs(1);

/// What verifying a permit learned that sending it can use.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// The settle call's gas estimate (the estimate is the simulation).
    pub gas: Option<u64>,
}

/// A settle transaction handed to the node.
#[derive(Debug, Clone)]
pub struct Sent {
    pub tx: B256,
    /// The node's receipt of this very transaction, when it answered the send with it
    /// (`eth_sendRawTransactionSync`). The transaction is the `settle` of the permit it was
    /// signed for, so its receipt alone says whether the permit paid.
    pub receipt: Option<TransactionReceipt>,
}

/// A key that sends transactions (settles, or gas funding), and its nonces.
struct Relayer {
    address: Address,
    wallet: EthereumWallet,
    nonces: tokio::sync::Mutex<NonceBook>,
}

impl Relayer {
    fn new(key: PrivateKeySigner) -> Relayer {
        Relayer {
            address: key.address(),
            wallet: EthereumWallet::from(key),
            nonces: tokio::sync::Mutex::new(NonceBook::default()),
        }
    }
}

/// The relayer's nonces. Only taking a nonce is serialised; sends go out concurrently. A
/// nonce whose transaction was never sent (the record failed, the node refused it, or the
/// connection broke) goes back to `free` and is used before any new one, so a failed send
/// leaves no gap that would hold up the transactions after it. A nonce the node says is taken
/// already is dropped; "nonce too low" means the book is behind the chain: it is read again.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NonceBook {
    next: Option<u64>,
    free: std::collections::BTreeSet<u64>,
}

/// What the node said about a send that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendFailure {
    /// The nonce is taken (by an earlier send of ours that did arrive).
    NonceTaken,
    /// The book is behind the chain.
    NonceTooLow,
    /// Refused for another reason, or no answer: the nonce may be used again.
    NotSent,
}

impl SendFailure {
    pub fn of(message: &str) -> SendFailure {
        let m = message.to_ascii_lowercase();
        if m.contains("nonce too low") {
            SendFailure::NonceTooLow
        } else if m.contains("already known") || m.contains("replacement transaction underpriced") {
            SendFailure::NonceTaken
        } else {
            SendFailure::NotSent
        }
    }
}

/// A send the node did not take, as far as we know.
#[derive(Debug, thiserror::Error)]
enum SendError {
    /// The node refused it, in these words.
    #[error("{0}")]
    Node(String),
    #[error("{0}")]
    NoAnswer(String),
}

/// What an error answer to `eth_sendRawTransactionSync` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncRefusal {
    /// The node does not have the method: send with `eth_sendRawTransaction`.
    Unsupported,
    /// Taken, but not mined before the node's own timeout (EIP-7966: code 4).
    NotYetMined,
    /// The transaction itself was refused.
    Refused,
}

pub fn sync_refusal(code: i64, message: &str) -> SyncRefusal {
    let m = message.to_ascii_lowercase();
    if code == -32601
        || (m.contains("method")
            && [
                "not found",
                "not supported",
                "does not exist",
                "not available",
                "unsupported",
                "not allowed",
            ]
            .iter()
            .any(|s| m.contains(s)))
    {
        SyncRefusal::Unsupported
    } else if code == 4 || m.contains("timeout") || m.contains("timed out") {
        SyncRefusal::NotYetMined
    } else {
        SyncRefusal::Refused
    }
}

impl NonceBook {
    /// A nonce to sign with, when the book knows one (else read `pending` from the chain and
    /// [`NonceBook::start_at`]).
    pub fn take(&mut self) -> Option<u64> {
        if let Some(n) = self.free.pop_first() {
            return Some(n);
        }
        let n = self.next?;
        self.next = Some(n + 1);
        Some(n)
    }

    pub fn start_at(&mut self, pending: u64) {
        self.next = Some(pending);
        self.free.retain(|n| *n >= pending);
    }

    /// The send with `n` failed as `why` says.
    pub fn failed(&mut self, n: u64, why: SendFailure) {
        match why {
            SendFailure::NotSent => {
                self.free.insert(n);
            }
            SendFailure::NonceTaken => {}
            SendFailure::NonceTooLow => *self = NonceBook::default(),
        }
    }
}

/// Where a known transaction stands, for one payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxStatus {
    /// Mined, and it is the proxy's `settle` of this permit with the USDG transfer.
    Paid,
    /// Mined without paying this permit (reverted, or another call).
    NotPaid,
    /// Known to the node, not mined yet.
    Pending,
    /// The node does not know it (never sent, or dropped).
    Unknown,
}

/// The chain's head as one block: number and timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Head {
    pub number: u64,
    pub timestamp: u64,
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

impl SettleError {
    /// A failed call to the chain, its text shortened (it may carry a provider's URL).
    fn chain(e: impl std::fmt::Display) -> SettleError {
        SettleError::Chain(short(&e.to_string()))
    }
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
        let reader = ProviderBuilder::new().connect_http(url).erased();
        Ok(Self::with_reader(
            reader, chain_id, usdg, permit2, proxy, relayer,
        ))
    }

    /// As [`Facilitator::new`], over a provider built elsewhere (the chain client).
    pub fn with_reader(
        reader: DynProvider,
        chain_id: u64,
        usdg: Address,
        permit2: Address,
        proxy: Address,
        relayer: Option<PrivateKeySigner>,
    ) -> Self {
        let relayer = relayer.map(|s| std::sync::Arc::new(Relayer::new(s)));
        Facilitator {
            chain_id,
            usdg,
            permit2,
            proxy,
            reader,
            sponsor: relayer.clone(),
            relayer,
            receipt_timeout: Duration::from_secs(60),
            send_wait: Duration::from_secs(10),
            no_sync_send: std::sync::atomic::AtomicBool::new(false),
            fees: std::sync::Mutex::new(None),
        }
    }

    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    pub fn permit2(&self) -> Address {
        self.permit2
    }

    pub fn network(&self) -> String {
        format!("eip155:{}", self.chain_id)
    }

    /// A read-only provider for the chain.
    pub fn reader(&self) -> &DynProvider {
        &self.reader
    }

    pub fn relayer_address(&self) -> Option<Address> {
        self.relayer.as_ref().map(|r| r.address)
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
    ) -> Result<(Permit, Checked), SettleError> {
        let permit = self.verify_signature(p, r, now).await?;
        let checked = self.verify_state(&permit).await?;
        Ok((permit, checked))
    }

    /// The terms and whether `from` signed the permit (ECDSA, or ERC-1271 when `from` has
    /// code): what proves who pays, before anything is looked up for that wallet.
    pub async fn verify_signature(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> Result<Permit, SettleError> {
        let permit = check_terms(p, r, self.chain_id, self.usdg, self.proxy, now)
            .map_err(SettleError::Invalid)?;
        let hash = permit.permit.signing_hash(self.chain_id, self.permit2);
        match signature::verify_hash(
            &self.reader,
            permit.from,
            hash,
            &permit.signature,
            signature::SIGNATURE_GAS,
        )
        .await
        {
            Ok(()) => Ok(permit),
            Err(signature::SignatureError::Chain(e)) => Err(SettleError::Chain(e)),
            Err(e) => Err(SettleError::Invalid(invalid(
                "invalid_permit2_signature",
                format!("the permit's signature is not the payer's: {e}"),
            ))),
        }
    }

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
    async fn simulate(&self, permit: &Permit) -> Result<u64, SettleError> {
        match self.reader.estimate_gas(self.settle_request(permit)).await {
            Ok(gas) => Ok(gas),
            // No answer from the node is no verdict on the permit.
            Err(e) if e.as_error_resp().is_none() => Err(SettleError::chain(e)),
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
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return SettleError::chain(e),
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

    /// The proxy's `settle` of `permit`, from the relayer (or the proxy, to simulate without one).
    fn settle_request(&self, permit: &Permit) -> alloy::rpc::types::TransactionRequest {
        let (pt, witness) = permit.permit.settle_args();
        IX402ExactPermit2Proxy::new(self.proxy, &self.reader)
            .settle(pt, permit.from, witness, permit.signature.clone())
            .into_transaction_request()
            .from(self.relayer_address().unwrap_or(self.proxy))
    }

    /// Fee caps for a send: the estimate of the last [`FEE_TTL`], else a new one.
    async fn fees(&self) -> Result<Eip1559Estimation, SettleError> {
        if let Ok(f) = self.fees.lock()
            && let Some((at, fees)) = *f
            && at.elapsed() < FEE_TTL
        {
            return Ok(fees);
        }
        let fees = self
            .reader
            .estimate_eip1559_fees()
            .await
            .map_err(SettleError::chain)?;
        if let Ok(mut f) = self.fees.lock() {
            *f = Some((std::time::Instant::now(), fees));
        }
        Ok(fees)
    }

    fn forget_fees(&self) {
        if let Ok(mut f) = self.fees.lock() {
            *f = None;
        }
    }

    /// Sends the proxy's `settle` (after `verify`).
    pub async fn submit(&self, permit: &Permit, checked: Checked) -> Result<Sent, SettleError> {
        self.submit_recorded(permit, checked, &|_| Box::pin(async { Ok(()) }))
            .await
    }

    /// Sends the proxy's `settle` with the relayer key. The transaction is signed first and
    /// `record` is given its hash before it is sent, so whoever keeps payments knows the hash
    /// of every transaction that may exist; when `record` fails nothing is sent. Where the node
    /// offers `eth_sendRawTransactionSync` the answer carries the receipt.
    pub async fn submit_recorded(
        &self,
        permit: &Permit,
        checked: Checked,
        record: Record<'_>,
    ) -> Result<Sent, SettleError> {
        let relayer = self
            .relayer
            .as_ref()
            .ok_or_else(|| SettleError::Failed("no relayer key is configured".into()))?;
        let gas = match checked.gas {
            Some(gas) => gas,
            // Not verified here first (a resend by reconciliation): the same simulation now.
            None => self.simulate(permit).await?,
        };
        let call = self.settle_request(permit);
        self.send_from(relayer, call, gas.saturating_add(gas / 5), record)
            .await
    }

    /// Signs `call` with `sender`'s next nonce, gives its hash to `record`, then sends it. A
    /// nonce whose transaction was not sent goes back to the book.
    async fn send_from(
        &self,
        sender: &Relayer,
        call: alloy::rpc::types::TransactionRequest,
        gas_limit: u64,
        record: Record<'_>,
    ) -> Result<Sent, SettleError> {
        // Fees before the nonce lock: they read the chain and may take a while.
        let fees = self.fees().await?;
        let nonce = {
            let mut book = sender.nonces.lock().await;
            match book.take() {
                Some(n) => n,
                None => {
                    let pending = self
                        .reader
                        .get_transaction_count(sender.address)
                        .pending()
                        .await
                        .map_err(SettleError::chain)?;
                    book.start_at(pending);
                    book.take().unwrap_or(pending)
                }
            }
        };
        let give_back = |why: SendFailure| async move {
            sender.nonces.lock().await.failed(nonce, why);
        };
        let request = call
            .from(sender.address)
            .nonce(nonce)
            .gas_limit(gas_limit)
            .max_fee_per_gas(fees.max_fee_per_gas)
            .max_priority_fee_per_gas(fees.max_priority_fee_per_gas)
            .with_chain_id(self.chain_id);
        let envelope = match request.build(&sender.wallet).await {
            Ok(e) => e,
            Err(e) => {
                give_back(SendFailure::NotSent).await;
                return Err(SettleError::Failed(format!("signing the transaction: {e}")));
            }
        };
        let hash = *envelope.tx_hash();
        if let Err(e) = record(hash).await {
            give_back(SendFailure::NotSent).await;
            return Err(SettleError::Failed(format!(
                "the transaction was not sent: {e}"
            )));
        }
        let raw = envelope.encoded_2718();
        match self.send_raw(&raw, hash).await {
            Ok(receipt) => Ok(Sent { tx: hash, receipt }),
            Err(e) => {
                let why = match &e {
                    SendError::Node(message) => SendFailure::of(message),
                    // No answer: whether it arrived is unknown. Used again, the nonce either
                    // fills the gap or is refused as taken.
                    SendError::NoAnswer(_) => SendFailure::NotSent,
                };
                give_back(why).await;
                self.forget_fees();
                Err(SettleError::Chain(e.to_string()))
            }
        }
    }

    /// Forgets the relayer's counted nonces: the next send reads `pending` from the chain. For
    /// after a reorg dropped transactions of ours (the book would count past them and leave a
    /// gap no transaction fills).
    pub async fn forget_nonces(&self) {
        if let Some(r) = &self.relayer {
            *r.nonces.lock().await = NonceBook::default();
        }
    }

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

    /// Hands a signed transaction to the node: with `eth_sendRawTransactionSync` (the receipt
    /// comes back) unless the node has said it does not know that method, then with
    /// `eth_sendRawTransaction`. `Ok(None)`: taken, no receipt of `hash` yet.
    async fn send_raw(
        &self,
        raw: &[u8],
        hash: B256,
    ) -> Result<Option<TransactionReceipt>, SendError> {
        use std::sync::atomic::Ordering;
        let failure = |e: &alloy::transports::TransportError| match e.as_error_resp() {
            Some(p) => SendError::Node(short(&p.message)),
            None => SendError::NoAnswer(short(&e.to_string())),
        };
        if !self.no_sync_send.load(Ordering::Relaxed) {
            let sent =
                tokio::time::timeout(self.send_wait, self.reader.send_raw_transaction_sync(raw))
                    .await;
            match sent {
                // A receipt of another transaction is no answer about this one.
                Ok(Ok(receipt)) => return Ok(Some(receipt).filter(|r| r.transaction_hash == hash)),
                Ok(Err(e)) => match e.as_error_resp().map(|p| sync_refusal(p.code, &p.message)) {
                    Some(SyncRefusal::Unsupported) => {
                        tracing::info!(
                            "the node has no eth_sendRawTransactionSync; polling for receipts"
                        );
                        self.no_sync_send.store(true, Ordering::Relaxed);
                    }
                    Some(SyncRefusal::NotYetMined) => return Ok(None),
                    Some(SyncRefusal::Refused) | None => return Err(failure(&e)),
                },
                // No answer in time: taken if the node knows it (then its nonce is used).
                Err(_) => {
                    return match self.reader.get_transaction_by_hash(hash).await {
                        Ok(Some(_)) => Ok(None),
                        _ => Err(SendError::NoAnswer(format!(
                            "the node did not answer the send within {} ms",
                            self.send_wait.as_millis()
                        ))),
                    };
                }
            }
        }
        match self.reader.send_raw_transaction(raw).await {
            Ok(_) => Ok(None),
            Err(e) => Err(failure(&e)),
        }
    }

    /// Waits for the receipt of `tx`.
    pub async fn receipt(&self, tx: B256) -> Result<Option<TransactionReceipt>, SettleError> {
        self.receipt_within(tx, self.receipt_timeout).await
    }

    /// The receipt of `tx`, polled at once and then at a growing interval (5 ms doubling up
    /// to 250 ms) until `wait` has passed; `None` when it did not come.
    pub async fn receipt_within(
        &self,
        tx: B256,
        wait: Duration,
    ) -> Result<Option<TransactionReceipt>, SettleError> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut pause = Duration::from_millis(5);
        loop {
            match self.reader.get_transaction_receipt(tx).await {
                Ok(Some(r)) => return Ok(Some(r)),
                Ok(None) => {}
                Err(e) => return Err(SettleError::chain(e)),
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    /// Where `tx` stands for the permit of `owner` and `nonce` paying `amount` to `to`,
    /// waiting up to `wait` for its receipt. Paid only when the transaction is the proxy's
    /// `settle` of this permit and its receipt holds the USDG transfer.
    pub async fn tx_status(
        &self,
        tx: B256,
        owner: Address,
        nonce: U256,
        to: Address,
        amount: U256,
        wait: Duration,
    ) -> Result<TxStatus, SettleError> {
        let (receipt, sent) = tokio::join!(
            self.receipt_within(tx, wait),
            self.reader.get_transaction_by_hash(tx)
        );
        let receipt = receipt?;
        let Some(sent) = sent.map_err(SettleError::chain)? else {
            return Ok(TxStatus::Unknown);
        };
        let Some(receipt) = receipt else {
            return Ok(TxStatus::Pending);
        };
        Ok(
            if self.settles(&sent, owner, nonce) && self.transfer_in(&receipt, owner, to, amount) {
                TxStatus::Paid
            } else {
                TxStatus::NotPaid
            },
        )
    }

    /// The latest block's number and timestamp.
    pub async fn head(&self) -> Result<Head, SettleError> {
        let block = self
            .reader
            .get_block_by_number(alloy::eips::BlockNumberOrTag::Latest)
            .await
            .map_err(SettleError::chain)?
            .ok_or_else(|| SettleError::Chain("the node has no latest block".into()))?;
        Ok(Head {
            number: block.header.number,
            timestamp: block.header.timestamp,
        })
    }

    /// Whether Permit2 had marked the nonce used as of `block`.
    pub async fn nonce_used_at(
        &self,
        from: Address,
        nonce: U256,
        block: u64,
    ) -> Result<bool, SettleError> {
        let (word, bit) = nonce_position(nonce);
        IPermit2::new(self.permit2, &self.reader)
            .nonceBitmap(from, word)
            .block(block.into())
            .call()
            .await
            .map(|b| b.bit(bit))
            .map_err(SettleError::chain)
    }

    /// Whether `sent`, a settle this facilitator signed for the permit of `owner`, paid
    /// `amount` to `to`, from the receipt the node answered the send with (none: unknown yet).
    pub fn sent_pays(&self, sent: &Sent, owner: Address, to: Address, amount: U256) -> bool {
        sent.receipt.as_ref().is_some_and(|r| {
            r.transaction_hash == sent.tx
                && r.to == Some(self.proxy)
                && self.transfer_in(r, owner, to, amount)
        })
    }

    /// Whether `tx` is the proxy's `settle` of the permit of `owner` and `nonce`: only the
    /// calldata names the permit (Permit2 logs no nonce).
    fn settles(&self, tx: &alloy::rpc::types::Transaction, owner: Address, nonce: U256) -> bool {
        tx.inner.to() == Some(self.proxy)
            && IX402ExactPermit2Proxy::settleCall::abi_decode(tx.inner.input())
                .is_ok_and(|c| c.owner == owner && c.permit.nonce == nonce)
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
        let head = self
            .reader
            .get_block_number()
            .await
            .map_err(SettleError::chain)?;
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
            for log in self
                .reader
                .get_logs(&filter)
                .await
                .map_err(SettleError::chain)?
            {
                let matches =
                    IERC20::Transfer::decode_log(&log.inner).is_ok_and(|t| t.value == amount);
                let Some(hash) = log.transaction_hash.filter(|_| matches) else {
                    continue;
                };
                let Some(tx) = self
                    .reader
                    .get_transaction_by_hash(hash)
                    .await
                    .map_err(SettleError::chain)?
                else {
                    continue;
                };
                if self.settles(&tx, owner, nonce) {
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
                .map_err(SettleError::chain)?
                .ok_or_else(|| SettleError::Chain(format!("block {mid} is missing")))?;
            if block.header.timestamp < t {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// verify + submit + confirm: the facilitator's `/settle`. A hash, once signed, is in
    /// every answer that follows (also a failed or timed-out one): it is the caller's evidence.
    pub async fn settle(
        &self,
        p: &PaymentPayload,
        r: &PaymentRequirements,
        now: u64,
    ) -> SettleResponse {
        let payer = p.payload.permit2_authorization.from.clone();
        let answer = |tx: Option<B256>, failure: Option<(&str, String)>| SettleResponse {
            success: failure.is_none(),
            transaction: tx.map(|t| format!("{t:#x}")).unwrap_or_default(),
            network: self.network(),
            payer: payer.clone(),
            error_reason: failure.as_ref().map(|f| f.0.to_string()),
            error_message: failure.map(|f| f.1),
            extensions: None,
        };
        let (permit, checked) = match self.verify(p, r, now).await {
            Ok(v) => v,
            Err(SettleError::Invalid(i)) => return answer(None, Some((i.code, i.message))),
            Err(e) => return answer(None, Some((UNEXPECTED, e.to_string()))),
        };
        let signed = std::sync::Mutex::new(None);
        let record = |tx: B256| -> futures::future::BoxFuture<'_, Result<(), String>> {
            if let Ok(mut s) = signed.lock() {
                *s = Some(tx);
            }
            Box::pin(async { Ok(()) })
        };
        let sent = self.submit_recorded(&permit, checked, &record).await;
        let hash = signed.lock().ok().and_then(|s| *s);
        let (tx, receipt) = match (sent, hash) {
            (Ok(sent), _) => (sent.tx, sent.receipt),
            (Err(e), Some(tx)) => {
                return answer(Some(tx), Some((UNEXPECTED, e.to_string())));
            }
            (Err(e), None) => {
                return answer(None, Some((UNEXPECTED, e.to_string())));
            }
        };
        let (from, to, amount) = (
            permit.from,
            permit.permit.witness.to,
            permit.permit.permitted.amount,
        );
        let receipt = match receipt {
            Some(r) => Ok(Some(r)),
            None => self.receipt(tx).await,
        };
        match receipt {
            Ok(Some(r)) if self.transfer_in(&r, from, to, amount) => answer(Some(tx), None),
            Ok(Some(_)) => answer(
                Some(tx),
                Some((
                    "settle_transaction_failed",
                    format!("transaction {tx:#x} moved no matching USDG"),
                )),
            ),
            Ok(None) => answer(
                Some(tx),
                Some((
                    RECEIPT_TIMEOUT,
                    format!("transaction {tx:#x} was sent; its receipt did not come in time"),
                )),
            ),
            Err(e) => answer(Some(tx), Some((UNEXPECTED, e.to_string()))),
        }
    }

    /// How long a send waits for the node's answer before its fate is left to the chain.
    pub fn with_send_wait(mut self, wait: Duration) -> Self {
        self.send_wait = wait;
        self
    }

    /// How long `/settle` waits for a receipt before answering with the hash alone.
    pub fn with_receipt_timeout(mut self, wait: Duration) -> Self {
        self.receipt_timeout = wait;
        // A send answered with the receipt is part of that wait.
        self.send_wait = self.send_wait.min(wait);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x402::{Extra, Permit2Authorization, Permit2Payload, Permitted, WitnessJson};

    fn addr(b: u8) -> Address {
        Address::repeat_byte(b)
    }

    fn pair(deadline: u64, max_timeout: u64) -> (PaymentPayload, PaymentRequirements) {
        let r = PaymentRequirements {
            scheme: SCHEME.into(),
            network: "eip155:4663".into(),
            amount: "100".into(),
            asset: addr(1).to_string(),
            pay_to: addr(3).to_string(),
            max_timeout_seconds: max_timeout,
            extra: Extra {
                asset_transfer_method: "permit2".into(),
                spender: addr(2).to_string(),
                name: "USDG".into(),
            },
        };
        let p = PaymentPayload {
            x402_version: VERSION,
            resource: None,
            accepted: r.clone(),
            payload: Permit2Payload {
                signature: format!("0x{}", "11".repeat(65)),
                permit2_authorization: Permit2Authorization {
                    from: addr(9).to_string(),
                    permitted: Permitted {
                        token: addr(1).to_string(),
                        amount: "100".into(),
                    },
                    spender: addr(2).to_string(),
                    nonce: "7".into(),
                    deadline: deadline.to_string(),
                    witness: WitnessJson {
                        to: addr(3).to_string(),
                        valid_after: "0".into(),
                    },
                },
            },
            extensions: None,
        };
        (p, r)
    }

    fn check(p: &PaymentPayload, r: &PaymentRequirements, now: u64) -> Result<Permit, Invalid> {
        check_terms(p, r, 4663, addr(1), addr(2), now)
    }

    #[test]
    fn huge_numbers_from_a_request_never_overflow() {
        let (p, r) = pair(1_000, u64::MAX);
        assert!(
            check(&p, &r, 900).is_ok(),
            "any deadline within u64::MAX + 30"
        );
        let (p, r) = pair(1_000, u64::MAX);
        assert_eq!(
            check(&p, &r, u64::MAX).unwrap_err().code,
            "permit2_deadline_expired",
            "a clock at the end of time"
        );
        let (mut p, r) = pair(1_000, 300);
        p.payload.permit2_authorization.deadline = format!("{}", U256::MAX);
        assert_eq!(
            check(&p, &r, 900).unwrap_err().code,
            "permit2_deadline_too_far"
        );
        p.payload.permit2_authorization.permitted.amount = format!("{}0", U256::MAX);
        assert_eq!(check(&p, &r, 900).unwrap_err().code, "invalid_payload");
    }

    #[test]
    fn failed_sends_leave_no_gap() {
        let mut b = NonceBook::default();
        assert_eq!(b.take(), None, "unknown until read from the chain");
        b.start_at(5);
        assert_eq!((b.take(), b.take(), b.take()), (Some(5), Some(6), Some(7)));
        b.failed(6, SendFailure::NotSent);
        assert_eq!(b.take(), Some(6), "the hole is filled first");
        assert_eq!(b.take(), Some(8));
        b.failed(8, SendFailure::NonceTaken);
        assert_eq!(b.take(), Some(9), "a taken nonce is not used again");
        b.failed(9, SendFailure::NonceTooLow);
        assert_eq!(b.take(), None, "behind the chain: read it again");
        b.free.insert(3);
        b.start_at(10);
        assert_eq!(b.take(), Some(10), "free nonces below the chain's are gone");
    }

    #[test]
    fn node_refusals_are_told_apart() {
        assert_eq!(
            SendFailure::of("nonce too low: next nonce 7"),
            SendFailure::NonceTooLow
        );
        assert_eq!(SendFailure::of("already known"), SendFailure::NonceTaken);
        assert_eq!(
            SendFailure::of("replacement transaction underpriced"),
            SendFailure::NonceTaken
        );
        assert_eq!(
            SendFailure::of("insufficient funds for gas * price + value"),
            SendFailure::NotSent
        );
    }

    #[test]
    fn sync_send_answers_are_told_apart() {
        assert_eq!(
            sync_refusal(-32601, "Method not found"),
            SyncRefusal::Unsupported
        );
        assert_eq!(
            sync_refusal(
                -32000,
                "the method eth_sendRawTransactionSync does not exist/is not available"
            ),
            SyncRefusal::Unsupported
        );
        assert_eq!(
            sync_refusal(
                4,
                "The transaction was added to the mempool but wasn't processed within the designated timeout"
            ),
            SyncRefusal::NotYetMined
        );
        assert_eq!(sync_refusal(-32000, "nonce too low"), SyncRefusal::Refused);
        assert_eq!(
            sync_refusal(-32003, "insufficient funds for gas * price + value"),
            SyncRefusal::Refused
        );
    }

    #[test]
    fn the_reference_order_of_checks() {
        let (p, r) = pair(1_000, 300);
        assert!(check(&p, &r, 900).is_ok());
        assert_eq!(
            check(&p, &r, 995).unwrap_err().code,
            "permit2_deadline_expired",
            "less than 6 s left"
        );
        let (mut p, r) = pair(1_000, 300);
        p.payload.permit2_authorization.spender = addr(4).to_string();
        assert_eq!(
            check(&p, &r, 900).unwrap_err().code,
            "invalid_permit2_spender"
        );
    }
}

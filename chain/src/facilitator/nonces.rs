//! The nonces of a sending key, kept in memory so concurrent sends do not each ask the chain,
//! and given back when a send fails so no gap holds up the transactions after it.

use alloy::network::EthereumWallet;
use alloy::primitives::Address;
use alloy::signers::local::PrivateKeySigner;

use super::Facilitator;

/// A key that sends transactions (settles, or gas funding), and its nonces.
pub(super) struct Relayer {
    pub(super) address: Address,
    pub(super) wallet: EthereumWallet,
    pub(super) nonces: tokio::sync::Mutex<NonceBook>,
}

impl Relayer {
    pub(super) fn new(key: PrivateKeySigner) -> Relayer {
        let address = key.address();
        // Signed with libsecp256k1 (a transaction per payment); `fast` fails only for a key
        // k256 would not have taken.
        let wallet = match crate::fast_key::fast(&key) {
            Ok(fast) => EthereumWallet::from(fast),
            Err(_) => EthereumWallet::from(key),
        };
        Relayer {
            address,
            wallet,
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

impl Facilitator {
    /// Forgets the relayer's counted nonces: the next send reads `pending` from the chain. For
    /// after a reorg dropped transactions of ours (the book would count past them and leave a
    /// gap no transaction fills).
    pub async fn forget_nonces(&self) {
        if let Some(r) = &self.relayer {
            *r.nonces.lock().await = NonceBook::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

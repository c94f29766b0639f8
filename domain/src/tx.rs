//! A transaction hash as the service stores it.

use std::fmt;

use alloy::primitives::B256;

use crate::stored::serde_as_text;

/// A transaction's hash: stored and shown as `0x` and 64 lower-case hex digits (a sea-orm
/// value type with the `sea-orm` feature: a column that does not read as one is an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "sea-orm", derive(sea_orm::DeriveValueType))]
#[cfg_attr(feature = "sea-orm", sea_orm(value_type = "String"))]
pub struct TxHash(pub B256);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a transaction hash is 0x and 64 hexadecimal digits")]
pub struct NotAHash;

impl TxHash {
    /// `0x` and 64 hex digits in any case.
    pub fn parse(s: &str) -> Result<TxHash, NotAHash> {
        let hex = s.strip_prefix("0x").ok_or(NotAHash)?;
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(NotAHash);
        }
        s.parse().map(TxHash).map_err(|_| NotAHash)
    }

    pub fn b256(&self) -> B256 {
        self.0
    }
}

impl From<B256> for TxHash {
    fn from(h: B256) -> Self {
        TxHash(h)
    }
}

impl From<TxHash> for B256 {
    fn from(h: TxHash) -> Self {
        h.0
    }
}

impl fmt::Display for TxHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

impl std::str::FromStr for TxHash {
    type Err = NotAHash;

    fn from_str(s: &str) -> Result<Self, NotAHash> {
        TxHash::parse(s)
    }
}

serde_as_text!(TxHash);

/// A hash is a primary key (`payment_txs`), never a generated one.
#[cfg(feature = "sea-orm")]
impl sea_orm::TryFromU64 for TxHash {
    fn try_from_u64(_: u64) -> Result<Self, sea_orm::DbErr> {
        Err(sea_orm::DbErr::ConvertFromU64("TxHash"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_lower_case_read_in_any_case() {
        let lower = format!("0x{}", "ab".repeat(32));
        let h = TxHash::parse(&lower.to_uppercase().replacen("0X", "0x", 1)).unwrap();
        assert_eq!(h.to_string(), lower);
        assert_eq!(TxHash::from(B256::repeat_byte(0xab)), h);
        assert_eq!(serde_json::to_string(&h).unwrap(), format!("\"{lower}\""));
    }

    #[test]
    fn what_is_not_a_hash_is_refused() {
        for s in [
            "",
            "0x",
            &"ab".repeat(32),
            &format!("0x{}", "ab".repeat(31)),
            &format!("0x{}g", "a".repeat(63)),
        ] {
            assert_eq!(TxHash::parse(s), Err(NotAHash), "{s:?}");
        }
    }
}

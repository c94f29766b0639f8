//! A wallet address as the service stores, keys and compares it.

use std::fmt;

use alloy::primitives::Address;

use crate::stored::serde_as_text;

/// A wallet. Rows and keys spell it one way (`0x` and 40 lower-case hex digits, [`Wallet::key`]
/// and `Display`); the checksummed form is for people ([`Wallet::checksum`]). Input is read in
/// any case, with or without a valid checksum. Stored as its key (a sea-orm value type with the
/// `sea-orm` feature): a column that does not read as an address is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "sea-orm", derive(sea_orm::DeriveValueType))]
#[cfg_attr(feature = "sea-orm", sea_orm(value_type = "String"))]
pub struct Wallet(pub Address);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a wallet address is 0x and 40 hexadecimal digits")]
pub struct NotAnAddress;

impl Wallet {
    /// `0x` and 40 hex digits, surrounding spaces ignored.
    pub fn parse(s: &str) -> Result<Wallet, NotAnAddress> {
        let s = s.trim();
        let hex = s.strip_prefix("0x").ok_or(NotAnAddress)?;
        if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(NotAnAddress);
        }
        // Lower-cased first: a mixed-case spelling with a wrong checksum is still this wallet.
        s.to_ascii_lowercase()
            .parse()
            .map(Wallet)
            .map_err(|_| NotAnAddress)
    }

    /// The spelling of rows and keys.
    pub fn key(&self) -> String {
        format!("{:#x}", self.0)
    }

    /// The checksummed spelling, for messages and answers.
    pub fn checksum(&self) -> String {
        self.0.to_checksum(None)
    }

    pub fn address(&self) -> Address {
        self.0
    }
}

impl From<Address> for Wallet {
    fn from(a: Address) -> Self {
        Wallet(a)
    }
}

impl fmt::Display for Wallet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

impl std::str::FromStr for Wallet {
    type Err = NotAnAddress;

    fn from_str(s: &str) -> Result<Self, NotAnAddress> {
        Wallet::parse(s)
    }
}

serde_as_text!(Wallet);

/// A wallet is part of a primary key (`unlocks`), never a generated one.
#[cfg(feature = "sea-orm")]
impl sea_orm::TryFromU64 for Wallet {
    fn try_from_u64(_: u64) -> Result<Self, sea_orm::DbErr> {
        Err(sea_orm::DbErr::ConvertFromU64("Wallet"))
    }
}

/// The one spelling of an address in rows and keys: [`Wallet::key`].
pub fn lower(a: &Address) -> String {
    Wallet(*a).key()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_whatever_the_input_case() {
        let a: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
            .parse()
            .unwrap();
        assert_eq!(lower(&a), "0x5fbdb2315678afecb367f032d93f642f64180aa3");
        assert_eq!(lower(&Address::ZERO), format!("0x{}", "0".repeat(40)));
        let w = Wallet::parse(" 0x5FBDB2315678AFECB367F032D93F642F64180AA3 ").unwrap();
        assert_eq!(w.key(), lower(&a));
        assert_eq!(w.to_string(), lower(&a));
        assert_eq!(w.checksum(), "0x5FbDB2315678afecb367f032d93F642f64180aa3");
    }

    #[test]
    fn what_is_not_an_address_is_refused() {
        for s in [
            "",
            "0x",
            "5fbdb2315678afecb367f032d93f642f64180aa3",
            "0x5fbdb2315678afecb367f032d93f642f64180aa",
            "0x5fbdb2315678afecb367f032d93f642f64180aa3ff",
            "0x5fbdb2315678afecb367f032d93f642f64180ag3",
            "0x+fbdb2315678afecb367f032d93f642f64180aa3",
        ] {
            assert_eq!(Wallet::parse(s), Err(NotAnAddress), "{s:?}");
        }
    }
}

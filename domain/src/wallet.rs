//! A wallet address as the service stores, keys and compares it.

use alloy::primitives::Address;

/// The one spelling of an address in rows and keys: `0x` and 40 lower-case hex digits (never
/// the checksummed form, which is for display).
pub fn lower(a: &Address) -> String {
    format!("{a:#x}")
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
    }
}

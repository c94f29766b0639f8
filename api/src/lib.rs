//! The wire types of the API: the one definition the server, its client and its OpenAPI
//! document use, so the JSON the server writes and the JSON the client reads cannot drift
//! apart.

mod account;
mod archive;
pub mod delivery;
mod journals;
mod numbers;
mod payments;
mod publishing;
mod service;
mod token;

pub use account::*;
pub use archive::*;
pub use journals::*;
pub use numbers::{integral, integral_opt};
pub use payments::*;
pub use publishing::*;
pub use service::*;
pub use token::*;

use serde::{Deserialize, Serialize};

#[cfg(feature = "openapi")]
use utoipa::ToSchema;

/// Every error answer: `{ "error": "<what happened>" }`, plus `problems` on 422.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(ToSchema))]
pub struct ErrorBody {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_read_by_value() {
        let id = |s: &str| serde_json::from_str::<JournalRef>(s).map(|r| r.id);
        assert_eq!(id(r#"{"id": 12}"#).unwrap(), 12);
        assert_eq!(id(r#"{"id": 12.0}"#).unwrap(), 12);
        assert_eq!(id(r#"{"id": 1.2e1}"#).unwrap(), 12);
        assert!(id(r#"{"id": 12.5}"#).is_err());
        assert!(id(r#"{"id": "12"}"#).is_err());
        assert!(id(r#"{"id": 1e300}"#).is_err());
    }
}

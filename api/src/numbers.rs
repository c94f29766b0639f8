//! Integers as JSON Schema reads them: by value, not by spelling.

use serde::Deserialize;

/// A JSON number that is an integer, however it is written (`12`, `12.0`, `1.2e1`): JSON
/// Schema's `integer` is the number's value, not its spelling.
pub fn integral<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let n = serde_json::Number::deserialize(d)?;
    n.as_i64()
        .or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                .map(|f| f as i64)
        })
        .ok_or_else(|| serde::de::Error::custom(format!("{n} is not an integer")))
}

/// As [`integral`], for an optional field (absent or null: `None`).
pub fn integral_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(deserialize_with = "integral")] i64);
    Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
}

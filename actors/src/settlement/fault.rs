//! Test fault points: where a test stops a settlement, as a crash would. Only builds with the
//! `faults` feature (the test suite's) have any point but `none`: a release build refuses a
//! configuration that names one, and has no code that stops at one.

/// Where a test stops a settlement, as a crash would (`payments.fault`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultPoint {
    #[default]
    None,
    /// After the pending row is written, before anything is sent.
    #[cfg(feature = "faults")]
    BeforeSend,
    /// Built-in settler: after the signed transaction's hash is recorded, before it is sent.
    #[cfg(feature = "faults")]
    AfterRecord,
    /// After the transaction is sent, before its hash is recorded (only the chain knows it).
    #[cfg(feature = "faults")]
    BeforeRecord,
    /// After the transaction is sent and recorded, before its receipt is read.
    #[cfg(feature = "faults")]
    AfterSend,
    /// After a sponsored approval is mined, before the settle is sent.
    #[cfg(feature = "faults")]
    AfterApproval,
}

#[cfg(test)]
mod tests {
    use super::FaultPoint;

    /// Run both ways: `scripts/test.sh` also tests this crate alone, without the feature.
    #[test]
    fn fault_points_parse_only_with_the_faults_feature() {
        let parsed = serde_json::from_str::<FaultPoint>("\"after_send\"");
        assert_eq!(parsed.is_ok(), cfg!(feature = "faults"), "{parsed:?}");
        assert_eq!(
            serde_json::from_str::<FaultPoint>("\"none\"").unwrap(),
            FaultPoint::None
        );
    }
}

//! A journal's status, from its first save to its sale, as stored and as the API spells it.

pub const DRAFT: &str = "draft";
pub const REVISE: &str = "revise";
pub const REJECTED: &str = "rejected";
pub const APPROVED: &str = "approved";
pub const LIVE: &str = "live";

/// The status an audit's verdict (`approve`, `reject`, `revise`) moves a draft to.
pub fn after_verdict(verdict: &str) -> &'static str {
    match verdict {
        "approve" => APPROVED,
        "reject" => REJECTED,
        _ => REVISE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_moves_a_draft_and_anything_unknown_asks_for_a_revision() {
        assert_eq!(after_verdict("approve"), APPROVED);
        assert_eq!(after_verdict("reject"), REJECTED);
        assert_eq!(after_verdict("revise"), REVISE);
        assert_eq!(after_verdict("???"), REVISE);
    }
}

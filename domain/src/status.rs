//! A journal's status, from its first save to its sale, as stored and as the API spells it,
//! and the moves between statuses: who may edit, audit, register, and what a verdict makes of
//! a draft.

use std::fmt;

use crate::stored::{Unknown, serde_as_text};

/// Stored as `as_str` (a sea-orm value type with the `sea-orm` feature).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "sea-orm", derive(sea_orm::DeriveValueType))]
#[cfg_attr(feature = "sea-orm", sea_orm(value_type = "String"))]
pub enum JournalStatus {
    /// Saved, not audited in its current text.
    Draft,
    /// The audit asked for changes.
    Revise,
    /// The audit refused it.
    Rejected,
    /// The audit approved it: it may be registered onchain.
    Approved,
    /// Registered and on sale (a swarm journal is live from the start).
    Live,
}

impl JournalStatus {
    pub const ALL: [JournalStatus; 5] = [
        Self::Draft,
        Self::Revise,
        Self::Rejected,
        Self::Approved,
        Self::Live,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Revise => "revise",
            Self::Rejected => "rejected",
            Self::Approved => "approved",
            Self::Live => "live",
        }
    }

    /// The status a stored value names; `None` for a value no version wrote.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The status an audit's verdict (`approve`, `reject`, `revise`) moves a draft to;
    /// anything unknown asks for a revision.
    pub fn after_verdict(verdict: &str) -> Self {
        match verdict {
            "approve" => Self::Approved,
            "reject" => Self::Rejected,
            _ => Self::Revise,
        }
    }

    /// Whether its author may change the text (a save makes it a draft again): not once live.
    pub fn editable(self) -> bool {
        self != Self::Live
    }

    /// Whether an audit runs on it: only a draft (other statuses answer their last audit).
    pub fn auditable(self) -> bool {
        self == Self::Draft
    }

    /// Whether it may be registered onchain: approved, or live (a registration a reorg took
    /// back is made again).
    pub fn registrable(self) -> bool {
        matches!(self, Self::Approved | Self::Live)
    }
}

impl fmt::Display for JournalStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for JournalStatus {
    type Err = Unknown;

    fn from_str(s: &str) -> Result<Self, Unknown> {
        Self::parse(s).ok_or_else(|| Unknown {
            what: "journal status",
            value: s.to_string(),
        })
    }
}

serde_as_text!(JournalStatus);

#[cfg(test)]
mod tests {
    use super::JournalStatus::{self, *};

    #[test]
    fn a_verdict_moves_a_draft_and_anything_unknown_asks_for_a_revision() {
        assert_eq!(JournalStatus::after_verdict("approve"), Approved);
        assert_eq!(JournalStatus::after_verdict("reject"), Rejected);
        assert_eq!(JournalStatus::after_verdict("revise"), Revise);
        assert_eq!(JournalStatus::after_verdict("???"), Revise);
    }

    #[test]
    fn every_status_reads_back_as_itself_and_nothing_else_reads() {
        for s in JournalStatus::ALL {
            assert_eq!(JournalStatus::parse(s.as_str()), Some(s));
            assert_eq!(s.to_string(), s.as_str());
        }
        assert_eq!(JournalStatus::parse("LIVE"), None);
        assert_eq!(JournalStatus::parse(""), None);
        assert!("LIVE".parse::<JournalStatus>().is_err());
        assert_eq!("live".parse::<JournalStatus>(), Ok(Live));
    }

    #[test]
    fn the_moves_each_status_allows() {
        let editable: Vec<_> = JournalStatus::ALL
            .into_iter()
            .filter(|s| s.editable())
            .collect();
        assert_eq!(editable, [Draft, Revise, Rejected, Approved]);
        let auditable: Vec<_> = JournalStatus::ALL
            .into_iter()
            .filter(|s| s.auditable())
            .collect();
        assert_eq!(auditable, [Draft]);
        let registrable: Vec<_> = JournalStatus::ALL
            .into_iter()
            .filter(|s| s.registrable())
            .collect();
        assert_eq!(registrable, [Approved, Live]);
    }
}

//! How deep a transaction is, and what that makes it. Pure: the passes read the chain, this
//! decides.

/// What the chain says about a transaction now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sighting<H> {
    /// Mined and successful, in this block.
    Mined { block: u64, hash: H },
    /// No receipt (dropped by a reorg, back in a pool, or never known), or mined but reverted
    /// (re-included after its effect was spent elsewhere).
    Gone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict<H> {
    /// `distance` blocks deep: no reorg the deployment expects can take it back.
    Final { block: u64, hash: H },
    /// On the chain, within a reorg's reach.
    Seen { block: u64, hash: H },
    /// Taken back: re-check what it did.
    Dropped,
}

/// A transaction mined at `block` is final once `head - block >= distance` (a distance of 0
/// believes the head).
pub fn judge<H>(sighting: Sighting<H>, head: u64, distance: u64) -> Verdict<H> {
    match sighting {
        Sighting::Gone => Verdict::Dropped,
        Sighting::Mined { block, hash } if block.saturating_add(distance) <= head => {
            Verdict::Final { block, hash }
        }
        Sighting::Mined { block, hash } => Verdict::Seen { block, hash },
    }
}

/// Whether a row last seen at `block` is worth a read now: unseen rows are read at once, seen
/// ones only when they could be final (a reorg in between is caught then: the read finds the
/// transaction gone or in another block).
pub fn due(block: Option<u64>, head: u64, distance: u64) -> bool {
    block.is_none_or(|b| b.saturating_add(distance) <= head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_exactly_at_the_distance() {
        let at = |block| Sighting::Mined { block, hash: 7u8 };
        assert_eq!(
            judge(at(100), 111, 12),
            Verdict::Seen {
                block: 100,
                hash: 7
            }
        );
        assert_eq!(
            judge(at(100), 112, 12),
            Verdict::Final {
                block: 100,
                hash: 7
            }
        );
        assert_eq!(
            judge(at(100), 100, 0),
            Verdict::Final {
                block: 100,
                hash: 7
            }
        );
        assert_eq!(judge(Sighting::<u8>::Gone, 500, 12), Verdict::Dropped);
    }

    #[test]
    fn seen_rows_wait_for_their_depth_unseen_ones_do_not() {
        assert!(due(None, 0, 12));
        assert!(!due(Some(100), 111, 12));
        assert!(due(Some(100), 112, 12));
        assert!(due(Some(u64::MAX), u64::MAX, 12), "no overflow");
    }
}

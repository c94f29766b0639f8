//! Default deny: a sentence of the body that states something of record is supported only when
//! every content unit it states is found in the source sentences it rests on. Units are its
//! content words (names, things, acts, comparisons and superlatives, time frames), its numbers
//! with the bound they carry (`about`, `more than`), the causal and temporal links between its
//! clauses (`because`, `which is why`, `after`) and who it says said it. A word is found in a
//! source sentence as itself (its stem or its lemma, in the same degree: `largest` is not
//! `large`), as a WordNet synonym or derived form, as a more general word (a hypernym), or as a
//! direction word of the same family and sense. What is not found is named in the finding.

mod crossed;
mod judge;
mod keys;
mod links;
mod numbers;
mod offers;
mod times;
mod units;
mod wordlists;

pub(super) use judge::{Judged, judge};
pub(super) use offers::{Offer, offer};
pub(super) use units::Known;
pub(super) use wordlists::RECORDS;

/// Source sentences one sentence of the body may rest on, at most.
pub const MAX_COVER: usize = 3;
/// Units a second or third source sentence must add to be rested on too (one is enough when it
/// is no name, figure or time frame).
pub const COVER_GAIN: usize = 2;
/// Ordinary words (not a name, figure, bound, link, comparison, time frame or direction) a
/// sentence may hold that its sources do not, as a rewording, when at least [`LOOSE_SHARE`] of
/// its units are found: a minor finding, not a major one.
pub const LOOSE_MISSING: usize = 2;
pub const LOOSE_SHARE: f64 = 0.6;

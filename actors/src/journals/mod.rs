//! The one writer of the `journals` table. The server writes drafts, edits, imports and going
//! live through `drafts`; the AuditActor writes a verdict through `verdicts`, in the
//! transaction that ends its job; the ConfirmActor writes what the chain says of a
//! registration through `registrations`. Every rule that must hold is checked in the write.

mod drafts;
mod registrations;
mod verdicts;

pub use drafts::*;
pub use registrations::correct_registration;
pub use verdicts::{Verdict, meta_url, record_verdict};

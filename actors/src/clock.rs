//! Time as the actors see it, so tests can move it.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Duration, Utc};

pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

pub type SharedClock = Arc<dyn Clock>;

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// The system clock shifted by an adjustable offset (tests).
#[derive(Default)]
pub struct OffsetClock {
    offset_secs: AtomicI64,
}

impl OffsetClock {
    pub fn advance(&self, by: Duration) {
        self.offset_secs
            .fetch_add(by.num_seconds(), Ordering::SeqCst);
    }
}

impl Clock for OffsetClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + Duration::seconds(self.offset_secs.load(Ordering::SeqCst))
    }
}

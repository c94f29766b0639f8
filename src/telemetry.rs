//! Logging set-up.

use tracing_subscriber::EnvFilter;

use crate::config::LogSettings;

/// Installs the global subscriber; `RUST_LOG` overrides the configured filter.
pub fn init(settings: &LogSettings) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&settings.filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true);
    // A second init (tests) is harmless: the first subscriber stays.
    let _ = if settings.format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

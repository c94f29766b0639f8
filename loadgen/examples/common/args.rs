//! The load examples' arguments, in order: the API's base URL, then (for most) the devnet file,
//! then numbers; each with a default when it is missing.

use std::str::FromStr;

use journal_market_chain::devnet_file::Devnet;

pub struct Args(std::iter::Skip<std::env::Args>);

/// The command line's arguments, after the program's name.
pub fn args() -> Args {
    Args(std::env::args().skip(1))
}

/// Most load examples' first two arguments: the API's base URL and the devnet, loaded; then
/// the arguments after them.
pub fn base_and_devnet() -> anyhow::Result<(String, Devnet, Args)> {
    let mut args = args();
    let base = args.base();
    let devnet = args.devnet()?;
    Ok((base, devnet, args))
}

impl Args {
    /// The service's API base URL (default: a local `journal-market serve`).
    pub fn base(&mut self) -> String {
        self.0
            .next()
            .unwrap_or_else(|| "http://127.0.0.1:8080/api".into())
    }

    /// The devnet file, loaded (default: data/devnet.json).
    pub fn devnet(&mut self) -> anyhow::Result<Devnet> {
        Devnet::load(std::path::Path::new(
            &self.0.next().unwrap_or_else(|| "data/devnet.json".into()),
        ))
    }

    /// The next argument as a number; `default` when it is missing or not a number.
    pub fn number<T: FromStr>(&mut self, default: T) -> T {
        self.0
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }
}

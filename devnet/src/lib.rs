//! The dev chain, tooling rather than product: a local anvil (`anvil`), the compiled contracts
//! (`artifacts`), their deployment and dev wallets (`deploy`), the start that resumes the last
//! run's chain or deploys a new one and writes the devnet file (`start`), and the demo's
//! journals published through the API (`seed`). The service reads the file it writes
//! (`journal_market_chain::devnet_file`) and runs all this as `journal-market devnet`.

pub mod anvil;
mod artifacts;
pub mod deploy;
pub mod seed;
pub mod start;

//! The load generators and measuring programs the bench scripts run (`bench/*.sh`), as this
//! crate's examples: tooling, built only when asked (`-p journal-market-loadgen`), never part
//! of the product's build. The library is empty: cargo needs a target beside the examples.

//! The one integration-test binary: the real server on port 0 against a fresh real database.
//! `JM_TEST_DB=postgres` (with `TEST_DATABASE_URL`) runs every test on PostgreSQL instead of
//! SQLite; `scripts/test.sh` runs the suite on both.
// Tests may unwrap: a failure there is the test failing (the lint is for the product).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixture;
mod helpers;
mod shape;

mod archive;
mod audit_queue;
mod auth;
mod browser;
mod confirm;
mod contracts;
mod devchain;
mod devnet_run;
mod edge;
mod facilitator;
mod faultproxy;
mod health;
mod import;
mod journals;
mod mcp;
mod meta;
mod metrics;
mod outage;
mod pages;
mod pay;
mod payment_reads;
mod payment_writes;
mod publish;
mod quote;
mod reference;
mod replay;
mod rpc;
mod settle;
mod shared_limits;
mod shutdown;
mod siwx;
mod sponsor;
mod stored_values;
mod text;
mod token;
mod votes;
mod wallets;

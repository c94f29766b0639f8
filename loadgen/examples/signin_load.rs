//! Load generator for sign-in: CLIENTS tasks each loop nonce → personal_sign → verify for
//! SECONDS against BASE_URL, then print round trips per second and latency percentiles.
//! `cargo run --release --example signin_load -- http://127.0.0.1:18080/api 32 10`
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = common::args::args();
    let base = args.base();
    let clients: usize = args.number(32);
    let seconds: u64 = args.number(10);
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()?;
    let until = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let http = http.clone();
            let base = base.clone();
            tokio::spawn(async move {
                let signer = PrivateKeySigner::random();
                let address = signer.address().to_checksum(None);
                let mut lat = Vec::new();
                let mut errors = 0;
                while Instant::now() < until {
                    let t = Instant::now();
                    let ok = async {
                        let n: Value = http.post(format!("{base}/auth/nonce")).json(&json!({ "address": address }))
                            .send().await?.json().await?;
                        let msg = n["message"].as_str().unwrap_or_default();
                        let sig = signer.sign_message_sync(msg.as_bytes())?;
                        let r = http.post(format!("{base}/auth/verify"))
                            .json(&json!({ "address": address, "nonce": n["nonce"], "signature": format!("0x{}", alloy::hex::encode(sig.as_bytes())) }))
                            .send().await?;
                        anyhow::Ok(r.status().is_success())
                    }
                    .await;
                    match ok {
                        Ok(true) => lat.push(t.elapsed()),
                        _ => errors += 1,
                    }
                }
                (lat, errors)
            })
        })
        .collect();
    let (mut all, errors) = common::latency::gather(tasks).await?;
    all.sort();
    let pct = |p| common::latency::percentile_ms(&all, p);
    println!(
        "{:.0} {:.2} {:.2} {}",
        all.len() as f64 / seconds as f64,
        pct(0.5),
        pct(0.99),
        errors
    );
    Ok(())
}

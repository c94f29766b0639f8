//! Load generator for sign-in: CLIENTS tasks each loop nonce → personal_sign → verify for
//! SECONDS against BASE_URL, then print round trips per second and latency percentiles.
//! `cargo run --release --example signin_load -- http://127.0.0.1:18080/api 32 10`

use std::time::{Duration, Instant};

use alloy::signers::SignerSync;
use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let base = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:8080/api".into());
    let clients: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(32);
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
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
                let mut errors = 0u64;
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
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await?;
        all.extend(l);
        errors += e;
    }
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0)
    };
    println!(
        "{:.0} {:.2} {:.2} {}",
        all.len() as f64 / seconds as f64,
        pct(0.5),
        pct(0.99),
        errors
    );
    Ok(())
}

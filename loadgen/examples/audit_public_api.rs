//! The public claim-verification rows (FEVER, VitaminC, SciFact) audited through the API: once
//! the rows are imported as archive entries (the audit crate's example `audit_public --import
//! FILE` writes the file for `journal-market import`), an author saves each claim as a draft
//! citing its entry and audits it. Prints the approvals per dataset and label, how many verdicts
//! are right for the label, and how many differ from the engine's own on the same submission
//! (none expected). `audit_public_api API DEVNET.json [--report]`, run by
//! `bash bench/audit_public.sh`.
// Tooling, not the product: a failure here stops the run with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../audit/examples/audit_public/rows.rs"]
mod rows;
#[path = "../../audit/examples/audit_public/table.rs"]
mod table;

use std::path::Path;

use journal_market_audit::{Verdict, builtin};
use journal_market_chain::devnet_file::Devnet;
use journal_market_client::Client;
use journal_market_client::api::DraftInput;
use rows::Half;

/// Drafts audited at once (each on a draft of its own, saved again for every row).
const CONCURRENT: usize = 16;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = rows::load(root).map_err(|e| anyhow::anyhow!("reading the rows: {e}"))?;
    let (api, devnet) = match (args.first(), args.get(1)) {
        (Some(a), Some(d)) => (a, d),
        _ => anyhow::bail!("usage: audit_public_api API DEVNET.json [--report]"),
    };
    let half = if args.iter().any(|a| a == "--report") {
        Half::Report
    } else {
        Half::Tune
    };
    audit(api, Path::new(devnet), half, &rows).await
}

async fn audit(
    api: &str,
    devnet: &Path,
    half: Half,
    rows: &[(usize, rows::Row)],
) -> anyhow::Result<()> {
    let devnet = Devnet::load(devnet)?;
    let author = devnet.accounts("author")[0].signer()?;
    let client = Client::new(api.to_string())?;
    client.login(&author).await?;
    let picked: Vec<&(usize, rows::Row)> = rows
        .iter()
        .filter(|(n, r)| rows::half(r, *n) == half)
        .collect();
    let mut ids: Vec<Option<i64>> = vec![None; CONCURRENT];
    let (mut results, mut differ, mut right) = (Vec::new(), 0usize, 0usize);
    for chunk in picked.chunks(CONCURRENT) {
        let runs = chunk.iter().zip(ids.iter()).map(|((n, r), id)| {
            let client = &client;
            async move {
                let (title, dek, body) = rows::draft(r, *n);
                let saved = client
                    .save_draft(&DraftInput {
                        id: *id,
                        ticker: rows::ticker(&r.dataset).to_string(),
                        title,
                        dek,
                        body,
                        price_usdg: 1.0,
                        author_name: "Public Claims".into(),
                    })
                    .await
                    .map_err(|e| match e {
                        journal_market_client::ClientError::Api { problems, .. }
                            if !problems.is_empty() =>
                        {
                            anyhow::anyhow!(
                                "the draft of {} was refused: {}",
                                r.id,
                                problems.join("; ")
                            )
                        }
                        e => e.into(),
                    })?;
                let outcome = client.audit(saved.id).await?;
                anyhow::Ok((saved.id, outcome.report.verdict))
            }
        });
        let done = futures::future::join_all(runs).await;
        for (k, ((n, r), got)) in chunk.iter().zip(done).enumerate() {
            let (id, verdict) = got?;
            ids[k] = Some(id);
            let approved = verdict == "approve";
            let engine = builtin::audit(&rows::submission(r, *n)).verdict == Verdict::Approve;
            differ += usize::from(approved != engine);
            right += usize::from(approved == rows::expected_approval(r));
            results.push((r.dataset.clone(), r.label.clone(), approved));
        }
    }
    print!("{}", table::table(half, &results));
    println!(
        "\n{} drafts audited through the API: {right} verdicts right for their label; {differ} differ from the engine's own",
        results.len()
    );
    Ok(())
}

//! The evaluation's table: per dataset and label, drafts and approvals.

use crate::rows::Half;

/// The table of a half: per dataset and label, drafts and approvals.
pub fn table(half: Half, results: &[(String, String, bool)]) -> String {
    let mut out = format!(
        "\n{half:?} half\n\n| dataset | label | drafts | approved | held back | rate |\n|---|---|---|---|---|---|\n"
    );
    let mut all: Vec<(String, String)> = results
        .iter()
        .map(|(d, l, _)| (d.clone(), l.clone()))
        .collect();
    all.sort();
    all.dedup();
    for label in ["supported", "refuted", "nei"] {
        let mut total = (0, 0);
        for (d, l) in all.iter().filter(|(_, l)| l == label) {
            let of: Vec<bool> = results
                .iter()
                .filter(|(rd, rl, _)| rd == d && rl == l)
                .map(|(_, _, a)| *a)
                .collect();
            let yes = of.iter().filter(|a| **a).count();
            total = (total.0 + of.len(), total.1 + yes);
            out.push_str(&line(d, l, of.len(), yes));
        }
        if total.0 > 0 {
            out.push_str(&line("all", label, total.0, total.1));
        }
    }
    out
}

fn line(d: &str, l: &str, n: usize, yes: usize) -> String {
    let (rate, what) = if l == "supported" {
        (yes, "approved")
    } else {
        (n - yes, "held back")
    };
    format!(
        "| {d} | {l} | {n} | {yes} | {} | {:.1}% {what} |\n",
        n - yes,
        rate as f64 * 100.0 / n.max(1) as f64
    )
}

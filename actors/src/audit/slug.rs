//! Public slugs, derived from a journal's ticker and title.

/// `NVDA` + "The Blackwell bottleneck!" → `nvda-the-blackwell-bottleneck`: lower-case letters,
/// digits and single dashes, at most about 80 characters, never all digits (the ticker leads).
pub fn slugify(ticker: &str, title: &str) -> String {
    let mut out = String::new();
    for c in format!("{ticker} {title}").chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 80 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.bytes().any(|b| b.is_ascii_lowercase()) {
        out
    } else {
        format!("journal-{out}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_from_titles() {
        assert_eq!(
            slugify("NVDA", "The Blackwell bottleneck!"),
            "nvda-the-blackwell-bottleneck"
        );
        assert_eq!(slugify("", "2026"), "journal-2026");
        assert_eq!(slugify("MSFT", "  Capex — 2027  "), "msft-capex-2027");
        assert!(slugify("NVDA", &"word ".repeat(50)).len() <= 81);
    }
}

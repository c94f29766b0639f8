//! Bracketed accession citations.

/// Accession shape: `<PREFIX>-<TICKER>-<yymmdd>-<nn>`.
pub fn is_accession(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 4
        && (1..=8).contains(&parts[0].len())
        && parts[0].bytes().all(|b| b.is_ascii_uppercase())
        && (1..=10).contains(&parts[1].len())
        && parts[1]
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.')
        && parts[2].len() == 6
        && parts[2].bytes().all(|b| b.is_ascii_digit())
        && parts[3].len() == 2
        && parts[3].bytes().all(|b| b.is_ascii_digit())
}

/// The text without its bracketed citations, and the accession numbers they cite.
pub(super) fn strip_citations(text: &str) -> (String, Vec<String>) {
    let mut clean = String::with_capacity(text.len());
    let mut cites = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        clean.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else {
            clean.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let ids: Vec<&str> = after[..close].split([',', ';']).map(str::trim).collect();
        if !ids.is_empty() && ids.iter().all(|i| is_accession(i)) {
            cites.extend(ids.iter().map(|i| i.to_string()));
        } else {
            clean.push_str(&rest[open..open + close + 2]);
        }
        rest = &after[close + 1..];
    }
    clean.push_str(rest);
    (clean, cites)
}

/// The bracketed citations at the start of `raw`, and the rest.
pub(super) fn leading_citations(mut raw: &str) -> (Vec<String>, &str) {
    let mut cites = Vec::new();
    loop {
        let t = raw.trim_start();
        let Some(inner) = t.strip_prefix('[') else {
            return (cites, raw);
        };
        let Some(close) = inner.find(']') else {
            return (cites, raw);
        };
        let ids: Vec<&str> = inner[..close].split([',', ';']).map(str::trim).collect();
        if !ids.iter().all(|i| is_accession(i)) {
            return (cites, raw);
        }
        cites.extend(ids.iter().map(|i| i.to_string()));
        raw = &inner[close + 1..];
    }
}

//! Accession numbers `<PREFIX>-<TICKER>-<yymmdd>-<nn>` and tickers.

use chrono::NaiveDate;

/// A ticker: 1 to 10 upper-case ASCII letters or digits.
pub fn is_ticker(s: &str) -> bool {
    (1..=10).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// A parsed accession number.
#[derive(Debug, PartialEq, Eq)]
pub struct Accession<'a> {
    pub prefix: &'a str,
    pub ticker: &'a str,
    pub date: NaiveDate,
    pub seq: u8,
}

pub fn parse(s: &str) -> Option<Accession<'_>> {
    let mut parts = s.split('-');
    let prefix = parts.next()?;
    let ticker = parts.next()?;
    let date = parts.next()?;
    let seq = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    if !(2..=6).contains(&prefix.len()) || !prefix.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    if !is_ticker(ticker) || date.len() != 6 || seq.len() != 2 {
        return None;
    }
    if !date.bytes().all(|b| b.is_ascii_digit()) || !seq.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let date = NaiveDate::parse_from_str(&format!("20{date}"), "%Y%m%d").ok()?;
    Some(Accession {
        prefix,
        ticker,
        date,
        seq: seq.parse().ok()?,
    })
}

pub fn is_accession(s: &str) -> bool {
    parse(s).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_valid() {
        let a = parse("JM-NVDA-261120-01").unwrap();
        assert_eq!(a.prefix, "JM");
        assert_eq!(a.ticker, "NVDA");
        assert_eq!(a.date, NaiveDate::from_ymd_opt(2026, 11, 20).unwrap());
        assert_eq!(a.seq, 1);
    }

    #[test]
    fn rejects_invalid() {
        for s in [
            "",
            "JM-NVDA-261120",
            "JM-NVDA-261120-1",
            "jm-NVDA-261120-01",
            "JM-nvda-261120-01",
            "JM-NVDA-261340-01",
            "JM-NVDA-261120-01-02",
            "J-NVDA-261120-01",
        ] {
            assert!(parse(s).is_none(), "{s}");
        }
    }

    #[test]
    fn tickers() {
        assert!(is_ticker("NVDA"));
        assert!(is_ticker("BRK2"));
        assert!(!is_ticker("nvda"));
        assert!(!is_ticker(""));
        assert!(!is_ticker("TOOLONGTICKER"));
    }
}

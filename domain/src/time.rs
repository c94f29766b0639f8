//! Timestamps as the API writes them: RFC 3339 in UTC with a `Z`.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

pub fn ts(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub fn date(d: &NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let t = DateTime::parse_from_rfc3339("2026-11-20T06:00:02.5+01:00")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(ts(&t), "2026-11-20T05:00:02Z");
        assert_eq!(
            date(&NaiveDate::from_ymd_opt(2026, 1, 2).unwrap()),
            "2026-01-02"
        );
    }
}

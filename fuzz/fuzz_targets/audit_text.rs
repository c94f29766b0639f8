//! The audit engine's readers, each on one text: sentences and their citations, figures,
//! dates, quotations, tokens and the alignment of two sentences.
//!
//! Input: any text. Asserts that sentence splits cover their paragraph, that figures and
//! quotations are read from the text with sane values, that dates are calendar dates, that
//! citations are accession numbers, and that a sentence restates itself.
#![no_main]

use journal_market_audit::builtin::fuzzing as read;
use journal_market_audit::builtin::is_accession;
use libfuzzer_sys::fuzz_target;

fn date(d: &read::DateRead) {
    let (year, month, day, _) = d;
    assert!(year.is_none_or(|y| (1900..=2100).contains(&y)), "{d:?}");
    assert!(month.is_none_or(|m| (1..=12).contains(&m)), "{d:?}");
    assert!(day.is_none_or(|x| (1..=31).contains(&x)), "{d:?}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for s in read::sentences(text) {
        assert!(!s.text.trim().is_empty());
        assert!(s.cites.iter().all(|c| is_accession(c)), "{s:?}");
    }
    assert_eq!(read::split_sentences(text).concat(), text);
    for s in read::source_sentences(text) {
        assert!(!s.is_empty() && s.trim() == s && text.contains(s));
    }
    for f in read::figures(text) {
        assert!(f.value.is_finite() && f.value >= 0.0, "{f:?}");
        assert!(!f.text.is_empty() && text.contains(&f.text), "{f:?}");
    }
    for d in read::dates(text) {
        date(&d);
    }
    if let Some(d) = read::date_of_record(text) {
        date(&d);
    }
    let _ = read::has_month_day(text);
    for q in read::quotations(text) {
        assert!(!q.is_empty());
    }
    let (clean, cites) = read::strip_citations(text);
    assert!(clean.len() <= text.len());
    assert!(cites.iter().all(|c| is_accession(c)));
    let (lead, rest) = read::leading_citations(text);
    assert!(lead.iter().all(|c| is_accession(c)));
    assert!(text.ends_with(rest));
    let anchors: std::collections::HashSet<String> = read::anchors(text, true)
        .into_iter()
        .filter(|a| !a.is_empty())
        .collect();
    assert_eq!(
        read::alignment(text, text),
        (anchors.len() >= 2).then_some(1.0),
        "a sentence restates itself"
    );
    let _ = read::tokens(text);
    let _ = read::content_words(text);
});

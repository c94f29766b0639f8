//! The import format (`journal-market import PATH`, docs/import-format.md): the file's JSON and
//! every rule of it, checked against an empty archive.
//!
//! Input: a file. Asserts that every problem names the record it is about.
#![no_main]

use libfuzzer_sys::fuzz_target;

const RECORDS: [&str; 5] = [
    "companies[",
    "stories[",
    "sittings[",
    "entries[",
    "journals[",
];

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(problems) = journal_market::import::problems(json) else {
        return;
    };
    for p in &problems {
        assert!(RECORDS.iter().any(|r| p.starts_with(r)), "{p}");
    }
});

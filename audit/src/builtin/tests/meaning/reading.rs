//! Reading the sources and the draft: sentences, the support map, word forms.

use super::*;

#[test]
fn the_report_maps_sentences_to_their_source() {
    let sentence = format!(
        "NVIDIA and the UK government agreed to build a national AI factory with about 20,000 Blackwell GPUs, the company posted [{A}]."
    );
    let mut sub = draft(&sentence, uk_factory());
    sub.body.push_str("\nThat is a bet on sovereign demand.\n");
    let r = audit(&sub);
    assert_eq!(r.support.len(), 1, "{:#?}", r.support);
    assert_eq!(r.support[0].entry, A);
    assert!(
        r.support[0]
            .sentence
            .starts_with("NVIDIA and the UK government")
    );
    assert!(
        r.support[0]
            .quote
            .contains("agreed to build a national AI factory")
    );
    // The alignment alone gives the same.
    assert_eq!(support(&sub), r.support);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["support"][0]["entry"], A);
    assert!(v["support"][0]["quote"].is_string());
}

#[test]
fn source_sentences_keep_abbreviations_whole() {
    let s = super::super::align::source_sentences(
        "Harlan Sur at J.P. Morgan raised the target. U.S. commercial revenue rose. Tesla, Inc. entered into an amendment. It said \"we ship.\" Then it stopped.",
    );
    assert_eq!(
        s,
        vec![
            "Harlan Sur at J.P. Morgan raised the target.",
            "U.S. commercial revenue rose.",
            "Tesla, Inc. entered into an amendment.",
            "It said \"we ship.\"",
            "Then it stopped.",
        ]
    );
}

#[test]
fn evidence_with_its_subject_cut_off_is_two_sentences() {
    let s = super::super::align::source_sentences(
        "The drama premiered on NTV on July 5, 2015. is a Japanese television drama series. The U.S. is a market.",
    );
    assert_eq!(
        s,
        vec![
            "The drama premiered on NTV on July 5, 2015.",
            "is a Japanese television drama series.",
            "The U.S. is a market.",
        ]
    );
}

#[test]
fn a_claims_own_verbs_are_not_its_attribution() {
    let regulators = || {
        vec![entry(
            A,
            "Reuters reported that Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators.",
            "Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators, according to people familiar with the matter.",
        )]
    };
    assert_clean(
        &format!(
            "According to people familiar with the matter, Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators [{A}]."
        ),
        regulators(),
    );
    // `told` is the claim's verb: stating it without the people familiar drops them.
    assert_caught(
        &format!(
            "Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators [{A}]."
        ),
        regulators(),
        Check::AttributionDropped,
    );
}

#[test]
fn short_and_irregular_words_still_meet() {
    let asked = || {
        vec![entry(
            A,
            "NVIDIA's quarterly report says NVIDIA asked suppliers to raise production by about 10% for the holiday quarter.",
            "Management's Discussion and Analysis notes that NVIDIA asked suppliers to raise production by about 10% for the holiday quarter.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA asked its suppliers to lift production by about 10% for the holiday quarter, the 10-Q says [{A}]."
        ),
        asked(),
    );
    assert_caught(
        &format!(
            "NVIDIA did not ask suppliers to raise production by about 10% for the holiday quarter, the 10-Q says [{A}]."
        ),
        asked(),
        Check::NegationFlipped,
    );
    let shares = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA booked a charge.",
            "Shares of NVIDIA have climbed 27% this year, compared with a 14% rise in the Nasdaq 100.",
        )]
    };
    assert_clean(
        &format!(
            "Shares of NVIDIA have gained 27% this year, against a 14% rise in the Nasdaq 100 [{A}]."
        ),
        shares(),
    );
    assert_caught(
        &format!(
            "Shares of NVIDIA have lost 27% this year, compared with a 14% rise in the Nasdaq 100 [{A}]."
        ),
        shares(),
        Check::DirectionFlipped,
    );
}

#[test]
fn every_form_of_a_word_meets() {
    use super::super::words::stem;
    for forms in [
        ["exceed", "exceeds", "exceeded"],
        ["agree", "agreed", "agrees"],
        ["ask", "asked", "asks"],
        ["commit", "commits", "committed"],
        ["acquire", "acquired", "acquires"],
    ] {
        let stems: Vec<String> = forms.iter().map(|w| stem(w)).collect();
        assert!(stems.iter().all(|s| *s == stems[0]), "{forms:?}: {stems:?}");
    }
    let supply = || {
        vec![entry(
            B,
            "The company said Blackwell demand exceeds supply.",
            "Blackwell demand exceeds supply.",
        )]
    };
    assert_clean(
        &format!("The company said demand for Blackwell still exceeds supply [{B}]."),
        supply(),
    );
    assert_caught(
        &format!("The company said Blackwell demand does not exceed supply [{B}]."),
        supply(),
        Check::NegationFlipped,
    );
}

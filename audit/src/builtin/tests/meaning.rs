//! The meaning checks, each unfaithful restatement beside a faithful paraphrase of the same
//! source sentence.

use super::*;

const A: &str = "JM-NVDA-260814-01";
const B: &str = "JM-NVDA-260902-01";

fn entry(accession: &str, summary: &str, says: &str) -> Source {
    Source {
        accession: accession.into(),
        ticker: "NVDA".into(),
        title: "An entry".into(),
        summary: summary.into(),
        says: says.into(),
        publisher: String::new(),
    }
}

/// A one-paragraph draft of `sentence` citing `sources`.
fn draft(sentence: &str, sources: Vec<Source>) -> Submission {
    Submission {
        ticker: "NVDA".into(),
        company: String::new(),
        title: "A draft".into(),
        dek: sentence.into(),
        body: format!("## The record\n{sentence}\n"),
        sources,
    }
}

/// The checks of the findings that hold a draft back (critical or major).
fn blocking(sentence: &str, sources: Vec<Source>) -> Vec<Check> {
    audit(&draft(sentence, sources))
        .issues
        .iter()
        .filter(|i| i.severity != Severity::Minor)
        .map(|i| i.check)
        .collect()
}

fn assert_clean(sentence: &str, sources: Vec<Source>) {
    let r = audit(&draft(sentence, sources));
    assert_eq!(r.verdict, Verdict::Approve, "{sentence}: {:#?}", r.issues);
}

fn assert_caught(sentence: &str, sources: Vec<Source>, check: Check) {
    let c = blocking(sentence, sources);
    assert!(
        c.contains(&check),
        "{sentence}: expected {check:?}, got {c:?}"
    );
}

fn uk_factory() -> Vec<Source> {
    vec![entry(
        A,
        "@NVIDIAAI posted that NVIDIA and the government of the United Kingdom agreed to build a national AI factory with about 20,000 Blackwell GPUs.",
        "Proud to share that NVIDIA and the government of the United Kingdom agreed to build a national AI factory with about 20,000 Blackwell GPUs.",
    )]
}

#[test]
fn an_added_negation_is_caught() {
    assert_clean(
        &format!(
            "NVIDIA and the UK government agreed to build a national AI factory with about 20,000 Blackwell GPUs, the company posted [{A}]."
        ),
        uk_factory(),
    );
    assert_caught(
        &format!(
            "NVIDIA and the government of the United Kingdom refused to build a national AI factory with about 20,000 Blackwell GPUs, the company posted [{A}]."
        ),
        uk_factory(),
        Check::NegationFlipped,
    );
    let results = || {
        vec![entry(
            A,
            "@nvidia posted that NVIDIA will report quarterly results on September 20 after the market close.",
            "NVIDIA will report quarterly results on September 20 after the market close.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA will publish its quarterly results on September 20 after the market close [{A}]."
        ),
        results(),
    );
    assert_caught(
        &format!(
            "NVIDIA will not report quarterly results on September 20 after the market close [{A}]."
        ),
        results(),
        Check::NegationFlipped,
    );
}

#[test]
fn a_dropped_negation_is_caught_and_a_negation_said_otherwise_is_not() {
    let silent = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA recorded a charge tied to H20 inventory. NVIDIA did not respond to a request for comment.",
            "NVIDIA, which reports in November, has not commented publicly on the details.",
        )]
    };
    // Declining is not what the entry says (default deny asks for it), but it is no negation
    // turned around.
    assert!(
        !blocking(&format!("NVIDIA declined to comment [{A}]."), silent())
            .contains(&Check::NegationFlipped)
    );
    assert_clean(
        &format!(
            "NVIDIA, which reports in November, did not comment publicly on the details [{A}]."
        ),
        silent(),
    );
    assert_caught(
        &format!("NVIDIA, which reports in November, has commented publicly on the details [{A}]."),
        silent(),
        Check::NegationFlipped,
    );
    // The negation moved onto the object: `has filed nothing` is `has not filed anything`.
    let filed = || {
        vec![entry(
            A,
            "NVIDIA posted about the plant.",
            "NVIDIA has not filed anything on the matter.",
        )]
    };
    assert_clean(
        &format!("NVIDIA has filed nothing on the matter [{A}]."),
        filed(),
    );
    assert_caught(
        &format!("NVIDIA has filed papers on the matter [{A}]."),
        filed(),
        Check::NegationFlipped,
    );
}

fn xbox() -> Vec<Source> {
    vec![entry(
        A,
        "@satyanadella posted that Xbox content and services revenue rose 16%, while hardware revenue fell about 20%.",
        "Xbox content and services revenue rose 16%, while hardware revenue fell about 20%.",
    )]
}

#[test]
fn a_turned_direction_is_caught() {
    assert_clean(
        &format!(
            "Xbox content and services revenue climbed 16% while hardware revenue dropped about 20%, Satya Nadella posted [{A}]."
        ),
        xbox(),
    );
    assert_caught(
        &format!(
            "Xbox content and services revenue fell 16%, while hardware revenue slid about 20%, Satya Nadella posted [{A}]."
        ),
        xbox(),
        Check::DirectionFlipped,
    );
    let china = || {
        vec![entry(
            A,
            "@nvidia posted that China fell to roughly 4% of NVIDIA's data-center revenue, down from more than 20% two years earlier.",
            "China fell to roughly 4% of NVIDIA's data-center revenue, down from more than 20% two years earlier.",
        )]
    };
    assert_clean(
        &format!(
            "China's share of NVIDIA's data-center revenue dropped to roughly 4%, from more than 20% two years earlier, the company posted [{A}]."
        ),
        china(),
    );
    assert_caught(
        &format!(
            "China now accounts for roughly 4% of NVIDIA's data-center revenue, up from more than 20% two years earlier, the company posted [{A}]."
        ),
        china(),
        Check::DirectionFlipped,
    );
    assert_caught(
        &format!(
            "China fell to roughly 4% of NVIDIA's data-center revenue, down from less than 20% two years earlier, the company posted [{A}]."
        ),
        china(),
        Check::DirectionFlipped,
    );
}

fn clusters() -> Vec<Source> {
    vec![entry(
        B,
        "NVIDIA's quarterly report says Microsoft has taken delivery of its first Blackwell Ultra clusters and plans to bring about 70,000 GPUs online by year-end.",
        "Management's Discussion and Analysis notes that Microsoft has taken delivery of its first Blackwell Ultra clusters and plans to bring about 70,000 GPUs online by year-end.",
    )]
}

#[test]
fn a_hedge_made_certain_is_caught() {
    assert_clean(
        &format!(
            "Microsoft has taken delivery of its first Blackwell Ultra clusters and intends to bring about 70,000 GPUs online by year-end, a 10-Q filing showed [{B}]."
        ),
        clusters(),
    );
    // Restating only the part that is not hedged needs no hedge.
    assert_clean(
        &format!(
            "Microsoft has taken delivery of its first Blackwell Ultra clusters, a 10-Q filing showed [{B}]."
        ),
        clusters(),
    );
    assert_caught(
        &format!(
            "Microsoft has taken delivery of its first Blackwell Ultra clusters and has about 70,000 GPUs online, a 10-Q filing showed [{B}]."
        ),
        clusters(),
        Check::CertaintyRaised,
    );
    let rivals = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA booked a charge.",
            "Rivals are expected to respond with their own announcements in the coming weeks.",
        )]
    };
    assert_clean(
        &format!(
            "Rivals are likely to respond with announcements of their own in the coming weeks [{A}]."
        ),
        rivals(),
    );
    assert_caught(
        &format!("Rivals will respond with their own announcements in the coming weeks [{A}]."),
        rivals(),
        Check::CertaintyRaised,
    );
    // `slated` and `on schedule` hedge as `planned` and `on track` do.
    let rubin = || {
        vec![entry(
            A,
            "NVIDIA filed an 8-K.",
            "NVIDIA disclosed that Rubin remains on track for volume production in 2027 and is planned for a spring launch.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA disclosed that Rubin is still on schedule for volume production in 2027 and is slated for a spring launch [{A}]."
        ),
        rubin(),
    );
    assert_caught(
        &format!(
            "NVIDIA disclosed that Rubin is in volume production in 2027 and launches in the spring [{A}]."
        ),
        rubin(),
        Check::CertaintyRaised,
    );
    // A deliberation said in the passive keeps its hedge.
    let siri = || {
        vec![entry(
            A,
            "NVIDIA filed a 10-Q.",
            "The quarterly report says NVIDIA is weighing the use of an outside model to power parts of its assistant.",
        )]
    };
    assert_clean(
        &format!(
            "The use of an outside model to power parts of its assistant is being weighed by NVIDIA, the quarterly report says [{A}]."
        ),
        siri(),
    );
    assert_caught(
        &format!(
            "The use of an outside model to power parts of its assistant was chosen by NVIDIA, the quarterly report says [{A}]."
        ),
        siri(),
        Check::CertaintyRaised,
    );
}

fn tsmc() -> Vec<Source> {
    vec![entry(
        A,
        "CNBC reported that TSMC is adding a production line in India dedicated to NVIDIA products.",
        "TSMC is adding a production line in India dedicated to NVIDIA products, according to a person briefed on the discussions.",
    )]
}

/// The negation of a sentence the draft only touches (one shared word) is not the draft's to
/// keep: `No figures beyond the post were given` beside the sentence restated with `figure`.
/// (The property test of `tests/restated.rs` found it: `built on` reworded `figure on`.)
#[test]
fn a_negation_of_a_sentence_barely_restated_is_not_dropped() {
    let post = || {
        vec![entry(
            A,
            "NVIDIA posted that the Venice chips, built on a 2nm process, are sampling to customers ahead of a 2026 launch. No figures beyond the post were given.",
            "The Venice chips, built on a 2nm process, are sampling to customers ahead of a 2026 launch.",
        )]
    };
    assert!(
        !blocking(
            &format!("NVIDIA posted that the Venice chips, figure on a 2nm process, are sampling to customers ahead of a 2026 launch [{A}]."),
            post()
        )
        .contains(&Check::NegationFlipped)
    );
    // The sentence it does restate keeps its negation.
    assert_caught(
        &format!("Figures beyond the post were given [{A}]."),
        post(),
        Check::NegationFlipped,
    );
}

#[test]
fn a_dropped_attribution_is_caught() {
    assert_clean(
        &format!(
            "According to a person briefed on the discussions, TSMC is adding a production line in India dedicated to NVIDIA products [{A}]."
        ),
        tsmc(),
    );
    assert_clean(
        &format!(
            "TSMC is adding a production line in India dedicated to NVIDIA products, CNBC reported [{A}]."
        ),
        tsmc(),
    );
    assert_caught(
        &format!("TSMC is adding a production line in India dedicated to NVIDIA products [{A}]."),
        tsmc(),
        Check::AttributionDropped,
    );
    // An analyst's view is the analyst's.
    let analyst = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA booked a charge.",
            "Kash Rangan, an analyst at Bernstein, said the development was not yet reflected in consensus estimates.",
        )]
    };
    assert_clean(
        &format!(
            "Kash Rangan of Bernstein said the development was not yet reflected in consensus estimates [{A}]."
        ),
        analyst(),
    );
    assert_caught(
        &format!("The development was not yet reflected in consensus estimates [{A}]."),
        analyst(),
        Check::AttributionDropped,
    );
    // `described it as` attributes as `called it` does.
    let called = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA booked a charge.",
            "Vivek Arya at BofA Securities called it an important signal for the stock.",
        )]
    };
    assert_clean(
        &format!(
            "Vivek Arya of BofA Securities described it as an important signal for the stock [{A}]."
        ),
        called(),
    );
}

#[test]
fn a_sentence_going_on_with_the_report_before_keeps_its_attribution() {
    let ramp = || {
        vec![entry(
            A,
            "CNBC reports that MI355X accelerator shipments are ramping, with Oracle among the first large deployments.",
            "MI355X accelerator shipments are ramping, with Oracle among the first large deployments, according to people familiar with the matter.",
        )]
    };
    assert_clean(
        &format!(
            "CNBC reports that shipments of the MI355X accelerator are ramping [{A}]. Oracle is among the first large deployments [{A}]."
        ),
        ramp(),
    );
    // Not in a paragraph of its own, nor after a sentence that attributes nothing.
    let body = format!(
        "## Ramp\nCNBC reports that shipments of the MI355X accelerator are ramping [{A}].\n\nOracle is among the first large deployments [{A}].\n"
    );
    let mut sub = draft("", ramp());
    sub.body = body;
    let checks: Vec<Check> = audit(&sub).issues.iter().map(|i| i.check).collect();
    assert!(checks.contains(&Check::AttributionDropped), "{checks:?}");
    assert_caught(
        &format!(
            "Shipments of the MI355X accelerator are ramping [{A}]. Oracle is among the first large deployments [{A}]."
        ),
        ramp(),
        Check::AttributionDropped,
    );
}

#[test]
fn another_name_is_caught() {
    let oracle = || {
        vec![entry(
            A,
            "NVIDIA's quarterly report says MI355X shipments are ramping, with Oracle among the first large deployments.",
            "Management's Discussion and Analysis notes that MI355X shipments are ramping, with Oracle among the first large deployments.",
        )]
    };
    assert_clean(
        &format!(
            "Shipments of the MI355X are ramping, and Oracle is among the first large deployments, the 10-Q says [{A}]."
        ),
        oracle(),
    );
    assert_caught(
        &format!(
            "MI355X shipments are ramping, with Microsoft among the first large deployments, the 10-Q says [{A}]."
        ),
        oracle(),
        Check::UnsupportedName,
    );
    // A name opening the sentence, and a person named for their handle.
    let post = || {
        vec![entry(
            A,
            "@ssankar posted that the NHTSA asked NVIDIA for data on 5 incidents.",
            "The National Highway Traffic Safety Administration asked NVIDIA for data on 5 incidents.",
        )]
    };
    assert_clean(
        &format!("Shyam Sankar posted that the NHTSA asked NVIDIA for data on 5 incidents [{A}]."),
        post(),
    );
    // The handle's first name opens the sentence: the name it begins is the handle's.
    let joz = || {
        vec![entry(
            A,
            "@gregjoz posted that the NHTSA asked NVIDIA for data on 5 incidents.",
            "The National Highway Traffic Safety Administration asked NVIDIA for data on 5 incidents.",
        )]
    };
    assert_clean(
        &format!("Greg Joswiak posted that the NHTSA asked NVIDIA for data on 5 incidents [{A}]."),
        joz(),
    );
    assert_caught(
        &format!(
            "Rivian was asked by the National Highway Traffic Safety Administration for data on 5 incidents [{A}]."
        ),
        post(),
        // A sentence's first word is no name to the name check; default deny asks for it.
        Check::UnsupportedContent,
    );
}

#[test]
fn a_moved_date_is_caught() {
    let charge = || {
        vec![entry(
            A,
            "Reuters reported that NVIDIA will report quarterly results on September 8 after the market close.",
            "NVIDIA will report quarterly results on September 8 after the market close.",
        )]
    };
    // The date of record comes from the accession number (2026-08-14).
    assert_clean(
        &format!(
            "On August 14, Reuters reported that NVIDIA will report quarterly results on September 8 after the market close [{A}]."
        ),
        charge(),
    );
    assert_caught(
        &format!(
            "On August 21, Reuters reported that NVIDIA will report quarterly results on September 8 after the market close [{A}]."
        ),
        charge(),
        Check::UnsupportedDate,
    );
    assert_caught(
        &format!(
            "Reuters reported that NVIDIA will report quarterly results on September 18 after the market close [{A}]."
        ),
        charge(),
        Check::UnsupportedDate,
    );
    // A year the entry does not give, where the sentence restates it.
    let roadmap = || {
        vec![entry(
            A,
            "Reuters reported that the Rubin GPU remains on track for volume production in 2027.",
            "The Rubin GPU remains on track for volume production in 2027, according to people familiar with the matter.",
        )]
    };
    assert_clean(
        &format!(
            "Reuters reported that the Rubin GPU remains on track for volume production in 2027 [{A}]."
        ),
        roadmap(),
    );
    assert_caught(
        &format!(
            "Reuters reported that the Rubin GPU remains on track for volume production in 2028 [{A}]."
        ),
        roadmap(),
        Check::UnsupportedDate,
    );
}

#[test]
fn a_figure_with_another_unit_is_caught() {
    let price = || {
        vec![entry(
            A,
            "The Verge reported that NVIDIA raised the price of its cloud service to $29.99 a month in the U.S.",
            "NVIDIA raised the price of its cloud service to $29.99 a month in the U.S., according to two people with knowledge of the plans.",
        )]
    };
    assert_clean(
        &format!(
            "The Verge reported that NVIDIA lifted the price of its cloud service to $29.99 per month in the U.S. [{A}]"
        ),
        price(),
    );
    assert_caught(
        &format!(
            "The Verge reported that NVIDIA raised the price of its cloud service to $29.99 a year in the U.S. [{A}]"
        ),
        price(),
        Check::FigureUnit,
    );
    assert_caught(
        &format!(
            "The Verge reported that NVIDIA raised the price of its cloud service to \u{a3}29.99 a month in the U.S. [{A}]"
        ),
        price(),
        Check::FigureUnit,
    );
    let racks = || {
        vec![entry(
            A,
            "Reuters reported that shipments run at roughly 5,000 racks a quarter.",
            "Shipments run at roughly 5,000 racks a quarter, according to supply-chain sources.",
        )]
    };
    assert_caught(
        &format!("Reuters reported that shipments run at roughly 5,000 GPUs a quarter [{A}]."),
        racks(),
        Check::FigureUnit,
    );
}

mod reading;

#[test]
fn a_headline_hedge_is_not_kept_against_the_plain_text() {
    let options = || {
        vec![Source {
            title: "NVIDIA options activity points to large expected move".into(),
            ..entry(
                A,
                "CNBC reports that options pricing implies a move of about 4% in NVIDIA shares around the next earnings report.",
                "Options pricing implies a move of about 4% in NVIDIA shares around the next earnings report, according to three current and former employees.",
            )
        }]
    };
    assert_clean(
        &format!(
            "Three current and former employees said options pricing points to a move of about 4% in NVIDIA shares around the next earnings report [{A}]."
        ),
        options(),
    );
    // The text's own hedge is still the draft's to keep.
    let rivals = || {
        vec![Source {
            title: "Rivals expected to respond".into(),
            ..entry(
                A,
                "Reuters reported that NVIDIA booked a charge.",
                "Rivals are expected to respond with their own announcements in the coming weeks.",
            )
        }]
    };
    assert_caught(
        &format!("Rivals will respond with their own announcements in the coming weeks [{A}]."),
        rivals(),
        Check::CertaintyRaised,
    );
}

#[test]
fn a_filing_is_named_by_its_heading() {
    let fd = || {
        vec![entry(
            A,
            "In an 8-K filed with the SEC, NVIDIA disclosed that NVIDIA expanded its U.S. investment pledge to $500 billion.",
            "Item 7.01 Regulation FD Disclosure. NVIDIA Corporation (the \"Company\") furnishes the information below. The Company reports that NVIDIA expanded its U.S. investment pledge to $500 billion.",
        )]
    };
    assert_clean(
        &format!(
            "In a Regulation FD disclosure, NVIDIA reported that it had expanded its U.S. investment pledge to $500 billion [{A}]."
        ),
        fd(),
    );
    assert_caught(
        &format!(
            "In a Regulation Crowdfunding disclosure, NVIDIA reported that it had expanded its U.S. investment pledge to $500 billion [{A}]."
        ),
        fd(),
        Check::UnsupportedContent,
    );
    // A summary's filer names whose filing it is.
    let q = || {
        vec![entry(
            A,
            "NVIDIA filed its quarterly report for the period ended 2026-07-26.",
            "Quarterly report on Form 10-Q for the quarterly period ended 2026-07-26. The Company repurchased shares during the quarter.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA's quarterly report for the period ended 2026-07-26 says the Company repurchased shares during the quarter [{A}]."
        ),
        q(),
    );
    assert_caught(
        &format!(
            "AMD's quarterly report for the period ended 2026-07-26 says the Company repurchased shares during the quarter [{A}]."
        ),
        q(),
        Check::UnsupportedContent,
    );
    // Who files a filing says what it says: `is filing` is a verb of speech.
    let s8 = || {
        vec![entry(
            A,
            "NVIDIA registered 35 million additional shares for its equity plan.",
            "Registration statement under the Securities Act of 1933. NVIDIA Corporation is filing this Form S-8 to register 35,000,000 additional shares of common stock issuable under its amended equity incentive plan.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA filed a Form S-8 registering 35,000,000 additional shares of common stock that can be issued under its amended equity incentive plan [{A}]."
        ),
        s8(),
    );
}

#[test]
fn a_source_named_by_a_name_of_several_words_is_whole() {
    let charge = || {
        vec![entry(
            A,
            "The Financial Times reports that NVIDIA took a charge of about $800 million for H20 inventory.",
            "NVIDIA took a charge of about $800 million for H20 inventory, according to supply-chain sources.",
        )]
    };
    assert_clean(
        &format!(
            "According to supply-chain sources cited by the Financial Times, NVIDIA booked a charge of about $800 million for H20 inventory [{A}]."
        ),
        charge(),
    );
}

#[test]
fn a_link_inside_a_clause_joins_that_clause_only() {
    let s = || {
        vec![entry(
            A,
            "@robotaxi posted that NVIDIA will report quarterly results on September 19 after the market close. No figures beyond the post were given.",
            "NVIDIA will report quarterly results on September 19 after the market close.",
        )]
    };
    // `after` leads to the clause's end, not to the words after the comma.
    assert_clean(
        &format!(
            "NVIDIA's quarterly results are due on September 19 after the market close, according to a post from @robotaxi, which gave no figures beyond that [{A}]."
        ),
        s(),
    );
    assert_caught(
        &format!(
            "NVIDIA's quarterly results are due on September 19 after the shareholder meeting [{A}]."
        ),
        s(),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_outlet_that_saw_the_documents_is_who_says_it() {
    let s = vec![entry(
        A,
        "Reuters says that NVIDIA's market value briefly passed $4 trillion.",
        "NVIDIA's market value briefly passed $4 trillion, according to documents seen by the outlet.",
    )];
    assert_clean(
        &format!(
            "NVIDIA's market value briefly passed $4 trillion, according to documents seen by Reuters [{A}]."
        ),
        s,
    );
}

#[test]
fn a_clause_one_sentence_holds_whole_may_come_from_another_sentence() {
    let s = || {
        vec![entry(
            A,
            "The Information writes that lead times for the GB300 stretched to about 3 weeks in the U.S. and China. Microsoft did not respond to a request for comment.",
            "Lead times for the GB300 stretched to about 3 weeks in the U.S. and China.",
        )]
    };
    assert_clean(
        &format!(
            "According to The Information, lead times for the GB300 stretched to about 3 weeks in the U.S. and China, and Microsoft did not respond to a request for comment [{A}]."
        ),
        s(),
    );
    // A name moved into the other sentence's clause is still apart from it.
    assert_caught(
        &format!(
            "According to The Information, lead times for the GB300 stretched to about 3 weeks in the U.S. and Microsoft [{A}]."
        ),
        s(),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_company_told_by_what_it_makes_and_news_summed_up_need_no_source_of_their_own() {
    let s = || {
        vec![entry(
            A,
            "The Financial Times reports that Blackwell made up about 88% of NVIDIA's data-center compute revenue. NVIDIA did not respond to a request for comment.",
            "Proud to share that Quanta has begun final qualification of HBM4 stacks for Rubin.",
        )]
    };
    assert_clean(
        &format!("The chipmaker did not respond to a request for comment [{A}]."),
        s(),
    );
    assert_clean(
        &format!(
            "Quanta has begun final qualification of HBM4 stacks for Rubin [{A}]. The chipmaker also shared the milestone in a post [{A}]."
        ),
        s(),
    );
    // Without `the`, or not summing up what was announced, the words are the draft's own.
    assert_caught(
        &format!("Chipmaker NVIDIA did not respond to a request for comment [{A}]."),
        s(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!(
            "Quanta has begun final qualification of HBM4 stacks for Rubin, a milestone for NVIDIA [{A}]."
        ),
        s(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_multiple_is_a_figure_in_digits_or_words() {
    let s = || {
        vec![entry(
            A,
            "Reuters writes that NVIDIA detailed the Vera Rubin NVL144 rack, promising roughly 3x the inference throughput of GB300 NVL72.",
            "NVIDIA detailed the rack.",
        )]
    };
    assert_clean(
        &format!(
            "Reuters writes that the Vera Rubin NVL144 rack NVIDIA detailed promises roughly three times the inference throughput of GB300 NVL72 [{A}]."
        ),
        s(),
    );
    assert_caught(
        &format!(
            "Reuters writes that NVIDIA detailed the Vera Rubin NVL144 rack, promising 5x the inference throughput of GB300 NVL72 [{A}]."
        ),
        s(),
        Check::UnsupportedFigure,
    );
    assert_caught(
        &format!(
            "Reuters writes that NVIDIA detailed the Vera Rubin NVL144 rack, promising roughly five times the inference throughput of GB300 NVL72 [{A}]."
        ),
        s(),
        Check::UnsupportedContent,
    );
}

#[test]
fn speakers_joined_by_and_are_each_a_speaker() {
    let s = || {
        vec![
            entry(
                A,
                "Reuters says that the Robotaxi app opened to the public in Phoenix.",
                "The Robotaxi app opened to the public in Phoenix, according to people familiar with the matter.",
            ),
            entry(
                B,
                "Bloomberg reported that the Robotaxi app opened to the public in Phoenix.",
                "The Robotaxi app opened to the public in Phoenix, according to supply-chain sources.",
            ),
        ]
    };
    assert_clean(
        &format!(
            "Reuters and Bloomberg report that the Robotaxi app opened to the public in Phoenix [{A}][{B}]."
        ),
        s(),
    );
    // Each name must have said it: one right name does not carry another.
    assert_caught(
        &format!(
            "Reuters and CNBC report that the Robotaxi app opened to the public in Phoenix [{A}][{B}]."
        ),
        s(),
        Check::UnsupportedContent,
    );
}

#[test]
fn aimed_at_keeps_a_targets_hedge() {
    let s = || {
        vec![entry(
            A,
            "Bloomberg writes that Tesla is building an Optimus line in Fremont that targets about 5,000 humanoid robots next year.",
            "Tesla is building an Optimus line in Fremont that targets about 5,000 humanoid robots next year, according to three current and former employees.",
        )]
    };
    assert_clean(
        &format!(
            "Bloomberg writes that Tesla is building an Optimus line in Fremont aimed at about 5,000 humanoid robots next year [{A}]."
        ),
        s(),
    );
    assert_caught(
        &format!(
            "Bloomberg writes that Tesla is building an Optimus line in Fremont that will make about 5,000 humanoid robots next year [{A}]."
        ),
        s(),
        Check::CertaintyRaised,
    );
}

#[test]
fn the_publisher_and_the_form_of_a_filing_are_where_it_comes_from() {
    let form4 = |publisher: &str| {
        vec![Source {
            title: "Form 4: Jean Hu sells 53,961 shares".into(),
            publisher: publisher.into(),
            ..entry(
                A,
                "Jean Hu, chief financial officer, sold 53,961 AMD shares at an average price of about $157.79.",
                "Statement of changes in beneficial ownership. Transaction code S: sale of 53,961 shares of common stock at a weighted average price of $157.79.",
            )
        }]
    };
    let sentence = format!(
        "Chief financial officer Jean Hu sold 53,961 AMD shares at a weighted average price of $157.79, according to a filing on SEC EDGAR [{A}]."
    );
    assert_clean(&sentence, form4("SEC EDGAR"));
    assert_caught(&sentence, form4(""), Check::UnsupportedName);
    assert_caught(&sentence, form4("Reuters"), Check::UnsupportedName);
    // The form a filing names itself, hyphen and all.
    let s8 = || {
        vec![Source {
            title: "S-8 registers 17 million shares for employee equity plan".into(),
            ..entry(
                A,
                "NVIDIA registered 17 million additional shares for issuance under its employee equity incentive plan.",
                "Registration statement under the Securities Act of 1933. NVIDIA Corporation is filing this Form S-8 to register 17,000,000 additional shares.",
            )
        }]
    };
    assert_clean(
        &format!(
            "An S-8 filing registers 17 million additional NVIDIA shares for issuance under the employee equity incentive plan [{A}]."
        ),
        s8(),
    );
    assert_caught(
        &format!(
            "An S-4 filing registers 17 million additional NVIDIA shares for issuance under the employee equity incentive plan [{A}]."
        ),
        s8(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_person_at_a_firm_rating_the_stock_is_an_analyst() {
    let rated = || {
        vec![entry(
            A,
            "Timothy Arcuri at UBS called it incrementally negative for the stock.",
            "Timothy Arcuri at UBS called it incrementally negative for the stock.",
        )]
    };
    assert_clean(
        &format!(
            "UBS analyst Timothy Arcuri called it incrementally negative for the stock [{A}]."
        ),
        rated(),
    );
    // Not one who says no more than what a company says.
    let said = || {
        vec![entry(
            A,
            "Lisa Su at AMD said demand remains strong.",
            "Lisa Su at AMD said demand remains strong.",
        )]
    };
    assert_caught(
        &format!("AMD analyst Lisa Su said demand remains strong [{A}]."),
        said(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_filing_is_told_to_investors() {
    let filing = || {
        vec![Source {
            title: "8-K: NHS platform live at 120 trusts".into(),
            ..entry(
                A,
                "In an 8-K filed with the SEC, Palantir disclosed that the NHS Federated Data Platform is now live at about 120 hospital trusts.",
                "Item 7.01 Regulation FD Disclosure. The Company reports that the NHS Federated Data Platform is now live at about 120 hospital trusts.",
            )
        }]
    };
    assert_clean(
        &format!(
            "Palantir told investors in an 8-K that the NHS Federated Data Platform is now live at about 120 hospital trusts [{A}]."
        ),
        filing(),
    );
    // Whom it is told to, not what it says.
    assert_caught(
        &format!(
            "Palantir disclosed in an 8-K that the NHS Federated Data Platform is now live at about 120 hospital trusts for investors [{A}]."
        ),
        filing(),
        Check::UnsupportedContent,
    );
    // A news report is not told to investors.
    let news = || {
        vec![entry(
            A,
            "Reuters reported that the NHS Federated Data Platform is now live at about 120 hospital trusts.",
            "The NHS Federated Data Platform is now live at about 120 hospital trusts, according to people familiar with the matter.",
        )]
    };
    assert_caught(
        &format!(
            "Palantir told investors that the NHS Federated Data Platform is now live at about 120 hospital trusts [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_figure_with_its_own_clause_may_come_from_another_sentence() {
    let shares = || {
        vec![entry(
            A,
            "CNBC says that Palantir shares trade at roughly 80 times forward sales. The shares moved 8% on the report.",
            "Shares of Palantir have risen 41% this year, compared with a 14% rise in the Nasdaq 100.",
        )]
    };
    assert_clean(
        &format!("The shares moved 8% on the report, and they have risen 41% this year [{A}]."),
        shares(),
    );
    // A figure with nothing of its clause beside it elsewhere is still not this statement's.
    let films = || {
        vec![entry(
            A,
            "She portrayed Vesper Lynd in the film Casino Royale (2006).",
            "She made her film debut in 2003 in The Dreamers.",
        )]
    };
    assert_caught(
        &format!("She made her film debut in 2006 [{A}]."),
        films(),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_same_figures_are_those_of_the_sentence_before() {
    let two = |second: &str| {
        vec![
            entry(
                A,
                "@AppleSupport posted that services revenue reached a record $29 billion, up 14% from a year earlier.",
                "",
            ),
            entry(
                B,
                &format!(
                    "Reuters says that services revenue reached {second}. The report cites supply-chain sources."
                ),
                "",
            ),
        ]
    };
    let sentence = format!(
        "Services revenue reached a record $29 billion, up 14% from a year earlier, @AppleSupport posted [{A}]. Reuters reported the same figures, citing supply-chain sources [{B}]."
    );
    assert_clean(
        &sentence,
        two("a record $29 billion, up 14% from a year earlier"),
    );
    // Reuters' figures are others.
    assert_caught(
        &sentence,
        two("$27 billion, up 11% from a year earlier"),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_same_news_is_what_the_sentence_before_tells() {
    // `first` is the accession of the entry the sentence before cites, `second` of the one
    // that points back to it.
    let two = |first: &str, second: &str, told: &str| {
        vec![
            entry(
                first,
                "@AMDServer posted that the first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026.",
                "",
            ),
            entry(second, &format!("@AMDInstinct posted that {told}."), ""),
        ]
    };
    let same = "the first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026";
    let sentence = |first: &str, second: &str| {
        format!(
            "The first gigawatt of MI450 deployment for OpenAI is scheduled for the second half of 2026, @AMDServer posted [{first}].\n\n@AMDInstinct later posted the same timetable [{second}]."
        )
    };
    assert_clean(&sentence(A, B), two(A, B, same));
    // Not `later`: the entry pointing back is of an earlier day.
    assert_caught(&sentence(B, A), two(B, A, same), Check::UnsupportedContent);
    // The second post tells another timetable.
    assert_caught(
        &sentence(A, B),
        two(
            A,
            B,
            "the MI500 launch is planned for 2027 at a gigawatt scale",
        ),
        Check::UnsupportedContent,
    );
}

#[test]
fn what_a_meeting_includes_is_on_its_agenda() {
    let proxy = || {
        vec![entry(
            A,
            "The proxy statement sets the annual meeting for October 20, 2026 and includes an advisory vote on executive pay.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "The proxy statement sets the annual meeting for October 20, 2026, with an advisory vote on executive pay on the agenda [{A}]."
        ),
        proxy(),
    );
    // Without what it includes, the agenda is the draft's own word.
    let recommended = vec![entry(
        A,
        "The proxy statement sets the annual meeting for October 20, 2026, and the board recommends an advisory vote on executive pay.",
        "",
    )];
    let r = audit(&draft(
        &format!(
            "The proxy statement sets the annual meeting for October 20, 2026, with an advisory vote on executive pay on the agenda [{A}]."
        ),
        recommended,
    ));
    assert!(
        r.issues
            .iter()
            .any(|i| i.check == Check::UnsupportedContent && i.detail.contains("agenda")),
        "{:#?}",
        r.issues
    );
}

#[test]
fn a_thing_made_by_its_owner_is_the_owners() {
    let leaks = || {
        vec![entry(
            A,
            "Reuters says that Blackwell Ultra yields improved after earlier leaks in the NVL72 racks were traced to a supplier's quick-disconnect fittings.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Reuters says Blackwell Ultra yields improved after earlier leaks in the NVL72 racks were traced to quick-disconnect fittings made by a supplier [{A}]."
        ),
        leaks(),
    );
    // The owner of another thing made nothing here.
    let r = audit(&draft(
        &format!(
            "Reuters says Blackwell Ultra yields improved after earlier leaks in the NVL72 racks were traced to quick-disconnect fittings made by a supplier [{A}]."
        ),
        vec![entry(
            A,
            "Reuters says that Blackwell Ultra yields improved after earlier leaks in a supplier's NVL72 racks were traced to quick-disconnect fittings.",
            "",
        )],
    ));
    assert!(
        r.issues
            .iter()
            .any(|i| i.check == Check::UnsupportedContent && i.detail.contains("made")),
        "{:#?}",
        r.issues
    );
}

#[test]
fn figures_set_side_by_side_bear_out_which_is_ahead() {
    let shares = || {
        vec![entry(
            A,
            "Shares of AMD have risen 41% this year, compared with a 14% rise in the Nasdaq 100.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Shares of AMD are up 41% this year, well ahead of the 14% rise in the Nasdaq 100 [{A}]."
        ),
        shares(),
    );
    assert_caught(
        &format!(
            "Shares of AMD are up 41% this year, well behind the 14% rise in the Nasdaq 100 [{A}]."
        ),
        shares(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_link_to_a_thing_named_as_known_leans_on_the_entry() {
    let form4 = || {
        vec![entry(
            A,
            "Greg Joswiak sold 23,235 shares at a weighted average price of $249.09.",
            "The sales were effected pursuant to a Rule 10b5-1 trading plan. Following the reported transactions the reporting person directly owns 8,146,000 shares.",
        )]
    };
    assert_clean(
        &format!(
            "Greg Joswiak sold 23,235 shares at a weighted average price of $249.09 [{A}]. He directly holds 8,146,000 shares after the sales [{A}]."
        ),
        form4(),
    );
    // A thing the entry does not tell is no such thing.
    assert_caught(
        &format!(
            "Greg Joswiak sold 23,235 shares at a weighted average price of $249.09 [{A}]. He directly holds 8,146,000 shares after the split [{A}]."
        ),
        form4(),
        Check::UnsupportedContent,
    );
}

#[test]
fn by_a_wide_margin_is_well_behind() {
    let growth = |how: &str| {
        vec![entry(
            A,
            &format!(
                "International commercial revenue grew only about 15%, {how} behind the U.S. business, according to supply-chain sources."
            ),
            "",
        )]
    };
    let sentence = format!(
        "International commercial revenue grew only about 15%, trailing the U.S. business by a wide margin, according to supply-chain sources [{A}]."
    );
    assert_clean(&sentence, growth("well"));
    assert_caught(&sentence, growth("slightly"), Check::UnsupportedContent);
}

#[test]
fn already_is_an_act_under_way() {
    let venice = |tense: &str| {
        vec![entry(
            A,
            &format!(
                "@LisaSu posted that the Venice generation of EPYC {tense} to customers ahead of a 2026 launch."
            ),
            "",
        )]
    };
    let sentence = format!(
        "Lisa Su posted that Venice, the next EPYC generation, is already sampling to customers ahead of its 2026 launch [{A}]."
    );
    assert_clean(&sentence, venice("is sampling"));
    assert_caught(
        &sentence,
        venice("will start sampling"),
        Check::UnsupportedContent,
    );
}

#[test]
fn lost_to_is_left_for_told_from_the_one_left() {
    let departure = || {
        vec![entry(
            A,
            "@AppleSupport posted that a senior Apple foundation-models researcher has left for a rival AI lab.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "@AppleSupport posted that Apple has lost a senior foundation-models researcher to a rival AI lab [{A}]."
        ),
        departure(),
    );
    assert_caught(
        &format!(
            "@AppleSupport posted that a rival AI lab has lost a senior foundation-models researcher to Apple [{A}]."
        ),
        departure(),
        Check::UnsupportedContent,
    );
}

#[test]
fn letters_that_lower_case_longer_do_not_shift_the_comparison() {
    // `İ` lower-cases to two characters: an index of the lowered text is none of the text's,
    // and slicing the text there would cut a character in two.
    let shares = vec![entry(
        A,
        "Shares have risen 41% this year, compared with a 14% rise in the index.",
        "",
    )];
    let r = audit(&draft(
        &format!(
            "The İİİİİİ fund is up 41% this year, ahead—far ahead—of the 14% rise in the index [{A}]."
        ),
        shares,
    ));
    assert!(!r.issues.is_empty());
}

#[test]
fn what_is_of_a_place_names_the_place_and_not_the_other_way() {
    let chinese = || {
        vec![entry(
            A,
            "@NVIDIADC posted that Chinese regulators have told large internet companies to pause new orders of NVIDIA accelerators.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Large internet companies in China have been told by regulators to pause new orders of NVIDIA accelerators, @NVIDIADC posted [{A}]."
        ),
        chinese(),
    );
    // A record released in Canada is no Canadian band's.
    let canada = vec![entry(
        A,
        "Brand New Eyes is the third studio album by American rock band Paramore, released in the United States and Canada.",
        "",
    )];
    assert_caught(
        &format!("Paramore is Canadian [{A}]."),
        canada,
        Check::UnsupportedContent,
    );
}

#[test]
fn the_trades_usual_rewordings_are_read() {
    for (source, restated) in [
        (
            "The Company repurchased shares during the quarter under its existing authorisation.",
            "The company bought back shares in the quarter under its existing authorisation",
        ),
        (
            "@NVIDIADC posted that sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue this fiscal year.",
            "Sovereign AI customers are on pace to contribute about $20 billion of NVIDIA revenue in the current fiscal year, @NVIDIADC posted",
        ),
        (
            "Palantir's market value briefly passed $400 billion.",
            "Palantir's market capitalisation briefly passed $400 billion",
        ),
    ] {
        assert_clean(&format!("{restated} [{A}]."), vec![entry(A, source, "")]);
    }
}

#[test]
fn a_kind_after_a_name_is_what_the_name_is() {
    let vultr = || {
        vec![entry(
            A,
            "@LisaSu posted that Vultr standardised on fifth-generation EPYC for its newest general-purpose cloud instances.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Vultr has standardised on fifth-generation EPYC processors for its newest general-purpose cloud instances, @LisaSu posted [{A}]."
        ),
        vultr(),
    );
    // Not after a name the entry holds.
    assert_caught(
        &format!(
            "Vultr has standardised on fifth-generation processors and accelerators for its newest general-purpose cloud instances, @LisaSu posted [{A}]."
        ),
        vultr(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_count_glued_to_its_things_is_a_figure() {
    let hand = || {
        vec![entry(
            A,
            "Financial Times writes that Tesla showed employees a third-generation Optimus prototype with a redesigned 22-actuator hand.",
            "",
        )]
    };
    let draft = |n: &str| {
        format!(
            "Tesla showed employees a third-generation Optimus prototype with a redesigned hand of {n} actuators, the Financial Times writes [{A}]."
        )
    };
    assert_clean(&draft("22"), hand());
    assert_caught(&draft("23"), hand(), Check::UnsupportedFigure);
}

#[test]
fn a_negated_word_says_what_its_opposite_does() {
    let guidance = |says: &str| {
        vec![entry(
            A,
            &format!(
                "AMD's quarterly report says AMD's guidance {says} any MI308 revenue from China."
            ),
            "",
        )]
    };
    let draft = |says: &str| {
        format!(
            "AMD's guidance {says} any MI308 revenue from China, according to its quarterly report [{A}]."
        )
    };
    assert_clean(&draft("does not include"), guidance("excludes"));
    // Not where the source's word is negated itself.
    assert_caught(
        &draft("does not exclude"),
        guidance("does not include"),
        Check::UnsupportedContent,
    );
}

#[test]
fn what_a_subject_is_granted_it_receives() {
    let warrant = |verb: &str| {
        vec![entry(
            A,
            &format!(
                "Bloomberg writes that OpenAI {verb} a warrant for up to 160 million AMD shares."
            ),
            "",
        )]
    };
    let sentence = format!(
        "OpenAI was granted a warrant for up to 160 million AMD shares, Bloomberg writes [{A}]."
    );
    assert_clean(&sentence, warrant("received"));
    // Not where the entry has it give one.
    assert_caught(&sentence, warrant("issued"), Check::UnsupportedContent);
}

#[test]
fn a_source_the_sentence_ends_on_adds_and_an_additional_thing_is_new() {
    let filing = || {
        vec![entry(
            A,
            "NVIDIA authorised an additional share repurchase program without an expiration date, according to an 8-K filed with the SEC.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA authorised an additional share repurchase program, according to an 8-K filed with the SEC [{A}]. The new program has no expiration date, the filing adds [{A}]."
        ),
        filing(),
    );
    assert_clean(
        &format!(
            "NVIDIA authorised an additional share repurchase program, according to an 8-K filed with the SEC [{A}]. The filing adds that the program has no expiration date [{A}]."
        ),
        filing(),
    );
    // `adds` that tells an amount, and `new` of another thing, are the draft's own.
    assert_caught(
        &format!(
            "NVIDIA authorised an additional share repurchase program, according to an 8-K filed with the SEC [{A}]. The program adds that it has no expiration date [{A}]."
        ),
        filing(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!(
            "NVIDIA authorised an additional share repurchase program without an expiration date, which adds to earnings [{A}]."
        ),
        filing(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!(
            "NVIDIA authorised an additional share repurchase program without an expiration date for its new shareholders [{A}]."
        ),
        filing(),
        Check::UnsupportedContent,
    );
}

#[test]
fn what_moved_on_the_report_moved_after_it() {
    let moved = || {
        vec![entry(
            A,
            "Reuters says Palantir closed 204 deals. The shares moved 5% on the report.",
            "",
        )]
    };
    assert_clean(
        &format!("The shares moved 5% after the report [{A}]."),
        moved(),
    );
    // Not before it, nor after other news.
    assert_caught(
        &format!("The shares moved 5% before the report [{A}]."),
        moved(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!("The shares moved 5% after the announcement [{A}]."),
        moved(),
        Check::UnsupportedContent,
    );
}

/// A post that NVIDIA shares moved (`first`) and a report of a charge (`second`).
fn moved_then_charged(first: &str, second: &str) -> Vec<Source> {
    vec![
        entry(
            first,
            "@nvidia posted that NVIDIA shares moved about 8% in a session.",
            "",
        ),
        entry(
            second,
            "Bloomberg says NVIDIA recorded a charge on export licences.",
            "",
        ),
    ]
}

#[test]
fn later_and_earlier_follow_the_days_of_the_entries_cited() {
    // `first` is the accession of the entry the sentence before cites.
    let two = moved_then_charged;
    let sentence = |first: &str, second: &str, when: &str| {
        format!(
            "NVIDIA shares moved about 8% in a session, @nvidia posted [{first}]. NVIDIA {when} recorded a charge on export licences, Bloomberg says [{second}]."
        )
    };
    assert_clean(&sentence(A, B, "later"), two(A, B));
    assert_clean(&sentence(B, A, "had earlier"), two(B, A));
    // How long after, unnumbered, and `since` as a link.
    assert_clean(&sentence(A, B, "weeks later"), two(A, B));
    assert_clean(&sentence(A, B, "has since"), two(A, B));
    assert_caught(
        &sentence(B, A, "weeks later"),
        two(B, A),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(B, A, "has since"),
        two(B, A),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(A, B, "in weeks"),
        two(A, B),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(B, A, "later"),
        two(B, A),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(A, B, "had earlier"),
        two(A, B),
        Check::UnsupportedContent,
    );
}

#[test]
fn what_follows_the_same_is_what_was_told() {
    let two = |told: &str| {
        vec![
            entry(
                A,
                "Reuters says Wedbush initiated Palantir at underperform, citing valuation.",
                "",
            ),
            entry(B, &format!("Bloomberg says {told}."), ""),
        ]
    };
    let sentence = format!(
        "Wedbush initiated Palantir at underperform, citing valuation, Reuters says [{A}]. Bloomberg later reported the same initiation and rationale [{B}]."
    );
    assert_clean(
        &sentence,
        two("Wedbush initiated Palantir at underperform, citing valuation"),
    );
    assert_caught(
        &sentence,
        two("Morgan Stanley trimmed its price target on Palantir to $150"),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_handle_is_the_entrys_as_written_whole() {
    let post = || {
        vec![entry(
            A,
            "@Tesla_AI posted that Tesla showed employees a third-generation Optimus prototype.",
            "",
        )]
    };
    let sentence = |who: &str| {
        format!(
            "{who} posted that Tesla showed employees a third-generation Optimus prototype [{A}]."
        )
    };
    assert_clean(&sentence("@Tesla_AI"), post());
    // Its words are the entry's, the handle is not.
    assert_caught(
        &sentence("@Tesla_Optimus"),
        post(),
        Check::UnsupportedContent,
    );
    assert_caught(&sentence("@Tesla"), post(), Check::UnsupportedContent);
}

#[test]
fn what_an_analyst_called_the_news_is_what_the_entry_tells() {
    let call = || {
        vec![entry(
            A,
            "Bloomberg says the Rubin GPU has taped out at TSMC. Vivek Arya at Bernstein called it a near-term headwind for the stock.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Vivek Arya at Bernstein called the news a near-term headwind for the stock [{A}]."
        ),
        call(),
    );
    // A word of its own is no shell.
    assert_caught(
        &format!(
            "Vivek Arya at Bernstein called the lawsuit a near-term headwind for the stock [{A}]."
        ),
        call(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_negation_on_the_subject_restates_one_on_the_object() {
    let post = |says: &str| {
        vec![entry(
            A,
            &format!(
                "@NVIDIAAI posted that NVIDIA detailed the NVL144 rack. The post gave {says} further detail."
            ),
            "",
        )]
    };
    let sentence = |says: &str| {
        format!("NVIDIA detailed the NVL144 rack, @NVIDIAAI posted [{A}]. {says} [{A}].")
    };
    assert_clean(
        &sentence("No further detail was given in the post"),
        post("no"),
    );
    assert_caught(
        &sentence("The post gave further detail"),
        post("no"),
        Check::NegationFlipped,
    );
    assert_caught(
        &sentence("No further detail was given in the post"),
        post("some"),
        Check::NegationFlipped,
    );
}

#[test]
fn a_count_of_the_entries_cited_is_borne_out_by_them() {
    let sales = || {
        vec![
            entry(
                A,
                "John Ternus, senior vice president of hardware engineering, sold 7,604 NVIDIA shares under a Rule 10b5-1 trading plan.",
                "",
            ),
            entry(
                B,
                "Craig Federighi, senior vice president of software engineering, sold 14,925 NVIDIA shares under a Rule 10b5-1 trading plan.",
                "",
            ),
        ]
    };
    let sentence = |count: &str, cited: &str| {
        format!(
            "{count} NVIDIA senior vice presidents sold shares under Rule 10b5-1 trading plans {cited}."
        )
    };
    assert_clean(&sentence("Two", &format!("[{A}] [{B}]")), sales());
    assert_caught(
        &sentence("Three", &format!("[{A}] [{B}]")),
        sales(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence("Two", &format!("[{A}]")),
        sales(),
        Check::UnsupportedContent,
    );
    // A measure is no count of things: `two years` needs its own source.
    assert_caught(
        &format!(
            "John Ternus sold 7,604 NVIDIA shares two years after Craig Federighi sold 14,925 [{A}] [{B}]."
        ),
        sales(),
        Check::UnsupportedContent,
    );
}

#[test]
fn who_is_saying_it_in_a_clause_of_with_is_a_speaker() {
    let news = || {
        vec![entry(
            A,
            "Reuters reported that Azure grew 38% in constant currency, and Amy Hood said growth would have been higher with more capacity.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Reuters reported that Azure grew 38% in constant currency, with Amy Hood saying growth would have been higher with more capacity [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Reuters reported that Azure grew 38% in constant currency, with Judson Althoff saying growth would have been higher with more capacity [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_target_of_keeps_the_hedge_of_targets() {
    let post = || {
        vec![entry(
            A,
            "@Tesla_AI posted that Tesla is building an Optimus line in Fremont that targets about 5,000 humanoid robots next year.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Tesla is building an Optimus line in Fremont with a target of about 5,000 humanoid robots next year, @Tesla_AI posted [{A}]."
        ),
        post(),
    );
    assert_caught(
        &format!(
            "Tesla is building an Optimus line in Fremont that will make about 5,000 humanoid robots next year, @Tesla_AI posted [{A}]."
        ),
        post(),
        Check::CertaintyRaised,
    );
}

#[test]
fn a_sentence_that_repeats_the_one_before_keeps_its_negations() {
    let posts = |second: &str| {
        vec![
            entry(
                A,
                "@NVIDIAAI posted that China has fallen to roughly 4% of NVIDIA's data-center revenue. The post gave no further detail.",
                "",
            ),
            entry(
                B,
                &format!("@nvidia posted that {second}. No figures beyond the post were given."),
                "",
            ),
        ]
    };
    let same = "China has fallen to roughly 4% of NVIDIA's data-center revenue";
    let first = format!(
        "China has fallen to roughly 4% of NVIDIA's data-center revenue, @NVIDIAAI posted [{A}]."
    );
    let repeated =
        format!("{first} The company repeated the figures in a post from @nvidia [{B}].");
    assert_clean(&repeated, posts(same));
    // Where the second post tells something else, the sentence is judged against it.
    assert_caught(
        &repeated,
        posts("its data-center revenue rose in the quarter"),
        Check::NegationFlipped,
    );
}

#[test]
fn a_superlative_stands_with_where_it_ranks() {
    let news = || {
        vec![entry(
            A,
            "CNBC says that NVIDIA shares trade at roughly 30 times forward sales, the highest multiple in the S&P 500.",
            "Shares of NVIDIA have climbed 27% this year, compared with a 17% rise in the Nasdaq 100.",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA shares trade at roughly 30 times forward sales, the highest multiple in the S&P 500, CNBC says [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "NVIDIA shares trade at roughly 30 times forward sales, the highest multiple in the Nasdaq 100, CNBC says [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn speakers_traded_between_two_sentences_of_the_summary_are_caught() {
    let news = || {
        vec![entry(
            A,
            "Bloomberg reported that the Commerce Department granted licences for some MI308 sales to Chinese customers. Joshua Buchalter at TD Cowen called it an important signal for the stock.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Bloomberg reported that the Commerce Department granted licences for some MI308 sales to Chinese customers, and Joshua Buchalter at TD Cowen called it an important signal for the stock [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Joshua Buchalter at TD Cowen said the Commerce Department granted licences for some MI308 sales to Chinese customers, and Bloomberg called it an important signal for the stock [{A}]."
        ),
        news(),
        Check::RolesSwapped,
    );
}

#[test]
fn an_adverb_may_lead_a_link_opening_its_clause() {
    let news = |when: &str| {
        vec![
            entry(
                A,
                "@AMDServer posted that AMD will report quarterly results on October 4 after the market close.",
                "",
            ),
            entry(
                B,
                &format!(
                    "@AMD posted that AMD will report quarterly results on November 4 {when}. The post gave no further detail."
                ),
                "",
            ),
        ]
    };
    let text = format!(
        "@AMDServer posted that AMD will report quarterly results on October 4 after the market close [{A}]. A post from @AMD gave November 4, also after the close, as the date for quarterly results [{B}]."
    );
    assert_clean(&text, news("after the market close"));
    assert_caught(
        &text,
        news("before the market opens"),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_option_weighed_is_what_the_entry_weighs() {
    let news = |verb: &str| {
        vec![entry(
            A,
            &format!(
                "Apple's quarterly report for the period ended 2026-09-26 says Apple is {verb} the use of an outside large language model to power parts of Siri, running on Private Cloud Compute."
            ),
            "",
        )]
    };
    let text = |verb: &str| {
        format!(
            "An outside large language model could power parts of Siri, according to Apple's quarterly report for the period ended 2026-09-26, which says the company is {verb} that option with the model running on Private Cloud Compute [{A}]."
        )
    };
    assert_clean(&text("weighing"), news("weighing"));
    assert_caught(
        &text("rejecting"),
        news("weighing"),
        Check::UnsupportedContent,
    );
    assert_caught(
        &text("weighing"),
        news("testing"),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_reason_cited_is_the_claim() {
    let news = || {
        vec![entry(
            A,
            "Reuters writes that Stacy Rasgon at Bernstein raised the price target on NVIDIA to $230, citing data-center revenue.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Stacy Rasgon at Bernstein lifted the price target on NVIDIA to $230, citing data-center revenue, Reuters writes [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Reuters writes that Stacy Rasgon at Bernstein raised the price target on NVIDIA to $230, citing gaming revenue [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn an_aside_of_where_it_has_it_leaves_the_outlet_the_speaker() {
    let news = || {
        vec![entry(
            A,
            "Reuters writes that AMD says the MI350 series delivers up to 35x the inference performance of the MI300X on large language models.",
            "AMD says the MI350 series delivers up to 35x the inference performance of the MI300X on large language models, according to three current and former employees.",
        )]
    };
    let text = |outlet: &str| {
        format!(
            "{outlet}, citing three current and former employees, writes that AMD says the MI350 series delivers up to 35 times the inference performance of the MI300X on large language models [{A}]."
        )
    };
    assert_clean(&text("Reuters"), news());
    assert_caught(&text("Bloomberg"), news(), Check::UnsupportedContent);
}

#[test]
fn a_month_short_name_before_its_day_is_a_date() {
    let news = || {
        vec![entry(
            A,
            "Apple's quarterly report for the period ended 2026-09-26 says the European Commission opened a new review of App Store fees under the Digital Markets Act.",
            "Quarterly report on Form 10-Q for the quarterly period ended 2026-09-26. The European Commission opened a new review of App Store fees under the Digital Markets Act.",
        )]
    };
    let text = |day: &str| {
        format!(
            "Apple's quarterly report for the period ended Sept. {day} says the European Commission opened a new review of App Store fees under the Digital Markets Act [{A}]."
        )
    };
    assert_clean(&text("26"), news());
    assert_caught(&text("29"), news(), Check::UnsupportedDate);
}

#[test]
fn what_a_filing_is_furnished_under_is_where_it_comes_from() {
    let news = || {
        vec![Source {
            title: "8-K: Tesla furnishes NHTSA data".into(),
            ..entry(
                A,
                "In an 8-K filed with the SEC, Tesla disclosed that it will give NHTSA data on incidents reported since June.",
                "Item 7.01 Regulation FD Disclosure. Tesla, Inc. (the \"Company\") furnishes the information below. The Company reports that it will give NHTSA data on incidents reported since June.",
            )
        }]
    };
    let lead = format!(
        "Tesla disclosed in an 8-K that it will give NHTSA data on incidents reported since June [{A}]."
    );
    assert_clean(
        &format!("{lead} The disclosure was furnished under Regulation FD [{A}]."),
        news(),
    );
    assert_caught(
        &format!("{lead} The disclosure was furnished under Regulation S-K [{A}]."),
        news(),
        Check::UnsupportedName,
    );
}

#[test]
fn an_officer_title_in_capitals_is_the_title() {
    let news = || {
        vec![entry(
            A,
            "Reuters reports that Jean Hu, chief financial officer, told the Bernstein Strategic Decisions Conference that demand remains strong.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Reuters reported that CFO Jean Hu told the Bernstein Strategic Decisions Conference that demand remains strong [{A}]."
        ),
        news(),
    );
    assert_clean(
        &format!(
            "Reuters reported that CFO Jean Hu told the Bernstein Strategic Decisions Conference that demand remains strong [{A}]."
        ),
        vec![entry(
            A,
            "Reuters reports that CFO Jean Hu told the Bernstein Strategic Decisions Conference that demand remains strong.",
            "",
        )],
    );
    assert_caught(
        &format!(
            "Reuters reported that CEO Jean Hu told the Bernstein Strategic Decisions Conference that demand remains strong [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn the_company_and_its_name_are_no_two_parties() {
    let news = || {
        vec![entry(
            A,
            "@Tesla posted that Vaibhav Taneja, chief financial officer, told the Morgan Stanley Technology, Media & Telecom Conference that demand remains strong and that the company is investing ahead of it.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Chief financial officer Vaibhav Taneja told the Morgan Stanley Technology, Media & Telecom Conference that demand remains strong and that Tesla is investing ahead of it, the company posted on X [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Chief financial officer Vaibhav Taneja told the Morgan Stanley Technology, Media & Telecom Conference that demand remains strong and that Tesla is investing ahead of it, Morgan Stanley posted on X [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_participle_after_a_noun_is_no_act_of_a_name() {
    let news = || {
        vec![entry(
            A,
            "Tesla's quarterly report for the period ended 2026-06-30 says Tesla deployed 9.6 GWh of energy storage in the quarter, a record for the business.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Tesla's quarterly report for the period ended 2026-06-30 reports a record 9.6 GWh of energy storage deployed in the quarter [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Tesla's quarterly report for the period ended 2026-06-30 reports a record 9.6 GWh of energy storage deployed for the quarter by Panasonic [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn figures_cited_from_a_party_name_who_is_cited() {
    let news = || {
        vec![entry(
            A,
            "@AMDServer posted that AMD's EPYC processors reached about 39% of server CPU revenue, according to Mercury Research.",
            "",
        )]
    };
    let text = |who: &str| {
        format!(
            "AMD's EPYC processors now account for about 39% of server CPU revenue, the @AMDServer account posted, citing figures from {who} [{A}]."
        )
    };
    assert_clean(&text("Mercury Research"), news());
    assert_caught(&text("IDC"), news(), Check::UnsupportedName);
}

#[test]
fn after_which_links_two_clauses() {
    let news = |when: &str| {
        vec![entry(
            A,
            "Vamsi Boppana, senior vice president of AI, sold 68,248 AMD shares under a Rule 10b5-1 trading plan.",
            &format!(
                "The sales were effected pursuant to a Rule 10b5-1 trading plan adopted earlier in the year. {when} the reporting person directly owns 8,124,000 shares."
            ),
        )]
    };
    let text = format!(
        "The sales were made under a Rule 10b5-1 trading plan, after which he directly owns 8,124,000 shares [{A}]."
    );
    assert_clean(&text, news("Following the reported transactions"));
    // The time of the plan is still read.
    assert_caught(
        &format!(
            "The sales were made under a Rule 10b5-1 trading plan adopted later in the year, after which he directly owns 8,124,000 shares [{A}]."
        ),
        news("Following the reported transactions"),
        Check::DirectionFlipped,
    );
}

#[test]
fn rather_than_negates() {
    let news = || {
        vec![entry(
            A,
            "In an 8-K filed with the SEC, Apple disclosed that the revamped Siri is now planned for a spring release.",
            "The information in this Item 7.01 shall not be deemed \"filed\" for purposes of Section 18 of the Securities Exchange Act of 1934.",
        )]
    };
    let lead = format!(
        "In an 8-K, Apple disclosed that the revamped Siri is now planned for a spring release [{A}]."
    );
    assert_clean(
        &format!(
            "{lead} The information was furnished rather than deemed filed for Section 18 purposes [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "{lead} The information was furnished and deemed filed for Section 18 purposes [{A}]."
        ),
        news(),
        Check::NegationFlipped,
    );
}

#[test]
fn due_to_ship_is_a_schedule_and_praise_told_is_told() {
    let news = || {
        vec![entry(
            A,
            "Reuters reported that Quanta has begun final qualification of HBM4 stacks for Rubin, with samples shipping in volume next quarter.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Quanta has started final qualification of HBM4 stacks for Rubin, with samples due to ship in volume next quarter, Reuters reported [{A}]."
        ),
        news(),
    );
    // A cause is still a cause.
    assert_caught(
        &format!(
            "Quanta has started final qualification of HBM4 stacks for Rubin due to demand, with samples shipping in volume next quarter, Reuters reported [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
    let posts = || {
        vec![
            entry(
                A,
                "Bloomberg reports that Fannie Mae expanded its use of AIP across operations after a five-day bootcamp.",
                "",
            ),
            entry(
                B,
                "@PalantirTech posted that Fannie Mae expanded its use of AIP across operations after a five-day bootcamp.",
                "",
            ),
        ]
    };
    let lead = format!(
        "Bloomberg reported that Fannie Mae expanded its use of AIP across operations following a five-day bootcamp [{A}]."
    );
    assert_clean(
        &format!(
            "{lead} Palantir later hailed the same expansion in a post from @PalantirTech [{B}]."
        ),
        posts(),
    );
    assert_caught(
        &format!(
            "{lead} Palantir later hailed the same expansion in a post from @PalantirUS [{B}]."
        ),
        posts(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_clause_of_two_entries_crossed_is_caught() {
    let news = || {
        vec![
            entry(
                A,
                "Reuters reported that Stacy Rasgon at Bernstein raised the price target on AMD to $180.",
                "",
            ),
            entry(
                B,
                "Financial Times reports that analysts expect Instinct GPU revenue of about $8 billion this year. Harsh Kumar, an analyst at Piper Sandler, said the development was not yet reflected in consensus estimates.",
                "",
            ),
        ]
    };
    let text = |first: &str, second: &str| {
        format!(
            "Reuters reported that Stacy Rasgon at {first} raised the price target on AMD to $180, while Harsh Kumar at {second} said the development was not yet reflected in consensus estimates [{A}] [{B}]."
        )
    };
    assert_clean(&text("Bernstein", "Piper Sandler"), news());
    assert_caught(
        &text("Piper Sandler", "Bernstein"),
        news(),
        Check::RolesSwapped,
    );
    // `and` with a subject and a verb of its own opens a clause of its own.
    assert_clean(
        &format!(
            "Reuters reported that Stacy Rasgon at Bernstein raised the price target on AMD to $180 and the Financial Times reports that analysts expect Instinct GPU revenue of about $8 billion this year [{A}] [{B}]."
        ),
        news(),
    );
    // Not a second verb of the same subject.
    assert_caught(
        &format!(
            "Reuters reported that Stacy Rasgon at Bernstein raised the price target on AMD and put it at $8 billion [{A}] [{B}]."
        ),
        news(),
        Check::RolesSwapped,
    );
}

#[test]
fn a_comparison_the_other_way_round_is_caught() {
    let news = || {
        vec![entry(
            A,
            "Bloomberg reports that assembly in India now accounts for about 78% of iPhones shipped to the United States. Wamsi Mohan, an analyst at BofA Securities, said the development matters more for 2027 than for this year.",
            "",
        )]
    };
    let text = |a: &str, b: &str| {
        format!(
            "BofA Securities analyst Wamsi Mohan said the development matters more for {a} than for {b} [{A}]."
        )
    };
    assert_clean(&text("2027", "this year"), news());
    assert_caught(&text("this year", "2027"), news(), Check::RolesSwapped);
}

#[test]
fn a_rollout_is_a_deployment() {
    let news = |verb: &str| {
        vec![entry(
            A,
            &format!(
                "In an 8-K filed with the SEC, AMD disclosed that AMD and OpenAI agreed on a multi-year deal to {verb} 6 gigawatts of Instinct GPUs, starting with MI450 in 2026."
            ),
            "",
        )]
    };
    let text = format!(
        "AMD and OpenAI agreed on a multi-year deal for 6 gigawatts of Instinct GPUs, AMD disclosed in an 8-K [{A}]. The rollout is to begin with the MI450 in 2026 [{A}]."
    );
    assert_clean(&text, news("deploy"));
    assert_caught(&text, news("price"), Check::UnsupportedContent);
}

#[test]
fn a_clause_of_which_rests_on_its_own_sentence() {
    let news = || {
        vec![entry(
            A,
            "Financial Times writes that assembly in India now accounts for about 78% of iPhones shipped to the United States. Wamsi Mohan at BofA Securities called it an underappreciated risk for the stock.",
            "Shares of Apple have risen about 18% this year, compared with a 12% rise in the Nasdaq 100.",
        )]
    };
    let text = |index: &str| {
        format!(
            "Wamsi Mohan called this an underappreciated risk for the stock, which has risen about 18% this year against a 12% gain in the {index} [{A}]."
        )
    };
    assert_clean(&text("Nasdaq 100"), news());
    assert_caught(&text("Dow Jones"), news(), Check::UnsupportedContent);
}

#[test]
fn a_launch_is_a_release() {
    let news = |what: &str| {
        vec![entry(
            A,
            &format!(
                "In an 8-K filed with the SEC, Apple disclosed that the revamped, more personal Siri is now planned for a spring {what} alongside iOS 26.4."
            ),
            "",
        )]
    };
    let text = format!(
        "According to an 8-K, the revamped and more personal Siri is now planned for a spring launch alongside iOS 26.4 [{A}]."
    );
    assert_clean(&text, news("release"));
    assert_caught(&text, news("review"), Check::UnsupportedContent);
}

#[test]
fn already_is_of_an_earlier_entry() {
    // A is of 2026-08-14, B of 2026-09-02.
    let news = || {
        vec![
            entry(
                A,
                "NVIDIA's quarterly report says NVIDIA's guidance excludes any H20 revenue from China.",
                "",
            ),
            entry(
                B,
                "In an 8-K filed with the SEC, NVIDIA disclosed that new export rules tighten licensing for advanced accelerators shipped to parts of the Middle East.",
                "",
            ),
        ]
    };
    let rules = "New export rules tighten licensing for advanced accelerators shipped to parts of the Middle East, NVIDIA disclosed in an 8-K";
    let guidance = "In its quarterly report, the company had already said NVIDIA's guidance excludes any H20 revenue from China";
    assert_clean(&format!("{rules} [{B}]. {guidance} [{A}]."), news());
    // Of a later entry, `already` is the draft's own.
    assert_caught(
        &format!("{guidance} [{A}]. {rules}, as it had already said [{B}]."),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn first_public_report_is_the_first_time() {
    let news = || {
        vec![entry(
            A,
            "CNBC reported that Apple asked suppliers to raise iPhone 17 production by about 10% for the holiday quarter. It is the first time the figure has been reported.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Suppliers have been asked by Apple to lift iPhone 17 production by about 10% for the holiday quarter, CNBC reported, in the first public report of that figure [{A}]."
        ),
        news(),
    );
    assert_caught(
        &format!(
            "Suppliers have been asked by Apple to lift iPhone 17 production by about 10% for the holiday quarter, CNBC reported, the first order of its kind [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!(
            "Suppliers have been asked by Apple to lift iPhone 17 production by about 10% for the holiday quarter, CNBC reported, in the first public report of that figure [{A}]."
        ),
        vec![entry(
            A,
            "CNBC reported that Apple asked suppliers to raise iPhone 17 production by about 10% for the holiday quarter.",
            "",
        )],
        Check::UnsupportedContent,
    );
}

#[test]
fn not_before_is_the_first_time() {
    let news = || {
        vec![entry(
            A,
            "CNBC writes that GB300 NVL72 rack shipments at Dell are running ahead of NVIDIA's internal plan. It is the first time the figure has been reported.",
            "",
        )]
    };
    let lead = format!(
        "CNBC writes that GB300 NVL72 rack shipments at Dell are running ahead of NVIDIA's internal plan [{A}]."
    );
    assert_clean(
        &format!("{lead} The figure had not been reported before [{A}]."),
        news(),
    );
    assert_caught(
        &format!("{lead} The figure had been reported before [{A}]."),
        news(),
        Check::UnsupportedContent,
    );
    assert_caught(
        &format!("{lead} The figure had not been reported before the earnings call [{A}]."),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn an_analyst_who_calls_it_so_is_who_says_it() {
    let news = || {
        vec![entry(
            A,
            "Reuters says that Blackwell Ultra yields improved through the quarter. Vivek Arya at BofA Securities called it a clear positive for the stock.",
            "",
        )]
    };
    let lead =
        format!("Reuters says that Blackwell Ultra yields improved through the quarter [{A}].");
    for said in [
        "It is a clear positive for the stock, according to Vivek Arya at BofA Securities",
        "BofA Securities' Vivek Arya said it was a clear positive for the stock",
        "Vivek Arya at BofA Securities viewed the news as a clear positive for the stock",
    ] {
        assert_clean(&format!("{lead} {said} [{A}]."), news());
    }
    assert_caught(
        &format!(
            "{lead} It is a clear positive for the stock, according to Joseph Moore at Morgan Stanley [{A}]."
        ),
        news(),
        Check::UnsupportedContent,
    );
}

#[test]
fn what_followed_came_later() {
    let post = || {
        vec![entry(
            A,
            "@NVIDIAAI posted that NVIDIA detailed the NVL144 rack. The company later linked to a press release.",
            "",
        )]
    };
    let lead = format!("NVIDIA detailed the NVL144 rack, @NVIDIAAI posted [{A}].");
    assert_clean(
        &format!("{lead} A press release link followed the post [{A}]."),
        post(),
    );
    assert_caught(
        &format!("{lead} A press release link preceded the post [{A}]."),
        post(),
        Check::UnsupportedContent,
    );
}

#[test]
fn cheaper_is_of_lower_costs() {
    let news = || {
        vec![entry(
            A,
            "Bloomberg writes that gross margin slipped to 15% as price cuts and tariff costs outweighed lower cell costs.",
            "",
        )]
    };
    let sentence = |cells: &str| {
        format!(
            "Price cuts and tariff costs outweighed {cells} cells, and gross margin slipped to 15%, Bloomberg writes [{A}]."
        )
    };
    assert_clean(&sentence("cheaper"), news());
    assert_caught(&sentence("costlier"), news(), Check::UnsupportedContent);
}

#[test]
fn a_party_that_says_it_in_lower_case_is_a_speaker() {
    let post = || {
        vec![entry(
            A,
            "@AppleNews posted that suppliers say orders for the thin iPhone Air were trimmed after softer than expected early demand.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Suppliers say orders for the thin iPhone Air were trimmed after softer than expected early demand, @AppleNews posted [{A}]."
        ),
        post(),
    );
    assert_caught(
        &format!(
            "Analysts say orders for the thin iPhone Air were trimmed after softer than expected early demand, @AppleNews posted [{A}]."
        ),
        post(),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_span_between_two_entries_is_the_days_between_them() {
    let two = |second: &str| moved_then_charged(A, second);
    let sentence = |second: &str, when: &str| {
        format!(
            "NVIDIA shares moved about 8% in a session, @nvidia posted [{A}]. {when}, Bloomberg said NVIDIA recorded a charge on export licences [{second}]."
        )
    };
    // A day, a week and some weeks after A (2026-08-14).
    let (day, week) = ("JM-NVDA-260815-01", "JM-NVDA-260821-01");
    assert_clean(&sentence(day, "The next day"), two(day));
    assert_clean(&sentence(week, "A week later"), two(week));
    assert_clean(&sentence(B, "Weeks later"), two(B));
    assert_caught(
        &sentence(week, "The next day"),
        two(week),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(day, "Weeks later"),
        two(day),
        Check::UnsupportedContent,
    );
    assert_caught(
        &sentence(B, "A week later"),
        two(B),
        Check::UnsupportedContent,
    );
}

#[test]
fn a_company_that_reports_its_results_is_no_speaker() {
    let post = || {
        vec![entry(
            A,
            "@nvidia posted that NVIDIA will report quarterly results on August 27 after the market close.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "NVIDIA reports quarterly results on August 27 after the market close, @nvidia posted [{A}]."
        ),
        post(),
    );
}

#[test]
fn whose_is_a_function_word() {
    let news = || {
        vec![entry(
            A,
            "Reuters says that MI355X accelerator shipments are ramping, with Oracle among the first large deployments.",
            "",
        )]
    };
    assert_clean(
        &format!(
            "Reuters says Oracle is among the first large deployments of the MI355X accelerator, whose shipments are ramping [{A}]."
        ),
        news(),
    );
}

#[test]
fn a_post_from_a_handle_names_who_said_it() {
    let post = || {
        vec![entry(
            A,
            "@nvidia posted that NVIDIA will report quarterly results on November 29 after the market close.",
            "",
        )]
    };
    for said in [
        "A post from @nvidia gave November 29, after the close, as the date for quarterly results",
        "In a post, @nvidia gave November 29, after the close, as the date for quarterly results",
    ] {
        assert_clean(&format!("{said} [{A}]."), post());
    }
    assert_caught(
        &format!(
            "A post from @nvidia gave November 30, after the close, as the date for quarterly results [{A}]."
        ),
        post(),
        Check::UnsupportedDate,
    );
}

#[test]
fn who_did_not_comment_is_who_the_entry_says() {
    let news = || {
        vec![entry(
            A,
            "Reuters says NVIDIA and OpenAI agreed on a multi-year deal. Nebius did not respond to a request for comment.",
            "",
        )]
    };
    let sentence = |who: &str| {
        format!(
            "Reuters says NVIDIA and OpenAI agreed on a multi-year deal; {who} did not respond to a request for comment [{A}]."
        )
    };
    assert_clean(&sentence("Nebius"), news());
    assert_caught(&sentence("OpenAI"), news(), Check::UnsupportedContent);
}

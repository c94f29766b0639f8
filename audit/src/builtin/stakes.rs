//! Whose stake in whom: a draft's sentence that gives a stake to the company held (`OpenAI
//! holds about 27% of Microsoft` where the entry has `gives Microsoft about a 27% stake in
//! OpenAI`). What is held is the name after `stake in` (`interest in`, `holding in`) or after a
//! percentage and `of`.

use super::tokens::{Kind, Tok};

/// Nouns of ownership: the name after them and `in` is what is held.
const STAKES: &[&str] = &["stake", "interest", "holding", "ownership"];

/// The name held in `toks` (its first word, lower case), when exactly one is.
fn held(toks: &[Tok]) -> Option<&str> {
    let capital = |k: usize| {
        toks.get(k)
            .filter(|t| t.kind == Kind::Word && t.raw.starts_with(char::is_uppercase))
            .map(|t| t.word.as_str())
    };
    // Past an article and one describing word (`in the restructured OpenAI`).
    let name = |mut k: usize| {
        if toks
            .get(k)
            .is_some_and(|t| matches!(t.word.as_str(), "the" | "a" | "an"))
        {
            k += 1;
        }
        capital(k).or_else(|| {
            let plain = toks
                .get(k)
                .is_some_and(|t| t.kind == Kind::Word && !t.anchor.is_empty());
            if plain { capital(k + 1) } else { None }
        })
    };
    // `27% of`, `27 percent of`.
    let percent = |k: usize| {
        let t = &toks[k];
        (t.kind == Kind::Number && t.raw.ends_with('%'))
            || (t.word == "percent" && k > 0 && toks[k - 1].kind == Kind::Number)
    };
    let mut found = (0..toks.len()).filter_map(|i| {
        let after = match toks[i].word.as_str() {
            "in" if i > 0 && STAKES.contains(&toks[i - 1].word.as_str()) => i + 1,
            "of" if i > 0 && percent(i - 1) => i + 1,
            _ => return None,
        };
        name(after)
    });
    let first = found.next()?;
    found.all(|n| n == first).then_some(first)
}

/// The name the draft `d` holds and the one the source `s` holds instead, when the draft holds
/// a name that the source has as the holder: both stand in both sentences, held the other way.
pub(super) fn stake_turned<'a>(d: &'a [Tok], s: &'a [Tok]) -> Option<(&'a str, &'a str)> {
    let (ours, theirs) = (held(d)?, held(s)?);
    let has = |toks: &[Tok], w: &str| toks.iter().any(|t| t.word == w);
    (ours != theirs && has(s, ours) && has(d, theirs)).then_some((ours, theirs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::tokens::tokenize;

    const S: &str = "Microsoft's quarterly report says Microsoft and OpenAI signed a new definitive agreement that gives Microsoft about a 27% stake in the restructured OpenAI.";

    fn turned(d: &str) -> Option<(String, String)> {
        stake_turned(&tokenize(d), &tokenize(S)).map(|(a, b)| (a.to_string(), b.to_string()))
    }

    #[test]
    fn a_stake_given_to_the_company_held_is_read() {
        let d = "Microsoft's quarterly report describes the new agreement with OpenAI, under which the restructured OpenAI holds about 27% of Microsoft.";
        assert_eq!(turned(d), Some(("microsoft".into(), "openai".into())));
        let d = "Under the new agreement, OpenAI gives Microsoft a stake in OpenAI of about 27%.";
        assert!(turned(d).is_none());
        let d = "Microsoft holds about 27% of the restructured OpenAI under the new agreement with OpenAI.";
        assert!(turned(d).is_none());
        let d = "Microsoft and OpenAI signed a new agreement, Microsoft's quarterly report says.";
        assert!(turned(d).is_none());
    }
}

//! The frame every page shares: the head (title, description, canonical link, Open Graph),
//! the site's navigation and footer, and small formatting helpers. Pure: unit-tested below.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::assets;

/// What a page says about itself in `<head>`.
pub struct Head<'a> {
    /// The page's own title; the site's name is appended.
    pub title: &'a str,
    pub description: &'a str,
    /// Path from the site's root (`/journal/…`); the canonical link is the origin plus it.
    pub path: &'a str,
    /// `article` for journals and entries, `website` for the rest.
    pub og_type: &'static str,
    /// An absolute image address for link previews.
    pub image: Option<String>,
    /// Feeds this page offers (title, absolute address).
    pub feeds: Vec<(String, String)>,
    /// Pages of one wallet are not for search engines.
    pub private: bool,
}

impl<'a> Head<'a> {
    pub fn new(title: &'a str, description: &'a str, path: &'a str) -> Self {
        Head {
            title,
            description,
            path,
            og_type: "website",
            image: None,
            feeds: Vec::new(),
            private: false,
        }
    }
}

pub const SITE_NAME: &str = "Journal Market";

/// Where the site is: its origin (for canonical and shared addresses) and the API's prefix
/// (the scripts and links that reach the API). Error pages know neither: both empty.
pub struct Links<'a> {
    pub origin: &'a str,
    pub api: &'a str,
}

/// A whole page: the head, the navigation, `main`, the footer, and the scripts it needs.
pub fn page(l: &Links, head: &Head, scripts: &[&str], main: Markup) -> Markup {
    let canonical = format!("{}{}", l.origin, head.path);
    let full_title = if head.path == "/" {
        format!("{SITE_NAME}: company journals that cite their sources")
    } else {
        format!("{} · {SITE_NAME}", head.title)
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (full_title) }
                meta name="description" content=(head.description);
                @if head.private { meta name="robots" content="noindex"; }
                @if !l.origin.is_empty() { link rel="canonical" href=(canonical); }
                meta property="og:site_name" content=(SITE_NAME);
                meta property="og:title" content=(head.title);
                meta property="og:description" content=(head.description);
                meta property="og:type" content=(head.og_type);
                meta property="og:url" content=(canonical);
                @if let Some(img) = &head.image {
                    meta property="og:image" content=(img);
                    meta name="twitter:card" content="summary_large_image";
                }
                @for (t, href) in &head.feeds {
                    link rel="alternate" type="application/rss+xml" title=(t) href=(href);
                }
                link rel="stylesheet" href=(assets::css_path());
                link rel="icon" href="data:,";
            }
            body data-api=(l.api) {
                a.skip href="#main" { "Skip to content" }
                header.site {
                    nav aria-label="Site" {
                        a.brand href="/" { (SITE_NAME) }
                        ul {
                            li { a href="/swarm" { "Swarm" } }
                            li { a href="/token" { "Token" } }
                            li { a href="/desk" { "Desk" } }
                            li { a href="/history" { "History" } }
                        }
                    }
                }
                main #main { (main) }
                footer.site {
                    p {
                        "Entries are free to read. Journals cite them; their text is paid in USDG on chain 4663. "
                        a href="/journals.rss" { "RSS" } " · "
                        a href="/sitemap.xml" { "Sitemap" } " · "
                        @if !l.api.is_empty() { a href={ (l.api) "/openapi.json" } { "API" } " · " }
                        a href="/.well-known/x402" { "x402" }
                    }
                }
                @for s in scripts {
                    script src=(assets::path(s)) defer {}
                }
            }
        }
    }
}

/// An amount of base units (6 decimals) as USDG, without trailing zeros: `2.5`, `0.000001`.
pub fn usdg(units: i64) -> String {
    let neg = units < 0;
    let u = units.unsigned_abs();
    let whole = u / 1_000_000;
    let frac = u % 1_000_000;
    let mut s = if frac == 0 {
        whole.to_string()
    } else {
        let f = format!("{frac:06}");
        format!("{whole}.{}", f.trim_end_matches('0'))
    };
    if neg {
        s.insert(0, '-');
    }
    s
}

/// `0x1234…abcd`: enough of an address to tell wallets apart; the whole one goes in `title`.
pub fn short_address(a: &str) -> String {
    if a.len() > 12 && a.is_char_boundary(6) && a.is_char_boundary(a.len() - 4) {
        format!("{}…{}", &a[..6], &a[a.len() - 4..])
    } else {
        a.to_string()
    }
}

/// The date part of an RFC 3339 timestamp.
pub fn day(ts: &str) -> &str {
    ts.get(..10).unwrap_or(ts)
}

/// A figure with at most `digits` decimals, trailing zeros dropped.
pub fn figure(v: f64, digits: usize) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A price or sum of money for reading: two decimals from 1 up, as [`figure`] gives them; below
/// 1, its first four significant digits, so a price of a fraction of a cent is not "0".
pub fn money(v: f64) -> String {
    if !v.is_finite() || v.abs() >= 1.0 || v == 0.0 {
        return figure(v, 2);
    }
    // Decimals down to the fourth significant digit; below 1e-26, zero is near enough.
    let digits = (3 - v.abs().log10().floor() as i64).clamp(0, 30) as usize;
    figure(v, digits)
}

/// `1 reader`, `2 readers`.
pub fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Text for a `<meta name="description">`: one line, at most about 200 characters.
pub fn describe(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= 200 {
        return one;
    }
    let cut: String = one.chars().take(197).collect();
    let cut = cut.rsplit_once(' ').map(|(a, _)| a).unwrap_or(&cut);
    format!("{cut}…")
}

/// HTML made by a trusted renderer (the journal text renderer escapes everything it reads).
pub fn trusted(html: String) -> PreEscaped<String> {
    PreEscaped(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_written() {
        assert_eq!(usdg(2_500_000), "2.5");
        assert_eq!(usdg(1), "0.000001");
        assert_eq!(usdg(3_000_000), "3");
        assert_eq!(usdg(0), "0");
        assert_eq!(usdg(-1_250_000), "-1.25");
    }

    #[test]
    fn addresses_and_figures() {
        assert_eq!(
            short_address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            "0x7099…79C8"
        );
        assert_eq!(short_address("0x12"), "0x12");
        assert_eq!(figure(1.50, 2), "1.5");
        assert_eq!(figure(2.0, 2), "2");
        assert_eq!(figure(f64::NAN, 2), "–");
        assert_eq!(day("2026-11-20T06:00:00Z"), "2026-11-20");
        assert_eq!(count(1, "reader", "readers"), "1 reader");
        assert_eq!(count(0, "reader", "readers"), "0 readers");
    }

    #[test]
    fn money_keeps_the_significant_digits_of_small_amounts() {
        assert_eq!(money(0.000123), "0.000123");
        assert_eq!(money(0.00156243), "0.001562");
        assert_eq!(money(0.5), "0.5");
        assert_eq!(money(0.012345678), "0.01235");
        assert_eq!(money(0.99999), "1");
        assert_eq!(money(-0.000042), "-0.000042");
        assert_eq!(money(3.2e-12), "0.0000000000032");
        assert_eq!(money(1e-40), "0");
        // From 1 up, two decimals as before.
        assert_eq!(money(1_560_000.456), "1560000.46");
        assert_eq!(money(2.0), "2");
        assert_eq!(money(1.005), figure(1.005, 2));
        assert_eq!(money(0.0), "0");
        assert_eq!(money(f64::NAN), "–");
        assert_eq!(money(f64::INFINITY), "–");
    }

    #[test]
    fn descriptions_are_one_short_line() {
        let long = "word ".repeat(100);
        let d = describe(&long);
        assert!(d.chars().count() <= 200 && d.ends_with('…'), "{d}");
        assert_eq!(describe("a\n b"), "a b");
    }

    #[test]
    fn the_frame_escapes_what_it_is_given() {
        let head = Head::new("<script>", "\"quoted\"", "/x");
        let l = Links {
            origin: "https://o",
            api: "/api",
        };
        let html = page(&l, &head, &[], html! { p { "body" } }).into_string();
        assert!(html.contains("&lt;script&gt; · Journal Market"));
        assert!(html.contains("content=\"&quot;quoted&quot;\""));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://o/x\">"));
        assert!(!html.contains("<script>"));
    }
}

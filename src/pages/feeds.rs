//! The site's feeds and sitemap: RSS 2.0 of new journals and of a company's entries, and a
//! sitemaps.org sitemap of every public page. Pure: text in, XML out.

use chrono::{DateTime, NaiveDate};
use journal_market_api::{Company, EntrySearchRow, JournalListItem};

use crate::domain::render::escape;
use crate::queries::site::SiteMap;

/// Escapes text for XML character data and attribute values.
pub fn xml(s: &str) -> String {
    // XML 1.0 allows no control characters but tab and line ends; the rest is HTML's escaping.
    let clean: String = s
        .chars()
        .filter(|&c| c >= ' ' || matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let mut out = String::with_capacity(clean.len());
    escape(&clean, &mut out);
    out
}

/// RSS wants RFC 2822 dates; ours are RFC 3339 timestamps or `YYYY-MM-DD`.
fn rfc2822(t: &str) -> Option<String> {
    if let Ok(d) = DateTime::parse_from_rfc3339(t) {
        return Some(d.to_rfc2822());
    }
    let d = NaiveDate::parse_from_str(t, "%Y-%m-%d").ok()?;
    Some(d.and_hms_opt(0, 0, 0)?.and_utc().to_rfc2822())
}

struct Item<'a> {
    title: &'a str,
    link: String,
    description: &'a str,
    date: &'a str,
    category: &'a str,
}

fn channel(title: &str, site: &str, self_url: &str, description: &str, items: &[Item]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n",
    );
    out.push_str(&format!(
        "<title>{}</title>\n<link>{}</link>\n<description>{}</description>\n<language>en</language>\n<atom:link href=\"{}\" rel=\"self\" type=\"application/rss+xml\"/>\n",
        xml(title),
        xml(site),
        xml(description),
        xml(self_url)
    ));
    for i in items {
        out.push_str("<item>\n");
        out.push_str(&format!("<title>{}</title>\n", xml(i.title)));
        out.push_str(&format!("<link>{}</link>\n", xml(&i.link)));
        out.push_str(&format!(
            "<guid isPermaLink=\"true\">{}</guid>\n",
            xml(&i.link)
        ));
        if let Some(d) = rfc2822(i.date) {
            out.push_str(&format!("<pubDate>{d}</pubDate>\n"));
        }
        out.push_str(&format!("<category>{}</category>\n", xml(i.category)));
        out.push_str(&format!(
            "<description>{}</description>\n",
            xml(i.description)
        ));
        out.push_str("</item>\n");
    }
    out.push_str("</channel>\n</rss>\n");
    out
}

pub fn journals(origin: &str, list: &[JournalListItem]) -> String {
    let items: Vec<Item> = list
        .iter()
        .map(|j| Item {
            title: &j.title,
            link: format!("{origin}/journal/{}", j.slug),
            description: &j.preview,
            date: &j.published_at,
            category: &j.company.ticker,
        })
        .collect();
    channel(
        "Journal Market: new journals",
        &format!("{origin}/"),
        &format!("{origin}/journals.rss"),
        "New journals about companies, each citing the archive's entries.",
        &items,
    )
}

pub fn company_entries(origin: &str, c: &Company, rows: &[EntrySearchRow]) -> String {
    let items: Vec<Item> = rows
        .iter()
        .map(|e| Item {
            title: &e.title,
            link: format!("{origin}/entry/{}", e.id),
            description: &e.summary,
            date: &e.date_of_record,
            category: &e.kind,
        })
        .collect();
    channel(
        &format!("Journal Market: entries about {} ({})", c.name, c.ticker),
        &format!("{origin}/company/{}", c.ticker),
        &format!("{origin}/company/{}/entries.rss", c.ticker),
        &format!("New archive entries about {}.", c.name),
        &items,
    )
}

pub fn sitemap(origin: &str, map: &SiteMap) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let mut url = |path: String, lastmod: Option<&str>| {
        out.push_str(&format!(
            "<url><loc>{}</loc>",
            xml(&format!("{origin}{path}"))
        ));
        if let Some(m) = lastmod {
            out.push_str(&format!("<lastmod>{}</lastmod>", xml(m)));
        }
        out.push_str("</url>\n");
    };
    for p in ["/", "/swarm", "/token"] {
        url(p.to_string(), None);
    }
    for t in &map.tickers {
        url(format!("/company/{t}"), None);
    }
    for (slug, at) in &map.journals {
        url(format!("/journal/{slug}"), Some(at));
    }
    for (id, d) in &map.entries {
        url(format!("/entry/{id}"), Some(d));
    }
    out.push_str("</urlset>\n");
    out
}

pub fn robots(origin: &str) -> String {
    format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /desk\nDisallow: /history\nSitemap: {origin}/sitemap.xml\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_controls_dropped() {
        assert_eq!(xml("a<b>&\"c'\u{1}"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }

    #[test]
    fn dates_become_rfc2822() {
        assert_eq!(
            rfc2822("2026-11-20T06:00:00Z").as_deref(),
            Some("Fri, 20 Nov 2026 06:00:00 +0000")
        );
        assert_eq!(
            rfc2822("2026-11-20").as_deref(),
            Some("Fri, 20 Nov 2026 00:00:00 +0000")
        );
        assert_eq!(rfc2822("yesterday"), None);
    }

    #[test]
    fn a_sitemap_lists_every_key() {
        let map = SiteMap {
            tickers: vec!["NVDA".into()],
            journals: vec![("a-b".into(), "2026-11-20T06:00:00Z".into())],
            entries: vec![("JM-NVDA-261120-01".into(), "2026-11-20".into())],
        };
        let s = sitemap("https://o", &map);
        for loc in [
            "https://o/",
            "https://o/swarm",
            "https://o/company/NVDA",
            "https://o/journal/a-b",
            "https://o/entry/JM-NVDA-261120-01",
        ] {
            assert!(s.contains(&format!("<loc>{loc}</loc>")), "{loc} in {s}");
        }
    }
}

//! The token page's chart: price and volume over time as an inline SVG drawn here (no script,
//! styled by `site.css` classes, as the Content-Security-Policy wants), named for assistive
//! technology, and the buckets with swaps as a table.

use chrono::DateTime;
use maud::{Markup, html};

use super::layout::money;
use crate::domain::swap_buckets::{SwapBuckets, step_name};

/// The drawing's own units; CSS scales it to the page's width.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
/// Room for the price labels on the left, the volume labels on the right, the times below.
const LEFT: f64 = 112.0;
const RIGHT: f64 = 80.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 36.0;
/// A bar's share of its bucket's width.
const BAR: f64 = 0.7;

/// A bucket's start in UTC: to the minute for steps below a day, else the date.
pub fn when(start: i64, step: i64) -> String {
    let Some(t) = DateTime::from_timestamp(start, 0) else {
        return start.to_string();
    };
    if step < 86_400 {
        t.format("%Y-%m-%d %H:%M").to_string()
    } else {
        t.format("%Y-%m-%d").to_string()
    }
}

/// What the chart shows, in one sentence: its accessible name.
pub fn summary(c: &SwapBuckets) -> String {
    let (Some(first), Some(last)) = (c.buckets.first(), c.buckets.last()) else {
        return "No swap yet".into();
    };
    let prices: Vec<f64> = c.buckets.iter().filter_map(|b| b.price_weth).collect();
    let price = match (prices.first(), prices.last()) {
        (Some(a), Some(b)) => format!("; price from {} to {} WETH per token", money(*a), money(*b)),
        _ => String::new(),
    };
    format!(
        "Price and volume of the token {}, {} to {} UTC: {} swaps, {} WETH traded{}",
        step_name(c.step),
        when(first.start, c.step),
        when(last.start, c.step),
        c.swaps(),
        money(c.volume_weth()),
        price
    )
}

/// A y coordinate: `v` of `0..=top` (or `low..=high`) on the plot's height.
fn y(v: f64, low: f64, high: f64) -> f64 {
    let plot = HEIGHT - TOP - BOTTOM;
    let share = if high > low {
        (v - low) / (high - low)
    } else {
        0.5
    };
    TOP + plot * (1.0 - share)
}

/// Coordinates rounded to a tenth: shorter markup, the same picture.
fn at(v: f64) -> String {
    format!("{v:.1}")
}

/// The SVG: volume bars against the right axis, the price line against the left one, a dot on
/// each bucket with swaps.
pub fn svg(c: &SwapBuckets) -> Markup {
    let n = c.buckets.len().max(1) as f64;
    let width = (WIDTH - LEFT - RIGHT) / n;
    let x = |i: usize| LEFT + width * (i as f64 + 0.5);
    let bottom = HEIGHT - BOTTOM;
    let top_volume = c.buckets.iter().map(|b| b.volume_weth).fold(0.0, f64::max);
    let prices: Vec<(usize, f64)> = c
        .buckets
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b.price_weth?)))
        .collect();
    let (low, high) = prices.iter().fold((f64::MAX, f64::MIN), |(l, h), (_, p)| {
        (l.min(*p), h.max(*p))
    });
    let line: Vec<String> = prices
        .iter()
        .map(|(i, p)| format!("{},{}", at(x(*i)), at(y(*p, low, high))))
        .collect();
    let (first, last) = (
        c.buckets.first().map(|b| b.start).unwrap_or_default(),
        c.buckets.last().map(|b| b.start).unwrap_or_default(),
    );
    html! {
        svg.chart xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (WIDTH) " " (HEIGHT) }
            role="img" aria-label=(summary(c)) {
            title { (summary(c)) }
            line.axis x1=(LEFT) y1=(TOP) x2=(LEFT) y2=(bottom) {}
            line.axis x1=(LEFT) y1=(bottom) x2=(WIDTH - RIGHT) y2=(bottom) {}
            line.axis x1=(WIDTH - RIGHT) y1=(TOP) x2=(WIDTH - RIGHT) y2=(bottom) {}
            @for (i, b) in c.buckets.iter().enumerate() {
                @if b.volume_weth > 0.0 {
                    @let h = bottom - y(b.volume_weth, 0.0, top_volume);
                    rect.bar x=(at(x(i) - width * BAR / 2.0)) y=(at(bottom - h))
                        width=(at(width * BAR)) height=(at(h)) {}
                }
            }
            @if line.len() > 1 {
                polyline.price points=(line.join(" ")) {}
            }
            @for (i, p) in &prices {
                @if c.buckets[*i].swaps > 0 {
                    circle.price cx=(at(x(*i))) cy=(at(y(*p, low, high))) r="3" {}
                }
            }
            text.label x="4" y="14" { "Price (WETH)" }
            text.label x=(WIDTH - 4.0) y="14" text-anchor="end" { "Volume (WETH)" }
            @if !prices.is_empty() {
                text.label x=(LEFT - 6.0) y=(at(y(high, low, high) + 4.0)) text-anchor="end" { (money(high)) }
                @if high > low {
                    text.label x=(LEFT - 6.0) y=(at(y(low, low, high) + 4.0)) text-anchor="end" { (money(low)) }
                }
            }
            text.label x=(WIDTH - RIGHT + 6.0) y=(at(TOP + 4.0)) { (money(top_volume)) }
            text.label x=(WIDTH - RIGHT + 6.0) y=(at(bottom)) { "0" }
            text.label x=(LEFT) y=(HEIGHT - 10.0) { (when(first, c.step)) }
            @if last > first {
                text.label x=(WIDTH - RIGHT) y=(HEIGHT - 10.0) text-anchor="end" { (when(last, c.step)) }
            }
        }
    }
}

/// The section: the chart and its table, or a sentence when there is no swap.
pub fn swaps(c: &SwapBuckets) -> Markup {
    html! {
        section aria-labelledby="over-time" {
            h2 #over-time { "Price and volume over time" }
            @if c.buckets.is_empty() {
                p { "No swap has been indexed yet: there is no price or volume to draw." }
            } @else {
                figure.chart {
                    (svg(c))
                    figcaption.meta {
                        "Bars: WETH traded " (step_name(c.step)) " (right axis). Line: the price "
                        "the last swap of each period left, in WETH per token (left axis). UTC."
                        @if c.capped { " The latest " (c.swaps()) " swaps only." }
                    }
                }
                details {
                    summary { "The same figures as a table" }
                    // Focusable: a table wider than a phone scrolls, and keyboards must reach it.
                    div.scroll tabindex="0" role="region" aria-label="Price and volume as a table" {
                        table {
                            caption {
                                "Price and volume " (step_name(c.step))
                                ", periods with swaps (the price stays as it was in between)"
                            }
                            thead {
                                tr {
                                    th scope="col" { "From (UTC)" }
                                    th scope="col" { "Swaps" }
                                    th scope="col" { "Volume (WETH)" }
                                    th scope="col" { "Price (WETH per token)" }
                                }
                            }
                            tbody {
                                @for b in c.buckets.iter().filter(|b| b.swaps > 0) {
                                    tr {
                                        th scope="row" { time datetime=(rfc3339(b.start)) { (when(b.start, c.step)) } }
                                        td { (b.swaps) }
                                        td { (money(b.volume_weth)) }
                                        td { (b.price_weth.map(money).unwrap_or_else(|| "–".into())) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn rfc3339(start: i64) -> String {
    DateTime::from_timestamp(start, 0)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::swap_buckets::{Trade, bucket};

    fn chart(trades: &[(i64, Option<f64>, f64)]) -> SwapBuckets {
        let t: Vec<Trade> = trades
            .iter()
            .map(|&(at, price_weth, volume_weth)| Trade {
                at,
                price_weth,
                volume_weth,
            })
            .collect();
        bucket(&t)
    }

    /// 2026-11-27 10:00 UTC.
    const T0: i64 = 1_795_773_600;

    #[test]
    fn times_read_by_the_step() {
        assert_eq!(when(T0, 3_600), "2026-11-27 10:00");
        assert_eq!(when(T0, 86_400), "2026-11-27");
        assert_eq!(rfc3339(T0), "2026-11-27T10:00:00Z");
    }

    #[test]
    fn the_svg_is_a_named_image_with_bars_and_a_line() {
        let c = chart(&[
            (T0 + 10, Some(0.000002), 0.5),
            (T0 + 3_600 * 2, Some(0.000004), 1.0),
            (T0 + 3_600 * 3, None, 0.25),
        ]);
        let s = svg(&c).into_string();
        assert!(s.starts_with("<svg class=\"chart\""), "{s}");
        assert!(s.contains("role=\"img\""));
        let name = summary(&c);
        assert_eq!(
            name,
            "Price and volume of the token per 5 minutes, 2026-11-27 10:00 to 2026-11-27 13:00 \
             UTC: 3 swaps, 1.75 WETH traded; price from 0.000002 to 0.000004 WETH per token"
        );
        assert!(s.contains(&format!("aria-label=\"{name}\"")));
        assert!(s.contains(&format!("<title>{name}</title>")));
        assert_eq!(
            s.matches("<rect class=\"bar\"").count(),
            3,
            "one per bucket with volume"
        );
        assert_eq!(s.matches("<polyline class=\"price\"").count(), 1);
        assert_eq!(
            s.matches("<circle").count(),
            3,
            "a dot per bucket with swaps"
        );
        // The line is drawn through every bucket with a price: the first one and those after.
        let points = s
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split(' ').count(), c.buckets.len());
        // The highest bar reaches the top of the plot, the lowest price its bottom.
        assert!(s.contains(&format!("y=\"{}\"", at(TOP))));
        assert!(s.contains(">0.000004</text>") && s.contains(">0.000002</text>"));
        assert!(
            !s.contains("style="),
            "no style attribute (the CSP refuses them)"
        );
    }

    #[test]
    fn one_swap_is_a_point_and_a_bar() {
        let c = chart(&[(T0, Some(1e-7), 0.01)]);
        let s = svg(&c).into_string();
        assert_eq!(s.matches("<circle").count(), 1);
        assert_eq!(s.matches("<rect").count(), 1);
        assert!(!s.contains("<polyline"));
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
    }

    #[test]
    fn no_price_draws_bars_only() {
        let c = chart(&[(T0, None, 1.0), (T0 + 60, None, 0.0)]);
        let s = svg(&c).into_string();
        assert!(!s.contains("<circle") && !s.contains("<polyline"));
        assert_eq!(s.matches("<rect").count(), 1, "no bar for no volume");
        assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
        assert!(!summary(&c).contains("price"));
    }

    #[test]
    fn the_table_has_a_row_per_period_with_swaps_and_no_swap_is_a_sentence() {
        let c = chart(&[
            (T0, Some(0.0000015), 0.5),
            (T0 + 7_200, Some(0.000002), 1.0),
        ]);
        let s = swaps(&c).into_string();
        assert!(s.contains("<figure class=\"chart\">"));
        assert!(s.contains("<details>"));
        assert!(c.buckets.len() > 2);
        assert_eq!(s.matches("<tr>").count(), 1 + 2);
        assert!(s.contains("tabindex=\"0\" role=\"region\""));
        assert!(s.contains("<td>0.0000015</td>"), "{s}");
        assert!(s.contains("<time datetime=\"2026-11-27T10:00:00Z\">2026-11-27 10:00</time>"));
        let none = swaps(&SwapBuckets::default()).into_string();
        assert!(none.contains("No swap has been indexed yet"));
        assert!(!none.contains("<svg") && !none.contains("<table"));
    }
}

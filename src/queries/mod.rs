//! Read queries of the public API: database rows in, wire types out.

pub mod entries;
pub mod journals;
pub mod me;
pub mod site;
pub mod swarm;
pub mod token;

/// Public page addresses on the site origin.
pub fn journal_url(origin: &str, slug: &str) -> String {
    format!("{origin}/journal/{slug}")
}

pub fn entry_url(origin: &str, accession: &str) -> String {
    format!("{origin}/entry/{accession}")
}

/// The desk that files each kind of entry.
pub fn desk_of(kind: &str) -> &'static str {
    match kind {
        "post" => "SOC",
        "news" => "NWS",
        _ => "FIL",
    }
}

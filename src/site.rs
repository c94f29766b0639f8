//! The site as the outside sees it: settings, the clock, and the public addresses built from
//! them. Every service that names a URL or reads the time holds one (it is two `Arc`s).

use std::sync::Arc;

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use alloy::primitives::Address;
use chrono::{DateTime, Utc};
use journal_market_actors::clock::SharedClock;
use journal_market_actors::session::NewSession;

use crate::config::Settings;
use crate::domain::purchase::Step;

#[derive(Clone)]
pub struct Site {
    pub settings: Arc<Settings>,
    pub clock: SharedClock,
    /// `{origin}{api prefix}`, written once: every challenge names a URL below it.
    api_base: Arc<str>,
}

impl Site {
    pub fn new(settings: Arc<Settings>, clock: SharedClock) -> Self {
        let api_base = format!("{}{}", settings.origin(), settings.server.api_prefix).into();
        Site {
            settings,
            clock,
            api_base,
        }
    }

    /// The site origin without a trailing slash.
    /// The session cookie: HttpOnly, Path=/, SameSite=Lax, Max-Age, Secure behind https.
    pub fn session_cookie(&self, s: &NewSession) -> Cookie<'static> {
        self.cookie(s.token.clone(), CookieDuration::seconds(s.max_age_secs))
    }

    /// A cookie that deletes the session cookie.
    pub fn cleared_cookie(&self) -> Cookie<'static> {
        self.cookie(String::new(), CookieDuration::ZERO)
    }

    fn cookie(&self, value: String, max_age: CookieDuration) -> Cookie<'static> {
        Cookie::build(self.settings.cookie_name(), value)
            .http_only(true)
            .path("/")
            .same_site(SameSite::Lax)
            .secure(self.origin().starts_with("https://"))
            .max_age(max_age)
            .finish()
    }

    pub fn origin(&self) -> &str {
        self.settings.origin()
    }

    pub fn api_prefix(&self) -> &str {
        &self.settings.server.api_prefix
    }

    /// `{origin}{api prefix}`: public addresses of API resources start with it.
    pub fn api_base(&self) -> &str {
        &self.api_base
    }

    pub fn chain_id(&self) -> u64 {
        self.settings.chain.chain_id
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The paid text's URL of the journal `slug`, naming the paying wallet when one is hinted.
    pub fn text_url(&self, slug: &str, payer: Option<Address>) -> String {
        let base = format!("{}/journals/{slug}/text", self.api_base);
        match payer {
            Some(p) => format!("{base}?payer={}", p.to_checksum(None)),
            None => base,
        }
    }

    /// What a person-written journal's fee step pays for, as its receipt names it: the fee
    /// (`/pay/burn`'s step) of the journal `id`, and its amount in base units. Not the text: the
    /// fee opens nothing by itself.
    pub fn fee_url(&self, id: i32, amount_units: i64) -> String {
        format!(
            "{}/pay/burn?journalId={id}&step=fee&amount={amount_units}",
            self.api_base
        )
    }

    /// The public address of a payment endpoint (the x402 `resource.url`).
    pub fn pay_url(&self, step: Step) -> String {
        [&*self.api_base, step.path()].concat()
    }
}

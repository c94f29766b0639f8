//! The session cookie: reading it into the signed-in wallet, and writing and clearing it.

use std::future::Future;

use futures::future::{Either, Ready, ready};
use std::pin::Pin;

use actix_web::http::header::HeaderName;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use alloy::primitives::Address;
use journal_market_x402::extensions::siwx;

use crate::error::DomainError;
use crate::site::Site;
use crate::state::AppState;

/// The wallet of the request's session, if any.
pub struct Viewer(pub Option<Address>);

/// A request that must come with a valid session (401 otherwise).
pub struct SignedIn(pub Address);

fn token(req: &HttpRequest, site: &Site) -> Option<String> {
    // Most API calls carry no cookie: skip naming and parsing them.
    if !req.headers().contains_key(actix_web::http::header::COOKIE) {
        return None;
    }
    req.cookie(&site.settings.cookie_name())
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

async fn viewer(req: HttpRequest) -> Result<Option<Address>, DomainError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| DomainError::internal(anyhow::anyhow!("no app state")))?;
    match token(&req, &state.site) {
        Some(t) => Ok(state.accounts.lookup(&t).await?),
        None => Ok(None),
    }
}

impl FromRequest for Viewer {
    type Error = DomainError;
    type Future = Either<
        Ready<Result<Self, DomainError>>,
        Pin<Box<dyn Future<Output = Result<Self, DomainError>>>>,
    >;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Most public requests carry no cookie: answer them without a lookup or an allocation.
        let has_cookie = req
            .app_data::<web::Data<AppState>>()
            .is_some_and(|s| token(req, &s.site).is_some());
        if !has_cookie {
            return Either::Left(ready(Ok(Viewer(None))));
        }
        let req = req.clone();
        Either::Right(Box::pin(async move { viewer(req).await.map(Viewer) }))
    }
}

impl FromRequest for SignedIn {
    type Error = DomainError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, DomainError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            viewer(req).await?.map(SignedIn).ok_or_else(|| {
                DomainError::Unauthorized("sign in first: this needs a wallet session (POST /auth/nonce, then /auth/verify)".into())
            })
        })
    }
}

/// The session token of a request, for logout.
pub fn request_token(req: &HttpRequest, site: &Site) -> Option<String> {
    token(req, site)
}

/// The `SIGN-IN-WITH-X` header of a request, if any.
pub fn proof_header(req: &HttpRequest) -> Option<String> {
    const NAME: HeaderName = HeaderName::from_static(siwx::HEADER);
    req.headers()
        .get(NAME)
        // A value that is not ASCII reads as empty: refused as not base64 JSON.
        .map(|h| h.to_str().unwrap_or_default().to_string())
}

//! Wallet sign-in: `POST /auth/nonce`, `/auth/verify`, `/auth/logout`, and `GET /me…`.

use actix_web::{HttpRequest, HttpResponse, web};
use journal_market_actors::session::parse_address;
use journal_market_api::{Desk, History, Me, NonceRequest, NonceResponse, VerifyRequest};

use super::Private;
use crate::error::{DomainError, DomainResult};
use crate::session::{SignedIn, Viewer, request_token};
use crate::state::AppState;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::resource("/auth/nonce", "POST").route(web::post().to(nonce)))
        .service(super::resource("/auth/verify", "POST").route(web::post().to(verify)))
        .service(super::resource("/auth/logout", "POST").route(web::post().to(logout)))
        .service(super::resource("/me", "GET").route(web::get().to(whoami)))
        .service(super::resource("/me/desk", "GET").route(web::get().to(desk)))
        .service(super::resource("/me/history", "GET").route(web::get().to(history)));
}

#[utoipa::path(post, path = "/auth/nonce", tag = "auth", request_body = NonceRequest,
    responses((status = 200, body = NonceResponse), (status = 400, body = journal_market_api::ErrorBody)))]
pub async fn nonce(
    state: web::Data<AppState>,
    body: web::Json<NonceRequest>,
) -> DomainResult<web::Json<NonceResponse>> {
    let address = parse_address(&body.address)?;
    let issued = state.accounts.issue_nonce(address).await?;
    Ok(web::Json(NonceResponse {
        nonce: issued.nonce,
        message: issued.message,
    }))
}

#[utoipa::path(post, path = "/auth/verify", tag = "auth", request_body = VerifyRequest,
    responses((status = 200, body = Me, description = "signed in; sets the session cookie"),
              (status = 400, body = journal_market_api::ErrorBody),
              (status = 401, body = journal_market_api::ErrorBody, description = "the error names the failed check")))]
pub async fn verify(
    state: web::Data<AppState>,
    body: web::Json<VerifyRequest>,
) -> DomainResult<HttpResponse> {
    let body = body.into_inner();
    let address = parse_address(&body.address)?;
    if body.nonce.is_empty()
        || body.nonce.len() > 64
        || !body.nonce.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return Err(DomainError::Unauthorized(
            "the nonce is unknown: ask POST /auth/nonce for one".into(),
        ));
    }
    let session = state
        .accounts
        .verify(address, body.nonce, body.signature)
        .await?;
    Ok(HttpResponse::Ok()
        .cookie(state.site.session_cookie(&session))
        .json(Me {
            address: Some(session.address.to_checksum(None)),
        }))
}

#[utoipa::path(post, path = "/auth/logout", tag = "auth",
    responses((status = 200, description = "`{ ok: true }`; the cookie is cleared and the session deleted")))]
pub async fn logout(state: web::Data<AppState>, req: HttpRequest) -> DomainResult<HttpResponse> {
    if let Some(token) = request_token(&req, &state.site) {
        state.accounts.logout(token).await?;
    }
    Ok(HttpResponse::Ok()
        .cookie(state.site.cleared_cookie())
        .json(serde_json::json!({ "ok": true })))
}

#[utoipa::path(get, path = "/me", tag = "auth", responses((status = 200, body = Me, description = "address is null when signed out")))]
pub async fn whoami(viewer: Viewer) -> Private<web::Json<Me>> {
    Private(web::Json(Me {
        address: viewer.0.map(|a| a.to_checksum(None)),
    }))
}

#[utoipa::path(get, path = "/me/desk", tag = "auth",
    responses((status = 200, body = Desk), (status = 401, body = journal_market_api::ErrorBody)))]
pub async fn desk(
    state: web::Data<AppState>,
    who: Result<SignedIn, DomainError>,
) -> Private<DomainResult<web::Json<Desk>>> {
    Private(async { Ok(web::Json(state.accounts.desk(who?.0).await?)) }.await)
}

#[utoipa::path(get, path = "/me/history", tag = "auth",
    responses((status = 200, body = History), (status = 401, body = journal_market_api::ErrorBody)))]
pub async fn history(
    state: web::Data<AppState>,
    who: Result<SignedIn, DomainError>,
) -> Private<DomainResult<web::Json<History>>> {
    Private(async { Ok(web::Json(state.accounts.history(who?.0).await?)) }.await)
}

//! HTTP routes, one module per resource. Handlers parse, call a query or an actor, and answer.

use actix_web::web;

pub use crate::answers::{Private, json_bytes, not_allowed, private, resource};

pub mod archive;
pub mod auth;
pub mod discovery;
pub mod journals;
pub mod metrics;
pub mod openapi;
pub mod pay;
pub mod publish;
pub mod quote;
pub mod registration;
pub mod rpc;
pub mod service;
pub mod token;
pub mod votes;

pub fn configure(cfg: &mut web::ServiceConfig) {
    // Routes are matched in order: the hottest first.
    rpc::configure(cfg);
    pay::configure(cfg);
    service::configure(cfg);
    journals::configure(cfg);
    archive::configure(cfg);
    auth::configure(cfg);
    publish::configure(cfg);
    registration::configure(cfg);
    votes::configure(cfg);
    token::configure(cfg);
    quote::configure(cfg);
    openapi::configure(cfg);
}

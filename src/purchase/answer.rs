//! A payment step's outcome as the HTTP answer: the 402 with its PAYMENT-REQUIRED header, the
//! PAYMENT-RESPONSE of a settled payment with its signed receipt, the text, and the session
//! cookie of a payer who was not signed in.

use actix_web::HttpResponse;
use actix_web::http::header::LINK;
use alloy::primitives::{Address, B256};
use journal_market_api::{Paid, PaymentAnswer};
use journal_market_chain::extensions::offer_receipt;
use journal_market_chain::x402::{self, PaymentPayload, SettleResponse};

use super::{Caller, DomainResult, Outcome, Purchases, Want};
use crate::error::payment_required;
use crate::queries::journals::LiveJournal;
use crate::session::session_cookie;

impl Purchases {
    /// A payment request, answered: the step ([`Purchases::pay_step`]) and its answer.
    pub async fn buy(
        &self,
        caller: Caller,
        want: Want,
        payload: Option<Result<PaymentPayload, String>>,
    ) -> DomainResult<HttpResponse> {
        Ok(match self.pay_step(caller, want, payload).await? {
            Outcome::Challenge(c) => payment_required(c),
            Outcome::FeeAlreadyPaid => HttpResponse::Ok().json(PaymentAnswer::already()),
            // Nothing was paid now: no PAYMENT-RESPONSE.
            Outcome::Reread { payer, tx, text } => {
                let tx = tx.map(|t| format!("{t:#x}")).unwrap_or_default();
                self.with_text(HttpResponse::Ok(), payer, tx, Some(text), true)
                    .await
            }
            Outcome::Paid {
                resource,
                payer,
                tx,
                paid_at,
                network,
                text,
                open_session,
                next,
            } => {
                let mut resp = HttpResponse::Ok();
                let receipt = self.settle_response(&resource, payer, tx, paid_at, network);
                if let Ok(h) = x402::encode_header(&receipt) {
                    resp.insert_header((x402::HEADER_RESPONSE, h));
                }
                if let Some(url) = &next {
                    resp.insert_header((LINK, format!("<{url}>; rel=\"next\"")));
                }
                let tx = receipt.transaction;
                match next {
                    Some(next) => resp.json(Paid {
                        ok: true,
                        tx,
                        body: None,
                        html: None,
                        next: Some(next),
                    }),
                    None => self.with_text(resp, payer, tx, text, open_session).await,
                }
            }
        })
    }

    /// PAYMENT-RESPONSE of a settled payment, with the signed receipt when receipts are on.
    fn settle_response(
        &self,
        resource: &str,
        payer: Address,
        tx: B256,
        paid_at: chrono::DateTime<chrono::Utc>,
        network: String,
    ) -> SettleResponse {
        let signed = self.receipts.of_payment(resource, payer, tx, paid_at);
        SettleResponse {
            success: true,
            transaction: format!("{tx:#x}"),
            network,
            payer: payer.to_checksum(None),
            error_reason: None,
            error_message: None,
            extensions: signed
                .map(|r| serde_json::json!({ offer_receipt::KEY: offer_receipt::extension(&r) })),
        }
    }

    /// `{ ok, tx }`, or with the text `{ ok, tx, body, html }` and, when `open_session`, a
    /// session for the payer (the answer carries the text even when none can be opened now).
    async fn with_text(
        &self,
        mut resp: actix_web::HttpResponseBuilder,
        payer: Address,
        tx: String,
        text: Option<std::sync::Arc<LiveJournal>>,
        open_session: bool,
    ) -> HttpResponse {
        let Some(j) = text else {
            return resp.json(Paid {
                ok: true,
                tx,
                body: None,
                html: None,
                next: None,
            });
        };
        if open_session {
            match self.accounts.open_for(payer).await {
                Ok(session) => {
                    resp.cookie(session_cookie(&self.site, &session));
                }
                Err(e) => {
                    tracing::warn!(error = %e, "no session for the text's reader; answering without a cookie")
                }
            }
        }
        resp.json(Paid {
            ok: true,
            tx,
            html: Some(j.html.clone()),
            body: Some(j.body.clone()),
            next: None,
        })
    }
}

//! A payment step's outcome as the HTTP answer: the 402 with its PAYMENT-REQUIRED header, the
//! PAYMENT-RESPONSE of a settled payment with its signed receipt (for the step that delivered
//! the text, a receipt that also binds the body as delivered, the audit report and the cited
//! sources), the text, and the session cookie of a payer who was not signed in.

use std::sync::Arc;

use actix_web::http::header::{ContentType, LINK};
use actix_web::{HttpResponse, HttpResponseBuilder};
use alloy::primitives::{Address, B256};
use journal_market_api::{Paid, PaymentAnswer, delivery};
use journal_market_x402::extensions::offer_receipt::{self, Delivery, SignedReceipt};
use journal_market_x402::{self as x402, PaymentPayload, SettleResponse};

use super::{Caller, DomainResult, Outcome, Purchases, Want};
use crate::error::payment_required;
use crate::queries::journals::LiveJournal;

/// A settled payment, as its answer states it.
pub(super) struct Settled {
    pub(super) resource: String,
    pub(super) payer: Address,
    pub(super) tx: B256,
    pub(super) paid_at: chrono::DateTime<chrono::Utc>,
    pub(super) network: String,
}

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
                let mut resp = HttpResponse::Ok();
                self.sign_in(&mut resp, payer).await;
                let body = serde_json::to_vec(&text_answer(tx, &text))?;
                resp.content_type(ContentType::json()).body(body)
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
                let settled = Settled {
                    resource,
                    payer,
                    tx,
                    paid_at,
                    network,
                };
                let mut resp = HttpResponse::Ok();
                if let Some(url) = &next {
                    resp.insert_header((LINK, format!("<{url}>; rel=\"next\"")));
                }
                let tx = format!("{tx:#x}");
                let (body, receipt) = match &text {
                    Some(j) => {
                        let body = serde_json::to_vec(&text_answer(tx, j))?;
                        let receipt = self.delivery_receipt(&settled, j, &body);
                        (body, receipt)
                    }
                    None => {
                        let body = serde_json::to_vec(&Paid {
                            ok: true,
                            tx,
                            body: None,
                            html: None,
                            next,
                        })?;
                        let s = &settled;
                        let receipt =
                            self.receipts
                                .of_payment(&s.resource, s.payer, s.tx, s.paid_at);
                        (body, receipt)
                    }
                };
                if let Ok(h) = x402::encode_header(&settle_response(settled, receipt)) {
                    resp.insert_header((x402::HEADER_RESPONSE, h));
                }
                if open_session && text.is_some() {
                    self.sign_in(&mut resp, payer).await;
                }
                resp.content_type(ContentType::json()).body(body)
            }
        })
    }

    /// The receipt of the step that delivered the text `j` as `body` (the bytes sent).
    pub(super) fn delivery_receipt(
        &self,
        s: &Settled,
        j: &LiveJournal,
        body: &[u8],
    ) -> Option<SignedReceipt> {
        let d = Delivery {
            response_hash: delivery::response_hash(body),
            response_hash_alg: offer_receipt::RESPONSE_HASH_ALG.into(),
            response_hash_encoding: offer_receipt::RESPONSE_HASH_ENCODING.into(),
            audit_hash: j.audit_hash.clone(),
            sources_hash: j.sources_hash.clone(),
        };
        self.receipts
            .of_delivery(&s.resource, s.payer, s.tx, s.paid_at, d)
    }

    /// A session for the reader the answer carries the text to (the answer goes without a
    /// cookie when none can be opened now).
    async fn sign_in(&self, resp: &mut HttpResponseBuilder, payer: Address) {
        match self.accounts.open_for(payer).await {
            Ok(session) => {
                resp.cookie(self.site.session_cookie(&session));
            }
            Err(e) => {
                tracing::warn!(error = %e, "no session for the text's reader; answering without a cookie")
            }
        }
    }
}

/// `{ ok, tx, body, html }`.
pub(super) fn text_answer(tx: String, j: &Arc<LiveJournal>) -> Paid {
    Paid {
        ok: true,
        tx,
        html: Some(j.html.clone()),
        body: Some(j.body.clone()),
        next: None,
    }
}

/// PAYMENT-RESPONSE of a settled payment, with its signed receipt when receipts are on.
pub(super) fn settle_response(s: Settled, receipt: Option<SignedReceipt>) -> SettleResponse {
    SettleResponse {
        success: true,
        transaction: format!("{:#x}", s.tx),
        network: s.network,
        payer: s.payer.to_checksum(None),
        error_reason: None,
        error_message: None,
        extensions: receipt
            .map(|r| serde_json::json!({ offer_receipt::KEY: offer_receipt::extension(&r) })),
    }
}

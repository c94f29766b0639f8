//! The middleware that counts every answered request and times it, by matched route pattern.

use std::future::{Ready, ready};
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::Error;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};

use crate::metrics::Metrics;

/// Wrap the app with it (outermost, so the time and status are what the client gets).
#[derive(Clone)]
pub struct RecordMetrics(pub Arc<Metrics>);

impl<S, B> Transform<S, ServiceRequest> for RecordMetrics
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<B>;
    type Error = Error;
    type Transform = RecordMetricsService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(RecordMetricsService {
            service: Rc::new(service),
            metrics: self.0.clone(),
        }))
    }
}

pub struct RecordMetricsService<S> {
    service: Rc<S>,
    metrics: Arc<Metrics>,
}

type Answer<B> = Pin<Box<dyn std::future::Future<Output = Result<ServiceResponse<B>, Error>>>>;

impl<S, B> Service<ServiceRequest> for RecordMetricsService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<B>;
    type Error = Error;
    type Future = Answer<B>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.service.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let method = req.method().clone();
        let metrics = self.metrics.clone();
        let service = self.service.clone();
        Box::pin(async move {
            let res = service.call(req).await;
            // The pattern is read after routing (cheap then). An error that reached this far
            // has no request left to read it from: it counts as unmatched, with its status.
            let (route, status) = match &res {
                Ok(r) => (r.request().match_pattern(), r.status()),
                Err(e) => (None, e.as_response_error().status_code()),
            };
            metrics.observe_http(route, &method, status.as_u16(), started.elapsed());
            res
        })
    }
}

//! The refusals that wait for the shared rate-limit store: the 429 (after the store's answer),
//! then the cross-site 403, as [`Edge`] makes them without a store. Inside `Edge`, so the
//! refusals get the request id, the access log line and the span like any answer. Without a
//! store every request passes straight through (no allocation, no wait).

use std::rc::Rc;
use std::sync::Arc;

use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::{Error, ResponseError};
use futures::future::{Either, LocalBoxFuture, Ready, ready};

use super::Edge;

pub struct SharedLimits(pub Arc<Edge>);

impl<S> Transform<S, ServiceRequest> for SharedLimits
where
    S: Service<ServiceRequest, Response = ServiceResponse, Error = Error> + 'static,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Transform = SharedLimitsService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(SharedLimitsService {
            service: Rc::new(service),
            edge: self.0.clone(),
        }))
    }
}

pub struct SharedLimitsService<S> {
    service: Rc<S>,
    edge: Arc<Edge>,
}

impl<S> Service<ServiceRequest> for SharedLimitsService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse, Error = Error> + 'static,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Future = Either<S::Future, LocalBoxFuture<'static, Result<ServiceResponse, Error>>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        if !self.edge.limits.shared() {
            return Either::Left(self.service.call(req));
        }
        let (service, edge) = (self.service.clone(), self.edge.clone());
        Either::Right(Box::pin(async move {
            let path = edge.limited_path(&req);
            let refusal = match edge.limits.shared_refusal(path, &req).await {
                Some(e) => Some(e),
                None => edge.cross_site(&req),
            };
            match refusal {
                Some(e) => Ok(req.into_response(e.error_response())),
                None => service.call(req).await,
            }
        }))
    }
}

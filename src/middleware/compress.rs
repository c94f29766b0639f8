//! Response compression for the clients that ask for it. actix-web's `Compress` does work on
//! every response even when the request has no `Accept-Encoding` (it parses the content type
//! and wraps the body); most API clients send none, so their requests skip it here.

use std::rc::Rc;

use actix_http::encoding::Encoder;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::http::header::ACCEPT_ENCODING;
use actix_web::middleware::Compress;
use futures::future::{Either, LocalBoxFuture};

/// `Compress` for requests with an `Accept-Encoding` header; the others go straight through.
pub struct CompressWhenAsked;

/// `Compress` around the same service.
type Compressing<S> = <Compress as Transform<Rc<S>, ServiceRequest>>::Transform;

impl<S, B> Transform<S, ServiceRequest> for CompressWhenAsked
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B, EitherBody<Encoder<B>>>>;
    type Error = actix_web::Error;
    type Transform = CompressWhenAskedService<S, Compressing<S>>;
    type InitError = ();
    type Future = LocalBoxFuture<'static, Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let plain = Rc::new(service);
        let compressing = Compress::default().new_transform(plain.clone());
        Box::pin(async move {
            Ok(CompressWhenAskedService {
                plain,
                compressing: compressing.await?,
            })
        })
    }
}

/// The service itself, and `Compress` around it (`C`).
pub struct CompressWhenAskedService<S, C> {
    plain: Rc<S>,
    compressing: C,
}

impl<S, C, B> Service<ServiceRequest> for CompressWhenAskedService<S, C>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    C: Service<
            ServiceRequest,
            Response = ServiceResponse<EitherBody<Encoder<B>>>,
            Error = actix_web::Error,
        >,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B, EitherBody<Encoder<B>>>>;
    type Error = actix_web::Error;
    type Future = Either<
        futures::future::MapOk<S::Future, fn(ServiceResponse<B>) -> Self::Response>,
        futures::future::MapOk<
            C::Future,
            fn(ServiceResponse<EitherBody<Encoder<B>>>) -> Self::Response,
        >,
    >;

    forward_ready!(plain);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        use futures::TryFutureExt;
        if req.headers().contains_key(ACCEPT_ENCODING) {
            Either::Right(
                self.compressing
                    .call(req)
                    .map_ok(|r| r.map_into_right_body() as Self::Response),
            )
        } else {
            Either::Left(
                self.plain
                    .call(req)
                    .map_ok(|r| r.map_into_left_body() as Self::Response),
            )
        }
    }
}

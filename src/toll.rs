//! What a request's client is charged for work its request causes beyond the request itself:
//! a contract wallet's signature check runs on the service's node, so a `SIGN-IN-WITH-X` proof
//! that needs one costs a unit of the client's auth rate class before the chain is asked,
//! whatever route carries it. The edge puts a [`Toll`] in requests that carry a proof
//! (`middleware::rate_limit`); the services only pay it, so they need nothing of the middleware.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use actix_web::HttpMessage;

/// The quota is used up: the 429's text and the seconds to wait.
#[derive(Debug)]
pub struct Refused {
    pub message: String,
    pub retry_after_secs: u64,
}

type Charge = dyn Fn() -> Pin<Box<dyn Future<Output = Result<(), Refused>>>>;

/// One unit of the client's auth class, to be paid before a contract wallet's check.
#[derive(Clone)]
pub struct Toll(Rc<Charge>);

impl Toll {
    pub fn new(
        charge: impl Fn() -> Pin<Box<dyn Future<Output = Result<(), Refused>>>> + 'static,
    ) -> Toll {
        Toll(Rc::new(charge))
    }

    /// The toll of a request, if the edge put one in it.
    pub fn of(req: &actix_web::HttpRequest) -> Option<Toll> {
        req.extensions().get::<Toll>().cloned()
    }

    pub async fn pay(&self) -> Result<(), Refused> {
        (self.0)().await
    }
}

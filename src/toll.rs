//! What a request's client is charged for work its request causes beyond the request itself,
//! whatever route carries it: a contract wallet's signature check runs on the service's node,
//! so a `SIGN-IN-WITH-X` proof that needs one costs a unit of the client's auth rate class
//! before the chain is asked; a payment inside an MCP call (the POST itself is a read) costs a
//! unit of the pay class before it is settled, as a `POST /pay/*` does at the edge. The edge
//! puts a [`Toll`] in requests that may cause either (`middleware::rate_limit`); the services
//! only pay it, so they need nothing of the middleware.

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

/// The work a toll is paid for, each charged to its own rate class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A contract wallet's signature check on the chain (the auth class).
    ChainCheck,
    /// A payment to settle that its route did not count as one (the pay class).
    Settlement,
}

type Charge = dyn Fn(Work) -> Pin<Box<dyn Future<Output = Result<(), Refused>>>>;

/// One unit of the client's class for a [`Work`], to be paid before the work.
#[derive(Clone)]
pub struct Toll(Rc<Charge>);

impl Toll {
    pub fn new(
        charge: impl Fn(Work) -> Pin<Box<dyn Future<Output = Result<(), Refused>>>> + 'static,
    ) -> Toll {
        Toll(Rc::new(charge))
    }

    /// The toll of a request, if the edge put one in it.
    pub fn of(req: &actix_web::HttpRequest) -> Option<Toll> {
        req.extensions().get::<Toll>().cloned()
    }

    pub async fn pay(&self, work: Work) -> Result<(), Refused> {
        (self.0)(work).await
    }
}

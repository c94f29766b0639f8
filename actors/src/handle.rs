//! The one way the rest of the service calls an actor: a limit on calls in progress, and a
//! deadline. "Busy" (the limit is full, nothing was sent) is told apart from "timed out" (the
//! message was sent and the work may still be running) and from "stopped".

use std::time::Duration;

use actix::dev::ToEnvelope;
use actix::prelude::*;

use crate::health::{HealthRegistry, InFlight};

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// Every slot is taken; the message was not sent.
    #[error("busy")]
    Busy,
    /// The deadline passed; the actor may still finish the work.
    #[error("no answer within the deadline")]
    TimedOut,
    /// The actor is not running (it is being restarted).
    #[error("the actor is not running")]
    Stopped,
}

/// A typed actor address with an in-flight limit (reported to health) and a deadline.
pub struct ActorHandle<A: Actor> {
    addr: Addr<A>,
    in_flight: InFlight,
    deadline: Duration,
}

impl<A: Actor> Clone for ActorHandle<A> {
    fn clone(&self) -> Self {
        ActorHandle {
            addr: self.addr.clone(),
            in_flight: self.in_flight.clone(),
            deadline: self.deadline,
        }
    }
}

impl<A: Actor> ActorHandle<A> {
    pub fn new(
        name: &'static str,
        addr: Addr<A>,
        max_in_flight: usize,
        deadline: Duration,
        health: HealthRegistry,
    ) -> Self {
        ActorHandle {
            addr,
            in_flight: InFlight::new(name, max_in_flight, health),
            deadline,
        }
    }

    /// Sends `msg` and waits for the answer within the deadline.
    pub async fn call<M>(&self, msg: M) -> Result<M::Result, CallError>
    where
        M: Message + Send + 'static,
        M::Result: Send,
        A: Handler<M>,
        A::Context: ToEnvelope<A, M>,
    {
        let _slot = self.in_flight.try_enter().ok_or(CallError::Busy)?;
        match tokio::time::timeout(self.deadline, self.addr.send(msg)).await {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(_)) => Err(CallError::Stopped),
            Err(_) => Err(CallError::TimedOut),
        }
    }
}

//! The one way the rest of the service calls an actor: a limit on calls in progress, and a
//! deadline. "Busy" (the limit is full, nothing was sent) is told apart from "timed out" (the
//! message was sent and the work may still be running) and from "stopped".
//!
//! The handle's limit and deadline hold for every message; a message whose operation differs
//! gets its own at start ([`ActorHandle::limit`], [`ActorHandle::deadline`]): its own limit is
//! taken within the handle's, so a flood of one message cannot take the others' places.

use std::any::TypeId;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use actix::dev::ToEnvelope;
use actix::prelude::*;
use tokio::sync::Semaphore;

use crate::health::{HealthRegistry, InFlight, InFlightGuard};
use crate::supervise::{self, Stop};

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

/// One message type's own limit and deadline.
#[derive(Clone)]
struct Own {
    message: TypeId,
    slots: Option<Arc<Semaphore>>,
    deadline: Option<Duration>,
}

/// The places one call holds until it ends.
type Slots<'a> = (Option<tokio::sync::SemaphorePermit<'a>>, InFlightGuard);

/// A typed actor address with an in-flight limit (reported to health) and a deadline.
pub struct ActorHandle<A: Actor> {
    addr: Addr<A>,
    name: &'static str,
    health: HealthRegistry,
    in_flight: InFlight,
    deadline: Duration,
    /// The messages with a limit or deadline of their own (a few: a scan beats a map).
    own: Arc<[Own]>,
}

impl<A: Actor> Clone for ActorHandle<A> {
    fn clone(&self) -> Self {
        ActorHandle {
            addr: self.addr.clone(),
            name: self.name,
            health: self.health.clone(),
            in_flight: self.in_flight.clone(),
            deadline: self.deadline,
            own: self.own.clone(),
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
            name,
            in_flight: InFlight::new(name, max_in_flight, health.clone()),
            health,
            deadline,
            own: Arc::from([]),
        }
    }

    /// `M` may have at most `max` calls in progress, within the handle's limit.
    pub fn limit<M: Message + 'static>(self, max: usize) -> Self {
        let slots = Some(Arc::new(Semaphore::new(max.max(1))));
        self.with::<M>(|o| o.slots = slots)
    }

    /// `M`'s answer is awaited `deadline` instead of the handle's.
    pub fn deadline<M: Message + 'static>(self, deadline: Duration) -> Self {
        self.with::<M>(|o| o.deadline = Some(deadline))
    }

    fn with<M: 'static>(mut self, set: impl FnOnce(&mut Own)) -> Self {
        let message = TypeId::of::<M>();
        let mut own = self.own.to_vec();
        let at = match own.iter().position(|o| o.message == message) {
            Some(at) => at,
            None => {
                own.push(Own {
                    message,
                    slots: None,
                    deadline: None,
                });
                own.len() - 1
            }
        };
        set(&mut own[at]);
        self.own = own.into();
        self
    }

    /// Sends `msg` and waits for the answer within its deadline, if a place is free for it.
    pub async fn call<M>(&self, msg: M) -> Result<M::Result, CallError>
    where
        M: Message + Send + 'static,
        M::Result: Send,
        A: Handler<M>,
        A::Context: ToEnvelope<A, M>,
    {
        let (_slots, deadline) = self.enter::<M>()?;
        match tokio::time::timeout(deadline, self.addr.send(msg)).await {
            Ok(Ok(r)) => Ok(r),
            Ok(Err(_)) => Err(CallError::Stopped),
            Err(_) => Err(CallError::TimedOut),
        }
    }

    /// Runs `work`, the answer to `msg`, on the caller's task under `M`'s limit and deadline
    /// and the actor's panic guard (a panic restarts the actor and is the caller's `Stopped`),
    /// as if it had been sent. For a message whose work needs none of the actor's turns (a
    /// check on its shared state): the mailbox's round trip between threads was a quarter of a
    /// sign-in-with-x re-read's cost (docs/benchmarks.md).
    pub async fn run<M, F>(&self, msg: M, work: impl FnOnce(M) -> F) -> Result<F::Output, CallError>
    where
        M: Message<Result = F::Output> + 'static,
        F: Future,
        A: Handler<Stop>,
        A::Context: ToEnvelope<A, Stop>,
    {
        let (_slots, deadline) = self.enter::<M>()?;
        let guarded = supervise::caught(&self.addr, self.name, &self.health, work(msg));
        match tokio::time::timeout(deadline, guarded).await {
            Ok(Some(out)) => Ok(out),
            Ok(None) => Err(CallError::Stopped),
            Err(_) => Err(CallError::TimedOut),
        }
    }

    /// A place for one call of `M` (its own limit's, then the handle's), and its deadline.
    fn enter<M: 'static>(&self) -> Result<(Slots<'_>, Duration), CallError> {
        let own = self.own.iter().find(|o| o.message == TypeId::of::<M>());
        let own_slot = match own.and_then(|o| o.slots.as_ref()) {
            Some(slots) => Some(slots.try_acquire().map_err(|_| CallError::Busy)?),
            None => None,
        };
        let slot = self.in_flight.try_enter().ok_or(CallError::Busy)?;
        let deadline = own.and_then(|o| o.deadline).unwrap_or(self.deadline);
        Ok(((own_slot, slot), deadline))
    }

    /// Sends a notice nobody waits on (no limit, no deadline): for messages the actor folds
    /// together, so a flood of them costs one turn.
    pub fn tell<M>(&self, msg: M)
    where
        M: Message<Result = ()> + Send + 'static,
        A: Handler<M>,
        A::Context: ToEnvelope<A, M>,
    {
        self.addr.do_send(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers after the given wait.
    struct Sleeper;

    impl Actor for Sleeper {
        type Context = Context<Self>;
    }

    #[derive(Message)]
    #[rtype(result = "()")]
    struct Slow(Duration);

    #[derive(Message)]
    #[rtype(result = "()")]
    struct Other(Duration);

    impl Handler<Slow> for Sleeper {
        type Result = ResponseFuture<()>;
        fn handle(&mut self, m: Slow, _: &mut Self::Context) -> Self::Result {
            Box::pin(tokio::time::sleep(m.0))
        }
    }

    impl Handler<Other> for Sleeper {
        type Result = ResponseFuture<()>;
        fn handle(&mut self, m: Other, _: &mut Self::Context) -> Self::Result {
            Box::pin(tokio::time::sleep(m.0))
        }
    }

    fn handle(max: usize, deadline: Duration) -> ActorHandle<Sleeper> {
        let health = HealthRegistry::new();
        ActorHandle::new("sleeper", Sleeper.start(), max, deadline, health)
    }

    #[actix::test]
    async fn a_message_keeps_to_its_own_limit_within_the_handles() {
        let h = handle(3, Duration::from_secs(5)).limit::<Slow>(1);
        let first = h.call(Slow(Duration::from_millis(300)));
        let second = async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let slow = h.call(Slow(Duration::ZERO)).await;
            let other = h.call(Other(Duration::ZERO)).await;
            (slow, other)
        };
        let (first, (slow, other)) = tokio::join!(first, second);
        assert_eq!(first, Ok(()));
        assert_eq!(slow, Err(CallError::Busy), "Slow's own place is taken");
        assert_eq!(other, Ok(()), "Other is not held up by Slow's limit");
    }

    #[actix::test]
    async fn a_message_keeps_to_its_own_deadline() {
        let h = handle(4, Duration::from_secs(5)).deadline::<Slow>(Duration::from_millis(50));
        let slow = h.call(Slow(Duration::from_millis(500))).await;
        assert_eq!(slow, Err(CallError::TimedOut));
        let other = h.call(Other(Duration::from_millis(100))).await;
        assert_eq!(other, Ok(()), "the handle's deadline holds for the rest");
    }
}

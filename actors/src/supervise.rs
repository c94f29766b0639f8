//! The one way an actor runs its work: a panic anywhere in it is caught, counted in the health
//! registry and stops the actor, so its actix `Supervisor` restarts it (`restarting` counts the
//! restart). A restarted actor waits a backoff before its first turn, so a panic that repeats
//! does not spin.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix::dev::ToEnvelope;
use actix::prelude::*;
use futures::FutureExt;

use crate::health::HealthRegistry;

/// The longest one turn of an actor's work (one chain check, one range, one row, one query)
/// may take, given the time limits of the calls in it. Staleness limits add it to the ticks.
pub const TURN: Duration = Duration::from_secs(60);

/// The staleness limit of an actor that shows a sign of life at least every `tick`: three
/// ticks and one turn.
pub fn stale_limit(tick: Duration) -> Duration {
    tick * 3 + TURN
}

/// Asks an actor to stop (a panic was caught in work it started apart from its context).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Stop;

/// The text of a caught panic.
pub fn panic_message(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs `work` on the actor's context. A panic in it is caught and counted, and stops the
/// actor (its supervisor restarts it).
pub fn spawn<A, F>(
    act: &A,
    ctx: &mut Context<A>,
    name: &'static str,
    health: &HealthRegistry,
    work: F,
) where
    A: Actor<Context = Context<A>>,
    F: Future<Output = ()> + 'static,
{
    let health = health.clone();
    ctx.spawn(
        AssertUnwindSafe(work)
            .catch_unwind()
            .into_actor(act)
            .map(move |res, _, ctx: &mut Context<A>| {
                if let Err(p) = res {
                    let message = panic_message(&*p);
                    tracing::error!(actor = name, panic = %message, "an actor's work panicked; restarting it");
                    health.panicked(name, &message);
                    ctx.stop();
                }
            }),
    );
}

/// Wraps work that runs apart from the actor's context (a handler's answer, a detached job):
/// a panic is caught and counted, the actor is told to stop, and the panic goes on, so whoever
/// waits sees the work fail as before.
pub async fn guard<A, F>(
    addr: Addr<A>,
    name: &'static str,
    health: HealthRegistry,
    work: F,
) -> F::Output
where
    A: Actor + Handler<Stop>,
    A::Context: ToEnvelope<A, Stop>,
    F: Future,
{
    match AssertUnwindSafe(work).catch_unwind().await {
        Ok(out) => out,
        Err(p) => {
            stop_after_panic(&addr, name, &health, &*p);
            std::panic::resume_unwind(p)
        }
    }
}

/// As [`guard`], for work run on a caller's task ([`crate::handle::ActorHandle::run`]): the
/// panic ends there, and the caller gets `None`, as the caller of a message whose answer a
/// panic dropped.
pub async fn caught<A, F>(
    addr: &Addr<A>,
    name: &'static str,
    health: &HealthRegistry,
    work: F,
) -> Option<F::Output>
where
    A: Actor + Handler<Stop>,
    A::Context: ToEnvelope<A, Stop>,
    F: Future,
{
    match AssertUnwindSafe(work).catch_unwind().await {
        Ok(out) => Some(out),
        Err(p) => {
            stop_after_panic(addr, name, health, &*p);
            None
        }
    }
}

fn stop_after_panic<A>(
    addr: &Addr<A>,
    name: &'static str,
    health: &HealthRegistry,
    p: &(dyn Any + Send),
) where
    A: Actor + Handler<Stop>,
    A::Context: ToEnvelope<A, Stop>,
{
    let message = panic_message(p);
    tracing::error!(actor = name, panic = %message, "an actor's work panicked; restarting it");
    health.panicked(name, &message);
    addr.do_send(Stop);
}

/// Runs an actor's synchronous code (a tick, a handler's body). A panic in it is caught,
/// counted and stops the actor, as one in its futures: uncaught, it would end the actor's task
/// without stopping it, so its supervisor would never restart it and it would only go stale.
/// `None` when it panicked.
pub fn sync<A, R>(
    act: &mut A,
    ctx: &mut Context<A>,
    name: &'static str,
    health: &HealthRegistry,
    work: impl FnOnce(&mut A, &mut Context<A>) -> R,
) -> Option<R>
where
    A: Actor<Context = Context<A>>,
{
    match std::panic::catch_unwind(AssertUnwindSafe(|| work(act, ctx))) {
        Ok(r) => Some(r),
        Err(p) => {
            let message = panic_message(&*p);
            tracing::error!(actor = name, panic = %message, "an actor's code panicked; restarting it");
            health.panicked(name, &message);
            ctx.stop();
            None
        }
    }
}

/// Runs `tick` at once and every `every` after; after a panic, first after the restart
/// backoff. A panic in `tick` itself restarts the actor too (see [`sync`]).
pub fn every<A>(
    ctx: &mut Context<A>,
    name: &'static str,
    health: &HealthRegistry,
    every: Duration,
    tick: impl Fn(&mut A, &mut Context<A>) + 'static,
) where
    A: Actor<Context = Context<A>>,
{
    let delay = health.restart_delay(name);
    if !delay.is_zero() {
        tracing::info!(
            actor = name,
            ?delay,
            "waiting before the first turn after a panic"
        );
    }
    let health = health.clone();
    ctx.run_later(delay, move |act, ctx| {
        let guarded = move |act: &mut A, ctx: &mut Context<A>| {
            sync(act, ctx, name, &health, &tick);
        };
        guarded(act, ctx);
        ctx.run_interval(every, guarded);
    });
}

/// Runs the work `turn` makes at once and every `every` after, each on the actor's context
/// (see [`every`] and [`spawn`]).
pub fn every_spawned<A, F>(
    ctx: &mut Context<A>,
    name: &'static str,
    health: &HealthRegistry,
    every: Duration,
    turn: fn(&mut A, &mut Context<A>) -> F,
) where
    A: Actor<Context = Context<A>>,
    F: Future<Output = ()> + 'static,
{
    let registry = health.clone();
    self::every(ctx, name, health, every, move |act, ctx| {
        let work = turn(act, ctx);
        spawn(act, ctx, name, &registry, work);
    });
}

/// One turn at a time: held while a turn runs, and released when it ends, however it ends (a
/// panic unwinds through it; a cancelled future drops it), so a restarted actor can turn again.
pub struct Turn<'a>(&'a AtomicBool);

impl<'a> Turn<'a> {
    /// The turn, or `None` while another runs.
    pub fn begin(flag: &'a AtomicBool) -> Option<Turn<'a>> {
        (!flag.swap(true, Ordering::AcqRel)).then_some(Turn(flag))
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// A handler's answer, run beside the mailbox under [`guard`]: a slow call never holds up
/// another, and a panic in it restarts the actor. Every call message's handler answers with it.
pub fn beside<A, T>(
    ctx: &mut Context<A>,
    name: &'static str,
    health: &HealthRegistry,
    work: impl Future<Output = T> + 'static,
) -> ResponseFuture<T>
where
    A: Actor<Context = Context<A>> + Handler<Stop>,
    T: 'static,
{
    Box::pin(guard(ctx.address(), name, health.clone(), work))
}

/// Writes what the supervised actors share: the actor, with its state in `inner: Arc<Inner>`
/// (the calling module's `Inner`, which has the `health` registry); its `Actor` impl, whose
/// start runs the actor's own `schedule`, again after every restart; `Supervised`, which counts
/// a restart under `name`; with `stop`, also the handler of the [`Stop`] that [`guard`] sends.
/// The actor's call messages are declared at the top of its module, each answered by
/// [`beside`].
macro_rules! actor {
    ($actor:ident, $name:expr) => {
        pub struct $actor {
            inner: ::std::sync::Arc<Inner>,
        }

        impl ::actix::Actor for $actor {
            type Context = ::actix::Context<Self>;

            fn started(&mut self, ctx: &mut Self::Context) {
                self.schedule(ctx);
            }
        }

        impl ::actix::Supervised for $actor {
            fn restarting(&mut self, _: &mut Self::Context) {
                self.inner.health.restarted($name);
            }
        }
    };
    ($actor:ident, $name:expr, stop) => {
        $crate::supervise::actor!($actor, $name);

        impl ::actix::Handler<$crate::supervise::Stop> for $actor {
            type Result = ();
            fn handle(&mut self, _: $crate::supervise::Stop, ctx: &mut Self::Context) {
                ::actix::ActorContext::stop(ctx);
            }
        }
    };
}
pub(crate) use actor;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::handle::{ActorHandle, CallError};

    const NAME: &str = "test";

    struct Inner {
        health: HealthRegistry,
    }

    actor!(Echo, NAME, stop);

    impl Echo {
        fn schedule(&mut self, _: &mut Context<Self>) {}
    }

    /// Answers its number; panics on 0.
    #[derive(Message)]
    #[rtype(result = "u32")]
    struct Say(u32);

    impl Handler<Say> for Echo {
        type Result = ResponseFuture<u32>;
        fn handle(&mut self, m: Say, ctx: &mut Self::Context) -> Self::Result {
            beside(ctx, NAME, &self.inner.health, async move {
                tokio::task::yield_now().await;
                assert!(m.0 != 0, "told to panic");
                m.0
            })
        }
    }

    fn counts(h: &HealthRegistry) -> (u64, u64) {
        h.snapshot()
            .iter()
            .find(|c| c.name == NAME)
            .map(|c| (c.panics, c.restarts))
            .unwrap_or_default()
    }

    /// A supervised Echo and its health registry.
    fn echo() -> (Addr<Echo>, HealthRegistry) {
        let health = HealthRegistry::new();
        health.register(NAME, Duration::from_secs(60));
        let inner = Arc::new(Inner {
            health: health.clone(),
        });
        let addr = Supervisor::start(move |_| Echo {
            inner: inner.clone(),
        });
        (addr, health)
    }

    /// Waits for one panic and one restart to be counted.
    async fn one_panic_one_restart(health: &HealthRegistry) {
        for _ in 0..100 {
            if counts(health) == (1, 1) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(counts(health), (1, 1), "one panic, one restart");
    }

    #[actix::test]
    async fn a_message_that_panics_is_caught_counted_and_its_actor_restarted() {
        let (addr, health) = echo();
        let h = ActorHandle::new(NAME, addr, 4, Duration::from_secs(5), health.clone());
        assert_eq!(h.call(Say(1)).await, Ok(1));
        // The panic ends the answer's task: the caller sees the answer dropped.
        assert_eq!(h.call(Say(0)).await, Err(CallError::Stopped));
        one_panic_one_restart(&health).await;
        assert_eq!(h.call(Say(2)).await, Ok(2), "the restarted actor answers");
    }

    #[actix::test]
    async fn work_run_on_the_callers_task_keeps_the_guard_limit_and_deadline() {
        let (addr, health) = echo();
        let h = ActorHandle::new(NAME, addr, 4, Duration::from_secs(5), health.clone())
            .limit::<Say>(1)
            .deadline::<Say>(Duration::from_millis(50));
        let answer = |m: Say| async move {
            tokio::time::sleep(Duration::from_millis(u64::from(m.0))).await;
            assert!(m.0 != 0, "told to panic");
            m.0
        };
        assert_eq!(h.run(Say(1), answer).await, Ok(1));
        // Say's one place is taken by a slow one, which then misses Say's deadline.
        let (slow, second) = tokio::join!(h.run(Say(500), answer), async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            h.run(Say(1), answer).await
        });
        assert_eq!(slow, Err(CallError::TimedOut));
        assert_eq!(second, Err(CallError::Busy));
        // A panic is the caller's `Stopped`, counted, and restarts the actor.
        assert_eq!(h.run(Say(0), answer).await, Err(CallError::Stopped));
        one_panic_one_restart(&health).await;
        assert_eq!(h.call(Say(2)).await, Ok(2), "the restarted actor answers");
    }
}

//! One background thread fed only the newest request: a request that
//! arrives while another waits replaces it, and one that arrives while
//! another runs stops it. Fast edits on a puzzle that is slow to solve cost
//! the newest state's solve, not a thread each nor a core kept busy on a
//! state already left. No window code.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::solve::Budget;

/// Set once the request it came with is no longer wanted: a newer request
/// came in, the request was withdrawn, or the worker was dropped. The work
/// looks at it (or hands its flag to the solver's budget) and stops early;
/// a request stopped so has no answer anyone waits for.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Whether the request is no longer wanted.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for a solver's budget to look at.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }

    /// A budget that runs out when the token is set, or once the
    /// process's time limit ([`crate::solve::time_limit`], the command
    /// line's `--time-limit`, 10 s unless told) has passed from now: a
    /// request's searches and its logic steps all count against it, and
    /// its answer then says it gave up.
    pub fn budget(&self) -> Budget {
        self.budget_within(crate::solve::time_limit())
    }

    /// [`Cancel::budget`] with `limit` for the time limit.
    fn budget_within(&self, limit: Option<Duration>) -> Budget {
        match limit {
            Some(t) => Budget::time(t),
            None => Budget::default(),
        }
        .with_cancel(self.flag())
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A slot that holds the newest request not yet taken, and the token of
/// the request taken last.
pub struct Latest<T> {
    state: Mutex<Slot<T>>,
    changed: Condvar,
}

struct Slot<T> {
    next: Option<(T, Cancel)>,
    /// The token of the request taken last (set once it is done too:
    /// harmless, nobody looks at it then).
    taken: Option<Cancel>,
    closed: bool,
}

impl<T> Slot<T> {
    /// Sets the tokens of the request taken last and of the one waiting,
    /// and takes the waiting one out of the slot, to be returned.
    fn cancel(&mut self) -> Option<T> {
        if let Some(c) = self.taken.take() {
            c.set();
        }
        self.next.take().map(|(request, c)| {
            c.set();
            request
        })
    }
}

impl<T> Default for Latest<T> {
    fn default() -> Latest<T> {
        Latest {
            state: Mutex::new(Slot {
                next: None,
                taken: None,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }
}

impl<T> Latest<T> {
    // No code panics while holding the lock, so a poisoned lock still
    // holds a whole slot.
    fn lock(&self) -> MutexGuard<'_, Slot<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts `request` in, and sets the token of the request taken last;
    /// returns the request it replaced, if one waited.
    pub fn put(&self, request: T) -> Option<T> {
        let replaced = {
            let mut slot = self.lock();
            let replaced = slot.cancel();
            slot.next = Some((request, Cancel::default()));
            replaced
        };
        self.changed.notify_one();
        replaced
    }

    /// Withdraws every request: sets the token of the request taken last
    /// and drops the one waiting, which is returned.
    pub fn cancel(&self) -> Option<T> {
        let mut slot = self.lock();
        slot.cancel()
    }

    /// Waits for a request and takes it, with its token; `None` once the
    /// slot is closed (a request still waiting then is dropped).
    pub fn take(&self) -> Option<(T, Cancel)> {
        let mut slot = self.lock();
        loop {
            if slot.closed {
                return None;
            }
            if let Some((request, cancel)) = slot.next.take() {
                slot.taken = Some(cancel.clone());
                return Some((request, cancel));
            }
            slot = self
                .changed
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Closes the slot: [`Latest::take`] returns `None` from now on, and
    /// the token of the request taken last is set.
    pub fn close(&self) {
        let dropped = {
            let mut slot = self.lock();
            slot.closed = true;
            slot.cancel()
        };
        self.changed.notify_all();
        drop(dropped);
    }
}

/// A thread that runs `work` on each request it takes from a [`Latest`]
/// slot, with the request's [`Cancel`] token. Dropping the worker closes
/// the slot and sets the running request's token: the thread ends once
/// that request's work stops, and nothing holds up the exit.
pub struct Worker<T> {
    slot: Arc<Latest<T>>,
}

impl<T: Send + 'static> Worker<T> {
    /// Starts the thread, named `name`.
    pub fn spawn(name: &str, mut work: impl FnMut(T, &Cancel) + Send + 'static) -> Worker<T> {
        let slot = Arc::new(Latest::default());
        let taken = Arc::clone(&slot);
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while let Some((request, cancel)) = taken.take() {
                    // A request that panics (a bug, reported by the panic
                    // hook) loses its own answer, not the worker.
                    let _ = catch_unwind(AssertUnwindSafe(|| work(request, &cancel)));
                }
            })
            .expect("the system cannot start a thread");
        Worker { slot }
    }

    /// Asks for `request` to be worked on once the running one stops (its
    /// token is set), in place of any request still waiting.
    pub fn request(&self, request: T) {
        self.slot.put(request);
    }

    /// Withdraws the running request (its token is set) and any waiting
    /// one: nobody wants their answers any more.
    pub fn cancel(&self) {
        self.slot.cancel();
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        self.slot.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{RecvTimeoutError, channel};
    use std::time::{Duration, Instant};

    #[test]
    fn a_new_request_replaces_one_not_yet_taken() {
        let slot = Latest::default();
        assert_eq!(slot.put(1), None);
        assert_eq!(slot.put(2), Some(1));
        assert_eq!(slot.put(3), Some(2));
        assert_eq!(slot.take().map(|(n, _)| n), Some(3));
        assert_eq!(slot.put(4), None, "the taken request is gone");
        slot.close();
        assert!(
            slot.take().is_none(),
            "closed: the waiting request is dropped"
        );
    }

    #[test]
    fn closing_wakes_a_waiting_taker() {
        let slot = Arc::new(Latest::<u32>::default());
        let taker = {
            let slot = Arc::clone(&slot);
            std::thread::spawn(move || slot.take())
        };
        slot.close();
        assert!(taker.join().unwrap().is_none());
    }

    #[test]
    fn a_request_that_panics_leaves_the_worker_running() {
        let (started_tx, started) = channel();
        let worker = Worker::spawn("test worker", move |n: u32, _: &Cancel| {
            started_tx.send(n).unwrap();
            assert_ne!(n, 1, "request 1 fails");
        });
        worker.request(1);
        assert_eq!(started.recv(), Ok(1));
        worker.request(2);
        assert_eq!(started.recv(), Ok(2));
    }

    /// The work waits at a gate the test opens, so which requests run is
    /// decided by the test alone, not by timing.
    #[test]
    fn the_worker_runs_the_newest_request_after_the_running_one() {
        let (started_tx, started) = channel();
        let (gate_tx, gate) = channel::<()>();
        let (done_tx, done) = channel();
        let worker = Worker::spawn("test worker", move |n: u32, _: &Cancel| {
            started_tx.send(n).unwrap();
            gate.recv().unwrap();
            done_tx.send(n).unwrap();
        });
        worker.request(1);
        assert_eq!(started.recv(), Ok(1));
        // 1 runs; 2 and 3 are replaced before the worker is free.
        worker.request(2);
        worker.request(3);
        worker.request(4);
        gate_tx.send(()).unwrap();
        assert_eq!(done.recv(), Ok(1));
        assert_eq!(started.recv(), Ok(4));
        gate_tx.send(()).unwrap();
        assert_eq!(done.recv(), Ok(4));

        // Dropped, the worker's thread ends and drops its end of `done`.
        drop(worker);
        let limit = Duration::from_secs(30);
        assert_eq!(
            done.recv_timeout(limit),
            Err(RecvTimeoutError::Disconnected)
        );
    }

    #[test]
    fn the_token_of_the_request_taken_is_set_when_it_is_replaced_withdrawn_or_closed() {
        let slot = Latest::default();
        slot.put(1);
        let (_, first) = slot.take().unwrap();
        assert!(!first.is_set(), "nothing newer yet");
        slot.put(2);
        assert!(first.is_set(), "replaced while it runs");
        let (_, second) = slot.take().unwrap();
        assert!(!second.is_set());
        assert_eq!(slot.cancel(), None, "nothing waited");
        assert!(second.is_set(), "withdrawn");
        slot.put(3);
        slot.put(4);
        let (n, fourth) = slot.take().unwrap();
        assert_eq!(n, 4);
        assert!(!fourth.is_set(), "what replaced a waiting request runs");
        slot.put(5);
        assert!(fourth.is_set());
        assert_eq!(slot.cancel(), Some(5), "a waiting request is withdrawn too");
        slot.put(6);
        let (_, sixth) = slot.take().unwrap();
        slot.close();
        assert!(sixth.is_set(), "closed");
    }

    /// Work that would run for a minute unless its token is set: what a
    /// count on a hard puzzle is to the worker.
    fn slow(n: u32, cancel: &Cancel) -> (u32, bool) {
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            if cancel.is_set() {
                return (n, true);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        (n, false)
    }

    #[test]
    fn a_request_s_budget_has_the_time_limit_as_well_as_its_token() {
        let cancel = Cancel::default();
        let b = cancel.budget_within(Some(Duration::from_millis(0)));
        assert!(b.expired(), "a limit of no time has passed at once");
        let b = cancel.budget_within(Some(Duration::from_secs(3600)));
        assert!(b.deadline.is_some() && !b.expired());
        cancel.set();
        assert!(b.expired(), "the token still stops it");
        assert!(cancel.budget_within(None).deadline.is_none());
    }

    #[test]
    fn a_slow_request_replaced_withdrawn_or_left_by_a_dropped_worker_stops_early() {
        let (started_tx, started) = channel();
        let (done_tx, done) = channel();
        let worker = Worker::spawn("test worker", move |n: u32, cancel: &Cancel| {
            started_tx.send(n).unwrap();
            done_tx.send(slow(n, cancel)).unwrap();
        });
        let limit = Duration::from_secs(30);
        worker.request(1);
        assert_eq!(started.recv(), Ok(1));
        worker.request(2);
        assert_eq!(done.recv_timeout(limit), Ok((1, true)), "1 stopped");
        assert_eq!(started.recv(), Ok(2), "the newer request runs");
        worker.cancel();
        assert_eq!(done.recv_timeout(limit), Ok((2, true)), "2 withdrawn");
        worker.request(3);
        assert_eq!(started.recv(), Ok(3));
        drop(worker);
        assert_eq!(done.recv_timeout(limit), Ok((3, true)), "3 left");
        assert_eq!(
            done.recv_timeout(limit),
            Err(RecvTimeoutError::Disconnected),
            "the thread ended"
        );
    }
}

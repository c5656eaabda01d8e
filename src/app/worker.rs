//! One background thread fed only the newest request: a request that
//! arrives while another waits replaces it. Fast edits on a puzzle that is
//! slow to solve cost the solve that runs and one more, not a thread each.
//! No window code.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// A slot that holds the newest request not yet taken.
pub struct Latest<T> {
    state: Mutex<Slot<T>>,
    changed: Condvar,
}

struct Slot<T> {
    next: Option<T>,
    closed: bool,
}

impl<T> Default for Latest<T> {
    fn default() -> Latest<T> {
        Latest {
            state: Mutex::new(Slot {
                next: None,
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

    /// Puts `request` in; returns the request it replaced, if one waited.
    pub fn put(&self, request: T) -> Option<T> {
        let replaced = self.lock().next.replace(request);
        self.changed.notify_one();
        replaced
    }

    /// Waits for a request and takes it; `None` once the slot is closed
    /// (a request still waiting then is dropped).
    pub fn take(&self) -> Option<T> {
        let mut slot = self.lock();
        loop {
            if slot.closed {
                return None;
            }
            if let Some(request) = slot.next.take() {
                return Some(request);
            }
            slot = self
                .changed
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Closes the slot: [`Latest::take`] returns `None` from now on.
    pub fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }
}

/// A thread that runs `work` on each request it takes from a [`Latest`]
/// slot. Dropping the worker closes the slot: the thread ends once the
/// request it is running, if any, is done, and nothing holds up the exit.
pub struct Worker<T> {
    slot: Arc<Latest<T>>,
}

impl<T: Send + 'static> Worker<T> {
    /// Starts the thread, named `name`.
    pub fn spawn(name: &str, mut work: impl FnMut(T) + Send + 'static) -> Worker<T> {
        let slot = Arc::new(Latest::default());
        let taken = Arc::clone(&slot);
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while let Some(request) = taken.take() {
                    // A request that panics (a bug, reported by the panic
                    // hook) loses its own answer, not the worker.
                    let _ = catch_unwind(AssertUnwindSafe(|| work(request)));
                }
            })
            .expect("the system cannot start a thread");
        Worker { slot }
    }

    /// Asks for `request` to be worked on after the running one, in place
    /// of any request still waiting.
    pub fn request(&self, request: T) {
        self.slot.put(request);
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
    use std::time::Duration;

    #[test]
    fn a_new_request_replaces_one_not_yet_taken() {
        let slot = Latest::default();
        assert_eq!(slot.put(1), None);
        assert_eq!(slot.put(2), Some(1));
        assert_eq!(slot.put(3), Some(2));
        assert_eq!(slot.take(), Some(3));
        assert_eq!(slot.put(4), None, "the taken request is gone");
        slot.close();
        assert_eq!(slot.take(), None, "closed: the waiting request is dropped");
    }

    #[test]
    fn closing_wakes_a_waiting_taker() {
        let slot = Arc::new(Latest::<u32>::default());
        let taker = {
            let slot = Arc::clone(&slot);
            std::thread::spawn(move || slot.take())
        };
        slot.close();
        assert_eq!(taker.join().unwrap(), None);
    }

    #[test]
    fn a_request_that_panics_leaves_the_worker_running() {
        let (started_tx, started) = channel();
        let worker = Worker::spawn("test worker", move |n: u32| {
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
        let worker = Worker::spawn("test worker", move |n: u32| {
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
}

//! When a search gives up: at a time, when another thread says so (the
//! app's request was replaced by a newer one), or after a number of
//! choices. A search that gives up says so; it never passes for a count.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The clock and the cancel flag are looked at once in this many choices:
/// a choice costs well under a microsecond on a classic and a few on a
/// 25x25, so a search notices within a fraction of a millisecond, and the
/// looks cost nothing measurable.
pub const CHECK_EVERY: u64 = 64;

/// How long a search that a person waits for (`solve`, `check`, `hint`,
/// `rate` on the command line) runs before it gives up and says so. Most
/// puzzles take milliseconds; a 25x25 with wrong givens deep down can take
/// minutes to prove it has no second solution.
pub const DEFAULT_TIME: Duration = Duration::from_secs(10);

/// The time limit of every search of the process, in milliseconds
/// (`u64::MAX`: none); see [`set_time_limit`].
static TIME_LIMIT_MS: AtomicU64 = AtomicU64::new(u64::MAX);

/// Makes every search started from now on, in any thread, give up after
/// `limit` (none: never), unless its own [`Budget`] sets a deadline. It is
/// for a program where a person waits for each answer (the command line);
/// a library user that sets nothing gets searches without a clock.
pub fn set_time_limit(limit: Option<Duration>) {
    let ms = limit.map_or(u64::MAX, |d| d.as_millis().min(u64::MAX as u128 - 1) as u64);
    TIME_LIMIT_MS.store(ms, Ordering::Relaxed);
}

/// The limit [`set_time_limit`] set.
pub fn time_limit() -> Option<Duration> {
    match TIME_LIMIT_MS.load(Ordering::Relaxed) {
        u64::MAX => None,
        ms => Some(Duration::from_millis(ms)),
    }
}

/// The limits of one search. The default has none.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up once this flag is set (by another thread).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Give up after this many choices (search tree nodes): unlike time,
    /// the same on every machine, so a result that depends on it is
    /// reproducible.
    pub max_nodes: Option<u64>,
}

impl Budget {
    /// A budget of `time` from now.
    pub fn time(time: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(time),
            ..Budget::default()
        }
    }

    /// A budget of `nodes` choices.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(nodes),
            ..Budget::default()
        }
    }

    /// The same budget, also given up when `cancel` is set.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(cancel);
        self
    }

    /// The budget a search starting now runs under: this one, with the
    /// process's [`time_limit`] from now when it sets no deadline itself.
    pub(crate) fn starting_now(&self) -> Budget {
        let mut b = self.clone();
        if b.deadline.is_none() {
            b.deadline = time_limit().and_then(|t| Instant::now().checked_add(t));
        }
        b
    }

    /// Whether the budget sets any limit.
    pub fn is_limited(&self) -> bool {
        self.deadline.is_some() || self.cancel.is_some() || self.max_nodes.is_some()
    }

    /// Whether a search that has made `nodes` choices must stop: always
    /// on the node limit, and on the clock or the flag once in
    /// [`CHECK_EVERY`] choices.
    #[inline]
    pub(crate) fn spent(&self, nodes: u64) -> bool {
        if self.max_nodes.is_some_and(|m| nodes >= m) {
            return true;
        }
        nodes.is_multiple_of(CHECK_EVERY) && self.expired()
    }

    /// Whether the clock has run out or the flag is set.
    pub fn expired(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_stops_on_each_of_its_limits() {
        assert!(!Budget::default().is_limited());
        assert!(!Budget::default().spent(1 << 40));
        let nodes = Budget::nodes(100);
        assert!(!nodes.spent(99) && nodes.spent(100));
        let past = Budget::time(Duration::ZERO);
        assert!(past.spent(CHECK_EVERY), "looked at on a multiple");
        assert!(!past.spent(CHECK_EVERY + 1), "not looked at in between");
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget::default().with_cancel(flag.clone());
        assert!(!b.expired());
        flag.store(true, Ordering::Relaxed);
        assert!(b.expired() && b.spent(0));
    }
}

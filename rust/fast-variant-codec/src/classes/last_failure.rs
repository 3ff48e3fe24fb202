//! The failure of each thread's last static call (`var_to_bytes`, `bytes_to_var`), which
//! `get_last_error` and `get_last_error_message` read: a static call has no instance to
//! keep it in.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::classes::failure::Failure;

thread_local! {
    /// The failure of this thread's last static call; `None` after a success.
    static LAST_FAILURE: ThreadFailure = const { ThreadFailure(Cell::new(None)) };
}

/// How many threads' [`LAST_FAILURE`] hold a failure. While none does, a successful call
/// has nothing to clear and leaves the thread-local alone: reaching it costs a call (the
/// library's thread-locals are reached through the dynamic TLS model) and a check of its
/// state, which one small value per call notices. A thread that holds a failure has counted
/// it before it reads the count, so it always sees its own.
static THREADS_FAILED: AtomicUsize = AtomicUsize::new(0);

/// A thread's failure, counted in [`THREADS_FAILED`] while it is held.
struct ThreadFailure(Cell<Option<Box<Failure>>>);

impl ThreadFailure {
    fn set(&self, failure: Option<Box<Failure>>) {
        let now = failure.is_some();
        let before = self.0.replace(failure).is_some();
        match (before, now) {
            (false, true) => THREADS_FAILED.fetch_add(1, Ordering::Relaxed),
            (true, false) => THREADS_FAILED.fetch_sub(1, Ordering::Relaxed),
            _ => 0,
        };
    }
}

impl Drop for ThreadFailure {
    fn drop(&mut self) {
        self.set(None);
    }
}

/// The error code and message of this thread's last static call (`None`: it succeeded, or
/// there was none).
pub fn last_failure<R>(read: impl FnOnce(Option<&Failure>) -> R) -> R {
    LAST_FAILURE.with(|slot| {
        let failure = slot.0.take();
        let result = read(failure.as_deref());
        slot.0.set(failure);
        result
    })
}

/// Records the outcome of a static call for this thread.
#[inline(always)]
pub fn finish_static<T>(outcome: Result<T, Failure>) {
    if outcome.is_ok() && THREADS_FAILED.load(Ordering::Relaxed) == 0 {
        return;
    }
    let failure = outcome.err().map(Box::new);
    LAST_FAILURE.with(|slot| slot.set(failure));
}

#[cfg(test)]
mod tests {
    use godot::global::Error;

    use super::*;

    /// The tests of static calls' failures, one at a time: they count the failures of all
    /// threads.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn a_failure_is_kept_until_the_next_call() {
        let _serial = SERIAL.lock().unwrap();
        finish_static::<()>(Err(Failure::new(
            Error::ERR_FILE_EOF,
            "cut short at byte 4",
        )));
        let read = |f: Option<&Failure>| f.map(|f| (f.error, f.message.clone()));
        let expected = Some((Error::ERR_FILE_EOF, "cut short at byte 4".to_string()));
        assert_eq!(last_failure(read), expected);
        assert_eq!(last_failure(read), expected, "reading leaves it");
        finish_static(Ok(()));
        assert_eq!(last_failure(read), None);
    }

    #[test]
    fn a_thread_that_ends_holding_a_failure_is_no_longer_counted() {
        let _serial = SERIAL.lock().unwrap();
        let before = THREADS_FAILED.load(Ordering::Relaxed);
        std::thread::spawn(|| {
            finish_static::<()>(Err(Failure::new(Error::ERR_INVALID_DATA, "at byte 0")));
            assert!(THREADS_FAILED.load(Ordering::Relaxed) >= 1);
        })
        .join()
        .unwrap();
        assert_eq!(THREADS_FAILED.load(Ordering::Relaxed), before);
    }
}

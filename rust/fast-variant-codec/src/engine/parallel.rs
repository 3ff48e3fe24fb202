//! The thread pool that memory work runs on: bulk copies (slices of packed arrays and of
//! the arrays being returned, borrowed on the calling thread for the duration), and the
//! texts of large PackedStringArrays, read and made into Strings (memory from the engine's
//! allocator). Engine containers and objects are made and read on the calling thread.
//!
//! Work is shared, not handed over: the calling thread takes pieces too, and idle pool
//! threads join in. When the pool's threads are busy (the machine has other work), the
//! calling thread does it all and never waits for a thread that has not started.
//!
//! Panics: a piece that panics (a bug) is caught where it ran, on whichever thread; the
//! other pieces still run, the calling thread waits for every one of them (its own piece
//! panicking included: the closure stays borrowed until then), and [`run`] and
//! [`in_pieces`] report it as a [`PoolPanic`]. Nothing unwinds into the pool (which would
//! abort the process) or out of the caller while pieces may still run.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

// The environment variable that sizes the pool: a number of threads, `0` for none (all
// work on the calling thread). Read once, when the pool is first needed. Unset: one
// thread per logical CPU (rayon's default, which also honours `RAYON_NUM_THREADS`).
use crate::engine::switch_names::POOL_THREADS_VARIABLE;

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::env::var(POOL_THREADS_VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok());
        if threads == Some(0) {
            return None;
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .thread_name(|i| format!("fast-variant-codec-{i}"))
            // Every piece's panic is caught in `take`; should anything else panic in a
            // pool job, it is dropped here rather than left to rayon's default, which
            // aborts the process (the game).
            .panic_handler(drop_quietly)
            .build()
            .ok()
    })
    .as_ref()
}

/// Whether work that allocates engine memory is shared with the pool (see
/// [`allocations_shared`]); decided once, at initialization, for the running engine.
static ALLOCATIONS_SHARED: AtomicBool = AtomicBool::new(true);

/// Decides [`allocations_shared`] for an engine built with `DEBUG_ENABLED` or without it:
/// such an engine (the editor, a debug export template) counts every allocation and free
/// in two process-wide atomic counters (`Memory::alloc_static`), so threads that allocate
/// at once queue on them, and one thread alone allocates faster than two together.
pub fn set_engine_debug_build(debug: bool) {
    ALLOCATIONS_SHARED.store(!debug, Ordering::Relaxed);
}

/// Whether work whose pieces allocate engine memory (Strings) gains from the pool: in a
/// release build of the engine. Elsewhere it runs on the calling thread alone.
pub fn allocations_shared() -> bool {
    ALLOCATIONS_SHARED.load(Ordering::Relaxed)
}

/// A piece of shared work panicked (a bug): the first such panic's message. The work
/// it was part of is incomplete; every piece has finished or panicked by the time this
/// is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a piece of shared work panicked: {message}")]
pub struct PoolPanic {
    pub message: String,
}

impl PoolPanic {
    fn of(payload: &(dyn Any + Send)) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        PoolPanic { message }
    }

    /// Raises it again on the calling thread, once every piece is done (so nothing else
    /// uses the work's data any more), for callers with no way to return it: the
    /// binding's `guarded` catches it and reports `ERR_BUG` with this message.
    pub fn resume(self) -> ! {
        std::panic::resume_unwind(Box::new(self.to_string()))
    }
}

/// Drops a panic's payload, whose own drop could panic: that second panic is caught too
/// (and its payload forgotten), so nothing unwinds from here.
fn drop_quietly(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}

/// The first panic of a run's pieces.
#[derive(Default)]
struct FirstPanic(Mutex<Option<PoolPanic>>);

impl FirstPanic {
    /// Runs piece `i` of `job`, catching its panic.
    fn piece(&self, job: &(dyn Fn(usize) + Sync), i: usize) {
        // Unwind safety: after a panic the work's data may be half done; the caller is told
        // (`PoolPanic`) and does not use it as complete.
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job(i))) {
            let panic = PoolPanic::of(&*payload);
            drop_quietly(payload);
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(panic);
        }
    }

    fn into_result(self) -> Result<(), PoolPanic> {
        match self.0.into_inner().unwrap_or_else(PoisonError::into_inner) {
            Some(panic) => Err(panic),
            None => Ok(()),
        }
    }
}

/// The shared state of one [`run`]: which piece is next and how many are done.
struct Pieces {
    count: usize,
    next: AtomicUsize,
    done: AtomicUsize,
    panicked: FirstPanic,
    /// The work, as a pointer to the caller's closure (valid until `done == count`: see
    /// `take`).
    job: *const (dyn Fn(usize) + Sync),
}

// SAFETY: `job` points to a `Sync` closure; it is called only for pieces taken before
// every piece is done, which the caller waits for (see `run`). The other fields are
// atomics and a Mutex.
unsafe impl Send for Pieces {}
// SAFETY: as for `Send`: helpers share `Pieces` only to call the `Sync` closure (while
// the caller waits) and to update the atomics and the Mutex.
unsafe impl Sync for Pieces {}

impl Pieces {
    /// Takes pieces and does them until none is left. Never unwinds: a piece's panic is
    /// caught and recorded, and the piece still counts as done.
    fn take(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.count {
                return;
            }
            // SAFETY: piece `i` was taken before all were done, so the caller is still
            // waiting in `run` and the closure is alive (`done` is counted only after the
            // piece has finished or its panic was caught).
            self.panicked.piece(unsafe { &*self.job }, i);
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// Runs `job(0)`, …, `job(count - 1)`, each once, on the calling thread and on whichever
/// pool threads are free to help; returns when all are done, also when some panicked.
/// Jobs should not panic (they are memory work: copies, Strings made from texts); if one
/// does, the others still run and the first panic is returned.
#[must_use = "a piece may have panicked, leaving the work incomplete"]
pub fn run(count: usize, job: &(dyn Fn(usize) + Sync)) -> Result<(), PoolPanic> {
    let helpers = match pool() {
        Some(pool) if count > 1 => pool.current_num_threads().min(count - 1),
        _ => 0,
    };
    if helpers == 0 {
        let panicked = FirstPanic::default();
        (0..count).for_each(|i| panicked.piece(job, i));
        return panicked.into_result();
    }
    // SAFETY: the lifetime is erased for the helpers, which call the closure only for
    // pieces taken before all are done; this function returns only after that, and
    // nothing in between unwinds (`take` catches every piece's panic).
    let job: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(job) };
    let pieces = Arc::new(Pieces {
        count,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        panicked: FirstPanic::default(),
        job,
    });
    let pool = pool().expect("checked above");
    for _ in 0..helpers {
        let pieces = Arc::clone(&pieces);
        pool.spawn(move || pieces.take());
    }
    pieces.take();
    // Only pieces a helper took are left: wait for those.
    while pieces.done.load(Ordering::Acquire) < count {
        std::thread::yield_now();
    }
    let first = pieces
        .panicked
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    first.map_or(Ok(()), Err)
}

/// Runs `job` over `0..len` cut into ranges of `piece` items, shared with the pool when
/// `len` is at least `parallel_min` (below it, on the calling thread alone, in one range).
/// Returns when every range is done; a panic in any is caught and returned (see [`run`]).
#[must_use = "a piece may have panicked, leaving the work incomplete"]
pub fn in_pieces(
    len: usize,
    piece: usize,
    parallel_min: usize,
    job: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<(), PoolPanic> {
    if len < parallel_min {
        return run(1, &|_| job(0..len));
    }
    run(len.div_ceil(piece), &|i| {
        let at = i * piece;
        job(at..len.min(at + piece))
    })
}

/// Copies below this many bytes run on the calling thread alone: sharing them costs
/// more than it can save (guarded by bench.gd's batch rows of 16k-float arrays).
pub const PARALLEL_COPY_MIN: usize = 1 << 20;

/// The pieces a shared copy is cut into.
const COPY_PIECE: usize = 512 * 1024;

/// `dst.copy_from_slice(src)`, shared with the pool when it is large. A panic in a piece
/// (none is expected: the pieces are plain copies) is raised again on the calling thread
/// once every piece is done (see [`PoolPanic::resume`]): its callers (sinks, builders)
/// have no error to return it in.
pub fn copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "copy between slices of different lengths"
    );
    if src.len() < PARALLEL_COPY_MIN {
        // The calling thread alone: nothing is shared, so nothing needs catching.
        dst.copy_from_slice(src);
        return;
    }
    let (d, s) = (dst.as_mut_ptr() as usize, src.as_ptr() as usize);
    let copied = in_pieces(src.len(), COPY_PIECE, PARALLEL_COPY_MIN, &|range| {
        // SAFETY: pieces are disjoint ranges within both slices, which outlive the call.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (s + range.start) as *const u8,
                (d + range.start) as *mut u8,
                range.len(),
            )
        }
    });
    if let Err(panic) = copied {
        panic.resume();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use super::*;

    /// Tries before a test gives up waiting for the pool's threads to join in (other tests
    /// share the pool).
    const ATTEMPTS: usize = 50;

    fn on_pool_thread() -> bool {
        std::thread::current()
            .name()
            .is_some_and(|name| name.starts_with("fast-variant-codec-"))
    }

    #[test]
    fn without_panics_every_piece_runs_once() {
        let runs: Vec<AtomicUsize> = (0..100).map(|_| AtomicUsize::new(0)).collect();
        let result = run(runs.len(), &|i| {
            std::thread::sleep(Duration::from_micros(200));
            runs[i].fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(result, Ok(()));
        assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
        assert_eq!(run(0, &|_| unreachable!()), Ok(()));

        // Below `parallel_min` (one range) and above it (many).
        for (len, parallel_min) in [(10, 100), (10_000, 1)] {
            let seen: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
            let result = in_pieces(len, 64, parallel_min, &|range| {
                range.for_each(|i| {
                    seen[i].fetch_add(1, Ordering::Relaxed);
                })
            });
            assert_eq!(result, Ok(()));
            assert!(seen.iter().all(|s| s.load(Ordering::Relaxed) == 1));
        }

        let src: Vec<u8> = (0..3 * PARALLEL_COPY_MIN + 5)
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let mut dst = vec![0; src.len()];
        copy(&mut dst, &src);
        assert!(dst == src);
    }

    #[test]
    fn a_panic_in_a_pool_threads_piece_is_reported_and_the_others_run() {
        for _ in 0..ATTEMPTS {
            let count = 64;
            let finished = AtomicUsize::new(0);
            let panicked_at = AtomicUsize::new(usize::MAX);
            let result = run(count, &|i| {
                std::thread::sleep(Duration::from_millis(1));
                // The first piece a pool thread takes panics.
                if on_pool_thread()
                    && panicked_at
                        .compare_exchange(usize::MAX, i, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
                {
                    panic!("piece {i} failed");
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
            let at = panicked_at.load(Ordering::Relaxed);
            if at == usize::MAX {
                // No pool thread joined in this time: the caller did every piece.
                assert_eq!(result, Ok(()));
                assert_eq!(finished.load(Ordering::Relaxed), count);
                continue;
            }
            assert_eq!(
                result,
                Err(PoolPanic {
                    message: format!("piece {at} failed")
                })
            );
            assert_eq!(finished.load(Ordering::Relaxed), count - 1);
            // The pool survived (no abort) and still works.
            assert_eq!(in_pieces(1 << 16, 1 << 10, 1, &|_| ()), Ok(()));
            return;
        }
        panic!("no pool thread took a piece in {ATTEMPTS} runs");
    }

    #[test]
    fn the_caller_waits_for_every_piece_when_its_own_piece_panics() {
        let caller = std::thread::current().id();
        for _ in 0..ATTEMPTS {
            let count = 12;
            let finished = AtomicUsize::new(0);
            let helped = AtomicBool::new(false);
            let caller_panicked = AtomicBool::new(false);
            let result = run(count, &|i| {
                if std::thread::current().id() == caller
                    && !caller_panicked.swap(true, Ordering::Relaxed)
                {
                    panic!("the caller's piece {i} failed");
                }
                helped.fetch_or(on_pool_thread(), Ordering::Relaxed);
                // Long enough that a caller returning early would see pieces unfinished.
                std::thread::sleep(Duration::from_millis(20));
                finished.fetch_add(1, Ordering::Release);
            });
            if !caller_panicked.load(Ordering::Relaxed) {
                // The pool's threads took every piece before the caller came to one.
                assert_eq!(result, Ok(()));
                continue;
            }
            // Every other piece had finished by the time `run` returned.
            assert_eq!(finished.load(Ordering::Acquire), count - 1);
            let panic = result.unwrap_err();
            assert!(
                panic.message.starts_with("the caller's piece "),
                "{}",
                panic.message
            );
            if helped.load(Ordering::Relaxed) {
                return;
            }
        }
        panic!("no pool thread took a piece in {ATTEMPTS} runs");
    }

    #[test]
    fn a_panic_on_the_calling_thread_alone_is_reported() {
        // Below `parallel_min`: one range, on the calling thread.
        let result = in_pieces(10, 4, 100, &|range| panic!("range {range:?}"));
        assert_eq!(
            result,
            Err(PoolPanic {
                message: "range 0..10".to_string()
            })
        );
        // A panic with a payload that is not text.
        let result = run(3, &|i| {
            if i == 1 {
                std::panic::panic_any(7_u32)
            }
        });
        assert_eq!(result.unwrap_err().message, "(no message)");
    }

    #[test]
    fn a_resumed_panic_carries_the_message_as_text() {
        let payload = catch_unwind(|| {
            PoolPanic {
                message: "boom".to_string(),
            }
            .resume()
        })
        .unwrap_err();
        assert_eq!(
            payload.downcast_ref::<String>().map(String::as_str),
            Some("a piece of shared work panicked: boom")
        );
    }
}

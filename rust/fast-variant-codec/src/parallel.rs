//! The thread pool that memory work runs on: bulk copies (slices of packed arrays and of
//! the arrays being returned, borrowed on the calling thread for the duration), and the
//! texts of large PackedStringArrays, read and made into Strings (memory from the engine's
//! allocator). Engine containers and objects are made and read on the calling thread.
//!
//! Work is shared, not handed over: the calling thread takes pieces too, and idle pool
//! threads join in. When the pool's threads are busy (the machine has other work), the
//! calling thread does it all and never waits for a thread that has not started.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("fast-variant-codec-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// The shared state of one [`run`]: which piece is next and how many are done.
struct Pieces {
    count: usize,
    next: AtomicUsize,
    done: AtomicUsize,
    /// The work, as a pointer to the caller's closure (valid until `done == count`: see
    /// `take`).
    job: *const (dyn Fn(usize) + Sync),
}

// SAFETY: `job` points to a `Sync` closure; it is called only for pieces taken before
// every piece is done, which the caller waits for (see `run`).
unsafe impl Send for Pieces {}
unsafe impl Sync for Pieces {}

impl Pieces {
    /// Takes pieces and does them until none is left.
    fn take(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.count {
                return;
            }
            // SAFETY: piece `i` was taken before all were done, so the caller is still
            // waiting in `run` and the closure is alive.
            unsafe { (*self.job)(i) };
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// Runs `job(0)`, …, `job(count - 1)`, each once, on the calling thread and on whichever
/// pool threads are free to help; returns when all are done. Jobs must not panic (they
/// are memory work: copies, Strings made from texts).
pub fn run(count: usize, job: &(dyn Fn(usize) + Sync)) {
    let helpers = match pool() {
        Some(pool) if count > 1 => pool.current_num_threads().min(count - 1),
        _ => 0,
    };
    if helpers == 0 {
        (0..count).for_each(job);
        return;
    }
    // SAFETY: the lifetime is erased for the helpers, which call the closure only for
    // pieces taken before all are done; this function returns only after that.
    let job: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(job) };
    let pieces = Arc::new(Pieces {
        count,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
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
}

/// Runs `job` over `0..len` cut into ranges of `piece` items, shared with the pool when
/// `len` is at least `parallel_min` (below it, on the calling thread alone, in one range).
pub fn in_pieces(
    len: usize,
    piece: usize,
    parallel_min: usize,
    job: &(dyn Fn(std::ops::Range<usize>) + Sync),
) {
    if len < parallel_min {
        job(0..len);
        return;
    }
    run(len.div_ceil(piece), &|i| {
        let at = i * piece;
        job(at..len.min(at + piece))
    });
}

/// Copies below this many bytes run on the calling thread alone: sharing them costs
/// more than it can save (measured with bench/bench.gd on 2 cores).
pub const PARALLEL_COPY_MIN: usize = 1 << 20;

/// The pieces a shared copy is cut into.
const COPY_PIECE: usize = 512 * 1024;

/// `dst.copy_from_slice(src)`, shared with the pool when it is large.
pub fn copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "copy between slices of different lengths"
    );
    let (d, s) = (dst.as_mut_ptr() as usize, src.as_ptr() as usize);
    in_pieces(src.len(), COPY_PIECE, PARALLEL_COPY_MIN, &|range| {
        // SAFETY: pieces are disjoint ranges within both slices, which outlive the call.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (s + range.start) as *const u8,
                (d + range.start) as *mut u8,
                range.len(),
            )
        }
    });
}

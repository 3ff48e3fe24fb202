//! A global allocator that counts the live heap bytes of the thread that measures, and their
//! peak: tests asserting that hostile input allocates little measure with [`peak_of`] while
//! the other tests run on other threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Mutex;

struct Counting;

thread_local! {
    static MEASURED: Cell<bool> = const { Cell::new(false) };
}
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
/// One measurement at a time: `LIVE` and `PEAK` are shared.
static MEASURING: Mutex<()> = Mutex::new(());

fn measured() -> bool {
    MEASURED.try_with(Cell::get).unwrap_or(false)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if measured() {
            let size = layout.size() as isize;
            PEAK.fetch_max(
                LIVE.fetch_add(size, Ordering::Relaxed) + size,
                Ordering::Relaxed,
            );
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if measured() {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap bytes this thread allocates above the starting point while `f` runs.
pub fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let _one_at_a_time = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    MEASURED.with(|m| m.set(true));
    let result = f();
    MEASURED.with(|m| m.set(false));
    (result, PEAK.load(Ordering::Relaxed).max(0) as usize)
}

//! The thread pool that batches run on. Only plain Rust data (codec `Value`s, bytes) goes
//! there: Godot values are made and read on the calling thread.

use std::sync::OnceLock;

use rayon::prelude::*;

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

/// `f` applied to every item, in parallel; the results in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    match pool() {
        Some(pool) => pool.install(|| items.par_iter().map(f).collect()),
        // No threads could be started: the same work on the calling thread.
        None => items.iter().map(f).collect(),
    }
}

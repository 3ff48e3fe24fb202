//! The names by which the binding's engine switches are set from outside: its environment
//! variables and its probes' names. Plain constants, without dependencies, so that xtask
//! reads them from this file (`#[path]`) rather than from a copy.

/// `off`, `0` or `false` (any case): every fast path off.
pub const SAFE_MODE_VARIABLE: &str = "FAST_VARIANT_CODEC_ENGINE_LAYOUT";
/// Comma-separated probe names (see [`PROBE_NAMES`]) to treat as failed.
pub const FAILED_PROBES_VARIABLE: &str = "FAST_VARIANT_CODEC_FAILED_PROBES";
/// Comma-separated probe names to run against a wrong layout (tests only).
pub const WRONG_LAYOUT_VARIABLE: &str = "FAST_VARIANT_CODEC_PROBE_WRONG_LAYOUT";
/// The pool's size: a number of threads, `0` for none (all work on the calling thread).
pub const POOL_THREADS_VARIABLE: &str = "FAST_VARIANT_CODEC_POOL_THREADS";

/// The probes' names in the report and in the variables, in the order they run.
pub const PROBE_NAMES: [&str; 6] = [
    "variant",
    "array_elements",
    "read_only_arrays",
    "dictionary_entries",
    "buffers",
    "node_paths",
];

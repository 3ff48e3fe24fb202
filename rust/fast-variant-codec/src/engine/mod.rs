//! The engine layer: every fact about the engine's memory and every access to its values.
//!
//! Variants, Arrays, Dictionaries, Strings and StringNames ([`ffi`], [`string`]), NodePaths
//! ([`node_path`]), the copy-on-write buffers of Strings and packed arrays and the engine's
//! allocator ([`cow_data`]), containers typed at run time ([`typed_containers`]), the
//! thread pool that bulk memory work runs on ([`parallel`]), and the tables of the math and
//! packed-array types that every layer takes its per-type code from ([`math_types`],
//! [`packed_types`]). Values are read and made in place through the GDExtension interface
//! or, where a start-up probe has checked it, the engine's memory layout; what decides
//! whether a probe runs, and what each found, is in [`probes`].
//!
//! This layer uses nothing of the layers above it (`convert`, `classes`).

mod array;
pub mod cow_data;
mod dictionary;
pub mod ffi;
pub mod layout;
mod make_variant;
pub mod math_types;
pub mod node_path;
mod packed_bytes;
pub mod packed_types;
pub mod parallel;
pub mod probes;
pub mod string;
mod switch_names;
pub mod typed_containers;
mod utf32;
mod variant;

use godot::builtin::VarDictionary;
use godot::classes::Os;
use godot::obj::Singleton;

use probes::{Probe, Verdict};

/// Sets the engine layer up, on the main thread, with the scene classes loaded (project
/// settings are loaded by then): registers the project setting and reads the safe-mode
/// switches, fetches the interface's functions and runs every engine-layout probe, so that
/// none runs later inside a call, on whatever thread makes it; then tells the pool whether
/// the engine's allocations scale across threads (see [`parallel::allocations_shared`]).
pub fn init() {
    probes::initialize();
    verdicts();
    parallel::set_engine_debug_build(Os::singleton().is_debug_build());
}

/// Every probe's verdict ([`ffi`]'s, [`cow_data`]'s and [`node_path`]'s), in
/// [`Probe::ALL`]'s order; runs each probe that has not run yet.
pub fn verdicts() -> Vec<(Probe, &'static Verdict)> {
    let mut all: Vec<(Probe, &Verdict)> =
        ffi::ffi().verdicts().iter().map(|(p, v)| (*p, v)).collect();
    all.push((Probe::Buffers, cow_data::verdict()));
    all.push((Probe::NodePaths, node_path::verdict()));
    all
}

/// Whether any fast path is in use in this process.
pub fn uses_engine_layout() -> bool {
    verdicts().iter().any(|(_, v)| v.in_use)
}

/// Every probe's verdict, by name, as `get_engine_layout_report` returns it.
pub fn report() -> VarDictionary {
    let mut report = VarDictionary::new();
    for (probe, verdict) in verdicts() {
        let mut entry = VarDictionary::new();
        entry.set("ok", verdict.ok);
        entry.set("in_use", verdict.in_use);
        entry.set("detail", verdict.detail.as_str());
        report.set(probe.name(), &entry);
    }
    report
}

//! The Godot binding of `godot-variant-codec`: registers the `FastVariantCodec` class.
//!
//! Three layers, each a folder, each using only the ones below it (a test checks it, see
//! `layers_test.rs`):
//! - [`classes`]: the Godot classes — arguments, options, errors as Godot sees them; they
//!   call the builder/writer and the pure crate's rules;
//! - [`convert`]: engine values to and from the codec's format — the builder, the writer,
//!   the codec's value model made into Variants;
//! - [`engine`]: engine memory — values read and made in place, buffers, the layout
//!   probes and what they found, the thread pool.

#[cfg(not(target_endian = "little"))]
compile_error!("the binding copies packed arrays' memory as wire bytes: little-endian hosts only");

mod classes;
mod convert;
mod engine;
#[cfg(test)]
mod layers_test;

use godot::init::{gdextension, ExtensionLibrary, InitStage};

struct FastVariantCodecLibrary;

// SAFETY: the one `ExtensionLibrary` of this library, registered once by `gdextension`.
#[gdextension]
unsafe impl ExtensionLibrary for FastVariantCodecLibrary {
    /// With the scene classes loaded (project settings are loaded by then), on the main
    /// thread: sets the engine layer up (the project setting, the safe-mode switches, the
    /// engine-layout probes and the pool, see [`engine::init`]) before any call can need it;
    /// then registers the per-value methods, which gdext does not (see
    /// [`classes::direct_calls`]).
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            engine::init();
            classes::direct_calls::register();
        }
    }

    /// As the scene classes are unloaded, on the main thread: releases what the builders keep
    /// per thread (dictionary keys) while the engine can still take it back.
    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene {
            convert::builder_caches::release_thread_caches();
        }
    }
}

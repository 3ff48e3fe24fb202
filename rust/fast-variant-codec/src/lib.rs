//! The Godot binding of `godot-variant-codec`: registers the `FastVariantCodec` class.
//!
//! Encoding walks engine Variants and writes each through the codec's format writer
//! ([`write`]); decoding has the codec's decoder build engine Variants straight from the
//! bytes ([`read`]), the rarer values through the codec's own value model
//! ([`to_variant`]). Values are read and made in place through the GDExtension interface
//! or, where a start-up probe has checked it, the engine's memory layout ([`raw`],
//! [`cow`]; what each probe found, and safe mode: [`engine_layout`]); strings go from
//! UTF-32 to UTF-8 without a Rust `String` ([`text`]); large copies and batches run on a
//! thread pool ([`parallel`]).

//!
//! Three layers, each using only the ones below it:
//! - the class ([`codec_class`], [`direct_calls`], [`failure`]): arguments, options, errors
//!   as Godot sees them; it calls the builder/writer and the pure crate's rules;
//! - the builder/writer ([`read`], [`write`], [`batch`], [`to_variant`], [`text`],
//!   [`typed_containers`], [`stack_room`]): engine values to and from the codec's format;
//! - engine memory ([`raw`], [`cow`], [`engine_layout`], [`parallel`]): values read and
//!   made in place, buffers, the probes and the thread pool.

#[cfg(not(target_endian = "little"))]
compile_error!("the binding copies packed arrays' memory as wire bytes: little-endian hosts only");

mod batch;
mod codec_class;
mod cow;
mod direct_calls;
mod engine_layout;
mod failure;
mod node_path;
mod parallel;
mod raw;
mod read;
mod stack_room;
mod stream_decoder;
mod text;
mod to_variant;
mod typed_containers;
mod write;

use godot::classes::Os;
use godot::init::{gdextension, ExtensionLibrary, InitStage};
use godot::obj::Singleton;

struct FastVariantCodecLibrary;

// SAFETY: the one `ExtensionLibrary` of this library, registered once by `gdextension`.
#[gdextension]
unsafe impl ExtensionLibrary for FastVariantCodecLibrary {
    /// With the scene classes loaded (project settings are loaded by then), on the main
    /// thread: registers the project setting, reads the safe-mode switches and runs the
    /// engine-layout probes, before any call can need them; tells the pool whether the
    /// engine's allocations scale across threads (see [`parallel::allocations_shared`]);
    /// then registers the per-value methods, which gdext does not (see [`direct_calls`]).
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            engine_layout::initialize();
            raw::run_probes();
            parallel::set_engine_debug_build(Os::singleton().is_debug_build());
            direct_calls::register();
        }
    }

    /// As the scene classes are unloaded, on the main thread: releases what the builders keep
    /// per thread (dictionary keys) while the engine can still take it back.
    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene {
            read::release_thread_caches();
        }
    }
}

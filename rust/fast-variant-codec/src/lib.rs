//! The Godot binding of `godot-variant-codec`: registers the `FastVariantCodec` class.
//!
//! Encoding walks engine Variants and writes each through the codec's format writer
//! ([`write`]); decoding has the codec's decoder build engine Variants straight from the
//! bytes ([`read`]), the rarer values through the codec's own value model
//! ([`to_variant`]). Values are read and made in place through the GDExtension interface
//! ([`raw`]); strings go from UTF-32 to UTF-8 without a Rust `String` ([`text`]); large
//! copies and batches run on a thread pool ([`parallel`]).

#[cfg(not(target_endian = "little"))]
compile_error!("the binding copies packed arrays' memory as wire bytes: little-endian hosts only");

mod batch;
mod codec_class;
mod cow;
mod failure;
mod parallel;
mod raw;
mod read;
mod stack_room;
mod text;
mod to_variant;
mod typed_containers;
mod write;

use godot::init::{gdextension, ExtensionLibrary};

struct FastVariantCodecLibrary;

#[gdextension]
unsafe impl ExtensionLibrary for FastVariantCodecLibrary {}

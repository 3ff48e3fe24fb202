//! The Godot binding of `godot-variant-codec`: registers the `FastVariantCodec` class.
//!
//! The codec works on plain Rust [`Value`](godot_variant_codec::Value)s; this crate turns
//! Godot `Variant`s into them and back, making the engine's choices on the way
//! ([`to_value`], [`to_variant`]), and runs batches on a thread pool ([`parallel`]).

mod codec_class;
mod failure;
mod parallel;
mod stack_room;
mod to_value;
mod to_variant;
mod typed_containers;

use godot::init::{gdextension, ExtensionLibrary};

struct FastVariantCodecLibrary;

#[gdextension]
unsafe impl ExtensionLibrary for FastVariantCodecLibrary {}

//! The class layer: `FastVariantCodec` and `FastVariantStreamDecoder` as Godot sees them.
//!
//! Arguments, options and errors ([`codec_class`], [`stream_decoder`], [`failure`],
//! [`last_failure`]), the per-value methods registered by hand ([`direct_calls`], called as
//! [`method_calls`] says, registered through gdext's private items in [`gdext_private`])
//! and the batches and streams of values ([`batch`]). It calls the builder and the writer
//! (`convert`) and the pure crate's rules, and reaches engine memory (`engine`) only where
//! a call's arguments and results are read and written in place.

pub mod batch;
pub mod codec_class;
pub mod direct_calls;
pub mod failure;
pub mod gdext_private;
pub mod last_failure;
pub mod method_calls;
pub mod stream_decoder;

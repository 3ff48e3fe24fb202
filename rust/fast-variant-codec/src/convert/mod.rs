//! The conversion layer: engine values to and from the codec's format.
//!
//! Decoding has the codec's decoder build engine Variants straight from the bytes
//! ([`variant_builder`], which keeps what repeats in [`builder_caches`]), the rarer values
//! through the codec's own value model ([`to_variant`]); encoding walks engine Variants and
//! writes each through the codec's format writer ([`variant_writer`]) into the memory
//! [`encode_output`] sizes, strings from UTF-32 to UTF-8 without a Rust `String`
//! ([`utf8_text`]). Deep values recurse on a stack that grows ([`stack_room`]). Engine
//! values are read and made through the layer below (`engine`); nothing here knows the
//! classes above.

pub mod builder_caches;
pub mod encode_output;
pub mod stack_room;
pub mod to_variant;
pub mod utf8_text;
pub mod variant_builder;
pub mod variant_writer;

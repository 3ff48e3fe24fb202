//! Godot's binary Variant format — `var_to_bytes` / `bytes_to_var`, `FileAccess.store_var`,
//! `StreamPeer.put_var`, `PacketPeer` — in pure Rust, byte for byte like the engine: for
//! Rust game servers and tools that talk to Godot clients or read their save files.
//!
//! ```
//! use godot_variant_codec::{decode, encode, DecodeOptions, EncodeOptions, Value};
//!
//! let bytes = encode(&Value::Int(7), &EncodeOptions::default()).unwrap();
//! assert_eq!(bytes, [2, 0, 0, 0, 7, 0, 0, 0]);
//! let (value, consumed) = decode(&bytes, &DecodeOptions::default()).unwrap();
//! assert_eq!((value, consumed), (Value::Int(7), 8));
//! ```
//!
//! # Values
//!
//! [`Value`] has one variant per Godot 4 `Variant::Type`. It is built and taken apart as
//! `serde_json::Value` is: `From` the Rust types (`TryFrom` back), accessors
//! ([`as_int`](Value::as_int), [`as_str`](Value::as_str), [`get`](Value::get),
//! `value["key"][0]`), `FromIterator` for [`Array`], [`Dictionary`] and `Value`:
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use godot_variant_codec::serde::Vector2;
//! use godot_variant_codec::{encode, EncodeOptions, Value};
//!
//! // {"name": "Ada", "hp": 10, "pos": Vector2(1, 2), "tags": ["a", "b"]}
//! let player = Value::from([
//!     ("name", Value::from("Ada")),
//!     ("hp", 10.into()),
//!     ("pos", Vector2::<f32> { x: 1.0, y: 2.0 }.into()),
//!     ("tags", ["a", "b"].into_iter().collect()),
//! ]);
//! assert_eq!(player["hp"].as_int(), Some(10));
//! assert_eq!(player["tags"][1].as_str(), Some("b"));
//! let bytes = encode(&player, &EncodeOptions::default()).unwrap();
//! // Value is Serialize and Deserialize (feature `serde`): here as JSON.
//! assert_eq!(
//!     serde_json::to_string(&player).unwrap(),
//!     r#"{"name":"Ada","hp":10,"pos":[1.0,2.0],"tags":["a","b"]}"#
//! );
//! # }
//! ```
//!
//! Errors name their kind and the byte offset, and map to the engine's `Error`
//! ([`DecodeError::godot_error`]); the decoder is built for hostile input (bounds, the
//! depth limit [`MAX_RECURSION_DEPTH`], allocation bounded by the input, objects refused
//! unless [`DecodeOptions::allow_objects`]).
//!
//! # Modules
//!
//! - [`serde`] (feature `serde`, on by default): Rust structs straight to and from the
//!   bytes, as Dictionaries keyed by field name; Godot's math and packed types
//!   ([`serde::Vector2`], [`serde::PackedFloat32Array`]…).
//! - [`io`]: framed values (`store_var` files, `put_var` streams) over `std::io`
//!   ([`io::FrameReader`], [`io::FrameWriter`]) and fed in pieces ([`io::FrameDecoder`]).
//! - [`codec`] (feature `tokio`): the same frames as a `tokio_util` codec, for
//!   `Framed::new(tcp_stream, VariantCodec::new())`.
//! - [`stream`]: the frames in buffers ([`stream::decode_frames`], [`stream::encode_frame`]).
//! - [`migrate`]: a Godot 3 or 2 save file or packet to Godot 4 (or back), saying what the
//!   target cannot hold.
//! - Generations: [`EncodeOptions::with_generation`] and
//!   [`DecodeOptions::with_generation`] write and read the Godot 3 and 2 formats
//!   ([`Generation`]); [`godot2`] has Godot 2's Image and InputEvent forms.
//! - [`text`]: a value as the engine's `var_to_str` writes it; [`types`]: the table of
//!   type ids; [`value`] and [`error`]: the value model and the errors.
//!
//! A save file, with serde:
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use godot_variant_codec::io::{FrameReader, FrameWriter};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Save {
//!     level: i32,
//!     name: String,
//! }
//!
//! // What `file.store_var({"level": 3, "name": "Ada"})` writes.
//! let mut file = Vec::new();
//! let save = Save { level: 3, name: "Ada".into() };
//! FrameWriter::new(&mut file).write(&save).unwrap();
//! let back: Option<Save> = FrameReader::new(&file[..]).read().unwrap();
//! assert_eq!(back, Some(save));
//! # }
//! ```
//!
//! A Godot 3 packet to Godot 4:
//!
//! ```
//! use godot_variant_codec::{migrate, DecodeOptions, EncodeOptions, Generation, Value};
//!
//! let godot3 = EncodeOptions::default().with_generation(Generation::GODOT_3);
//! let packet = godot_variant_codec::encode(&Value::from("hi"), &godot3).unwrap();
//! let from = DecodeOptions::default().with_generation(Generation::GODOT_3);
//! let (godot4, report) =
//!     migrate::convert_packet(&packet, &from, &EncodeOptions::default()).unwrap();
//! assert!(report.is_clean());
//! assert_eq!(godot4, godot_variant_codec::encode(&Value::from("hi"), &Default::default()).unwrap());
//! ```
//!
//! # Features
//!
//! - `serde` (default): the [`serde`] module, and `Serialize` / `Deserialize` for
//!   [`Value`].
//! - `tokio`: the [`codec`] module (`tokio_util`'s `Decoder` / `Encoder`).
//!
//! Items hidden from these docs (the `wire`, `header` and `stack` modules, the
//! [`Value`]-free encoder and builder interfaces) exist for the Godot binding of this
//! crate and may change in any release.

#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod class_names;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
mod decode;
mod encode;
pub mod error;
pub mod godot2;
#[doc(hidden)]
pub mod header;
pub mod io;
mod keys;
pub mod migrate;
mod script;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;
#[doc(hidden)]
pub mod stack;
pub mod stream;
pub mod text;
mod typed;
pub mod types;
pub mod value;
mod value_conv;
#[doc(hidden)]
pub mod wire;

pub use class_names::{godot3_class, godot4_class};
#[doc(hidden)]
pub use decode::{Build, Packed, RawNodePath, RawText, ValueBuilder};
#[doc(hidden)]
pub use encode::Encoder;
pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, GodotError};
#[doc(hidden)]
pub use script::{check_script_path, SCRIPT_PROPERTY};
#[doc(hidden)]
pub use stack::StackRoom;
pub use types::{Generation, Godot2Type, VariantType};
pub use value::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Real, Reals,
    Signal, Value, ENCODED_OBJECT_AS_ID,
};
pub use value_conv::{ValueIndex, WrongType};

use wire::{Reader, SizeCounter};

/// The engine's `Variant::MAX_RECURSION_DEPTH`: values nested deeper are refused.
pub const MAX_RECURSION_DEPTH: usize = 1024;

/// The `real_t` of the engine being written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Precision {
    /// A default build (`real_t = float`): math types in 32 bits.
    #[default]
    Single,
    /// A `precision=double` build: math types and packed vector arrays in 64 bits, flagged.
    Double,
}

/// How to write: for which engine, and how deep. Start from [`EncodeOptions::default`]
/// (Godot 4, single precision, the engine's depth limit) and change what differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {
    /// The `real_t` of the engine the bytes are for (Godot 4; Godot 3 and 2 write math
    /// types in 32 bits whatever this says).
    pub precision: Precision,
    /// Deepest nesting written; the engine's is [`MAX_RECURSION_DEPTH`].
    pub max_depth: usize,
    /// The format generation written (Godot 4 by default).
    pub generation: Generation,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl EncodeOptions {
    /// The defaults (see the type's docs).
    pub const fn new() -> Self {
        EncodeOptions {
            precision: Precision::Single,
            max_depth: MAX_RECURSION_DEPTH,
            generation: Generation::GODOT_4,
        }
    }

    /// These options, for an engine of `precision`.
    pub const fn with_precision(self, precision: Precision) -> Self {
        EncodeOptions { precision, ..self }
    }

    /// These options, writing values nested at most `max_depth` deep.
    pub const fn with_max_depth(self, max_depth: usize) -> Self {
        EncodeOptions { max_depth, ..self }
    }

    /// These options, writing the format of `generation`.
    pub const fn with_generation(self, generation: Generation) -> Self {
        EncodeOptions { generation, ..self }
    }
}

/// How to read: whether whole objects are accepted, how deep, which generation. Start
/// from [`DecodeOptions::default`] (Godot 4, no objects, the engine's depth limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Accept full objects (`bytes_to_var_with_objects`). Off, an encoded object is an
    /// error (`ERR_UNAUTHORIZED`) and only instance ids decode.
    pub allow_objects: bool,
    /// Deepest nesting accepted; the engine's is [`MAX_RECURSION_DEPTH`].
    pub max_depth: usize,
    /// The format generation read (Godot 4 by default).
    pub generation: Generation,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl DecodeOptions {
    /// The defaults (see the type's docs).
    pub const fn new() -> Self {
        DecodeOptions {
            allow_objects: false,
            max_depth: MAX_RECURSION_DEPTH,
            generation: Generation::GODOT_4,
        }
    }

    /// These options, accepting full objects or not.
    pub const fn with_allow_objects(self, allow_objects: bool) -> Self {
        DecodeOptions {
            allow_objects,
            ..self
        }
    }

    /// These options, accepting values nested at most `max_depth` deep.
    pub const fn with_max_depth(self, max_depth: usize) -> Self {
        DecodeOptions { max_depth, ..self }
    }

    /// These options, reading the format of `generation`.
    pub const fn with_generation(self, generation: Generation) -> Self {
        DecodeOptions { generation, ..self }
    }
}

/// The nesting rule, for writing and reading alike: the top value is at depth 0, a
/// container's elements one deeper than the container, and a value deeper than
/// `max_depth` is refused (the engine's `max_depth` is [`MAX_RECURSION_DEPTH`]; one more
/// fails with `ERR_OUT_OF_MEMORY`, as a cyclic container does).
#[inline(always)]
pub(crate) fn within_depth(depth: usize, max_depth: usize) -> bool {
    depth <= max_depth
}

/// The bytes of `value`, as `var_to_bytes` writes them.
pub fn encode(value: &Value, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    // A value holding values is written in one pass into a growing buffer: walking it first
    // to size the buffer costs nearly as much as writing it. Anything else is sized exactly
    // (in constant time, but for a PackedStringArray's quick sum).
    let capacity = if value.holds_values() {
        CONTAINER_BUFFER
    } else {
        encoded_size(value, opts)?
    };
    let mut out = Vec::with_capacity(capacity);
    encode_into(value, &mut out, opts)?;
    Ok(out)
}

/// The buffer `encode` starts a container in: room for a typical small message.
pub(crate) const CONTAINER_BUFFER: usize = 128;

/// Appends the bytes of `value` to `out`. On error, `out` is left as it was.
pub fn encode_into(
    value: &Value,
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<(), EncodeError> {
    let start = out.len();
    let mut encoder = Encoder::new(&mut *out, *opts);
    let result = encoder.value(value, 0);
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// The length `encode` would produce, computed without writing bytes.
pub fn encoded_size(value: &Value, opts: &EncodeOptions) -> Result<usize, EncodeError> {
    let mut counter = Encoder::new(SizeCounter::default(), *opts);
    counter.value(value, 0)?;
    Ok(counter.sink().0)
}

/// Decodes one value from the start of `bytes`, returning it and the number of bytes it
/// used. Trailing bytes are allowed, as in `bytes_to_var`.
///
/// The count is the engine's (`decode_var_size`): when the input ends inside the padding
/// of a trailing PackedByteArray, which the engine accepts, it exceeds `bytes.len()`, by
/// at most [`Generation::max_counted_past_end`].
pub fn decode(bytes: &[u8], opts: &DecodeOptions) -> Result<(Value, usize), DecodeError> {
    decode_at(bytes, 0, opts)
}

/// Like [`decode`], for a window of a larger buffer that starts at `base`: error offsets
/// count from the start of the larger buffer.
pub fn decode_at(
    bytes: &[u8],
    base: usize,
    opts: &DecodeOptions,
) -> Result<(Value, usize), DecodeError> {
    decode_with(bytes, base, opts, &mut ValueBuilder)
}

/// The value at the start of `bytes` (a window of a larger buffer starting at `base`, as
/// in [`decode_at`]) when a Variant holds it in its own bytes (nil, a bool, an int, a
/// float; a single-precision Vector2, Rect2, Vector3, Vector4, Plane, Quaternion; a Color;
/// an integer vector), made by `builder` (see [`Build`]; a [`ValueBuilder`] makes a
/// [`Value`]), and the bytes it used: what [`decode_with`] gives for it, errors included.
/// `None` for any other value, and for a header cut short or naming no type here, which
/// `decode_with` then reads. One such value per call (a network packet, a setting) skips
/// the decoder's setup and its dispatch.
#[doc(hidden)]
#[inline]
pub fn decode_inline<B: Build>(
    bytes: &[u8],
    base: usize,
    opts: &DecodeOptions,
    builder: &mut B,
) -> Option<Decoded<B>> {
    let mut r = Reader::new(bytes, base);
    let (t, header) = decode::rules::read_header(&mut r, opts.generation).ok()?;
    match decode::rules::read_inline(&mut r, t, header, opts.generation, builder) {
        Ok(made) => made.map(|value| Ok((value, r.consumed()))),
        Err(e) => Some(Err(e)),
    }
}

/// What [`decode_with`] and [`decode_inline`] give: the builder's value and the bytes it
/// used, or its error.
#[doc(hidden)]
pub type Decoded<B> = Result<(<B as Build>::Value, usize), <B as Build>::Error>;

/// Like [`decode_at`], making the values with `builder` (see [`Build`]).
///
/// Inlined into its caller, which then takes the value from the decoder's own result: a
/// returned copy of a just-made value would be read back wider than it was written, a
/// wait (a store-forwarding stall on x86) as long as decoding one small value.
#[doc(hidden)]
#[inline(always)]
pub fn decode_with<B: Build>(
    bytes: &[u8],
    base: usize,
    opts: &DecodeOptions,
    builder: &mut B,
) -> Decoded<B> {
    let mut decoder = decode::Decoder::new(Reader::new(bytes, base), opts, builder);
    let value = decoder.value(0)?;
    Ok((value, decoder.r.consumed()))
}

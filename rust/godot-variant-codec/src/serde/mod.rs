//! Serde support (cargo feature `serde`, on by default): Rust types ↔ the bytes of Godot's
//! `var_to_bytes` / `bytes_to_var`, without the [`Value`](crate::Value) model in between.
//!
//! ```
//! use godot_variant_codec::serde::{from_slice, to_vec, Vector2};
//! use godot_variant_codec::{DecodeOptions, EncodeOptions};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Msg {
//!     id: i64,
//!     name: String,
//!     pos: Vector2,
//! }
//!
//! let msg = Msg { id: 7, name: "ann".into(), pos: Vector2 { x: 1.0, y: 2.5 } };
//! // The bytes of GDScript's `var_to_bytes({"id": 7, "name": "ann", "pos": Vector2(1, 2.5)})`.
//! let bytes = to_vec(&msg, &EncodeOptions::default()).unwrap();
//! let (back, consumed) = from_slice::<Msg>(&bytes, &DecodeOptions::default()).unwrap();
//! assert_eq!((back, consumed), (msg, bytes.len()));
//! ```
//!
//! The [`Serializer`] writes through the crate's own encoder and the
//! [`Deserializer`] reads with the decoder's own rules (bounds, padding, the BOM and NUL
//! rules of strings, typed-container headers, the depth limit, allocation bounded by the
//! input), so the bytes are the engine's and hostile input fails with a byte offset.
//!
//! Both follow the options' generation: with `with_generation(Generation::GODOT_3)` (or
//! `GODOT_2`) they write and read that generation's bytes, which serde sees as their
//! Godot 4 values (docs/FORMATS.md): a Godot 3 `Quat` reads like a Quaternion, a Godot 2
//! Image or InputEvent as the map of its Dictionary form ([`crate::godot2`]); a value the
//! generation lacks fails to write, naming it.
//!
//! # The mapping
//!
//! | Rust (serde data model) | written as | read from |
//! |---|---|---|
//! | `bool` | bool | bool |
//! | `i8`…`i64`, `u8`…`u64`, `i128`, `u128` | int (32 bits when it fits, else 64; beyond `i64` is an error) | int, 32 or 64 bits (range-checked by the target type) |
//! | `f32`, `f64` | float (32 bits when exact, else 64) | float, 32 or 64 bits; an int too |
//! | `char`, `str`, `String` | String | String or StringName; `&str` borrows from the input |
//! | bytes (`serde_bytes`) | PackedByteArray | PackedByteArray |
//! | `None`, `()`, unit struct | nil | nil (also a Callable, which carries nothing) |
//! | `Some(x)`, newtype struct | `x` | `x` |
//! | seq (`Vec`, slices, sets), tuple, tuple struct | Array | Array or any packed array (its elements) |
//! | map | Dictionary (keys of any type) | Dictionary (typed or not) |
//! | struct | Dictionary with String keys, the field names, in field order | Dictionary (String or StringName keys) or Array (fields in order) |
//! | unit enum variant | String: the variant name | String or StringName |
//! | other enum variants | Dictionary of one entry: `{name: content}` (content as a newtype, tuple or struct above) | the same |
//! | [`Vector2`], [`Rect2`], [`Color`]… (every math type, below) | that Godot type, in the [`EncodeOptions::precision`](crate::EncodeOptions) asked for | that type (single or double precision, converted to the Rust type's components: `f32`, or exactly with `f64`), or any Array / packed array / math type of the same number of components |
//! | [`PackedFloat32Array`], [`PackedVector2Array`]… (every packed array, below) | that packed array, in bulk | that packed array (copied in bulk), or any Array / packed array of convertible elements |
//!
//! Every Godot type reads through `deserialize_any` (so `serde_json::Value` and other
//! self-describing targets work): nil → unit; bool, int, float, String, StringName as
//! themselves; math types and Color → a sequence of their components (`f32`, or `f64` for a
//! double-precision value; `i32` for the `…i` types); NodePath → its text
//! (`"/root/Node:property"`); RID → its id as `u64`; Object: null → unit, an instance id →
//! `u64`, a full object (only with [`DecodeOptions::allow_objects`](crate::DecodeOptions)) →
//! a map `{"class": String, "properties": {name: value…}}`; Callable → unit; Signal → a
//! map `{"name": String, "object_id": u64}`; Array → sequence; Dictionary → map (typed
//! containers' element types are checked, then dropped); packed arrays → a sequence of
//! their elements (PackedByteArray: of `u8`; vector arrays: of component sequences),
//! except that `deserialize_bytes` gets a PackedByteArray's bytes borrowed.
//!
//! A sequence or map must be read whole: a target that takes fewer elements than the bytes
//! hold (a `(i32, i32)` from a three-element Array) is an error, not a silent skip.
//!
//! # Godot's math and packed types
//!
//! [`Vector2`], [`Vector2i`], [`Rect2`], [`Rect2i`], [`Vector3`], [`Vector3i`],
//! [`Transform2D`], [`Vector4`], [`Vector4i`], [`Plane`], [`Quaternion`], [`Aabb`],
//! [`Basis`], [`Transform3D`], [`Projection`], [`Color`]: plain structs laid out as the
//! engine's, of `i32` fields (the `…i` types), `f32` ones ([`Color`]) or `real_t` ones.
//!
//! # Precision
//!
//! The types of `real_t` components (and the packed vector arrays) are generic over their
//! component type, `f32` by default: `Vector2` is `Vector2<f32>`, and `Vector2<f64>` holds
//! what a `precision=double` engine sends exactly. Either reads both wire precisions: a
//! double-precision value into `f32` components is rounded (as a single-precision engine
//! rounds it), a single-precision one into `f64` components is widened exactly, and
//! `Vector2<f64>` from double-precision bytes is bit for bit. Either writes the precision
//! [`EncodeOptions::precision`](crate::EncodeOptions) asks for: `f64` components for a
//! single-precision engine are rounded to `f32`, `f32` ones for a double-precision engine
//! are widened. [`PackedByteArray`], [`PackedInt32Array`],
//! [`PackedInt64Array`], [`PackedFloat32Array`], [`PackedFloat64Array`],
//! [`PackedStringArray`], [`PackedVector2Array`], [`PackedVector3Array`],
//! [`PackedColorArray`], [`PackedVector4Array`]: newtypes of a `Vec` (the vector arrays
//! of `Vector2<R>`… with the same component type `R`).
//!
//! They serialize as a newtype struct with a reserved name (`$godot_variant_codec::…`)
//! that this crate's serializer recognizes; the payload is the components' (elements')
//! little-endian bytes for formats that are not human-readable, and a sequence of the
//! components (elements) for human-readable ones: in JSON a `Vector2` is `[x, y]` and a
//! `PackedFloat32Array` `[1.0, 2.0]`. Do not use the reserved names in your own types.

mod de;
mod godot;
mod ser;
mod value;

pub use de::Deserializer;
pub use godot::{
    Aabb, Basis, Color, PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array,
    PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Transform2D, Transform3D,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
pub use ser::{Compound, Serializer};

use std::fmt::Display;

use crate::{DecodeError, DecodeOptions, EncodeError, EncodeOptions};

/// A serde encoding or decoding failure. Boxed, so that results stay a word wide on the
/// hot paths.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<ErrorKind>);

/// What went wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The format refused to write the value (nesting, lengths), at a byte of the output.
    #[error(transparent)]
    Encode(EncodeError),
    /// The bytes are not a valid value, at a byte of the input.
    #[error(transparent)]
    Decode(DecodeError),
    /// A valid value that the Rust type does not take (a String where an `i32` is
    /// expected, a missing field…), or a `Serialize` implementation's own error; when
    /// decoding, `offset` is the byte where the value that was refused starts.
    #[error("{message}{}", offset.map(|at| format!(" at byte {at}")).unwrap_or_default())]
    Message {
        /// The message, serde's or the implementation's.
        message: String,
        /// Where the refused value starts in the input; `None` when encoding.
        offset: Option<usize>,
    },
}

impl Error {
    /// What went wrong, and where.
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// The byte offset of the failure, when known: in the input when decoding, in the
    /// output when encoding.
    pub fn offset(&self) -> Option<usize> {
        match &*self.0 {
            ErrorKind::Encode(e) => Some(e.offset),
            ErrorKind::Decode(e) => Some(e.offset),
            ErrorKind::Message { offset, .. } => *offset,
        }
    }

    fn message(message: impl Display) -> Self {
        Error(Box::new(ErrorKind::Message {
            message: message.to_string(),
            offset: None,
        }))
    }

    /// Places an error that does not know where it happened at `offset`.
    #[cold]
    fn located(mut self, at: usize) -> Self {
        if let ErrorKind::Message { offset, .. } = &mut *self.0 {
            offset.get_or_insert(at);
        }
        self
    }
}

impl From<EncodeError> for Error {
    #[cold]
    fn from(e: EncodeError) -> Self {
        Error(Box::new(ErrorKind::Encode(e)))
    }
}

impl From<DecodeError> for Error {
    #[cold]
    fn from(e: DecodeError) -> Self {
        Error(Box::new(ErrorKind::Decode(e)))
    }
}

impl ::serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

impl ::serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

/// The bytes of `value`, as `var_to_bytes` writes the Godot value it maps to.
pub fn to_vec<T: ::serde::Serialize + ?Sized>(
    value: &T,
    opts: &EncodeOptions,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(crate::CONTAINER_BUFFER);
    encode_into(value, &mut out, opts)?;
    Ok(out)
}

/// Appends the bytes of `value` to `out`. On error, `out` is left as it was.
pub fn encode_into<T: ::serde::Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
    opts: &EncodeOptions,
) -> Result<(), Error> {
    let start = out.len();
    let result = value.serialize(&mut Serializer::new(&mut *out, *opts));
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// Decodes a `T` from the start of `bytes`, returning it and the number of bytes it used
/// (counted like [`decode`](crate::decode): trailing bytes are allowed). `T` may borrow
/// strings and bytes from `bytes`.
pub fn from_slice<'de, T: ::serde::Deserialize<'de>>(
    bytes: &'de [u8],
    opts: &DecodeOptions,
) -> Result<(T, usize), Error> {
    let mut de = Deserializer::new(bytes, opts);
    let value = T::deserialize(&mut de)?;
    Ok((value, de.consumed()))
}

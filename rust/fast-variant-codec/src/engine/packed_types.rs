//! The packed-array types, once: each one's engine type, name (the same for the wire type,
//! the codec's `Value` and gdext's type), element (gdext's element type, the array being
//! gdext's `PackedArray<element>`) and kind. The writer, the builder and `to_variant`
//! take their per-type code from this table.
//!
//! [`packed_types!`] hands the table to a macro of the caller's, as [`math_types!`] does:
//! `packed_types!(m! { args })` expands to `m! { args [rows] }`, each row
//! `(ENGINE_TYPE, Name, Element, kind)`. `kind` says how the elements are written and
//! made:
//! - `plain encoder_method`: numbers, whose memory is their wire bytes, written by that
//!   method of the codec's encoder;
//! - `strings`: Strings, each converted to and from UTF-8;
//! - `vectors N`: real vectors of `N` components, of this build's `real_t`, on the wire
//!   of either precision;
//! - `colors`: Colors, four 32-bit floats each on the wire as in memory.
//!
//! [`math_types!`]: crate::engine::math_types::math_types

/// See the module docs.
macro_rules! packed_types {
    ($callback:ident! { $($args:tt)* }) => {
        $callback! {
            $($args)*
            [
                (PACKED_BYTE_ARRAY, PackedByteArray, u8, plain packed_bytes),
                (PACKED_INT32_ARRAY, PackedInt32Array, i32, plain packed_int32s),
                (PACKED_INT64_ARRAY, PackedInt64Array, i64, plain packed_int64s),
                (PACKED_FLOAT32_ARRAY, PackedFloat32Array, f32, plain packed_float32s),
                (PACKED_FLOAT64_ARRAY, PackedFloat64Array, f64, plain packed_float64s),
                (PACKED_STRING_ARRAY, PackedStringArray, GString, strings),
                (PACKED_VECTOR2_ARRAY, PackedVector2Array, Vector2, vectors 2),
                (PACKED_VECTOR3_ARRAY, PackedVector3Array, Vector3, vectors 3),
                (PACKED_COLOR_ARRAY, PackedColorArray, Color, colors),
                (PACKED_VECTOR4_ARRAY, PackedVector4Array, Vector4, vectors 4),
            ]
        }
    };
}

pub(crate) use packed_types;

//! The math types, once: each one's engine type, wire type, gdext type, components (reals,
//! 32-bit ints, or a Color's four floats) and where a Variant keeps it. The
//! engine's layout code (what is read in place, what owns nothing, what the probe checks),
//! the writer and the builder all take their per-type code from this table.
//!
//! [`math_types!`] hands the table to a macro of the caller's: `math_types!(m! { args })`
//! expands to `m! { args inline: [rows], boxed: [rows] }`, each row
//! `(ENGINE_TYPE, WireType, GdextType, kind, components)`. `inline` are the types a
//! Variant holds in its own value union (plain data that owns nothing); `boxed` those the
//! engine keeps in a block of their own, the Variant holding its address. `kind` is
//! `reals` (`real_t`: floats, or doubles in a double-precision build), `ints` or `color`.

/// Whether this build's `real_t` is a double (the `double-precision` feature, for engines
/// built with `precision=double`): the vectors, matrices and packed vectors then hold
/// doubles, and the format flags their reals as 64-bit.
pub const WIDE_REALS: bool = <godot::builtin::real as godot_variant_codec::Real>::WIDE;

/// See the module docs.
macro_rules! math_types {
    ($callback:ident! { $($args:tt)* }) => {
        $callback! {
            $($args)*
            inline: [
                (VECTOR2, Vector2, Vector2, reals, 2),
                (VECTOR2I, Vector2i, Vector2i, ints, 2),
                (RECT2, Rect2, Rect2, reals, 4),
                (RECT2I, Rect2i, Rect2i, ints, 4),
                (VECTOR3, Vector3, Vector3, reals, 3),
                (VECTOR3I, Vector3i, Vector3i, ints, 3),
                (VECTOR4, Vector4, Vector4, reals, 4),
                (VECTOR4I, Vector4i, Vector4i, ints, 4),
                (PLANE, Plane, Plane, reals, 4),
                (QUATERNION, Quaternion, Quaternion, reals, 4),
                (COLOR, Color, Color, color, 4),
            ],
            boxed: [
                (TRANSFORM2D, Transform2D, Transform2D, reals, 6),
                (AABB, Aabb, Aabb, reals, 6),
                (BASIS, Basis, Basis, reals, 9),
                (TRANSFORM3D, Transform3D, Transform3D, reals, 12),
                (PROJECTION, Projection, Projection, reals, 16),
            ],
        }
    };
}

pub(crate) use math_types;

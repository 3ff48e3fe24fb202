//! Godot's math types and packed arrays as plain Rust types that serialize as the real
//! Godot types (see the module docs of [`crate::serde`] for how).

use std::fmt;
use std::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{Serialize, Serializer};

use crate::types::{Component, VariantType};
use crate::wire::{le_bytes_of, plain_items, Plain};

/// The reserved name of the newtype struct a Godot type serializes as (the prefix alone
/// without an argument; with `f64`, the name of the type with 64-bit components): this
/// crate's serializer and deserializer recognize it.
macro_rules! reserved_name {
    ($($name:ident)?) => {
        concat!("$godot_variant_codec::" $(, stringify!($name))?)
    };
    ($name:ident, f64) => {
        concat!("$godot_variant_codec::", stringify!($name), "/f64")
    };
}

const RESERVED_PREFIX: &str = reserved_name!();
/// Ends the reserved names of the types with 64-bit (`f64`) components (as
/// `reserved_name!(Vector2, f64)` writes them).
const DOUBLE_SUFFIX: &str = "/f64";

/// What a reserved newtype name stands for: a Godot type, and whether its `real_t`
/// components are `f64` in the Rust type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Payload {
    pub t: VariantType,
    pub wide: bool,
}

/// Most bytes a visitor reserves on a sequence's or map's word, whatever it claims (this
/// crate's deserializer already caps its claims by the input; other formats may not).
const MAX_PREALLOCATED_BYTES: usize = 1 << 20;

/// How many `T`s a visitor reserves room for when the input claims `claimed`: at most
/// [`MAX_PREALLOCATED_BYTES`] of them, as serde's own collections reserve.
pub(crate) fn preallocated<T>(claimed: Option<usize>) -> usize {
    let most = MAX_PREALLOCATED_BYTES / std::mem::size_of::<T>().max(1);
    claimed.unwrap_or(0).min(most)
}

/// A sequence's elements, in room reserved once for the count it claims (see
/// [`preallocated`]).
pub(crate) fn read_seq<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(
    mut seq: A,
) -> Result<Vec<T>, A::Error> {
    let mut items = Vec::with_capacity(preallocated::<T>(seq.size_hint()));
    while let Some(item) = seq.next_element()? {
        items.push(item);
    }
    Ok(items)
}

/// The Godot type a reserved newtype name stands for. Inlined: the name is a constant
/// there, and the comparisons fold away.
#[inline(always)]
pub(crate) fn reserved_type(name: &str) -> Option<Payload> {
    let godot_name = name.strip_prefix(RESERVED_PREFIX)?;
    let (godot_name, wide) = match godot_name.strip_suffix(DOUBLE_SUFFIX) {
        Some(name) => (name, true),
        None => (godot_name, false),
    };
    let t = math_type_named(godot_name).or_else(|| packed_type_named(godot_name))?;
    Some(Payload { t, wide })
}

/// A value's little-endian bytes, serialized as bytes: the payload of the math and packed
/// types for formats that are not human-readable.
struct LeBytes<'a>(&'a [u8]);

impl Serialize for LeBytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A Godot math type: `Array`'s components, in the engine's order.
///
/// # Safety
/// Implementors are `#[repr(C)]` structs of nothing but `Scalar`s (directly or through
/// other such structs), laid out exactly as `Array`: same size, alignment of `Scalar`.
pub(crate) unsafe trait MathType: Copy {
    const NAME: &'static str;
    type Scalar: Plain + Default + for<'de> Deserialize<'de>;
    type Array: Plain + Default + Serialize + AsMut<[Self::Scalar]>;
    fn from_array(components: Self::Array) -> Self;
    fn to_array(self) -> Self::Array;
}

fn serialize_math<T: MathType, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    let components = value.to_array();
    if s.is_human_readable() {
        s.serialize_newtype_struct(T::NAME, &components)
    } else {
        let bytes = le_bytes_of(std::slice::from_ref(&components));
        s.serialize_newtype_struct(T::NAME, &LeBytes(&bytes))
    }
}

struct MathVisitor<T>(PhantomData<T>);

impl<T: MathType> MathVisitor<T> {
    const COMPONENTS: usize = T::Array::SIZE / T::Scalar::SIZE;
}

impl<'de, T: MathType> Visitor<'de> for MathVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} numbers", Self::COMPONENTS)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        if d.is_human_readable() {
            d.deserialize_tuple(Self::COMPONENTS, self)
        } else {
            d.deserialize_bytes(self)
        }
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<T, E> {
        if bytes.len() != T::Array::SIZE {
            return Err(E::invalid_length(bytes.len() / T::Scalar::SIZE, &self));
        }
        Ok(T::from_array(T::Array::from_le(bytes)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut components = T::Array::default();
        for (i, c) in components.as_mut().iter_mut().enumerate() {
            *c = seq
                .next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &self))?;
        }
        Ok(T::from_array(components))
    }
}

fn deserialize_math<'de, T: MathType, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_newtype_struct(T::NAME, MathVisitor(PhantomData))
}

/// The traits of one math type of the table below, with `$scalar` components.
macro_rules! math_type {
    ($name:ident, $ty:ty, $reserved:expr, [$scalar:ty; $n:expr]) => {
        // SAFETY: each type is `#[repr(C)]` of `$n` `$scalar`s, as many as
        // `VariantType::math_components` counts (the transmutes would not compile were
        // the sizes different).
        unsafe impl MathType for $ty {
            const NAME: &'static str = $reserved;
            type Scalar = $scalar;
            type Array = [$scalar; $n];
            #[inline]
            fn from_array(components: [$scalar; $n]) -> Self {
                // SAFETY: see the impl.
                unsafe { std::mem::transmute::<[$scalar; $n], $ty>(components) }
            }
            #[inline]
            fn to_array(self) -> [$scalar; $n] {
                // SAFETY: see the impl.
                unsafe { std::mem::transmute::<$ty, [$scalar; $n]>(self) }
            }
        }

        impl From<[$scalar; $n]> for $ty {
            /// From the components in the engine's order.
            fn from(components: [$scalar; $n]) -> Self {
                Self::from_array(components)
            }
        }

        impl From<$ty> for [$scalar; $n] {
            /// The components in the engine's order.
            fn from(value: $ty) -> Self {
                value.to_array()
            }
        }

        impl Serialize for $ty {
            #[inline]
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serialize_math(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            #[inline]
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                deserialize_math(d)
            }
        }
    };
}

/// Declares the math types' traits from one table: the Godot type and how its components
/// travel (checked against [`VariantType::math_components`], whose count of them each type
/// takes). The types of `real_t` components (`Real`) are generic over their component
/// type: each has its `f32` and its `f64` form.
macro_rules! math_types {
    ($($name:ident: $component:ident;)*) => {
        $(
            const _: () = assert!(matches!(
                VariantType::$name.math_components(),
                Some((_, Component::$component))
            ));
            math_types!(@one $name $component VariantType::$name.component_count());
        )*

        #[inline(always)]
        fn math_type_named(name: &str) -> Option<VariantType> {
            match name {
                $(stringify!($name) => Some(VariantType::$name),)*
                _ => None,
            }
        }

        /// Writes the math type `payload.t` from its components' little-endian bytes, as
        /// [`MathType`] serializes them (`f64` ones when `payload.wide`); `None` when it is
        /// no math type or the bytes are not its components.
        pub(crate) fn write_math<S: crate::wire::Sink>(
            enc: &mut crate::Encoder<S>,
            payload: Payload,
            bytes: &[u8],
        ) -> Option<()> {
            let t = payload.t;
            match t {
                $(VariantType::$name => {
                    write_components!(
                        enc,
                        t,
                        payload.wide,
                        bytes,
                        { VariantType::$name.component_count() },
                        $component
                    );
                })*
                _ => return None,
            }
            Some(())
        }
    };
    (@one $name:ident Real $n:expr) => {
        math_type!($name, $name<f32>, reserved_name!($name), [f32; $n]);
        math_type!($name, $name<f64>, reserved_name!($name, f64), [f64; $n]);
    };
    (@one $name:ident F32 $n:expr) => {
        math_type!($name, $name, reserved_name!($name), [f32; $n]);
    };
    (@one $name:ident I32 $n:expr) => {
        math_type!($name, $name, reserved_name!($name), [i32; $n]);
    };
}

/// The encoder's call for a math type's components, by how they travel: their
/// little-endian bytes are already their wire form, but for `real_t` components written in
/// the other precision than the Rust type's (which [`Encoder::reals`](crate::Encoder::reals)
/// converts).
macro_rules! write_components {
    ($enc:ident, $t:ident, $wide:expr, $bytes:ident, $n:expr, Real) => {
        match ($wide, $enc.options().precision) {
            (false, crate::Precision::Single) => {
                $enc.wire_payload($t, <&[u8; $n * 4]>::try_from($bytes).ok()?)
            }
            (false, crate::Precision::Double) => {
                let bytes = <&[u8; $n * 4]>::try_from($bytes).ok()?;
                $enc.reals($t, &crate::Reals::Single(<[f32; $n]>::from_le(bytes)))
            }
            (true, _) => {
                let bytes = <&[u8; $n * 8]>::try_from($bytes).ok()?;
                $enc.reals($t, &crate::Reals::Double(<[f64; $n]>::from_le(bytes)))
            }
        }
    };
    ($enc:ident, $t:ident, $wide:expr, $bytes:ident, $n:expr, $component:ident) => {
        $enc.wire_payload($t, <&[u8; $n * 4]>::try_from($bytes).ok()?)
    };
}

math_types! {
    Vector2: Real;
    Vector2i: I32;
    Rect2: Real;
    Rect2i: I32;
    Vector3: Real;
    Vector3i: I32;
    Transform2D: Real;
    Vector4: Real;
    Vector4i: I32;
    Plane: Real;
    Quaternion: Real;
    Aabb: Real;
    Basis: Real;
    Transform3D: Real;
    Projection: Real;
    Color: F32;
}

/// Godot's `Vector2`. Its `real_t` components are `f32` by default (a double-precision
/// value is then rounded, as a single-precision engine rounds it); `Vector2<f64>` holds
/// them exactly in both precisions. So are all the math types of `real_t` components.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector2<R = f32> {
    /// The X component.
    pub x: R,
    /// The Y component.
    pub y: R,
}

/// Godot's `Vector2i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector2i {
    /// The X component.
    pub x: i32,
    /// The Y component.
    pub y: i32,
}

/// Godot's `Rect2`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect2<R = f32> {
    /// The corner the rectangle starts at (its least x and y for a positive size).
    pub position: Vector2<R>,
    /// The width and height, from `position`.
    pub size: Vector2<R>,
}

/// Godot's `Rect2i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rect2i {
    /// The corner the rectangle starts at (its least x and y for a positive size).
    pub position: Vector2i,
    /// The width and height, from `position`.
    pub size: Vector2i,
}

/// Godot's `Vector3`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector3<R = f32> {
    /// The X component.
    pub x: R,
    /// The Y component.
    pub y: R,
    /// The Z component.
    pub z: R,
}

/// Godot's `Vector3i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector3i {
    /// The X component.
    pub x: i32,
    /// The Y component.
    pub y: i32,
    /// The Z component.
    pub z: i32,
}

/// Godot's `Transform2D`: its columns `x`, `y` and the `origin`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Transform2D<R = f32> {
    /// The X column: the basis's X axis.
    pub x: Vector2<R>,
    /// The Y column: the basis's Y axis.
    pub y: Vector2<R>,
    /// The translation.
    pub origin: Vector2<R>,
}

/// Godot's `Vector4`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector4<R = f32> {
    /// The X component.
    pub x: R,
    /// The Y component.
    pub y: R,
    /// The Z component.
    pub z: R,
    /// The W component.
    pub w: R,
}

/// Godot's `Vector4i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector4i {
    /// The X component.
    pub x: i32,
    /// The Y component.
    pub y: i32,
    /// The Z component.
    pub z: i32,
    /// The W component.
    pub w: i32,
}

/// Godot's `Plane`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Plane<R = f32> {
    /// The normal.
    pub normal: Vector3<R>,
    /// The distance from the origin along the normal: the plane is `normal · p = d`.
    pub d: R,
}

/// Godot's `Quaternion`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Quaternion<R = f32> {
    /// The X component of the vector part.
    pub x: R,
    /// The Y component of the vector part.
    pub y: R,
    /// The Z component of the vector part.
    pub z: R,
    /// The scalar part.
    pub w: R,
}

/// Godot's `AABB`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb<R = f32> {
    /// The corner the box starts at (its least x, y and z for a positive size).
    pub position: Vector3<R>,
    /// The width, height and depth, from `position`.
    pub size: Vector3<R>,
}

/// Godot's `Basis`: its rows.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Basis<R = f32> {
    /// The rows x, y, z (the engine's own order, and the wire's).
    pub rows: [Vector3<R>; 3],
}

/// Godot's `Transform3D`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Transform3D<R = f32> {
    /// The basis: rotation, scale and shear.
    pub basis: Basis<R>,
    /// The translation.
    pub origin: Vector3<R>,
}

/// Godot's `Projection`: its columns.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Projection<R = f32> {
    /// The columns x, y, z, w (the engine's own order, and the wire's).
    pub columns: [Vector4<R>; 4],
}

/// Godot's `Color` (always 32-bit components).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Color {
    /// Red: 0 to 1, or more for an overbright color.
    pub r: f32,
    /// Green, likewise.
    pub g: f32,
    /// Blue, likewise.
    pub b: f32,
    /// Alpha: 0 (transparent) to 1 (opaque).
    pub a: f32,
}

/// An element of a packed array: the plain values it travels as.
pub(crate) trait PackedItem: Sized {
    type Plain: Plain;
    fn as_plain(items: &[Self]) -> &[Self::Plain];
    fn from_plain(items: Vec<Self::Plain>) -> Vec<Self>;
}

macro_rules! plain_packed_items {
    ($($t:ty),*) => {$(
        impl PackedItem for $t {
            type Plain = $t;
            fn as_plain(items: &[$t]) -> &[$t] {
                items
            }
            fn from_plain(items: Vec<$t>) -> Vec<$t> {
                items
            }
        }
    )*};
}
plain_packed_items!(u8, i32, i64, f32, f64);

impl<T: MathType> PackedItem for T {
    type Plain = T::Array;
    fn as_plain(items: &[T]) -> &[T::Array] {
        // SAFETY: `MathType` guarantees `T` is laid out exactly as `T::Array`.
        unsafe { std::slice::from_raw_parts(items.as_ptr().cast(), items.len()) }
    }
    fn from_plain(items: Vec<T::Array>) -> Vec<T> {
        items.into_iter().map(T::from_array).collect()
    }
}

/// A packed array: which one, and its elements.
pub(crate) trait PackedType: Sized {
    const NAME: &'static str;
    type Item: for<'de> Deserialize<'de>;
    /// Whether the elements travel as their bytes in formats that are not human-readable.
    const AS_BYTES: bool;
    fn from_items(items: Vec<Self::Item>) -> Self;
    /// The array from its elements' little-endian bytes, when they are whole elements.
    fn from_le_bytes(bytes: &[u8]) -> Option<Self>;
}

struct PackedVisitor<P>(PhantomData<P>);

impl<'de, P: PackedType> Visitor<'de> for PackedVisitor<P> {
    type Value = P;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<P, D::Error> {
        if P::AS_BYTES && !d.is_human_readable() {
            d.deserialize_byte_buf(self)
        } else {
            Vec::deserialize(d).map(P::from_items)
        }
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<P, E> {
        P::from_le_bytes(bytes).ok_or_else(|| E::invalid_length(bytes.len(), &self))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<P, A::Error> {
        read_seq(seq).map(P::from_items)
    }
}

/// A packed array of plain elements as the newtype struct `name`: `items` for formats that
/// are human-readable, else the little-endian bytes of `plain`, the same elements.
pub(crate) fn serialize_packed<S: Serializer, H: Serialize + ?Sized, T: Plain>(
    s: S,
    name: &'static str,
    items: &H,
    plain: &[T],
) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        s.serialize_newtype_struct(name, items)
    } else {
        let bytes = le_bytes_of(plain);
        s.serialize_newtype_struct(name, &LeBytes(&bytes))
    }
}

/// The traits of one packed array of plain elements (`$ty`, of `$item`s).
macro_rules! plain_packed_type {
    ($name:ident, $ty:ty, $reserved:expr, $item:ty) => {
        impl PackedType for $ty {
            const NAME: &'static str = $reserved;
            type Item = $item;
            const AS_BYTES: bool = true;
            fn from_items(items: Vec<$item>) -> Self {
                $name(items)
            }
            fn from_le_bytes(bytes: &[u8]) -> Option<Self> {
                let size = <<$item as PackedItem>::Plain as Plain>::SIZE;
                (bytes.len() % size == 0)
                    .then(|| $name(<$item>::from_plain(plain_items(bytes).into_owned())))
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serialize_packed(s, Self::NAME, &self.0, <$item>::as_plain(&self.0))
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_newtype_struct(Self::NAME, PackedVisitor(PhantomData))
            }
        }

        impl From<Vec<$item>> for $ty {
            fn from(items: Vec<$item>) -> Self {
                $name(items)
            }
        }
    };
}

/// Declares the packed arrays of plain elements, which travel in bulk; the vector arrays
/// (`real` ones) are generic over their vectors' component type, as the math types are.
macro_rules! plain_packed_types {
    ($($name:ident($item:ident$(<$real:ident>)?),)*) => {
        $(plain_packed_types!(@one $name $item $($real)?);)*

        #[inline(always)]
        fn packed_type_named(name: &str) -> Option<VariantType> {
            match name {
                $(stringify!($name) => Some(VariantType::$name),)*
                "PackedStringArray" => Some(VariantType::PackedStringArray),
                _ => None,
            }
        }
    };
    (@one $name:ident $item:ident real) => {
        #[doc = concat!(
            "Godot's `", stringify!($name), "`: written and read in bulk. Its vectors' ",
            "components are `f32` by default, `f64` in `", stringify!($name), "<f64>`."
        )]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name<R = f32>(pub Vec<$item<R>>);

        plain_packed_type!($name, $name<f32>, reserved_name!($name), $item<f32>);
        plain_packed_type!($name, $name<f64>, reserved_name!($name, f64), $item<f64>);
    };
    (@one $name:ident $item:ident) => {
        #[doc = concat!("Godot's `", stringify!($name), "`: written and read in bulk.")]
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name(pub Vec<$item>);

        plain_packed_type!($name, $name, reserved_name!($name), $item);
    };
}

plain_packed_types! {
    PackedByteArray(u8),
    PackedInt32Array(i32),
    PackedInt64Array(i64),
    PackedFloat32Array(f32),
    PackedFloat64Array(f64),
    PackedVector2Array(Vector2<real>),
    PackedVector3Array(Vector3<real>),
    PackedColorArray(Color),
    PackedVector4Array(Vector4<real>),
}

/// Godot's `PackedStringArray`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct PackedStringArray(pub Vec<String>);

impl PackedType for PackedStringArray {
    const NAME: &'static str = reserved_name!(PackedStringArray);
    type Item = String;
    const AS_BYTES: bool = false;
    fn from_items(items: Vec<String>) -> Self {
        PackedStringArray(items)
    }
    fn from_le_bytes(_: &[u8]) -> Option<Self> {
        None
    }
}

impl Serialize for PackedStringArray {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(Self::NAME, &self.0)
    }
}

impl<'de> Deserialize<'de> for PackedStringArray {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(Self::NAME, PackedVisitor(PhantomData))
    }
}

impl From<Vec<String>> for PackedStringArray {
    fn from(items: Vec<String>) -> Self {
        PackedStringArray(items)
    }
}

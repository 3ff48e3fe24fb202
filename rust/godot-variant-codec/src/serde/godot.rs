//! Godot's math types and packed arrays as plain Rust types that serialize as the real
//! Godot types (see the module docs of [`crate::serde`] for how).

use std::fmt;
use std::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{Serialize, Serializer};

use crate::types::VariantType;
use crate::wire::{le_bytes_of, plain_items, Plain};

/// The reserved name of the newtype struct a Godot type serializes as (the prefix alone
/// without an argument): this crate's serializer and deserializer recognize it.
macro_rules! reserved_name {
    ($($name:ident)?) => {
        concat!("$godot_variant_codec::" $(, stringify!($name))?)
    };
}

const RESERVED_PREFIX: &str = reserved_name!();

/// Most elements a visitor reserves room for on a sequence's word, whatever it claims
/// (this crate's deserializer already caps its claims by the input; other formats may not).
const MAX_PREALLOCATED_BYTES: usize = 1 << 20;

/// The Godot type a reserved newtype name stands for. Inlined: the name is a constant
/// there, and the comparisons fold away.
#[inline(always)]
pub(crate) fn reserved_type(name: &str) -> Option<VariantType> {
    let godot_name = name.strip_prefix(RESERVED_PREFIX)?;
    math_type_named(godot_name).or_else(|| packed_type_named(godot_name))
}

/// A value's little-endian bytes, serialized as bytes: the payload of the math and packed
/// types for formats that are not human-readable.
struct LeBytes<'a>(&'a [u8]);

impl Serialize for LeBytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// How a math type's components travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Component {
    /// `real_t`: 32 bits, or 64 when the header is flagged.
    Real,
    /// Always a 32-bit float (Color).
    F32,
    /// A 32-bit int (the `…i` types).
    I32,
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

/// Declares the math types' traits from one table: the Godot type, how its components
/// travel, and how many there are.
macro_rules! math_types {
    ($($name:ident: $component:ident [$scalar:ty; $n:literal];)*) => {
        $(
            // SAFETY: each type below is `#[repr(C)]` of `$n` `$scalar`s, as the table says
            // (the transmutes would not compile were the sizes different).
            unsafe impl MathType for $name {
                const NAME: &'static str = reserved_name!($name);
                type Scalar = $scalar;
                type Array = [$scalar; $n];
                #[inline]
                fn from_array(components: [$scalar; $n]) -> Self {
                    // SAFETY: see the impl.
                    unsafe { std::mem::transmute::<[$scalar; $n], $name>(components) }
                }
                #[inline]
                fn to_array(self) -> [$scalar; $n] {
                    // SAFETY: see the impl.
                    unsafe { std::mem::transmute::<$name, [$scalar; $n]>(self) }
                }
            }

            impl From<[$scalar; $n]> for $name {
                /// From the components in the engine's order.
                fn from(components: [$scalar; $n]) -> Self {
                    Self::from_array(components)
                }
            }

            impl From<$name> for [$scalar; $n] {
                /// The components in the engine's order.
                fn from(value: $name) -> Self {
                    value.to_array()
                }
            }

            impl Serialize for $name {
                #[inline]
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    serialize_math(self, s)
                }
            }

            impl<'de> Deserialize<'de> for $name {
                #[inline]
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    deserialize_math(d)
                }
            }
        )*

        #[inline(always)]
        fn math_type_named(name: &str) -> Option<VariantType> {
            match name {
                $(stringify!($name) => Some(VariantType::$name),)*
                _ => None,
            }
        }

        /// How many components a math type has and how they travel.
        pub(crate) fn math_components(t: VariantType) -> Option<(usize, Component)> {
            match t {
                $(VariantType::$name => Some(($n, Component::$component)),)*
                _ => None,
            }
        }

        /// Writes the math type `t` from its components' little-endian bytes, as
        /// [`MathType`] serializes them; `None` when `t` is no math type or the bytes are
        /// not its components.
        pub(crate) fn write_math<S: crate::wire::Sink>(
            enc: &mut crate::Encoder<S>,
            t: VariantType,
            bytes: &[u8],
        ) -> Option<()> {
            match t {
                $(VariantType::$name => {
                    let bytes: &[u8; <[$scalar; $n] as Plain>::SIZE] = bytes.try_into().ok()?;
                    write_components!(enc, t, bytes, [$scalar; $n], $component);
                })*
                _ => return None,
            }
            Some(())
        }
    };
}

/// The encoder's call for a math type's components, by how they travel: their
/// little-endian bytes are already their wire form, but for `real_t` components written for
/// a double-precision engine.
macro_rules! write_components {
    ($enc:ident, $t:ident, $bytes:ident, $array:ty, Real) => {
        if $enc.options().precision == crate::Precision::Double {
            $enc.reals($t, &crate::Reals::Single(<$array>::from_le($bytes)))
        } else {
            $enc.wire_payload($t, $bytes)
        }
    };
    ($enc:ident, $t:ident, $bytes:ident, $array:ty, $component:ident) => {
        $enc.wire_payload($t, $bytes)
    };
}

math_types! {
    Vector2: Real [f32; 2];
    Vector2i: I32 [i32; 2];
    Rect2: Real [f32; 4];
    Rect2i: I32 [i32; 4];
    Vector3: Real [f32; 3];
    Vector3i: I32 [i32; 3];
    Transform2D: Real [f32; 6];
    Vector4: Real [f32; 4];
    Vector4i: I32 [i32; 4];
    Plane: Real [f32; 4];
    Quaternion: Real [f32; 4];
    Aabb: Real [f32; 6];
    Basis: Real [f32; 9];
    Transform3D: Real [f32; 12];
    Projection: Real [f32; 16];
    Color: F32 [f32; 4];
}

/// Godot's `Vector2` (`real_t` components, `f32` here; a double-precision value is rounded).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector2 {
    pub x: f32,
    pub y: f32,
}

/// Godot's `Vector2i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector2i {
    pub x: i32,
    pub y: i32,
}

/// Godot's `Rect2`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect2 {
    pub position: Vector2,
    pub size: Vector2,
}

/// Godot's `Rect2i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rect2i {
    pub position: Vector2i,
    pub size: Vector2i,
}

/// Godot's `Vector3`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// Godot's `Vector3i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector3i {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

/// Godot's `Transform2D`: its columns `x`, `y` and the `origin`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Transform2D {
    pub x: Vector2,
    pub y: Vector2,
    pub origin: Vector2,
}

/// Godot's `Vector4`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vector4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// Godot's `Vector4i`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Vector4i {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub w: i32,
}

/// Godot's `Plane`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Plane {
    pub normal: Vector3,
    pub d: f32,
}

/// Godot's `Quaternion`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Quaternion {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// Godot's `AABB`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Aabb {
    pub position: Vector3,
    pub size: Vector3,
}

/// Godot's `Basis`: its rows.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Basis {
    pub rows: [Vector3; 3],
}

/// Godot's `Transform3D`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Transform3D {
    pub basis: Basis,
    pub origin: Vector3,
}

/// Godot's `Projection`: its columns.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Projection {
    pub columns: [Vector4; 4],
}

/// Godot's `Color` (always 32-bit components).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Color {
    pub r: f32,
    pub g: f32,
    pub b: f32,
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
trait PackedType: Sized {
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<P, A::Error> {
        let most = MAX_PREALLOCATED_BYTES / std::mem::size_of::<P::Item>().max(1);
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(most));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(P::from_items(items))
    }
}

/// Declares the packed arrays of plain elements, which travel in bulk.
macro_rules! plain_packed_types {
    ($($name:ident($item:ty),)*) => {
        $(
            #[doc = concat!("Godot's `", stringify!($name), "`: written and read in bulk.")]
            #[derive(Debug, Clone, PartialEq, Default)]
            pub struct $name(pub Vec<$item>);

            impl PackedType for $name {
                const NAME: &'static str = reserved_name!($name);
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

            impl Serialize for $name {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    if s.is_human_readable() {
                        s.serialize_newtype_struct(Self::NAME, &self.0)
                    } else {
                        let bytes = le_bytes_of(<$item>::as_plain(&self.0));
                        s.serialize_newtype_struct(Self::NAME, &LeBytes(&bytes))
                    }
                }
            }

            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_newtype_struct(Self::NAME, PackedVisitor(PhantomData))
                }
            }

            impl From<Vec<$item>> for $name {
                fn from(items: Vec<$item>) -> Self {
                    $name(items)
                }
            }
        )*

        #[inline(always)]
        fn packed_type_named(name: &str) -> Option<VariantType> {
            match name {
                $(stringify!($name) => Some(VariantType::$name),)*
                "PackedStringArray" => Some(VariantType::PackedStringArray),
                _ => None,
            }
        }
    };
}

plain_packed_types! {
    PackedByteArray(u8),
    PackedInt32Array(i32),
    PackedInt64Array(i64),
    PackedFloat32Array(f32),
    PackedFloat64Array(f64),
    PackedVector2Array(Vector2),
    PackedVector3Array(Vector3),
    PackedColorArray(Color),
    PackedVector4Array(Vector4),
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

//! [`Value`] with serde: `Serialize` and `Deserialize` (the mapping is in the docs of
//! [`crate::serde`]), and `From` / `TryFrom` between `Value` and this module's math and
//! packed types.

use std::fmt;

use ::serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use ::serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::godot::{self, MathType, PackedType};
use crate::keys::DictionaryBuilder;
use crate::types::VariantType;
use crate::value::{
    Array, ContainerType, Dictionary, FullObject, Object, PackedReals, Reals, Signal, Value,
};
use crate::WrongType;

/// `From` and `TryFrom` between each math type and `Value`: `real_t` types in the
/// precision of their components (`f32`: single, `f64`: double; `TryFrom` takes either,
/// as [`Reals::to_f32`] and [`Reals::to_f64`] convert), the others as they are.
macro_rules! math_conversions {
    ($($name:ident: $kind:ident;)*) => {$(math_conversions!(@one $name $kind);)*};
    (@one $name:ident Real) => {
        math_conversions!(@real $name, f32, Single, to_f32);
        math_conversions!(@real $name, f64, Double, to_f64);
    };
    (@real $name:ident, $scalar:ty, $precision:ident, $to:ident) => {
        impl From<godot::$name<$scalar>> for Value {
            #[doc = concat!("A `Value::", stringify!($name), "` of ", stringify!($precision), " precision.")]
            fn from(v: godot::$name<$scalar>) -> Value {
                Value::$name(Reals::$precision(v.to_array()).into())
            }
        }

        impl TryFrom<Value> for godot::$name<$scalar> {
            type Error = WrongType;
            #[doc = concat!("From a `Value::", stringify!($name), "` of either precision.")]
            fn try_from(value: Value) -> Result<Self, WrongType> {
                match value {
                    Value::$name(reals) => Ok(Self::from_array(reals.$to())),
                    other => Err(WrongType::new(VariantType::$name, other)),
                }
            }
        }
    };
    (@one $name:ident Plain) => {
        impl From<godot::$name> for Value {
            #[doc = concat!("A `Value::", stringify!($name), "`.")]
            fn from(v: godot::$name) -> Value {
                Value::$name(v.to_array())
            }
        }

        impl TryFrom<Value> for godot::$name {
            type Error = WrongType;
            #[doc = concat!("From a `Value::", stringify!($name), "`.")]
            fn try_from(value: Value) -> Result<Self, WrongType> {
                match value {
                    Value::$name(components) => Ok(Self::from_array(components)),
                    other => Err(WrongType::new(VariantType::$name, other)),
                }
            }
        }
    };
}

math_conversions! {
    Vector2: Real;
    Vector2i: Plain;
    Rect2: Real;
    Rect2i: Plain;
    Vector3: Real;
    Vector3i: Plain;
    Transform2D: Real;
    Vector4: Real;
    Vector4i: Plain;
    Plane: Real;
    Quaternion: Real;
    Aabb: Real;
    Basis: Real;
    Transform3D: Real;
    Projection: Real;
    Color: Plain;
}

/// `From` and `TryFrom` between each packed array and `Value`: the arrays of plain
/// elements (and the Color array, of its components), then the vector arrays, in the
/// precision of their components as the math types.
macro_rules! packed_conversions {
    ($($name:ident: $kind:ident;)*) => {$(packed_conversions!(@one $name $kind);)*};
    (@one $name:ident Items) => {
        packed_conversions!(@convert $name, godot::$name, |v: godot::$name| v.0, godot::$name);
    };
    (@one $name:ident Components) => {
        packed_conversions!(
            @convert $name,
            godot::$name,
            |v: godot::$name| v.0.into_iter().map(MathType::to_array).collect(),
            |items: Vec<_>| godot::$name(items.into_iter().map(MathType::from_array).collect())
        );
    };
    (@one $name:ident Reals) => {
        packed_conversions!(@reals $name, f32, Single, |c| c, |c| c.map(|x| x as f32));
        packed_conversions!(@reals $name, f64, Double, |c| c.map(f64::from), |c| c);
    };
    (@reals $name:ident, $scalar:ty, $precision:ident, $from_single:expr, $from_double:expr) => {
        packed_conversions!(
            @convert $name,
            godot::$name<$scalar>,
            |v: godot::$name<$scalar>| PackedReals::$precision(
                v.0.into_iter().map(MathType::to_array).collect()
            ),
            |items| godot::$name(match items {
                PackedReals::Single(v) => v.into_iter().map($from_single).map(MathType::from_array).collect(),
                PackedReals::Double(v) => v.into_iter().map($from_double).map(MathType::from_array).collect(),
            })
        );
    };
    (@convert $name:ident, $ty:ty, $to_value:expr, $from_value:expr) => {
        impl From<$ty> for Value {
            #[doc = concat!("A `Value::", stringify!($name), "`.")]
            fn from(v: $ty) -> Value {
                #[allow(clippy::redundant_closure_call)]
                Value::$name(($to_value)(v))
            }
        }

        impl TryFrom<Value> for $ty {
            type Error = WrongType;
            #[doc = concat!("From a `Value::", stringify!($name), "`.")]
            fn try_from(value: Value) -> Result<Self, WrongType> {
                match value {
                    #[allow(clippy::redundant_closure_call)]
                    Value::$name(items) => Ok(($from_value)(items)),
                    other => Err(WrongType::new(VariantType::$name, other)),
                }
            }
        }
    };
}

packed_conversions! {
    PackedByteArray: Items;
    PackedInt32Array: Items;
    PackedInt64Array: Items;
    PackedFloat32Array: Items;
    PackedFloat64Array: Items;
    PackedStringArray: Items;
    PackedVector2Array: Reals;
    PackedVector3Array: Reals;
    PackedColorArray: Components;
    PackedVector4Array: Reals;
}

/// A math value's components as the math type `A` (single precision) or `B` (double),
/// which serialize as that Godot type.
fn serialize_reals<const N: usize, A, B, S>(reals: &Reals<N>, s: S) -> Result<S::Ok, S::Error>
where
    A: MathType<Array = [f32; N]> + Serialize,
    B: MathType<Array = [f64; N]> + Serialize,
    S: Serializer,
{
    match reals {
        Reals::Single(c) => A::from_array(*c).serialize(s),
        Reals::Double(c) => B::from_array(*c).serialize(s),
    }
}

/// A packed vector array, as the packed type `A` (single precision) or `B` (double) of
/// this module serializes.
fn serialize_packed_reals<const N: usize, A: PackedType, B: PackedType, S: Serializer>(
    items: &PackedReals<N>,
    s: S,
) -> Result<S::Ok, S::Error>
where
    [f32; N]: Serialize,
    [f64; N]: Serialize,
{
    match items {
        PackedReals::Single(v) => godot::serialize_packed(s, A::NAME, v, v),
        PackedReals::Double(v) => godot::serialize_packed(s, B::NAME, v, v),
    }
}

/// A packed array of plain elements, as the packed type `P` serializes.
fn packed<P: PackedType, T: crate::wire::Plain + Serialize, S: Serializer>(
    items: &[T],
    s: S,
) -> Result<S::Ok, S::Error> {
    godot::serialize_packed(s, P::NAME, items, items)
}

/// A full Object: `{"class": NAME, "properties": {NAME: value, …}}`.
fn serialize_object<S: Serializer>(object: &FullObject, s: S) -> Result<S::Ok, S::Error> {
    struct Properties<'a>(&'a [(String, Value)]);
    impl Serialize for Properties<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(name, value)| (name, value)))
        }
    }
    let mut map = s.serialize_map(Some(2))?;
    map.serialize_entry("class", &object.class)?;
    map.serialize_entry("properties", &Properties(&object.properties))?;
    map.end()
}

/// A Signal: `{"name": NAME, "object_id": ID}`.
fn serialize_signal<S: Serializer>(signal: &Signal, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(2))?;
    map.serialize_entry("name", &signal.name)?;
    map.serialize_entry("object_id", &signal.object_id)?;
    map.end()
}

/// A Dictionary: a map of its entries, in order (its key and value types dropped).
fn serialize_dictionary<S: Serializer>(d: &Dictionary, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(d.entries.len()))?;
    for (key, value) in &d.entries {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// An Array: a sequence of its items (its element type dropped).
fn serialize_array<S: Serializer>(a: &Array, s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(a.items.len()))?;
    for item in &a.items {
        seq.serialize_element(item)?;
    }
    seq.end()
}

/// As the mapping in the docs of [`crate::serde`] says: with this crate's serializer each
/// Godot type but StringName, NodePath, RID, Object, Callable and Signal (which become
/// their `deserialize_any` forms) and the element types of typed containers (dropped) is
/// written as itself.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use godot as g;
        match self {
            Value::Nil | Value::Callable | Value::Object(Object::Null) => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(x) => s.serialize_f64(*x),
            Value::String(text) | Value::StringName(text) => s.serialize_str(text),
            Value::Vector2(r) => serialize_reals::<2, g::Vector2, g::Vector2<f64>, _>(r, s),
            Value::Vector2i(c) => g::Vector2i::from_array(*c).serialize(s),
            Value::Rect2(r) => serialize_reals::<4, g::Rect2, g::Rect2<f64>, _>(r, s),
            Value::Rect2i(c) => g::Rect2i::from_array(*c).serialize(s),
            Value::Vector3(r) => serialize_reals::<3, g::Vector3, g::Vector3<f64>, _>(r, s),
            Value::Vector3i(c) => g::Vector3i::from_array(*c).serialize(s),
            Value::Transform2D(r) => {
                serialize_reals::<6, g::Transform2D, g::Transform2D<f64>, _>(r, s)
            }
            Value::Vector4(r) => serialize_reals::<4, g::Vector4, g::Vector4<f64>, _>(r, s),
            Value::Vector4i(c) => g::Vector4i::from_array(*c).serialize(s),
            Value::Plane(r) => serialize_reals::<4, g::Plane, g::Plane<f64>, _>(r, s),
            Value::Quaternion(r) => {
                serialize_reals::<4, g::Quaternion, g::Quaternion<f64>, _>(r, s)
            }
            Value::Aabb(r) => serialize_reals::<6, g::Aabb, g::Aabb<f64>, _>(r, s),
            Value::Basis(r) => serialize_reals::<9, g::Basis, g::Basis<f64>, _>(r, s),
            Value::Transform3D(r) => {
                serialize_reals::<12, g::Transform3D, g::Transform3D<f64>, _>(r, s)
            }
            Value::Projection(r) => {
                serialize_reals::<16, g::Projection, g::Projection<f64>, _>(r, s)
            }
            Value::Color(c) => g::Color::from_array(*c).serialize(s),
            Value::NodePath(p) => s.collect_str(p),
            Value::Rid(id) | Value::Object(Object::Id(id)) => s.serialize_u64(*id),
            Value::Object(Object::Full(object)) => serialize_object(object, s),
            Value::Signal(signal) => serialize_signal(signal, s),
            Value::Dictionary(d) => serialize_dictionary(d, s),
            Value::Array(a) => serialize_array(a, s),
            Value::PackedByteArray(v) => packed::<g::PackedByteArray, _, _>(v, s),
            Value::PackedInt32Array(v) => packed::<g::PackedInt32Array, _, _>(v, s),
            Value::PackedInt64Array(v) => packed::<g::PackedInt64Array, _, _>(v, s),
            Value::PackedFloat32Array(v) => packed::<g::PackedFloat32Array, _, _>(v, s),
            Value::PackedFloat64Array(v) => packed::<g::PackedFloat64Array, _, _>(v, s),
            Value::PackedStringArray(v) => {
                s.serialize_newtype_struct(g::PackedStringArray::NAME, v)
            }
            Value::PackedVector2Array(v) => {
                serialize_packed_reals::<2, g::PackedVector2Array, g::PackedVector2Array<f64>, _>(
                    v, s,
                )
            }
            Value::PackedVector3Array(v) => {
                serialize_packed_reals::<3, g::PackedVector3Array, g::PackedVector3Array<f64>, _>(
                    v, s,
                )
            }
            Value::PackedColorArray(v) => packed::<g::PackedColorArray, _, _>(v, s),
            Value::PackedVector4Array(v) => {
                serialize_packed_reals::<4, g::PackedVector4Array, g::PackedVector4Array<f64>, _>(
                    v, s,
                )
            }
        }
    }
}

/// Reads what a self-describing format holds (see the docs of [`crate::serde`]): unit and
/// `None` → nil, a bool, an integer (`u64` beyond `i64` is an error), a float, a string,
/// bytes → PackedByteArray, a sequence → Array, a map → Dictionary (a key met again sets
/// the value of its first entry).
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Godot value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u)
            .map(Value::Int)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(u), &"an int of 64 bits"))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, text: &str) -> Result<Value, E> {
        Ok(Value::from(text))
    }

    fn visit_string<E>(self, text: String) -> Result<Value, E> {
        Ok(Value::String(text))
    }

    fn visit_bytes<E>(self, bytes: &[u8]) -> Result<Value, E> {
        Ok(Value::PackedByteArray(bytes.to_vec()))
    }

    fn visit_byte_buf<E>(self, bytes: Vec<u8>) -> Result<Value, E> {
        Ok(Value::PackedByteArray(bytes))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        godot::read_seq::<Value, _>(seq).map(Value::from)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = DictionaryBuilder::with_capacity(godot::preallocated::<(Value, Value)>(
            map.size_hint(),
        ));
        while let Some((key, value)) = map.next_entry::<Value, Value>()? {
            entries.insert(key, value);
        }
        Ok(Value::from(entries.into_dictionary(
            ContainerType::Untyped,
            ContainerType::Untyped,
        )))
    }
}

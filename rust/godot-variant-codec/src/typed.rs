//! What a typed container does with an element of another type: `ContainerTypeValidate`.
//!
//! The engine converts the element when `Variant::can_convert_strict` allows it and drops
//! it (with an error print, but no decoding error) otherwise.

use crate::types::VariantType;
use crate::value::{Array, ContainerType, PackedReals, Reals, Value};

/// The element as the typed container stores it, or `None` when the container refuses it.
///
/// Inlined: for untyped containers, the common case, it is a single test at the call site.
#[inline]
pub fn coerce(value: Value, element_type: &ContainerType) -> Option<Value> {
    if stores_as_is(value.variant_type(), element_type) {
        return Some(value);
    }
    convert_strict(value, target_type(element_type))
}

/// Whether a container of `element_type` keeps an element of type `source` as it is
/// (untyped, the same type, or nil among objects); otherwise [`coerce`] converts or drops it.
#[inline]
pub fn stores_as_is(source: VariantType, element_type: &ContainerType) -> bool {
    match element_type {
        ContainerType::Untyped => true,
        typed => {
            let target = target_type(typed);
            source == target || (source == VariantType::Nil && target == VariantType::Object)
        }
    }
}

fn target_type(element_type: &ContainerType) -> VariantType {
    match element_type {
        ContainerType::Untyped => VariantType::Nil,
        ContainerType::Builtin(t) => *t,
        ContainerType::ClassName(_) | ContainerType::Script(_) => VariantType::Object,
    }
}

/// C++'s float → integer conversion as x86-64 performs it: truncation, with the
/// "integer indefinite" value (the minimum) for NaN and out-of-range input.
macro_rules! x86_truncate {
    ($name:ident, $float:ty, $int:ty) => {
        fn $name(x: $float) -> $int {
            const LIMIT: $float = -(<$int>::MIN as $float);
            if !(-LIMIT..LIMIT).contains(&x) {
                <$int>::MIN
            } else {
                x as $int
            }
        }
    };
}
x86_truncate!(f64_to_i64, f64, i64);
x86_truncate!(f32_to_i32, f32, i32);
x86_truncate!(f64_to_i32, f64, i32);

fn reals_to_ints<const N: usize>(r: &Reals<N>) -> [i32; N] {
    r.to_f32().map(f32_to_i32)
}

fn ints_to_reals<const N: usize>(i: &[i32; N]) -> Reals<N> {
    Reals::Single(i.map(|x| x as f32))
}

/// A packed array's elements as an untyped Array.
fn packed_to_array(v: Value) -> Option<Vec<Value>> {
    fn each<T>(items: Vec<T>, f: impl Fn(T) -> Value) -> Option<Vec<Value>> {
        Some(items.into_iter().map(f).collect())
    }
    fn reals<const N: usize>(
        p: PackedReals<N>,
        f: impl Fn(Reals<N>) -> Value,
    ) -> Option<Vec<Value>> {
        match p {
            PackedReals::Single(v) => each(v, |x| f(Reals::Single(x))),
            PackedReals::Double(v) => each(v, |x| f(Reals::Double(x))),
        }
    }
    match v {
        Value::PackedByteArray(v) => each(v, |x| Value::Int(x.into())),
        Value::PackedInt32Array(v) => each(v, |x| Value::Int(x.into())),
        Value::PackedInt64Array(v) => each(v, Value::Int),
        Value::PackedFloat32Array(v) => each(v, |x| Value::Float(x.into())),
        Value::PackedFloat64Array(v) => each(v, Value::Float),
        Value::PackedStringArray(v) => each(v, Value::String),
        Value::PackedColorArray(v) => each(v, Value::Color),
        Value::PackedVector2Array(p) => reals(p, Value::Vector2),
        Value::PackedVector3Array(p) => reals(p, Value::Vector3),
        Value::PackedVector4Array(p) => reals(p, Value::Vector4),
        _ => None,
    }
}

/// An element of an Array as a number, the way a packed array's constructor reads it.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn integer(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Float(f) => Some(f64_to_i64(*f)),
        other => number(other).map(|n| n as i64),
    }
}

/// An Array as the packed array `target`, when every element is of a kind whose
/// conversion this codec performs (numbers to numbers, strings to strings, each vector and
/// Color to its own type); otherwise refused.
fn array_to_packed(items: &[Value], target: VariantType) -> Option<Value> {
    use VariantType as T;
    fn all<T>(items: &[Value], f: impl Fn(&Value) -> Option<T>) -> Option<Vec<T>> {
        items.iter().map(f).collect()
    }
    fn reals<const N: usize>(
        items: &[Value],
        f: impl Fn(&Value) -> Option<&Reals<N>>,
    ) -> Option<PackedReals<N>> {
        all(items, |v| f(v).map(Reals::to_f32)).map(PackedReals::Single)
    }
    Some(match target {
        T::PackedByteArray => Value::PackedByteArray(all(items, |v| integer(v).map(|i| i as u8))?),
        T::PackedInt32Array => Value::PackedInt32Array(all(items, |v| match v {
            Value::Float(f) => Some(f64_to_i32(*f)),
            other => integer(other).map(|i| i as i32),
        })?),
        T::PackedInt64Array => Value::PackedInt64Array(all(items, integer)?),
        T::PackedFloat32Array => {
            Value::PackedFloat32Array(all(items, |v| number(v).map(|n| n as f32))?)
        }
        T::PackedFloat64Array => Value::PackedFloat64Array(all(items, number)?),
        T::PackedStringArray => Value::PackedStringArray(all(items, |v| match v {
            Value::String(s) | Value::StringName(s) => Some(s.clone()),
            _ => None,
        })?),
        T::PackedColorArray => Value::PackedColorArray(all(items, |v| match v {
            Value::Color(c) => Some(*c),
            _ => None,
        })?),
        T::PackedVector2Array => Value::PackedVector2Array(reals(items, |v| match v {
            Value::Vector2(r) => Some(r),
            _ => None,
        })?),
        T::PackedVector3Array => Value::PackedVector3Array(reals(items, |v| match v {
            Value::Vector3(r) => Some(r),
            _ => None,
        })?),
        T::PackedVector4Array => Value::PackedVector4Array(reals(items, |v| match v {
            Value::Vector4(r) => Some(r),
            _ => None,
        })?),
        _ => return None,
    })
}

/// The conversions of `Variant::can_convert_strict` that this codec performs. The others
/// it allows (transforms into one another, Color from String or int, RID from Object,
/// NodePath from String, packed arrays from Arrays holding other kinds of element) are
/// refused here: such elements are dropped rather than guessed at.
#[inline(never)]
fn convert_strict(value: Value, target: VariantType) -> Option<Value> {
    use VariantType as T;
    Some(match (value, target) {
        (Value::Int(i), T::Bool) => Value::Bool(i != 0),
        (Value::Float(f), T::Bool) => Value::Bool(f != 0.0),
        (Value::Bool(b), T::Int) => Value::Int(i64::from(b)),
        (Value::Float(f), T::Int) => Value::Int(f64_to_i64(f)),
        (Value::Bool(b), T::Float) => Value::Float(f64::from(u8::from(b))),
        (Value::Int(i), T::Float) => Value::Float(i as f64),
        (Value::StringName(s), T::String) => Value::String(s),
        (Value::NodePath(p), T::String) => Value::String(p.to_string()),
        (Value::String(s), T::StringName) => Value::StringName(s),
        (Value::Vector2i(i), T::Vector2) => Value::Vector2(ints_to_reals(&i)),
        (Value::Vector2(r), T::Vector2i) => Value::Vector2i(reals_to_ints(&r)),
        (Value::Rect2i(i), T::Rect2) => Value::Rect2(ints_to_reals(&i)),
        (Value::Rect2(r), T::Rect2i) => Value::Rect2i(reals_to_ints(&r)),
        (Value::Vector3i(i), T::Vector3) => Value::Vector3(ints_to_reals(&i)),
        (Value::Vector3(r), T::Vector3i) => Value::Vector3i(reals_to_ints(&r)),
        (Value::Vector4i(i), T::Vector4) => Value::Vector4(ints_to_reals(&i)),
        (Value::Vector4(r), T::Vector4i) => Value::Vector4i(reals_to_ints(&r)),
        (Value::Array(a), packed) => array_to_packed(&a.items, packed)?,
        (packed, T::Array) => Value::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items: packed_to_array(packed)?,
        })),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::NodePath;

    #[test]
    fn truncation_matches_x86() {
        assert_eq!(f64_to_i64(f64::NAN), i64::MIN);
        assert_eq!(f64_to_i64(1e300), i64::MIN);
        assert_eq!(f64_to_i64(-2.9), -2);
        assert_eq!(f32_to_i32(3e9), i32::MIN);
        assert_eq!(f32_to_i32(-2147483648.0), i32::MIN);
        assert_eq!(f32_to_i32(2147483520.0), 2147483520);
    }

    #[test]
    fn typed_containers_convert_or_drop() {
        let ints = ContainerType::Builtin(VariantType::Int);
        assert_eq!(coerce(Value::Float(2.7), &ints), Some(Value::Int(2)));
        assert_eq!(coerce(Value::String("x".into()), &ints), None);
        let objects = ContainerType::ClassName("Node".into());
        assert_eq!(coerce(Value::Nil, &objects), Some(Value::Nil));
        assert_eq!(coerce(Value::Int(1), &objects), None);
    }

    /// A NodePath becomes its `String(NodePath)` text, which leaves out a subpath whose
    /// join is empty: Godot 4.6.3 reads a NodePath of name `a` and one empty subname in an
    /// `Array[String]` as `"a"`.
    #[test]
    fn node_paths_convert_to_the_engines_text() {
        let strings = ContainerType::Builtin(VariantType::String);
        let path = |subnames: &[&str]| Value::NodePath(NodePath::new(["a"], subnames, true));
        for (subnames, text) in [(&[""][..], "/a"), (&["", ""], "/a::"), (&["b"], "/a:b")] {
            let string = Some(Value::String(text.into()));
            assert_eq!(coerce(path(subnames), &strings), string, "{subnames:?}");
        }
    }
}

//! Codec `Value` → Godot `Variant`, building what the engine's `decode_variant`
//! (core/io/marshalls.cpp) builds: `EncodedObjectAsID` for object ids, instantiated objects
//! for full ones (with `allow_objects`), typed containers filled through the engine's own
//! typed `push_back` / `dict[key] = value`.
//!
//! Runs on the calling thread: it creates Godot objects for that thread.

use crate::engine::string::{gstring, starts_with_bom, string_name};
use godot::builtin::{
    Aabb, Basis, Callable, Color, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid,
    Transform2D, Transform3D, Variant, VariantType, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use godot::classes::{ClassDb, EncodedObjectAsId, Object, ResourceLoader, Script};
use godot::global::{bytes_to_var, Error};
use godot::meta::ToGodot;
use godot::obj::{EngineEnum, Gd, NewGd, Singleton};
use godot_variant_codec::{
    encode, Array, ContainerType, Dictionary, EncodeError, EncodeOptions, NodePath,
    Object as WireObject, PackedReals, Reals, Signal as WireSignal, Value, VariantType as WireType,
    SCRIPT_PROPERTY,
};

use crate::convert::stack_room;
use crate::engine::math_types::math_types;
use crate::engine::typed_containers::{typed_array, typed_dictionary, ElementSpec};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToVariantError {
    #[error("class {0:?} cannot be instantiated")]
    NotInstantiable(String),
    #[error("class {0:?} could not be instantiated")]
    InstantiationFailed(String),
    #[error("no Script at {0:?}")]
    NoScript(String),
    /// Re-encoding a value for the engine to decode failed (see `engine_decoded`).
    #[error("{0}")]
    Reencode(EncodeError),
}

impl ToVariantError {
    /// The `Error` the engine's `decode_variant` returns in the same case.
    pub fn godot_error(&self) -> Error {
        match self {
            ToVariantError::NotInstantiable(_) | ToVariantError::NoScript(_) => {
                Error::ERR_INVALID_DATA
            }
            ToVariantError::InstantiationFailed(_) => Error::ERR_UNAVAILABLE,
            ToVariantError::Reencode(e) => {
                Error::try_from_ord(e.godot_error().code()).unwrap_or(Error::FAILED)
            }
        }
    }
}

pub fn variant(value: &Value) -> Result<Variant, ToVariantError> {
    stack_room::step(|| convert(value))
}

/// One value: the scalars and strings here, each family of the rest by its own function.
fn convert(value: &Value) -> Result<Variant, ToVariantError> {
    Ok(match value {
        Value::Nil => Variant::nil(),
        Value::Bool(b) => b.to_variant(),
        Value::Int(i) => i.to_variant(),
        Value::Float(f) => f.to_variant(),
        Value::String(s) => gstring(s).to_variant(),
        Value::StringName(s) => string_name(s).to_variant(),
        // The binding can build a NodePath only from its text, which the engine parses
        // again: slower than the engine's decoding of its parts, and not always the same.
        Value::NodePath(_) => engine_decoded(value)?,
        Value::Rid(id) => Rid::new(*id).to_variant(),
        Value::Object(object) => self::object(object)?,
        Value::Callable => Callable::invalid().to_variant(),
        // The binding can only build a Signal from a live object; the engine keeps any id.
        Value::Signal(_) => engine_decoded(value)?,
        Value::Dictionary(d) => dictionary(d)?,
        Value::Array(a) => array(a)?,
        Value::Vector2(_)
        | Value::Vector2i(_)
        | Value::Rect2(_)
        | Value::Rect2i(_)
        | Value::Vector3(_)
        | Value::Vector3i(_)
        | Value::Transform2D(_)
        | Value::Vector4(_)
        | Value::Vector4i(_)
        | Value::Plane(_)
        | Value::Quaternion(_)
        | Value::Aabb(_)
        | Value::Basis(_)
        | Value::Transform3D(_)
        | Value::Projection(_)
        | Value::Color(_) => math(value),
        Value::PackedByteArray(_)
        | Value::PackedInt32Array(_)
        | Value::PackedInt64Array(_)
        | Value::PackedFloat32Array(_)
        | Value::PackedFloat64Array(_)
        | Value::PackedStringArray(_)
        | Value::PackedVector2Array(_)
        | Value::PackedVector3Array(_)
        | Value::PackedColorArray(_)
        | Value::PackedVector4Array(_) => packed_array(value),
    })
}

/// A math type (vectors, Rect2, Transform2D, Plane, Quaternion, AABB, Basis, Transform3D,
/// Projection, Color) in this build's single precision, made of its components: the math
/// types' memory is their components in wire order (see `Value`). (A Plane so, not by
/// `Plane::new`, which would insist on a unit normal.)
fn math(value: &Value) -> Variant {
    macro_rules! made {
        (reals, $gdext:ident, $n:literal, $c:ident) => {
            from_components::<$gdext, $n>($c.to_f32())
        };
        (ints, $gdext:ident, $n:literal, $c:ident) => {
            from_int_components::<$gdext, $n>(*$c)
        };
        (color, $gdext:ident, $n:literal, $c:ident) => {
            from_components::<$gdext, $n>(*$c)
        };
    }
    macro_rules! math_by_type {
        (
            inline: [$(($_ie:ident, $iw:ident, $ig:ident, $ik:ident, $in:literal)),* $(,)?],
            boxed: [$(($_be:ident, $bw:ident, $bg:ident, $bk:ident, $bn:literal)),* $(,)?] $(,)?
        ) => {
            match value {
                $(Value::$iw(c) => made!($ik, $ig, $in, c).to_variant(),)*
                $(Value::$bw(c) => made!($bk, $bg, $bn, c).to_variant(),)*
                other => unreachable!("{} is no math type", other.variant_type()),
            }
        };
    }
    math_types!(math_by_type! {})
}

/// A single-precision math value of a type the value model boxes (Transform2D, AABB,
/// Basis, Transform3D, Projection), made straight from its components in wire order (as
/// many as `t` has); `None` for another type or another count.
#[inline(always)]
pub fn boxed_math(t: WireType, components: &[f32]) -> Option<Variant> {
    macro_rules! boxed_by_type {
        (
            inline: [$(($_i:ident, $($_it:tt)*)),* $(,)?],
            boxed: [$(($_b:ident, $wire:ident, $gdext:ident, reals, $n:literal)),* $(,)?] $(,)?
        ) => {
            Some(match t {
                $(WireType::$wire => from_slice::<$gdext, $n>(components)?.to_variant(),)*
                _ => return None,
            })
        };
    }
    math_types!(boxed_by_type! {})
}

/// [`from_components`] of exactly `N` components.
fn from_slice<T: Copy, const N: usize>(components: &[f32]) -> Option<T> {
    Some(from_components::<T, N>(components.try_into().ok()?))
}

/// A packed array.
fn packed_array(value: &Value) -> Variant {
    match value {
        Value::PackedByteArray(bytes) => PackedByteArray::from(bytes.as_slice()).to_variant(),
        Value::PackedInt32Array(v) => PackedInt32Array::from(v.as_slice()).to_variant(),
        Value::PackedInt64Array(v) => PackedInt64Array::from(v.as_slice()).to_variant(),
        Value::PackedFloat32Array(v) => PackedFloat32Array::from(v.as_slice()).to_variant(),
        Value::PackedFloat64Array(v) => PackedFloat64Array::from(v.as_slice()).to_variant(),
        Value::PackedStringArray(v) => v
            .iter()
            .map(|s| gstring(s))
            .collect::<PackedStringArray>()
            .to_variant(),
        Value::PackedVector2Array(v) => packed(v, from_components::<Vector2, 2>)
            .collect::<PackedVector2Array>()
            .to_variant(),
        Value::PackedVector3Array(v) => packed(v, from_components::<Vector3, 3>)
            .collect::<PackedVector3Array>()
            .to_variant(),
        Value::PackedColorArray(v) => v
            .iter()
            .map(|&[r, g, b, a]| Color { r, g, b, a })
            .collect::<PackedColorArray>()
            .to_variant(),
        Value::PackedVector4Array(v) => packed(v, from_components::<Vector4, 4>)
            .collect::<PackedVector4Array>()
            .to_variant(),
        other => unreachable!("{} is no packed array", other.variant_type()),
    }
}

fn object(object: &WireObject) -> Result<Variant, ToVariantError> {
    match object {
        // The engine's null object is a Variant of type OBJECT, which the binding cannot
        // make; the engine makes it from the same bytes.
        WireObject::Null => engine_decoded(&Value::Object(WireObject::Id(0))),
        WireObject::Id(id) => {
            let mut placeholder = EncodedObjectAsId::new_gd();
            placeholder.set_object_id(*id);
            Ok(placeholder.to_variant())
        }
        WireObject::Full(object) => full_object(&object.class, &object.properties),
    }
}

/// Instantiates `class` and sets its properties in order, as `decode_variant` does.
fn full_object(class: &str, properties: &[(String, Value)]) -> Result<Variant, ToVariantError> {
    let db = ClassDb::singleton();
    let class_name = string_name(class);
    if !db.can_instantiate(&class_name) {
        return Err(ToVariantError::NotInstantiable(class.to_owned()));
    }
    // A RefCounted comes back referenced by this Variant, so script setters run while the
    // properties are set cannot free it (the engine guards against the same).
    let instance = db.instantiate(&class_name);
    let mut object = instance
        .try_to::<Gd<Object>>()
        .map_err(|_| ToVariantError::InstantiationFailed(class.to_owned()))?;
    for (name, value) in properties {
        let value = match value {
            Value::String(path) if name == SCRIPT_PROPERTY => load_script(path)?.to_variant(),
            other => variant(other)?,
        };
        object.set(&string_name(name), &value);
    }
    Ok(instance)
}

fn array(a: &Array) -> Result<Variant, ToVariantError> {
    let mut array = typed_array(&element_spec(&a.element_type)?);
    for item in &a.items {
        // A typed array checks (and converts) the item, as in the engine.
        array.push(&variant(item)?);
    }
    Ok(array.to_variant())
}

fn dictionary(d: &Dictionary) -> Result<Variant, ToVariantError> {
    let mut dictionary =
        typed_dictionary(&element_spec(&d.key_type)?, &element_spec(&d.value_type)?);
    for (key, value) in &d.entries {
        // `set` is the engine's `dict[key] = value`: the key is checked, the value is not.
        dictionary.set(&variant(key)?, &variant(value)?);
    }
    Ok(dictionary.to_variant())
}

/// The element type `_decode_container_type` gives. The codec has already put
/// `EncodedObjectAsID` where objects are not allowed, so a script here is to be loaded.
pub fn element_spec(t: &ContainerType) -> Result<ElementSpec, ToVariantError> {
    Ok(match t {
        ContainerType::Untyped => ElementSpec::untyped(),
        ContainerType::Builtin(t) => ElementSpec::builtin(VariantType::from_ord(t.id() as i32)),
        ContainerType::ClassName(class) => ElementSpec {
            variant_type: VariantType::OBJECT,
            class_name: string_name(class),
            script: Variant::nil(),
        },
        ContainerType::Script(path) => {
            let script = load_script(path)?;
            ElementSpec {
                variant_type: VariantType::OBJECT,
                class_name: script.get_instance_base_type(),
                script: script.to_variant(),
            }
        }
    })
}

/// The Script at a `res://` path the codec has checked, loaded as the engine loads it.
fn load_script(path: &str) -> Result<Gd<Script>, ToVariantError> {
    let mut loader = ResourceLoader::singleton();
    let missing = || ToVariantError::NoScript(path.to_owned());
    if !loader.exists_ex(path).type_hint("Script").done() {
        return Err(missing());
    }
    loader
        .load_ex(path)
        .type_hint("Script")
        .done()
        .and_then(|resource| resource.try_cast::<Script>().ok())
        .ok_or_else(missing)
}

/// What the engine's own `bytes_to_var` makes of `value`, for the few values the binding
/// cannot construct (a Signal of any object id, a null object, a NodePath).
fn engine_decoded(value: &Value) -> Result<Variant, ToVariantError> {
    // The engine drops one leading U+FEFF of every text it reads: a name that starts with
    // one gets one more, which the engine takes off again.
    let guarded = |text: &str| {
        if starts_with_bom(text) {
            format!("\u{FEFF}{text}")
        } else {
            text.to_owned()
        }
    };
    let guarded_value = match value {
        Value::Signal(signal) => Value::Signal(WireSignal {
            name: guarded(&signal.name),
            object_id: signal.object_id,
        }),
        Value::NodePath(path) => Value::NodePath(NodePath::new(
            path.names().map(guarded),
            path.subnames().map(guarded),
            path.is_absolute(),
        )),
        other => other.clone(),
    };
    let bytes =
        encode(&guarded_value, &EncodeOptions::default()).map_err(ToVariantError::Reencode)?;
    Ok(bytes_to_var(&PackedByteArray::from(bytes.as_slice())))
}

/// A gdext math value made of its components in wire order, which is its memory layout
/// (the codec's `Value` says so for every math type): gdext's math types are `repr(C)`
/// structs of `N` `f32`s in this build.
fn from_components<T: Copy, const N: usize>(components: [f32; N]) -> T {
    const { assert!(std::mem::size_of::<T>() == N * std::mem::size_of::<f32>()) };
    // SAFETY: `T` is a `repr(C)` struct of exactly `N` `f32`s (size checked above), for
    // which any bits are a value.
    unsafe { std::mem::transmute_copy(&components) }
}

/// [`from_components`] of 32-bit int components (the int vectors, Rect2i): gdext's types
/// for them are `repr(C)` structs of `N` `i32`s.
fn from_int_components<T: Copy, const N: usize>(components: [i32; N]) -> T {
    const { assert!(std::mem::size_of::<T>() == N * std::mem::size_of::<i32>()) };
    // SAFETY: `T` is a `repr(C)` struct of exactly `N` `i32`s (size checked above), for
    // which any bits are a value.
    unsafe { std::mem::transmute_copy(&components) }
}

/// Packed vectors in this build's single precision (converted as the engine converts a
/// double-precision payload).
fn packed<'a, const N: usize, T: 'a>(
    v: &'a PackedReals<N>,
    make: fn([f32; N]) -> T,
) -> Box<dyn Iterator<Item = T> + 'a> {
    match v {
        PackedReals::Single(items) => Box::new(items.iter().map(move |&p| make(p))),
        PackedReals::Double(items) => {
            Box::new(items.iter().map(move |&p| make(Reals::Double(p).to_f32())))
        }
    }
}

//! Codec `Value` → Godot `Variant`, building what the engine's `decode_variant`
//! (core/io/marshalls.cpp) builds: `EncodedObjectAsID` for object ids, instantiated objects
//! for full ones (with `allow_objects`), typed containers filled through the engine's own
//! typed `push_back` / `dict[key] = value`.
//!
//! Runs on the calling thread: it creates Godot objects for that thread.

use crate::engine::string::{gstring, starts_with_bom, string_name};
use godot::builtin::{
    real, Aabb, Basis, Callable, Color, GString, PackedArray, PackedByteArray, Plane, Projection,
    Quaternion, Rect2, Rect2i, Rid, Transform2D, Transform3D, Variant, VariantType, Vector2,
    Vector2i, Vector3, Vector3i, Vector4, Vector4i,
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
use crate::engine::packed_types::packed_types;
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
    // The patterns of the math types' and the packed-array types' values.
    macro_rules! math_value {
        (
            inline: [$(($_ie:ident, $inline:ident, $($_i:tt)*)),* $(,)?],
            boxed: [$(($_be:ident, $boxed:ident, $($_b:tt)*)),* $(,)?] $(,)?
        ) => {
            $(Value::$inline(_))|* $(| Value::$boxed(_))*
        };
    }
    macro_rules! packed_value {
        ([$(($_engine:ident, $name:ident, $($_row:tt)*)),* $(,)?]) => {
            $(Value::$name(_))|*
        };
    }
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
        math_types!(math_value! {}) => math(value),
        packed_types!(packed_value! {}) => packed_array(value),
    })
}

/// A math type (vectors, Rect2, Transform2D, Plane, Quaternion, AABB, Basis, Transform3D,
/// Projection, Color) in this build's precision (`real_t`), made of its components: the math
/// types' memory is their components in wire order (see `Value`). (A Plane so, not by
/// `Plane::new`, which would insist on a unit normal.)
fn math(value: &Value) -> Variant {
    macro_rules! made {
        (reals, $gdext:ident, $n:literal, $c:ident) => {
            from_components::<$gdext, real, $n>(to_reals($c))
        };
        (ints, $gdext:ident, $n:literal, $c:ident) => {
            from_components::<$gdext, i32, $n>(*$c)
        };
        (color, $gdext:ident, $n:literal, $c:ident) => {
            from_components::<$gdext, f32, $n>(*$c)
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

/// A math value of a type the value model boxes (Transform2D, AABB, Basis, Transform3D,
/// Projection), made straight from its single-precision components in wire order (as many
/// as `t` has) in this build's precision; `None` for another type or another count.
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

/// [`from_components`] of exactly `N` single-precision components, as `real_t`s.
fn from_slice<T: Copy, const N: usize>(components: &[f32]) -> Option<T> {
    let components: [f32; N] = components.try_into().ok()?;
    Some(from_components::<T, real, N>(components.map(real::from)))
}

/// Reals in this build's precision (`real_t`): widened exactly, or narrowed as the engine
/// narrows a double-precision payload.
fn to_reals<const N: usize>(reals: &Reals<N>) -> [real; N] {
    match reals {
        Reals::Single(v) => v.map(real::from),
        #[allow(clippy::unnecessary_cast)] // `real` is f64 in a double-precision build
        Reals::Double(v) => v.map(|x| x as real),
    }
}

/// A packed array.
fn packed_array(value: &Value) -> Variant {
    macro_rules! made {
        (plain $_method:ident, $element:ty, $v:ident) => {
            PackedArray::<$element>::from($v.as_slice())
        };
        (strings, $element:ty, $v:ident) => {
            $v.iter()
                .map(|s| gstring(s))
                .collect::<PackedArray<$element>>()
        };
        (vectors $n:literal, $element:ty, $v:ident) => {
            packed($v, from_components::<$element, real, $n>).collect::<PackedArray<$element>>()
        };
        (colors, $element:ty, $v:ident) => {
            $v.iter()
                .map(|&c| from_components::<$element, f32, 4>(c))
                .collect::<PackedArray<$element>>()
        };
    }
    macro_rules! packed_by_type {
        ([$(($_engine:ident, $name:ident, $element:ty, $kind:ident $($arg:tt)?)),* $(,)?]) => {
            match value {
                $(Value::$name(v) => made!($kind $($arg)?, $element, v).to_variant(),)*
                other => unreachable!("{} is no packed array", other.variant_type()),
            }
        };
    }
    packed_types!(packed_by_type! {})
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
/// structs of `N` `real_t`s (`C` is gdext's `real`), of `N` `i32`s (the int vectors,
/// Rect2i), Color of four `f32`s.
fn from_components<T: Copy, C: Copy, const N: usize>(components: [C; N]) -> T {
    const { assert!(std::mem::size_of::<T>() == N * std::mem::size_of::<C>()) };
    // SAFETY: `T` is a `repr(C)` struct of exactly `N` `C`s (size checked above), floats or
    // ints, for which any bits are a value.
    unsafe { std::mem::transmute_copy(&components) }
}

/// Packed vectors in this build's precision (converted as the engine converts a payload
/// of the other precision).
fn packed<'a, const N: usize, T: 'a>(
    v: &'a PackedReals<N>,
    make: fn([real; N]) -> T,
) -> Box<dyn Iterator<Item = T> + 'a> {
    match v {
        PackedReals::Single(items) => Box::new(
            items
                .iter()
                .map(move |&p| make(to_reals(&Reals::Single(p)))),
        ),
        PackedReals::Double(items) => Box::new(
            items
                .iter()
                .map(move |&p| make(to_reals(&Reals::Double(p)))),
        ),
    }
}

//! Godot `Variant` → codec `Value`, making the choices the engine's `encode_variant`
//! (core/io/marshalls.cpp) makes: what an object becomes in id and in full mode, what a
//! typed container's element type is written as, and where nesting stops.
//!
//! Runs on the calling thread: it reads Godot objects, which belong to that thread.

use godot::builtin::{
    Aabb, AnyArray, AnyDictionary, Basis, Color, GString, NodePath as GodotNodePath,
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array, Plane, Projection, Quaternion, Rect2, Rect2i, Rid, Signal, StringName,
    Transform2D, Transform3D, Variant, VariantType, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use godot::classes::{ClassDb, Object, Resource};
use godot::global::Error;
use godot::obj::{EngineBitfield, Gd, Singleton};
use godot::register::info::PropertyUsageFlags;
use godot_variant_codec::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object as WireObject, PackedReals,
    Reals, Signal as WireSignal, Value, VariantType as WireType, ENCODED_OBJECT_AS_ID,
};

use crate::stack_room;

/// The one property the engine writes as a path instead of its value.
const SCRIPT_PROPERTY: &str = "script";
const RESOURCE_PREFIX: &str = "res://";

/// How to convert: the encoder's mode and depth limit.
#[derive(Debug, Clone, Copy)]
pub struct ToValue {
    /// Objects whole (`var_to_bytes_with_objects`) rather than as instance ids.
    pub full_objects: bool,
    /// Deepest nesting converted; deeper fails as the engine's encoder does, which is
    /// also what stops a cyclic Array or Dictionary.
    pub max_depth: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at depth {depth}")]
pub struct ToValueError {
    pub depth: usize,
    pub kind: ToValueErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToValueErrorKind {
    #[error("nesting deeper than {0} (a cyclic Array or Dictionary?)")]
    TooDeep(usize),
    #[error("class {0} cannot be instantiated, so its objects cannot be encoded whole")]
    NotInstantiable(String),
    #[error("script {0:?} has no res:// path")]
    ScriptWithoutPath(String),
    /// The engine writes such strings (lone surrogates, code points past U+10FFFF) as
    /// bytes that are not UTF-8, which the codec's `String`s cannot hold.
    #[error("a {0} holds characters that UTF-8 cannot represent")]
    NotUnicode(&'static str),
}

impl ToValueError {
    /// The `Error` the engine's `encode_variant` returns in the same case
    /// (`ERR_INVALID_DATA` for a string the codec cannot hold, which the engine writes).
    pub fn godot_error(&self) -> Error {
        match self.kind {
            ToValueErrorKind::TooDeep(_) => Error::ERR_OUT_OF_MEMORY,
            ToValueErrorKind::NotInstantiable(_) => Error::ERR_INVALID_PARAMETER,
            ToValueErrorKind::ScriptWithoutPath(_) => Error::ERR_UNAVAILABLE,
            ToValueErrorKind::NotUnicode(_) => Error::ERR_INVALID_DATA,
        }
    }
}

impl ToValue {
    pub fn value(&self, v: &Variant) -> Result<Value, ToValueError> {
        self.at(v, 0)
    }

    fn at(&self, v: &Variant, depth: usize) -> Result<Value, ToValueError> {
        if depth > self.max_depth {
            return Err(ToValueError {
                depth,
                kind: ToValueErrorKind::TooDeep(self.max_depth),
            });
        }
        stack_room::step(|| self.convert(v, depth))
    }

    fn convert(&self, v: &Variant, depth: usize) -> Result<Value, ToValueError> {
        let fail = |kind| ToValueError { depth, kind };
        // Each arm reads the type `get_type()` reported, so `to()` cannot fail.
        Ok(match v.get_type() {
            VariantType::NIL => Value::Nil,
            VariantType::BOOL => Value::Bool(v.to()),
            VariantType::INT => Value::Int(v.to()),
            VariantType::FLOAT => Value::Float(v.to()),
            VariantType::STRING => Value::String(utf8(&v.to(), "String").map_err(fail)?),
            VariantType::VECTOR2 => {
                let p: Vector2 = v.to();
                Value::Vector2(Reals::Single([p.x, p.y]))
            }
            VariantType::VECTOR2I => {
                let p: Vector2i = v.to();
                Value::Vector2i([p.x, p.y])
            }
            VariantType::RECT2 => {
                let r: Rect2 = v.to();
                Value::Rect2(Reals::Single([
                    r.position.x,
                    r.position.y,
                    r.size.x,
                    r.size.y,
                ]))
            }
            VariantType::RECT2I => {
                let r: Rect2i = v.to();
                Value::Rect2i([r.position.x, r.position.y, r.size.x, r.size.y])
            }
            VariantType::VECTOR3 => {
                let p: Vector3 = v.to();
                Value::Vector3(Reals::Single([p.x, p.y, p.z]))
            }
            VariantType::VECTOR3I => {
                let p: Vector3i = v.to();
                Value::Vector3i([p.x, p.y, p.z])
            }
            VariantType::TRANSFORM2D => {
                let t: Transform2D = v.to();
                Value::Transform2D(Box::new(Reals::Single([
                    t.a.x, t.a.y, t.b.x, t.b.y, t.origin.x, t.origin.y,
                ])))
            }
            VariantType::VECTOR4 => {
                let p: Vector4 = v.to();
                Value::Vector4(Reals::Single([p.x, p.y, p.z, p.w]))
            }
            VariantType::VECTOR4I => {
                let p: Vector4i = v.to();
                Value::Vector4i([p.x, p.y, p.z, p.w])
            }
            VariantType::PLANE => {
                let p: Plane = v.to();
                Value::Plane(Reals::Single([p.normal.x, p.normal.y, p.normal.z, p.d]))
            }
            VariantType::QUATERNION => {
                let q: Quaternion = v.to();
                Value::Quaternion(Reals::Single([q.x, q.y, q.z, q.w]))
            }
            VariantType::AABB => {
                let b: Aabb = v.to();
                let (p, s) = (b.position, b.size);
                Value::Aabb(Box::new(Reals::Single([p.x, p.y, p.z, s.x, s.y, s.z])))
            }
            VariantType::BASIS => {
                let b: Basis = v.to();
                Value::Basis(Box::new(Reals::Single(basis_rows(&b))))
            }
            VariantType::TRANSFORM3D => {
                let t: Transform3D = v.to();
                let r = basis_rows(&t.basis);
                let o = t.origin;
                Value::Transform3D(Box::new(Reals::Single([
                    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], o.x, o.y, o.z,
                ])))
            }
            VariantType::PROJECTION => {
                let p: Projection = v.to();
                let mut columns = [0.0; 16];
                for (i, c) in p.cols.iter().enumerate() {
                    columns[i * 4..i * 4 + 4].copy_from_slice(&[c.x, c.y, c.z, c.w]);
                }
                Value::Projection(Box::new(Reals::Single(columns)))
            }
            VariantType::COLOR => {
                let c: Color = v.to();
                Value::Color([c.r, c.g, c.b, c.a])
            }
            VariantType::STRING_NAME => {
                let name: StringName = v.to();
                Value::StringName(utf8(&GString::from(&name), "StringName").map_err(fail)?)
            }
            VariantType::NODE_PATH => Value::NodePath(Box::new(node_path(&v.to()).map_err(fail)?)),
            VariantType::RID => Value::Rid(v.to::<Rid>().to_u64()),
            VariantType::OBJECT => Value::Object(self.object(v, depth)?),
            VariantType::CALLABLE => Value::Callable,
            VariantType::SIGNAL => {
                let signal: Signal = v.to();
                Value::Signal(WireSignal {
                    name: utf8(&GString::from(&signal.name()), "Signal name").map_err(fail)?,
                    // The engine writes the id even when its object is gone.
                    object_id: signal.object_id().map_or(0, |id| id.to_i64() as u64),
                })
            }
            VariantType::DICTIONARY => Value::Dictionary(Box::new(self.dictionary(v, depth)?)),
            VariantType::ARRAY => Value::Array(Box::new(self.array(v, depth)?)),
            VariantType::PACKED_BYTE_ARRAY => {
                Value::PackedByteArray(v.to::<PackedByteArray>().to_vec())
            }
            VariantType::PACKED_INT32_ARRAY => {
                Value::PackedInt32Array(v.to::<PackedInt32Array>().to_vec())
            }
            VariantType::PACKED_INT64_ARRAY => {
                Value::PackedInt64Array(v.to::<PackedInt64Array>().to_vec())
            }
            VariantType::PACKED_FLOAT32_ARRAY => {
                Value::PackedFloat32Array(v.to::<PackedFloat32Array>().to_vec())
            }
            VariantType::PACKED_FLOAT64_ARRAY => {
                Value::PackedFloat64Array(v.to::<PackedFloat64Array>().to_vec())
            }
            VariantType::PACKED_STRING_ARRAY => {
                Value::PackedStringArray(strings(&v.to()).map_err(fail)?)
            }
            VariantType::PACKED_VECTOR2_ARRAY => {
                let a: PackedVector2Array = v.to();
                Value::PackedVector2Array(PackedReals::Single(
                    a.as_slice().iter().map(|p| [p.x, p.y]).collect(),
                ))
            }
            VariantType::PACKED_VECTOR3_ARRAY => {
                let a: PackedVector3Array = v.to();
                Value::PackedVector3Array(PackedReals::Single(
                    a.as_slice().iter().map(|p| [p.x, p.y, p.z]).collect(),
                ))
            }
            VariantType::PACKED_COLOR_ARRAY => {
                let a: PackedColorArray = v.to();
                Value::PackedColorArray(a.as_slice().iter().map(|c| [c.r, c.g, c.b, c.a]).collect())
            }
            VariantType::PACKED_VECTOR4_ARRAY => {
                let a: PackedVector4Array = v.to();
                Value::PackedVector4Array(PackedReals::Single(
                    a.as_slice().iter().map(|p| [p.x, p.y, p.z, p.w]).collect(),
                ))
            }
            // A type newer than this build: the nearest the format has is nil.
            _ => Value::Nil,
        })
    }

    fn object(&self, v: &Variant, depth: usize) -> Result<WireObject, ToValueError> {
        // A freed object fails to convert; the engine writes it, like null, as nil.
        let Ok(object) = v.try_to::<Gd<Object>>() else {
            return Ok(WireObject::Null);
        };
        if !self.full_objects {
            // Ids are 64-bit patterns; gdext hands them out as i64.
            return Ok(WireObject::Id(object.instance_id().to_i64() as u64));
        }
        let fail = |kind| ToValueError { depth, kind };
        let class = object.get_class();
        let class_name = utf8(&class, "class name").map_err(fail)?;
        if !ClassDb::singleton().can_instantiate(&StringName::from(&class)) {
            return Err(fail(ToValueErrorKind::NotInstantiable(class_name)));
        }
        // The stored properties, in the object's order, as `get_property_list` gives them.
        let storage = PropertyUsageFlags::STORAGE.ord() as i64;
        let mut properties = Vec::new();
        for info in object.get_property_list().iter_shared() {
            let usage = info.get("usage").and_then(|u| u.try_to::<i64>().ok());
            if usage.unwrap_or(0) & storage == 0 {
                continue;
            }
            let name: GString = info
                .get("name")
                .and_then(|n| n.try_to().ok())
                .unwrap_or_default();
            let name = utf8(&name, "property name").map_err(fail)?;
            let value = if name == SCRIPT_PROPERTY {
                script_path(&object).map_err(fail)?
            } else {
                self.at(&object.get(name.as_str()), depth + 1)?
            };
            properties.push((name, value));
        }
        Ok(WireObject::Full(Box::new(FullObject {
            class: class_name,
            properties,
        })))
    }

    fn array(&self, v: &Variant, depth: usize) -> Result<Array, ToValueError> {
        let element_type = self
            .container_type(v, ARRAY_TYPE_QUERIES)
            .map_err(|kind| ToValueError { depth, kind })?;
        let items = v
            .to::<AnyArray>()
            .iter_shared()
            .map(|item| self.at(&item, depth + 1))
            .collect::<Result<_, _>>()?;
        Ok(Array {
            element_type,
            items,
        })
    }

    fn dictionary(&self, v: &Variant, depth: usize) -> Result<Dictionary, ToValueError> {
        let fail = |kind| ToValueError { depth, kind };
        // Most dictionaries are untyped: one question instead of two then.
        let (key_type, value_type) = if v.call("is_typed", &[]).booleanize() {
            (
                self.container_type(v, KEY_TYPE_QUERIES).map_err(fail)?,
                self.container_type(v, VALUE_TYPE_QUERIES).map_err(fail)?,
            )
        } else {
            (ContainerType::Untyped, ContainerType::Untyped)
        };
        let entries = v
            .to::<AnyDictionary>()
            .iter_shared()
            .map(|(k, v)| Ok((self.at(&k, depth + 1)?, self.at(&v, depth + 1)?)))
            .collect::<Result<_, _>>()?;
        Ok(Dictionary {
            key_type,
            value_type,
            entries,
        })
    }

    /// The element type of the Array or Dictionary in `v` as `_encode_container_type`
    /// writes it: in id mode every object type as `EncodedObjectAsID`; in full mode a
    /// script type as the script's path.
    ///
    /// It asks the engine by method name: gdext 0.5.5's `element_type()` registers the class
    /// name so that gdext's own later use of that engine class panics.
    fn container_type(
        &self,
        v: &Variant,
        queries: TypeQueries,
    ) -> Result<ContainerType, ToValueErrorKind> {
        let [is_typed, builtin, class_name, script] = queries;
        if !v.call(is_typed, &[]).booleanize() {
            return Ok(ContainerType::Untyped);
        }
        let builtin = v.call(builtin, &[]).try_to::<i64>().unwrap_or(0);
        let class_name: StringName = v.call(class_name, &[]).try_to().unwrap_or_default();
        let script = v.call(script, &[]).try_to::<Gd<Resource>>().ok();
        let placeholder = || ContainerType::ClassName(ENCODED_OBJECT_AS_ID.to_owned());
        Ok(match script {
            Some(script) if self.full_objects => {
                ContainerType::Script(utf8(&script.get_path(), "script path")?)
            }
            Some(_) => placeholder(),
            None if !class_name.is_empty() && self.full_objects => {
                ContainerType::ClassName(utf8(&GString::from(&class_name), "class name")?)
            }
            None if !class_name.is_empty() => placeholder(),
            // A builtin type; a Nil-typed half of a dictionary is untyped.
            None => u32::try_from(builtin)
                .ok()
                .and_then(WireType::from_id)
                .filter(|&t| t != WireType::Nil)
                .map_or(ContainerType::Untyped, ContainerType::Builtin),
        })
    }
}

/// The names of a container's `is_typed…`, `get_typed…_builtin`, `…_class_name` and
/// `…_script` methods.
type TypeQueries = [&'static str; 4];
const ARRAY_TYPE_QUERIES: TypeQueries = [
    "is_typed",
    "get_typed_builtin",
    "get_typed_class_name",
    "get_typed_script",
];
const KEY_TYPE_QUERIES: TypeQueries = [
    "is_typed_key",
    "get_typed_key_builtin",
    "get_typed_key_class_name",
    "get_typed_key_script",
];
const VALUE_TYPE_QUERIES: TypeQueries = [
    "is_typed_value",
    "get_typed_value_builtin",
    "get_typed_value_class_name",
    "get_typed_value_script",
];

/// The `script` property as the engine writes it: the script's `res://` path, or nil.
fn script_path(object: &Gd<Object>) -> Result<Value, ToValueErrorKind> {
    let Ok(script) = object.get(SCRIPT_PROPERTY).try_to::<Gd<Resource>>() else {
        return Ok(Value::Nil);
    };
    let path = utf8(&script.get_path(), "script path")?;
    if path.starts_with(RESOURCE_PREFIX) {
        Ok(Value::String(path))
    } else {
        Err(ToValueErrorKind::ScriptWithoutPath(path))
    }
}

/// The bytes the engine writes for a string (`String::utf8()`), when they are UTF-8.
fn utf8(s: &GString, what: &'static str) -> Result<String, ToValueErrorKind> {
    String::from_utf8(s.to_utf8_buffer().to_vec()).map_err(|_| ToValueErrorKind::NotUnicode(what))
}

fn strings(array: &PackedStringArray) -> Result<Vec<String>, ToValueErrorKind> {
    array
        .as_slice()
        .iter()
        .map(|s| utf8(s, "PackedStringArray"))
        .collect()
}

fn node_path(path: &GodotNodePath) -> Result<NodePath, ToValueErrorKind> {
    let name = |n: StringName| utf8(&GString::from(&n), "NodePath");
    Ok(NodePath {
        names: (0..path.get_name_count())
            .map(|i| name(path.get_name(i)))
            .collect::<Result<_, _>>()?,
        subnames: (0..path.get_subname_count())
            .map(|i| name(path.get_subname(i)))
            .collect::<Result<_, _>>()?,
        absolute: path.is_absolute(),
    })
}

/// A basis as the wire has it: row by row.
fn basis_rows(b: &Basis) -> [f32; 9] {
    let [x, y, z] = b.rows;
    [x.x, x.y, x.z, y.x, y.y, y.z, z.x, z.y, z.z]
}

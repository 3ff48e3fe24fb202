//! Bytes → Value, accepting and rejecting exactly what the engine's `decode_variant` does.

use crate::encode::{check_script_path, NODE_PATH_NEW_FORMAT, RESOURCE_PREFIX, SCRIPT_PROPERTY};
use crate::error::{DecodeError, DecodeErrorKind as Kind};
use crate::header::{ContainerKind, ELEMENT_KIND_SHIFT, FLAG_64, TYPE_MASK, VALUE_KIND_SHIFT};
use crate::keys::DictionaryBuilder;
use crate::typed::coerce;
use crate::types::{Generation, VariantType};
use crate::value::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Reals, Signal,
    Value, ENCODED_OBJECT_AS_ID,
};
use crate::wire::{padding, text_until_nul, Plain, Reader};
use crate::{nested, DecodeOptions};

/// The obsolete NodePath flag: one more subname (a property) follows the subnames.
const NODE_PATH_OBSOLETE_PROPERTY: u32 = 2;
const NODE_PATH_ABSOLUTE: u32 = 1;
/// Array and Dictionary counts: the top bit is an old "shared" flag, ignored.
const COUNT_MASK: u32 = 0x7FFF_FFFF;
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

pub(crate) struct Decoder<'a, 'o> {
    pub r: Reader<'a>,
    opts: &'o DecodeOptions,
    generation: Generation,
    /// Elements that may still be reserved ahead of decoding them. Every element takes at
    /// least 4 input bytes, so honest input never needs more than a quarter of its length
    /// in all; hostile counts at every nesting level cannot make reservations add up to
    /// more than that either.
    reservable: usize,
}

impl<'a, 'o> Decoder<'a, 'o> {
    pub fn new(r: Reader<'a>, opts: &'o DecodeOptions) -> Self {
        Decoder {
            reservable: r.remaining() / 4,
            r,
            opts,
            generation: Generation::GODOT_4,
        }
    }

    pub fn value(&mut self, depth: usize) -> Result<Value, DecodeError> {
        if depth > self.opts.max_depth {
            return Err(self.r.error(Kind::TooDeep(self.opts.max_depth)));
        }
        let header_at = self.r.consumed();
        let header: u32 = self.r.read("header")?;
        let wire_id = header & TYPE_MASK;
        let t = self
            .generation
            .type_of(wire_id)
            .ok_or_else(|| self.r.error_at(header_at, Kind::UnknownType(wire_id)))?;
        let wide = header & FLAG_64 != 0;
        // Only containers recurse; keeping everything else out of line keeps each level's
        // stack frame small (nesting reaches 1025 levels on threads with small stacks).
        match t {
            VariantType::Array | VariantType::Dictionary => {
                self.container(t, header, header_at, depth)
            }
            VariantType::Object if !wide => self.container(t, header, header_at, depth),
            _ => self.leaf(t, wide),
        }
    }

    /// A value holding values (Array, Dictionary, full Object), walked on `nested`'s stack.
    /// Out of line, so that `value`, which every element passes through, stays a small
    /// frame with little to save.
    #[inline(never)]
    fn container(
        &mut self,
        t: VariantType,
        header: u32,
        header_at: usize,
        depth: usize,
    ) -> Result<Value, DecodeError> {
        nested(|| {
            Ok(match t {
                VariantType::Array => Value::Array(Box::new(self.array(header, depth)?)),
                VariantType::Dictionary => {
                    Value::Dictionary(Box::new(self.dictionary(header, depth)?))
                }
                _ => Value::Object(self.full_object(header_at, depth)?),
            })
        })
    }

    /// A value that holds no other value.
    #[inline(never)]
    fn leaf(&mut self, t: VariantType, wide: bool) -> Result<Value, DecodeError> {
        use VariantType as T;
        Ok(match t {
            T::Nil => Value::Nil,
            T::Callable => Value::Callable,
            T::Bool => Value::Bool(self.r.read::<u32>("bool")? != 0),
            T::Int if wide => Value::Int(self.r.read("int")?),
            T::Int => Value::Int(self.r.read::<i32>("int")?.into()),
            T::Float if wide => Value::Float(self.r.read("float")?),
            T::Float => Value::Float(self.r.read::<f32>("float")?.into()),
            T::String => Value::String(self.string()?),
            T::StringName => Value::StringName(self.string()?),
            T::Vector2 => Value::Vector2(self.reals(wide, "Vector2")?),
            T::Rect2 => Value::Rect2(self.reals(wide, "Rect2")?),
            T::Vector3 => Value::Vector3(self.reals(wide, "Vector3")?),
            T::Transform2D => Value::Transform2D(Box::new(self.reals(wide, "Transform2D")?)),
            T::Vector4 => Value::Vector4(self.reals(wide, "Vector4")?),
            T::Plane => Value::Plane(self.reals(wide, "Plane")?),
            T::Quaternion => Value::Quaternion(self.reals(wide, "Quaternion")?),
            T::Aabb => Value::Aabb(Box::new(self.reals(wide, "AABB")?)),
            T::Basis => Value::Basis(Box::new(self.reals(wide, "Basis")?)),
            T::Transform3D => Value::Transform3D(Box::new(self.reals(wide, "Transform3D")?)),
            T::Projection => Value::Projection(Box::new(self.reals(wide, "Projection")?)),
            T::Vector2i => Value::Vector2i(self.r.read("Vector2i")?),
            T::Rect2i => Value::Rect2i(self.r.read("Rect2i")?),
            T::Vector3i => Value::Vector3i(self.r.read("Vector3i")?),
            T::Vector4i => Value::Vector4i(self.r.read("Vector4i")?),
            T::Color => Value::Color(self.r.read("Color")?),
            T::NodePath => Value::NodePath(Box::new(self.node_path()?)),
            T::Rid => Value::Rid(self.r.read("RID")?),
            T::Object => match self.r.read::<u64>("object id")? {
                0 => Value::Object(Object::Null),
                id => Value::Object(Object::Id(id)),
            },
            T::Signal => {
                let name = self.string()?;
                let object_id = self.r.read("Signal object id")?;
                Value::Signal(Signal { name, object_id })
            }
            T::Dictionary | T::Array => unreachable!("containers are decoded by `value`"),
            T::PackedByteArray => {
                let bytes: Vec<u8> = self.packed(t)?;
                // Counted like the engine, which does not check that the padding is there.
                self.r.skip_unchecked(padding(bytes.len()));
                Value::PackedByteArray(bytes)
            }
            T::PackedInt32Array => Value::PackedInt32Array(self.packed(t)?),
            T::PackedInt64Array => Value::PackedInt64Array(self.packed(t)?),
            T::PackedFloat32Array => Value::PackedFloat32Array(self.packed(t)?),
            T::PackedFloat64Array => Value::PackedFloat64Array(self.packed(t)?),
            T::PackedColorArray => Value::PackedColorArray(self.packed(t)?),
            T::PackedStringArray => Value::PackedStringArray(self.packed_strings()?),
            T::PackedVector2Array => Value::PackedVector2Array(self.packed_reals(t, wide)?),
            T::PackedVector3Array => Value::PackedVector3Array(self.packed_reals(t, wide)?),
            T::PackedVector4Array => Value::PackedVector4Array(self.packed_reals(t, wide)?),
        })
    }

    fn reals<const N: usize>(
        &mut self,
        wide: bool,
        what: &'static str,
    ) -> Result<Reals<N>, DecodeError> {
        Ok(if wide {
            Reals::Double(self.r.read(what)?)
        } else {
            Reals::Single(self.r.read(what)?)
        })
    }

    /// A length word, then UTF-8 bytes padded to 4. Like the engine, a leading BOM is
    /// dropped and the text ends at the first NUL; the rest must be valid UTF-8.
    fn string(&mut self) -> Result<String, DecodeError> {
        let start = self.r.consumed();
        let length: u32 = self.r.read("String length")?;
        let padded = (length as usize).checked_add(padding(length as usize));
        match padded {
            Some(padded) if length <= i32::MAX as u32 && padded <= self.r.remaining() => {
                let bytes = &self.r.take(padded, "String")?[..length as usize];
                let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
                text_until_nul(bytes)
                    .map(str::to_owned)
                    .ok_or_else(|| self.r.error_at(start, Kind::InvalidUtf8))
            }
            _ => Err(self.r.error_at(
                start,
                Kind::StringPastEnd {
                    length,
                    remaining: self.r.remaining(),
                },
            )),
        }
    }

    /// A count word for elements of `elem_size` bytes, checked against the remaining input
    /// before anything is allocated.
    fn packed_count(&mut self, t: VariantType, elem_size: usize) -> Result<usize, DecodeError> {
        let at = self.r.consumed();
        let count: u32 = self.r.read("count")?;
        let fits = count <= i32::MAX as u32 && (count as usize) * elem_size <= self.r.remaining();
        if !fits {
            return Err(self.r.error_at(
                at,
                Kind::CountPastEnd {
                    what: t,
                    count,
                    remaining: self.r.remaining(),
                },
            ));
        }
        Ok(count as usize)
    }

    fn packed<E: Plain>(&mut self, t: VariantType) -> Result<Vec<E>, DecodeError> {
        let count = self.packed_count(t, E::SIZE)?;
        self.r.read_plain_vec(count, t.name())
    }

    fn packed_reals<const N: usize>(
        &mut self,
        t: VariantType,
        wide: bool,
    ) -> Result<PackedReals<N>, DecodeError> {
        Ok(if wide {
            PackedReals::Double(self.packed(t)?)
        } else {
            PackedReals::Single(self.packed(t)?)
        })
    }

    fn packed_strings(&mut self) -> Result<Vec<String>, DecodeError> {
        // The engine loops over the count as a signed int: a negative count is an empty array.
        let count = self.r.read::<i32>("count")?.max(0);
        let mut strings = Vec::with_capacity(self.capacity_for(count as u32, 4));
        for _ in 0..count {
            strings.push(self.string()?);
        }
        Ok(strings)
    }

    /// Capacity to reserve for `count` items of at least `min_size` bytes each: never more
    /// than the remaining input could hold, whatever the count claims.
    fn capacity_for(&mut self, count: u32, min_size: usize) -> usize {
        let capacity = (count as usize)
            .min(self.r.remaining() / min_size)
            .min(self.reservable);
        self.reservable -= capacity;
        capacity
    }

    fn node_path(&mut self) -> Result<NodePath, DecodeError> {
        let at = self.r.consumed();
        let first: u32 = self.r.read("NodePath")?;
        if first & NODE_PATH_NEW_FORMAT == 0 {
            return Err(self.r.error_at(at, Kind::ObsoleteNodePath));
        }
        let [subname_count, flags]: [u32; 2] = self.r.read("NodePath")?;
        let name_count = first & !NODE_PATH_NEW_FORMAT;
        let subname_count =
            subname_count.wrapping_add(u32::from(flags & NODE_PATH_OBSOLETE_PROPERTY != 0));
        // The engine adds the counts in 32 bits; a wrapped total reads that many strings.
        let total = name_count.wrapping_add(subname_count);
        let mut path = NodePath {
            absolute: flags & NODE_PATH_ABSOLUTE != 0,
            ..NodePath::default()
        };
        for i in 0..total {
            let s = self.string()?;
            if i < name_count {
                path.names.push(s);
            } else {
                path.subnames.push(s);
            }
        }
        Ok(path)
    }

    #[inline(never)]
    fn full_object(&mut self, header_at: usize, depth: usize) -> Result<Object, DecodeError> {
        if !self.opts.allow_objects {
            return Err(self.r.error_at(header_at, Kind::ObjectsNotAllowed));
        }
        let class = self.string()?;
        if class.is_empty() {
            return Ok(Object::Null);
        }
        // A signed count in the engine: negative means no properties.
        let count = self.r.read::<i32>("property count")?.max(0);
        let mut properties = Vec::with_capacity(self.capacity_for(count as u32, 8));
        for _ in 0..count {
            let name = self.string()?;
            let value_at = self.r.consumed();
            let value = self.value(depth + 1)?;
            if name == SCRIPT_PROPERTY {
                check_script_value(&value).map_err(|kind| self.r.error_at(value_at, kind))?;
            }
            properties.push((name, value));
        }
        Ok(Object::Full(Box::new(FullObject { class, properties })))
    }

    /// A container's element (or key, value) type; untyped, the usual case, reads nothing.
    #[inline]
    fn container_type(&mut self, kind: ContainerKind) -> Result<ContainerType, DecodeError> {
        match kind {
            ContainerKind::Untyped => Ok(ContainerType::Untyped),
            typed => self.typed_container(typed),
        }
    }

    #[inline(never)]
    fn typed_container(&mut self, kind: ContainerKind) -> Result<ContainerType, DecodeError> {
        let at = self.r.consumed();
        let allow = self.opts.allow_objects;
        // Without objects, the engine types object containers as EncodedObjectAsID.
        let object_placeholder = || ContainerType::ClassName(ENCODED_OBJECT_AS_ID.to_owned());
        Ok(match kind {
            ContainerKind::Untyped => ContainerType::Untyped,
            ContainerKind::Builtin => {
                let id: u32 = self.r.read("container type")?;
                match VariantType::from_id(id) {
                    // The engine leaves a container typed as Nil untyped.
                    Some(VariantType::Nil) => ContainerType::Untyped,
                    Some(VariantType::Object) if !allow => object_placeholder(),
                    Some(t) => ContainerType::Builtin(t),
                    None => return Err(self.r.error_at(at, Kind::UnknownContainerType(id))),
                }
            }
            ContainerKind::ClassName => {
                let name = self.string()?;
                if allow {
                    ContainerType::ClassName(name)
                } else {
                    object_placeholder()
                }
            }
            ContainerKind::Script => {
                let path = self.string()?;
                if !allow {
                    object_placeholder()
                } else if check_script_path(&path).is_ok() && path.len() > RESOURCE_PREFIX.len() {
                    ContainerType::Script(path)
                } else {
                    return Err(self.r.error_at(at, Kind::InvalidScriptPath(path)));
                }
            }
        })
    }

    #[inline(never)]
    fn array(&mut self, header: u32, depth: usize) -> Result<Array, DecodeError> {
        let element_type =
            self.container_type(ContainerKind::from_header(header, ELEMENT_KIND_SHIFT))?;
        let count = self.r.read::<u32>("Array count")? & COUNT_MASK;
        let mut items = Vec::with_capacity(self.capacity_for(count, 4));
        for _ in 0..count {
            let item = self.value(depth + 1)?;
            // A typed array converts or drops what does not fit, as `Array::push_back` does.
            if let Some(item) = coerce(item, &element_type) {
                items.push(item);
            }
        }
        Ok(Array {
            element_type,
            items,
        })
    }

    #[inline(never)]
    fn dictionary(&mut self, header: u32, depth: usize) -> Result<Dictionary, DecodeError> {
        let key_type =
            self.container_type(ContainerKind::from_header(header, ELEMENT_KIND_SHIFT))?;
        let value_type =
            self.container_type(ContainerKind::from_header(header, VALUE_KIND_SHIFT))?;
        let count = self.r.read::<u32>("Dictionary count")? & COUNT_MASK;
        let mut entries = DictionaryBuilder::with_capacity(self.capacity_for(count, 8));
        for _ in 0..count {
            let key = self.value(depth + 1)?;
            let value = self.value(depth + 1)?;
            // `dict[key] = value`: the key is checked against the key type (converted or the
            // entry dropped), the value is stored as it is.
            if let Some(key) = coerce(key, &key_type) {
                entries.insert(key, value);
            }
        }
        Ok(Dictionary {
            key_type,
            value_type,
            entries: entries.finish(),
        })
    }
}

/// A full object's `script` property: nil, or a `res://` path.
fn check_script_value(value: &Value) -> Result<(), Kind> {
    match value {
        Value::Nil => Ok(()),
        Value::String(path)
            if check_script_path(path).is_ok() && path.len() > RESOURCE_PREFIX.len() =>
        {
            Ok(())
        }
        Value::String(path) => Err(Kind::InvalidScriptPath(path.clone())),
        other => Err(Kind::ScriptNotAPath(other.variant_type())),
    }
}

//! Value → bytes, exactly as the engine's `encode_variant` writes them.

use crate::error::{EncodeError, EncodeErrorKind};
use crate::header::{ContainerKind, ELEMENT_KIND_SHIFT, FLAG_64, VALUE_KIND_SHIFT};
use crate::types::VariantType;
use crate::value::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Reals, Value,
};
use crate::wire::{padding, Plain, Sink};
use crate::{nested, EncodeOptions, Precision};

/// NodePath's first word has its top bit set: the engine's marker of the current layout.
pub(crate) const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
const NODE_PATH_ABSOLUTE: u32 = 1;

/// The engine's lengths are `int`: anything longer cannot be written.
const MAX_LEN: usize = i32::MAX as usize;

pub(crate) struct Encoder<'o, S: Sink> {
    pub sink: S,
    opts: &'o EncodeOptions,
}

impl<'o, S: Sink> Encoder<'o, S> {
    pub fn new(sink: S, opts: &'o EncodeOptions) -> Self {
        Encoder { sink, opts }
    }

    fn error(&self, kind: EncodeErrorKind) -> EncodeError {
        EncodeError {
            offset: self.sink.position(),
            kind,
        }
    }

    fn header(&mut self, t: VariantType, flags: u32) {
        self.sink.put(t.id() | flags);
    }

    /// A length or count word, refusing what the engine's `int` cannot hold.
    fn length(&mut self, what: VariantType, len: usize) -> Result<(), EncodeError> {
        if len > MAX_LEN {
            return Err(self.error(EncodeErrorKind::TooLong { what, len }));
        }
        self.sink.put(len as u32);
        Ok(())
    }

    /// UTF-8 bytes with a length word, padded to 4 bytes.
    fn string(&mut self, s: &str) -> Result<(), EncodeError> {
        self.length(VariantType::String, s.len())?;
        self.sink.put_bytes(s.as_bytes());
        self.sink.put_zeros(padding(s.len()));
        Ok(())
    }

    fn precision_flag(&self) -> u32 {
        match self.opts.precision {
            Precision::Single => 0,
            Precision::Double => FLAG_64,
        }
    }

    /// `real_t` components in the precision of the engine being written for.
    fn reals<const N: usize>(&mut self, t: VariantType, v: &Reals<N>) {
        self.header(t, self.precision_flag());
        match self.opts.precision {
            Precision::Single => self.sink.put(v.to_f32()),
            Precision::Double => self.sink.put(v.to_f64()),
        }
    }

    fn packed_reals<const N: usize>(
        &mut self,
        t: VariantType,
        v: &PackedReals<N>,
    ) -> Result<(), EncodeError> {
        self.header(t, self.precision_flag());
        self.length(t, v.len())?;
        match (self.opts.precision, v) {
            (Precision::Single, PackedReals::Single(items)) => self.sink.put_slice(items),
            (Precision::Double, PackedReals::Double(items)) => self.sink.put_slice(items),
            (Precision::Single, PackedReals::Double(items)) => items
                .iter()
                .for_each(|x| self.sink.put(x.map(|c| c as f32))),
            (Precision::Double, PackedReals::Single(items)) => {
                items.iter().for_each(|x| self.sink.put(x.map(f64::from)))
            }
        }
        Ok(())
    }

    fn packed<T: Plain>(&mut self, t: VariantType, items: &[T]) -> Result<(), EncodeError> {
        self.header(t, 0);
        self.length(t, items.len())?;
        self.sink.put_slice(items);
        Ok(())
    }

    /// A container's element (or key, value) type; untyped, the usual case, writes nothing.
    #[inline]
    fn container_type(&mut self, t: &ContainerType) -> Result<(), EncodeError> {
        match t {
            ContainerType::Untyped => Ok(()),
            typed => self.typed_container(typed),
        }
    }

    #[inline(never)]
    fn typed_container(&mut self, t: &ContainerType) -> Result<(), EncodeError> {
        match t {
            ContainerType::Untyped => Ok(()),
            ContainerType::Builtin(b) => {
                self.sink.put(b.id());
                Ok(())
            }
            ContainerType::ClassName(name) => self.string(name),
            ContainerType::Script(path) => {
                check_script_path(path).map_err(|kind| self.error(kind))?;
                self.string(path)
            }
        }
    }

    pub fn value(&mut self, v: &Value, depth: usize) -> Result<(), EncodeError> {
        if depth > self.opts.max_depth {
            return Err(self.error(EncodeErrorKind::TooDeep(self.opts.max_depth)));
        }
        // Only containers recurse; keeping everything else out of line keeps each level's
        // stack frame small (nesting reaches 1025 levels on threads with small stacks).
        match v {
            Value::Dictionary(_) | Value::Array(_) | Value::Object(Object::Full(_)) => {
                self.container(v, depth)
            }
            leaf => self.leaf(leaf),
        }
    }

    /// A value holding values, walked on `nested`'s stack. Out of line, so that `value`,
    /// which every element passes through, stays a small frame with little to save.
    #[inline(never)]
    fn container(&mut self, v: &Value, depth: usize) -> Result<(), EncodeError> {
        nested(|| match v {
            Value::Dictionary(d) => self.dictionary(d, depth),
            Value::Array(a) => self.array(a, depth),
            Value::Object(Object::Full(full)) => self.full_object(full, depth),
            leaf => self.leaf(leaf),
        })
    }

    #[inline(never)]
    fn dictionary(&mut self, d: &Dictionary, depth: usize) -> Result<(), EncodeError> {
        let t = VariantType::Dictionary;
        let flags = ContainerKind::of(&d.key_type).bits(ELEMENT_KIND_SHIFT)
            | ContainerKind::of(&d.value_type).bits(VALUE_KIND_SHIFT);
        self.header(t, flags);
        self.container_type(&d.key_type)?;
        self.container_type(&d.value_type)?;
        self.length(t, d.entries.len())?;
        for (key, value) in &d.entries {
            self.value(key, depth + 1)?;
            self.value(value, depth + 1)?;
        }
        Ok(())
    }

    #[inline(never)]
    fn array(&mut self, a: &Array, depth: usize) -> Result<(), EncodeError> {
        let t = VariantType::Array;
        self.header(
            t,
            ContainerKind::of(&a.element_type).bits(ELEMENT_KIND_SHIFT),
        );
        self.container_type(&a.element_type)?;
        self.length(t, a.items.len())?;
        for item in &a.items {
            self.value(item, depth + 1)?;
        }
        Ok(())
    }

    #[inline(never)]
    fn full_object(&mut self, full: &FullObject, depth: usize) -> Result<(), EncodeError> {
        self.header(VariantType::Object, 0);
        self.string(&full.class)?;
        self.length(VariantType::Object, full.properties.len())?;
        for (name, value) in &full.properties {
            if let (SCRIPT_PROPERTY, Value::String(path)) = (name.as_str(), value) {
                check_script_path(path).map_err(|kind| self.error(kind))?;
            }
            self.string(name)?;
            self.value(value, depth + 1)?;
        }
        Ok(())
    }

    /// A value that holds no other value.
    #[inline(never)]
    fn leaf(&mut self, v: &Value) -> Result<(), EncodeError> {
        let t = v.variant_type();
        match v {
            Value::Nil | Value::Callable => self.header(t, 0),
            Value::Bool(b) => {
                self.header(t, 0);
                self.sink.put(u32::from(*b));
            }
            Value::Int(i) => match i32::try_from(*i) {
                Ok(small) => {
                    self.header(t, 0);
                    self.sink.put(small);
                }
                Err(_) => {
                    self.header(t, FLAG_64);
                    self.sink.put(*i);
                }
            },
            Value::Float(d) => {
                // The engine writes 32 bits when the value survives the round trip through
                // `float`; NaN never compares equal, so it is always written in 64 bits.
                let single = *d as f32;
                if f64::from(single) == *d {
                    self.header(t, 0);
                    self.sink.put(single);
                } else {
                    self.header(t, FLAG_64);
                    self.sink.put(*d);
                }
            }
            Value::String(s) | Value::StringName(s) => {
                self.header(t, 0);
                self.string(s)?;
            }
            Value::Vector2(r) => self.reals(t, r),
            Value::Rect2(r) => self.reals(t, r),
            Value::Vector3(r) => self.reals(t, r),
            Value::Transform2D(r) => self.reals(t, r),
            Value::Vector4(r) | Value::Plane(r) | Value::Quaternion(r) => self.reals(t, r),
            Value::Aabb(r) => self.reals(t, r),
            Value::Basis(r) => self.reals(t, r),
            Value::Transform3D(r) => self.reals(t, r),
            Value::Projection(r) => self.reals(t, r),
            Value::Vector2i(c) => {
                self.header(t, 0);
                self.sink.put(*c);
            }
            Value::Vector3i(c) => {
                self.header(t, 0);
                self.sink.put(*c);
            }
            Value::Rect2i(c) | Value::Vector4i(c) => {
                self.header(t, 0);
                self.sink.put(*c);
            }
            Value::Color(c) => {
                self.header(t, 0);
                self.sink.put(*c);
            }
            Value::NodePath(p) => self.node_path(p)?,
            Value::Rid(id) => {
                self.header(t, 0);
                self.sink.put(*id);
            }
            Value::Object(o) => self.object(o),
            Value::Signal(s) => {
                self.header(t, 0);
                self.string(&s.name)?;
                self.sink.put(s.object_id);
            }
            Value::Dictionary(_) | Value::Array(_) => {
                unreachable!("values holding values are encoded by `value`")
            }
            Value::PackedByteArray(bytes) => {
                self.packed(t, bytes)?;
                self.sink.put_zeros(padding(bytes.len()));
            }
            Value::PackedInt32Array(items) => self.packed(t, items)?,
            Value::PackedInt64Array(items) => self.packed(t, items)?,
            Value::PackedFloat32Array(items) => self.packed(t, items)?,
            Value::PackedFloat64Array(items) => self.packed(t, items)?,
            Value::PackedColorArray(items) => self.packed(t, items)?,
            Value::PackedStringArray(strings) => {
                self.header(t, 0);
                self.length(t, strings.len())?;
                for s in strings {
                    // Unlike String, each element's length counts a terminating NUL.
                    self.length(t, s.len() + 1)?;
                    self.sink.put_bytes(s.as_bytes());
                    self.sink.put_zeros(1 + padding(s.len() + 1));
                }
            }
            Value::PackedVector2Array(p) => self.packed_reals(t, p)?,
            Value::PackedVector3Array(p) => self.packed_reals(t, p)?,
            Value::PackedVector4Array(p) => self.packed_reals(t, p)?,
        }
        Ok(())
    }

    fn node_path(&mut self, p: &NodePath) -> Result<(), EncodeError> {
        self.header(VariantType::NodePath, 0);
        if p.names.len() >= NODE_PATH_NEW_FORMAT as usize {
            let len = p.names.len();
            return Err(self.error(EncodeErrorKind::TooLong {
                what: VariantType::NodePath,
                len,
            }));
        }
        self.sink.put(p.names.len() as u32 | NODE_PATH_NEW_FORMAT);
        self.length(VariantType::NodePath, p.subnames.len())?;
        self.sink
            .put(if p.absolute { NODE_PATH_ABSOLUTE } else { 0 });
        for name in p.names.iter().chain(&p.subnames) {
            self.string(name)?;
        }
        Ok(())
    }

    /// An object without its properties: null or an instance id.
    fn object(&mut self, o: &Object) {
        match o {
            // A null (or freed) object is written as nil, as the engine does.
            Object::Null => self.header(VariantType::Nil, 0),
            Object::Id(id) => {
                self.header(VariantType::Object, FLAG_64);
                self.sink.put(*id);
            }
            Object::Full(_) => unreachable!("full objects are encoded by `value`"),
        }
    }
}

/// The property through which a full object carries its script, as a `res://` path.
pub(crate) const SCRIPT_PROPERTY: &str = "script";
pub(crate) const RESOURCE_PREFIX: &str = "res://";

/// Scripts travel as paths inside the project; anything else is refused on both sides.
pub(crate) fn check_script_path(path: &str) -> Result<(), EncodeErrorKind> {
    if path.starts_with(RESOURCE_PREFIX) {
        Ok(())
    } else {
        Err(EncodeErrorKind::InvalidScriptPath(path.to_owned()))
    }
}

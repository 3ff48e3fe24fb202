//! Bytes → values, accepting and rejecting exactly what the engine's `decode_variant` does.
//!
//! The decoder reads the format and applies its rules (bounds, types, padding, typed
//! containers' conversions, objects); what the values become is up to a [`Build`]er:
//! [`ValueBuilder`] makes this crate's [`Value`]s, the Godot binding makes engine Variants
//! straight from the bytes.

use crate::error::{DecodeError, DecodeErrorKind as Kind};
use crate::godot2;
use crate::header::{
    ContainerKind, Header, COUNT_MASK, ELEMENT_KIND_SHIFT, NODE_PATH_ABSOLUTE,
    NODE_PATH_NEW_FORMAT, NODE_PATH_OBSOLETE_PROPERTY, VALUE_KIND_SHIFT,
};
use crate::keys::DictionaryBuilder;
use crate::script::{is_script_path, is_script_path_property, Side};
use crate::typed::{coerce, stores_as_is};
use crate::types::{Component, Generation, Godot2Type, VariantType};
use crate::value::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Reals, Signal,
    Value,
};
use crate::wire::{padded_text, padding, plain_text, window_text, Plain, Reader, TEXT_WINDOW};
use crate::{within_depth, DecodeOptions, StackFloor};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What the decoder makes of the values it reads.
///
/// The decoder calls one method per value, in the order of the bytes: for an Array,
/// `begin_array`, then `push` with each element it keeps, then `end_array` (likewise for a
/// Dictionary, whose keys it has already checked against the key type). Typed containers'
/// conversions and full objects are worked out on [`Value`]s and arrive through
/// [`value`](Build::value); so do the types without a method of their own, and by default
/// every type. A builder's error ends the decoding.
pub trait Build {
    /// A decoded value.
    type Value;
    /// An Array being filled.
    type Array;
    /// A Dictionary being filled.
    type Dictionary;
    /// The builder's error; the decoder's own errors convert into it.
    type Error: From<DecodeError>;

    /// Whether the decoder applies typed containers' element rules (convert or drop, as
    /// `Array::push_back` and `dict[key] = value` do) before handing elements over. A builder
    /// that fills the engine's own typed containers says no: those apply the engine's full
    /// rules themselves, conversions this crate does not perform included.
    const CHECKS_ELEMENTS: bool = true;

    /// Any value, as the codec's own model has it.
    fn value(&mut self, v: Value) -> Result<Self::Value, Self::Error>;

    /// A nil.
    fn nil(&mut self) -> Result<Self::Value, Self::Error> {
        self.value(Value::Nil)
    }
    /// A bool.
    fn bool(&mut self, b: bool) -> Result<Self::Value, Self::Error> {
        self.value(Value::Bool(b))
    }
    /// An int (one of 32 bits sign-extended).
    fn int(&mut self, i: i64) -> Result<Self::Value, Self::Error> {
        self.value(Value::Int(i))
    }
    /// A float (one of 32 bits widened, exactly).
    fn float(&mut self, f: f64) -> Result<Self::Value, Self::Error> {
        self.value(Value::Float(f))
    }
    /// A String's text (after the engine's BOM and NUL rules), borrowed from the input.
    fn string(&mut self, s: &str) -> Result<Self::Value, Self::Error> {
        self.value(Value::String(s.to_owned()))
    }
    /// A StringName's text, as [`string`](Self::string) has a String's (Godot 4 only:
    /// before, names travel as Strings).
    fn string_name(&mut self, s: &str) -> Result<Self::Value, Self::Error> {
        self.value(Value::StringName(s.to_owned()))
    }
    /// A NodePath, its texts checked and borrowed from the input.
    fn node_path(&mut self, path: RawNodePath<'_>) -> Result<Self::Value, Self::Error> {
        self.value(Value::NodePath(Box::new(path.to_node_path())))
    }
    /// A packed array of plain elements, as the bytes of the input hold them.
    fn packed(&mut self, p: Packed<'_>) -> Result<Self::Value, Self::Error> {
        self.value(p.to_value())
    }
    /// A single-precision math value or a Color: `t` and its components in wire order, as
    /// many as `t` has ([`Value::single_reals`] by default). A builder that makes these
    /// straight from their components saves the value model.
    fn single_reals(
        &mut self,
        t: VariantType,
        components: &[f32],
    ) -> Result<Self::Value, Self::Error> {
        self.value(Value::single_reals(t, components))
    }
    /// An integer vector (Vector2i, Rect2i, Vector3i, Vector4i): `t` and its components in
    /// wire order, as many as `t` has ([`Value::int_components`] by default).
    fn int_components(
        &mut self,
        t: VariantType,
        components: &[i32],
    ) -> Result<Self::Value, Self::Error> {
        self.value(Value::int_components(t, components))
    }
    /// A PackedStringArray's strings, borrowed from the input, their texts not yet read:
    /// the builder reads each through [`RawText::text`] and fails with the first error in
    /// their order (a builder may read them in any order, or at once, to get there).
    fn packed_strings(&mut self, strings: &[RawText<'_>]) -> Result<Self::Value, Self::Error> {
        let texts = strings
            .iter()
            .map(|raw| raw.text().map(str::to_owned))
            .collect::<Result<_, _>>()?;
        self.value(Value::PackedStringArray(texts))
    }

    /// A new Array of `element_type`; `capacity` is how many elements the input can still
    /// hold, at most the count it announces.
    fn begin_array(
        &mut self,
        element_type: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Array, Self::Error>;
    /// Appends an element the decoder keeps (of a typed Array: converted already, when
    /// [`CHECKS_ELEMENTS`](Self::CHECKS_ELEMENTS)).
    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Result<(), Self::Error>;
    /// The finished Array (`element_type` is the one it began with).
    fn end_array(
        &mut self,
        array: Self::Array,
        element_type: ContainerType,
    ) -> Result<Self::Value, Self::Error>;

    /// A new Dictionary of `key_type` and `value_type`; `capacity` is how many entries the
    /// input can still hold, at most the count it announces.
    fn begin_dictionary(
        &mut self,
        key_type: &ContainerType,
        value_type: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Dictionary, Self::Error>;
    /// `dictionary[key] = value`: a key already there keeps its place and takes the value.
    fn insert(
        &mut self,
        dictionary: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), Self::Error>;
    /// `dictionary[key] = value` for a String key, given as its text (after the engine's
    /// BOM and NUL rules, borrowed from the input): a builder may make the String of a key
    /// text it has seen before only once. Only for keys the decoder hands over unchecked
    /// (untyped dictionaries, or builders that do not check elements).
    fn insert_text_key(
        &mut self,
        dictionary: &mut Self::Dictionary,
        key: &str,
        value: Self::Value,
    ) -> Result<(), Self::Error> {
        let key = self.string(key)?;
        self.insert(dictionary, key, value)
    }
    /// The finished Dictionary (`key_type` and `value_type` are the ones it began with).
    fn end_dictionary(
        &mut self,
        dictionary: Self::Dictionary,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Self::Value, Self::Error>;
}

/// A packed array of plain elements in the input: PackedByteArray, PackedInt32/64Array,
/// PackedFloat32/64Array, PackedColorArray, PackedVector2/3/4Array.
#[derive(Debug, Clone, Copy)]
pub struct Packed<'a> {
    /// Which packed array it is (one of those above).
    pub array_type: VariantType,
    /// For PackedVector2/3/4Array: the components are 64-bit floats.
    pub wide: bool,
    /// How many elements: `bytes` holds `count` × [`element_size`](Self::element_size).
    pub count: usize,
    /// The elements' little-endian bytes (for a PackedByteArray, without its padding).
    pub bytes: &'a [u8],
}

impl Packed<'_> {
    /// The bytes of one element.
    pub fn element_size(array_type: VariantType, wide: bool) -> usize {
        use VariantType as T;
        let real = if wide { 8 } else { 4 };
        match array_type {
            T::PackedByteArray => 1,
            T::PackedInt32Array | T::PackedFloat32Array => 4,
            T::PackedInt64Array | T::PackedFloat64Array => 8,
            T::PackedColorArray => 16,
            T::PackedVector2Array => 2 * real,
            T::PackedVector3Array => 3 * real,
            T::PackedVector4Array => 4 * real,
            _ => 0,
        }
    }

    /// The elements, copied out of the input.
    pub fn to_vec<T: Plain>(&self) -> Vec<T> {
        debug_assert_eq!(self.bytes.len(), self.count * T::SIZE);
        Reader::new(self.bytes, 0)
            .read_plain_vec(self.count, "packed array")
            .expect("sized by the decoder")
    }

    /// The array as a [`Value`].
    pub fn to_value(&self) -> Value {
        use VariantType as T;
        match (self.array_type, self.wide) {
            (T::PackedByteArray, _) => Value::PackedByteArray(self.to_vec()),
            (T::PackedInt32Array, _) => Value::PackedInt32Array(self.to_vec()),
            (T::PackedInt64Array, _) => Value::PackedInt64Array(self.to_vec()),
            (T::PackedFloat32Array, _) => Value::PackedFloat32Array(self.to_vec()),
            (T::PackedFloat64Array, _) => Value::PackedFloat64Array(self.to_vec()),
            (T::PackedColorArray, _) => Value::PackedColorArray(self.to_vec()),
            (T::PackedVector2Array, false) => {
                Value::PackedVector2Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector2Array, true) => {
                Value::PackedVector2Array(PackedReals::Double(self.to_vec()))
            }
            (T::PackedVector3Array, false) => {
                Value::PackedVector3Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector3Array, true) => {
                Value::PackedVector3Array(PackedReals::Double(self.to_vec()))
            }
            (T::PackedVector4Array, false) => {
                Value::PackedVector4Array(PackedReals::Single(self.to_vec()))
            }
            (T::PackedVector4Array, true) => {
                Value::PackedVector4Array(PackedReals::Double(self.to_vec()))
            }
            (other, _) => unreachable!("{other} is not a packed array of plain elements"),
        }
    }
}

/// The builder of this crate's [`Value`]s.
#[derive(Debug, Default, Clone, Copy)]
pub struct ValueBuilder;

impl Build for ValueBuilder {
    type Value = Value;
    type Array = Vec<Value>;
    type Dictionary = DictionaryBuilder;
    type Error = DecodeError;

    #[inline]
    fn value(&mut self, v: Value) -> Result<Value, DecodeError> {
        Ok(v)
    }

    #[inline]
    fn begin_array(
        &mut self,
        _element_type: &ContainerType,
        capacity: usize,
    ) -> Result<Vec<Value>, DecodeError> {
        Ok(Vec::with_capacity(capacity))
    }

    #[inline]
    fn push(&mut self, items: &mut Vec<Value>, item: Value) -> Result<(), DecodeError> {
        items.push(item);
        Ok(())
    }

    #[inline]
    fn end_array(
        &mut self,
        items: Vec<Value>,
        element_type: ContainerType,
    ) -> Result<Value, DecodeError> {
        Ok(Value::Array(Box::new(Array {
            element_type,
            items,
        })))
    }

    #[inline]
    fn begin_dictionary(
        &mut self,
        _key_type: &ContainerType,
        _value_type: &ContainerType,
        capacity: usize,
    ) -> Result<DictionaryBuilder, DecodeError> {
        Ok(DictionaryBuilder::with_capacity(capacity))
    }

    #[inline]
    fn insert(
        &mut self,
        entries: &mut DictionaryBuilder,
        key: Value,
        value: Value,
    ) -> Result<(), DecodeError> {
        entries.insert(key, value);
        Ok(())
    }

    #[inline]
    fn end_dictionary(
        &mut self,
        entries: DictionaryBuilder,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Value, DecodeError> {
        Ok(Value::Dictionary(Box::new(Dictionary {
            key_type,
            value_type,
            entries: entries.finish(),
        })))
    }
}

/// The element type of an untyped container, borrowed where a container's type is.
const UNTYPED: ContainerType = ContainerType::Untyped;

pub(crate) struct Decoder<'a, 'o, 'b, B: Build> {
    pub r: Reader<'a>,
    b: &'b mut B,
    opts: &'o DecodeOptions,
    generation: Generation,
    /// Elements that may still be reserved ahead of decoding them. Every element takes at
    /// least 4 input bytes, so honest input never needs more than a quarter of its length
    /// in all; hostile counts at every nesting level cannot make reservations add up to
    /// more than that either.
    reservable: usize,
    /// Where the containers' walk needs more stack (see [`StackFloor`]).
    stack: StackFloor,
}

impl<'a, 'o, 'b, B: Build> Decoder<'a, 'o, 'b, B> {
    pub fn new(r: Reader<'a>, opts: &'o DecodeOptions, b: &'b mut B) -> Self {
        Decoder {
            reservable: r.remaining() / 4,
            r,
            b,
            opts,
            generation: opts.generation,
            stack: StackFloor::UNKNOWN,
        }
    }

    #[inline]
    pub fn value(&mut self, depth: usize) -> Result<B::Value, B::Error> {
        if !within_depth(depth, self.opts.max_depth) {
            return Err(self.r.error(Kind::TooDeep(self.opts.max_depth)).into());
        }
        let header_at = self.r.consumed();
        if self.generation.number() == 2 {
            if let Some(special) = godot2_special(&self.r, self.generation) {
                return self.godot2_value(special);
            }
        }
        let (t, header) = read_header(&mut self.r, self.generation)?;
        let wide = header.is_wide();
        // Only containers recurse; keeping everything else but the four scalars (which
        // need no room) out of line keeps each level's stack frame small (nesting reaches
        // 1025 levels on threads with small stacks).
        match t {
            VariantType::Array | VariantType::Dictionary => {
                self.container(t, header, header_at, depth)
            }
            VariantType::Object if !wide && self.generation.has_object_payload() => {
                self.container(t, header, header_at, depth)
            }
            t if t.is_scalar() => self.scalar(t, wide),
            _ => self.leaf(t, header),
        }
    }

    /// A Godot 2 Image or InputEvent, made as its Dictionary form (see [`godot2`]).
    #[cold]
    fn godot2_value(&mut self, t: Godot2Type) -> Result<B::Value, B::Error> {
        self.r.skip_unchecked(4);
        let value = godot2::Godot2Value::read(&mut self.r, t)?;
        self.b.value(value.to_value())
    }

    /// Nil, bool, int or float (`t`): read in place, so that where `value` is inlined (a
    /// container's loop) the builder's value is handed on in registers, not through
    /// memory a call returned it in.
    #[inline(always)]
    fn scalar(&mut self, t: VariantType, wide: bool) -> Result<B::Value, B::Error> {
        let scalar = read_scalar(&mut self.r, t, wide)?;
        build_scalar(self.b, scalar)
    }

    /// Runs `work` on a decoder that builds [`Value`]s, from where this one stands in the
    /// input. The rules worked out on the value model (typed containers' conversions, full
    /// objects) decode their part as `Value`s whatever this decoder's builder makes; the
    /// input's cursor and reservation budget go to that decoder and come back with what it
    /// consumed, so that the two read the input as one decoder would.
    fn on_values<R>(
        &mut self,
        work: impl FnOnce(&mut Decoder<'a, 'o, '_, ValueBuilder>) -> Result<R, DecodeError>,
    ) -> Result<R, DecodeError> {
        let mut values = ValueBuilder;
        let mut decoder = Decoder {
            r: self.r.clone(),
            b: &mut values,
            opts: self.opts,
            generation: self.generation,
            reservable: self.reservable,
            stack: self.stack,
        };
        let result = work(&mut decoder);
        self.r = decoder.r;
        self.reservable = decoder.reservable;
        result
    }

    /// A value holding values (Array, Dictionary, full Object), walked with room on the
    /// stack (`StackFloor::run`). Out of line, so that `value`, which every element passes
    /// through, stays a small frame with little to save.
    #[inline(never)]
    fn container(
        &mut self,
        t: VariantType,
        header: Header,
        header_at: usize,
        depth: usize,
    ) -> Result<B::Value, B::Error> {
        StackFloor::run(
            self,
            |d| &mut d.stack,
            |d| match t {
                VariantType::Array => d.array(header, depth),
                VariantType::Dictionary => d.dictionary(header, depth),
                _ => {
                    let object = d.on_values(|d| d.full_object(header_at, depth))?;
                    d.b.value(Value::Object(object))
                }
            },
        )
    }

    /// A value that holds no other value.
    #[inline(never)]
    fn leaf(&mut self, t: VariantType, header: Header) -> Result<B::Value, B::Error> {
        use VariantType as T;
        let wide_reals = header.wide_reals(self.generation);
        let value = match t {
            T::Nil | T::Bool | T::Int | T::Float => return self.scalar(t, header.is_wide()),
            T::String => {
                let s = self.text()?;
                return self.b.string(s);
            }
            T::StringName => {
                let s = self.text()?;
                return self.b.string_name(s);
            }
            T::PackedByteArray
            | T::PackedInt32Array
            | T::PackedInt64Array
            | T::PackedFloat32Array
            | T::PackedFloat64Array
            | T::PackedColorArray
            | T::PackedVector2Array
            | T::PackedVector3Array
            | T::PackedVector4Array => {
                let packed = self.packed(t, wide_reals)?;
                return self.b.packed(packed);
            }
            T::PackedStringArray => return self.packed_strings(),
            T::Callable => Value::Callable,
            T::Vector2 => return self.reals_of(t, wide_reals, Value::Vector2),
            T::Rect2 => return self.reals_of(t, wide_reals, Value::Rect2),
            T::Vector3 => return self.reals_of(t, wide_reals, Value::Vector3),
            T::Transform2D => {
                return self.reals_of(t, wide_reals, |r| Value::Transform2D(Box::new(r)))
            }
            T::Vector4 => return self.reals_of(t, wide_reals, Value::Vector4),
            T::Plane => return self.reals_of(t, wide_reals, Value::Plane),
            T::Quaternion => return self.reals_of(t, wide_reals, Value::Quaternion),
            T::Aabb => return self.reals_of(t, wide_reals, |r| Value::Aabb(Box::new(r))),
            T::Basis => return self.reals_of(t, wide_reals, |r| Value::Basis(Box::new(r))),
            T::Transform3D => {
                return self.reals_of(t, wide_reals, |r| Value::Transform3D(Box::new(r)))
            }
            T::Projection => {
                return self.reals_of(t, wide_reals, |r| Value::Projection(Box::new(r)))
            }
            T::Color | T::Vector2i | T::Rect2i | T::Vector3i | T::Vector4i => {
                // At most four 32-bit components in any precision, whatever the header's
                // flag. Read as `read_inline` reads them, but returned as they are made:
                // through its `Option`, each value was copied once more, 16 bytes read
                // back from two 8-byte writes (a failed store-to-load forward on x86).
                let Some(shape) = t.math_components() else {
                    unreachable!("{t} is a math type");
                };
                return read_inline_math(&mut self.r, t, shape, self.b);
            }
            T::NodePath => {
                let path = read_node_path(&mut self.r, self.generation)?;
                return self.b.node_path(path);
            }
            T::Rid => Value::Rid(read_rid(&mut self.r, self.generation)?),
            T::Object => match read_object_id(&mut self.r, self.generation)? {
                0 => Value::Object(Object::Null),
                id => Value::Object(Object::Id(id)),
            },
            T::Signal => {
                let name = self.text()?.to_owned();
                let object_id = self.r.read("Signal object id")?;
                Value::Signal(Signal { name, object_id })
            }
            T::Dictionary | T::Array => unreachable!("containers are decoded by `value`"),
        };
        self.b.value(value)
    }

    /// A math value of `N` real components (as many as its [`Value`] holds, which
    /// [`VariantType::math_components`] counts too), of type `t`: in single precision
    /// handed to the builder as its components (see [`Build::single_reals`]); in double
    /// precision (`wide_reals`) as the [`Value`] `wrap` makes of them.
    #[inline(always)]
    fn reals_of<const N: usize>(
        &mut self,
        t: VariantType,
        wide_reals: bool,
        wrap: impl FnOnce(Reals<N>) -> Value,
    ) -> Result<B::Value, B::Error> {
        debug_assert_eq!(N, t.component_count(), "{t}'s components");
        if wide_reals {
            let value = wrap(Reals::Double(self.r.read(t.name())?));
            return self.b.value(value);
        }
        let components: [f32; N] = self.r.read(t.name())?;
        self.b.single_reals(t, &components)
    }

    /// A length word, then UTF-8 bytes padded to 4. Like the engine, a leading BOM is
    /// dropped and the text ends at the first NUL; the rest must be valid UTF-8.
    fn text(&mut self) -> Result<&'a str, DecodeError> {
        read_text(&mut self.r)
    }

    fn string(&mut self) -> Result<String, DecodeError> {
        self.text().map(str::to_owned)
    }

    /// A packed array's count and elements, the count checked against the remaining input.
    fn packed(&mut self, t: VariantType, wide_reals: bool) -> Result<Packed<'a>, DecodeError> {
        read_packed(&mut self.r, t, wide_reals)
    }

    /// The strings' lengths are walked here; their texts are read by the builder (see
    /// [`Build::packed_strings`]).
    fn packed_strings(&mut self) -> Result<B::Value, B::Error> {
        let count = read_packed_strings_count(&mut self.r)?;
        let mut strings = Vec::with_capacity(self.capacity_for(count as u32, 4));
        // How far the input ahead of the cursor has been asked for (see `PREFETCH_AHEAD`).
        let mut fetched = self.r.consumed();
        for _ in 0..count {
            match read_windowed_text(&mut self.r) {
                Ok(raw) => {
                    let jumped = raw.length as usize >= LONG_TEXT;
                    strings.push(raw);
                    if jumped {
                        let at = self.r.consumed();
                        self.r.prefetch(fetched.max(at), at + PREFETCH_AHEAD);
                        fetched = at + PREFETCH_AHEAD;
                    }
                }
                Err(past_end) => {
                    // A text before the one that runs past the end fails first.
                    strings.iter().try_for_each(|raw| raw.text().map(drop))?;
                    return Err(past_end.into());
                }
            }
        }
        self.b.packed_strings(&strings)
    }

    /// Capacity to reserve for `count` items of at least `min_size` bytes each: never more
    /// than the remaining input could hold, whatever the count claims.
    fn capacity_for(&mut self, count: u32, min_size: usize) -> usize {
        reserve(count, min_size, self.r.remaining(), &mut self.reservable)
    }

    /// A container's element (or key, value) type when it is typed; `None` when untyped,
    /// the usual case, which reads nothing. A Dictionary's walk borrows its two
    /// ([`UNTYPED`] for `None`): an untyped `ContainerType` returned by value is written as
    /// its tag alone, and moving it read that back 16 bytes at a time, which waits for the
    /// write to reach the cache (twice per Dictionary, a tenth of decoding a small one).
    #[inline]
    fn container_type(
        &mut self,
        kind: ContainerKind,
    ) -> Result<Option<ContainerType>, DecodeError> {
        match kind {
            ContainerKind::Untyped => Ok(None),
            typed => self.typed_container(typed).map(Some),
        }
    }

    #[inline(never)]
    fn typed_container(&mut self, kind: ContainerKind) -> Result<ContainerType, DecodeError> {
        read_typed_container(&mut self.r, kind, self.opts.allow_objects)
    }

    /// One element of a container of `element_type` (or a key of a dictionary of that key
    /// type), as the container stores it; `None` when it refuses it.
    #[inline]
    fn element(
        &mut self,
        element_type: &ContainerType,
        depth: usize,
    ) -> Result<Option<B::Value>, B::Error> {
        match element_type {
            ContainerType::Untyped => self.value(depth).map(Some),
            _ if !B::CHECKS_ELEMENTS => self.value(depth).map(Some),
            typed => self.typed_element(typed, depth),
        }
    }

    /// An element of a typed container: kept as it is when its type (told by its header)
    /// is the container's; otherwise converted or dropped as `Array::push_back` does.
    #[inline(never)]
    fn typed_element(
        &mut self,
        element_type: &ContainerType,
        depth: usize,
    ) -> Result<Option<B::Value>, B::Error> {
        let source = self.r.peek_u32().and_then(|word| {
            let id = Header::from_word(word).type_id(self.generation);
            self.generation.type_of(id)
        });
        match source {
            Some(t) if !stores_as_is(t, element_type) => {
                let value = self.on_values(|d| d.value(depth))?;
                match coerce(value, element_type) {
                    Some(converted) => self.b.value(converted).map(Some),
                    None => Ok(None),
                }
            }
            // Stored as it is, or not a value at all (which `value` reports).
            _ => self.value(depth).map(Some),
        }
    }

    /// Inlined into [`container`](Self::container): a level of nested Arrays is then two
    /// calls (`value`, `container`), not three. Past the processor's stack of return
    /// addresses (a few dozen deep), every return of a deep nesting is mispredicted, one
    /// per call.
    #[inline(always)]
    fn array(&mut self, header: Header, depth: usize) -> Result<B::Value, B::Error> {
        // Held by value: each element's `element` then tests a local (borrowed, as the
        // Dictionary's types are, the loop reads it through the reference every time).
        let element_type = self
            .container_type(header.container_kind(ELEMENT_KIND_SHIFT, self.generation))?
            .unwrap_or_default();
        let count = read_container_count(&mut self.r, "Array count")?;
        let capacity = self.capacity_for(count, 4);
        let mut array = self.b.begin_array(&element_type, capacity)?;
        for _ in 0..count {
            if let Some(item) = self.element(&element_type, depth + 1)? {
                self.b.push(&mut array, item)?;
            }
        }
        self.b.end_array(array, element_type)
    }

    #[inline(never)]
    fn dictionary(&mut self, header: Header, depth: usize) -> Result<B::Value, B::Error> {
        let typed_keys =
            self.container_type(header.container_kind(ELEMENT_KIND_SHIFT, self.generation))?;
        let typed_values =
            self.container_type(header.container_kind(VALUE_KIND_SHIFT, self.generation))?;
        let key_type = typed_keys.as_ref().unwrap_or(&UNTYPED);
        let value_type = typed_values.as_ref().unwrap_or(&UNTYPED);
        let count = read_container_count(&mut self.r, "Dictionary count")?;
        let capacity = self.capacity_for(count, 8);
        let mut dictionary = self.b.begin_dictionary(key_type, value_type, capacity)?;
        // A key that `element` would hand over as it is, when it is a plain String, goes to
        // the builder as its text (see `Build::insert_text_key`). That path reads the key
        // without `value`, so it is taken only where `value` would accept the key's depth.
        let string_header = self
            .generation
            .wire_id(VariantType::String)
            .filter(|_| *key_type == UNTYPED || !B::CHECKS_ELEMENTS)
            .filter(|_| within_depth(depth + 1, self.opts.max_depth));
        for _ in 0..count {
            if string_header.is_some() && self.r.peek_u32() == string_header {
                self.r.skip_unchecked(4);
                let key = self.text()?;
                let value = self.value(depth + 1)?;
                self.b.insert_text_key(&mut dictionary, key, value)?;
                continue;
            }
            // `dict[key] = value`: the key is checked against the key type (converted or the
            // entry dropped), the value is stored as it is.
            let key = self.element(key_type, depth + 1)?;
            let value = self.value(depth + 1)?;
            if let Some(key) = key {
                self.b.insert(&mut dictionary, key, value)?;
            }
        }
        self.b.end_dictionary(
            dictionary,
            typed_keys.unwrap_or_default(),
            typed_values.unwrap_or_default(),
        )
    }
}

impl Decoder<'_, '_, '_, ValueBuilder> {
    #[inline(never)]
    fn full_object(&mut self, header_at: usize, depth: usize) -> Result<Object, DecodeError> {
        let Some((class, count)) =
            read_object_start(&mut self.r, header_at, self.opts, self.generation)?
        else {
            return Ok(Object::Null);
        };
        let class = class.to_owned();
        let mut properties = Vec::with_capacity(self.capacity_for(count, 8));
        for _ in 0..count {
            let name = self.string()?;
            let value_at = self.r.consumed();
            let value = self.value(depth + 1)?;
            if is_script_path_property(&name, self.generation) {
                check_script_value(&value).map_err(|kind| self.r.error_at(value_at, kind))?;
            }
            properties.push((name, value));
        }
        Ok(Object::Full(Box::new(FullObject { class, properties })))
    }
}

// The rules below read one element of the format from a bare `Reader`; the decoder and
// the serde deserializer (`crate::serde`) both use them.

/// A value's header: its type (unknown ids refused at the header's offset) and the header
/// itself, whose upper bits are flags.
#[inline(always)]
pub(crate) fn read_header(
    r: &mut Reader<'_>,
    generation: Generation,
) -> Result<(VariantType, Header), DecodeError> {
    let header_at = r.consumed();
    let header = Header::from_word(r.read("header")?);
    let wire_id = header.type_id(generation);
    match generation.type_of(wire_id) {
        Some(t) => Ok((t, header)),
        None => Err(r.error_at(header_at, Kind::UnknownType(wire_id))),
    }
}

/// A value whose payload is read whole in place: nil, a bool, an int or a float (ints of
/// 32 bits sign-extended, floats of 32 bits widened exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scalar {
    /// `null`.
    Nil,
    /// A bool (any non-zero word is `true`).
    Bool(bool),
    /// An int.
    Int(i64),
    /// A float.
    Float(f64),
}

/// The payload of the scalar type `t` (see [`VariantType::is_scalar`]), after its header;
/// `wide`: the header's 64-bit flag.
#[inline(always)]
pub(crate) fn read_scalar(
    r: &mut Reader<'_>,
    t: VariantType,
    wide: bool,
) -> Result<Scalar, DecodeError> {
    Ok(match t {
        VariantType::Bool => Scalar::Bool(r.read::<u32>("bool")? != 0),
        VariantType::Int => Scalar::Int(read_int(r, wide)?),
        VariantType::Float => Scalar::Float(read_float(r, wide)?),
        _ => Scalar::Nil,
    })
}

/// The value of type `t` after its `header` when a
/// Variant holds it in its own bytes: nil, a bool, an int, a float; a single-precision
/// Vector2, Rect2, Vector3, Vector4, Plane or Quaternion; a Color; an integer vector. Made
/// by `b` from its payload read whole; `None` for any other value, its payload unread.
#[inline(always)]
pub(crate) fn read_inline<B: Build>(
    r: &mut Reader<'_>,
    t: VariantType,
    header: Header,
    generation: Generation,
    b: &mut B,
) -> Result<Option<B::Value>, B::Error> {
    if t.is_scalar() {
        let scalar = read_scalar(r, t, header.is_wide())?;
        return build_scalar(b, scalar).map(Some);
    }
    let Some((n, component)) = t.math_components() else {
        return Ok(None);
    };
    if n > 4 || (component == Component::Real && header.wide_reals(generation)) {
        return Ok(None);
    }
    read_inline_math(r, t, (n, component), b).map(Some)
}

/// The math value of type `t` after its header, of `shape` (its components' count, at
/// most four, and type, each 32 bits wide), made by `b` from its payload read whole.
#[inline(always)]
fn read_inline_math<B: Build>(
    r: &mut Reader<'_>,
    t: VariantType,
    (n, component): (usize, Component),
    b: &mut B,
) -> Result<B::Value, B::Error> {
    let bytes = r.take(n * 4, t.name())?;
    match component {
        Component::I32 => b.int_components(t, &first_four::<i32>(bytes)[..n]),
        Component::Real | Component::F32 => b.single_reals(t, &first_four::<f32>(bytes)[..n]),
    }
}

/// The first four `T`s of `bytes`, little-endian (0 past its end). Each is loaded on its
/// own: copied as one run of the input's length, the copy's narrow writes would hold up
/// the wider reads of the array that follow (a failed store-to-load forward on x86).
#[inline(always)]
fn first_four<T: Plain + Default>(bytes: &[u8]) -> [T; 4] {
    std::array::from_fn(|i| match bytes.get(i * T::SIZE..) {
        Some(rest) if rest.len() >= T::SIZE => T::from_le(rest),
        _ => T::default(),
    })
}

/// The builder's value of `scalar`.
#[inline(always)]
fn build_scalar<B: Build>(b: &mut B, scalar: Scalar) -> Result<B::Value, B::Error> {
    match scalar {
        Scalar::Nil => b.nil(),
        Scalar::Bool(v) => b.bool(v),
        Scalar::Int(i) => b.int(i),
        Scalar::Float(f) => b.float(f),
    }
}

/// The Godot 2 type without a Godot 4 twin whose header comes next, if any (Godot 2 only).
#[inline]
pub(crate) fn godot2_special(r: &Reader<'_>, generation: Generation) -> Option<Godot2Type> {
    generation.godot2_type(r.peek_u32()?)
}

/// An RID's id after its header (0 where the generation writes none).
#[inline]
pub(crate) fn read_rid(r: &mut Reader<'_>, generation: Generation) -> Result<u64, DecodeError> {
    if generation.has_rid_payload() {
        r.read("RID")
    } else {
        Ok(0)
    }
}

/// An object's instance id after a flagged Object header (0, the null object, where
/// objects carry nothing: Godot 2).
#[inline]
pub(crate) fn read_object_id(
    r: &mut Reader<'_>,
    generation: Generation,
) -> Result<u64, DecodeError> {
    if generation.has_object_payload() {
        r.read("object id")
    } else {
        Ok(0)
    }
}

/// A whole object's start after its header (at `header_at`), where objects are allowed:
/// its class, as Godot 4 names it (see [`Generation::godot4_class`]), and how many
/// properties follow; `None` for the null object (an empty class name).
pub(crate) fn read_object_start<'a>(
    r: &mut Reader<'a>,
    header_at: usize,
    opts: &DecodeOptions,
    generation: Generation,
) -> Result<Option<(&'a str, u32)>, DecodeError> {
    if !opts.allow_objects {
        return Err(r.error_at(header_at, Kind::ObjectsNotAllowed));
    }
    let class = generation.godot4_class(read_text(r)?);
    if class.is_empty() {
        return Ok(None);
    }
    // A signed count in the engine: negative means no properties.
    let count = r.read::<i32>("property count")?.max(0);
    Ok(Some((class, count as u32)))
}

/// A NodePath after its header, by the generation's rules: Godot 2's empty property is
/// none, and a path Godot 3 reads as empty is the empty path.
pub(crate) fn read_node_path<'a>(
    r: &mut Reader<'a>,
    generation: Generation,
) -> Result<RawNodePath<'a>, DecodeError> {
    let mut path = read_raw_node_path(r)?;
    if generation.has_node_path_property() {
        path.drop_empty_property();
    }
    if generation.empties_node_path(path.names().len(), path.subnames().len()) {
        path.make_empty();
    }
    Ok(path)
}

/// An int's payload: 64 bits when the header is flagged, else 32.
#[inline]
pub(crate) fn read_int(r: &mut Reader<'_>, wide: bool) -> Result<i64, DecodeError> {
    if wide {
        r.read("int")
    } else {
        Ok(r.read::<i32>("int")?.into())
    }
}

/// A float's payload: 64 bits when the header is flagged, else 32.
#[inline]
pub(crate) fn read_float(r: &mut Reader<'_>, wide: bool) -> Result<f64, DecodeError> {
    if wide {
        r.read("float")
    } else {
        Ok(r.read::<f32>("float")?.into())
    }
}

/// A length word, then UTF-8 bytes padded to 4. Like the engine, a leading BOM is
/// dropped and the text ends at the first NUL; the rest must be valid UTF-8.
#[inline(always)]
pub(crate) fn read_text<'a>(r: &mut Reader<'a>) -> Result<&'a str, DecodeError> {
    read_raw_text(r)?.text()
}

/// A text's length word and bytes (padded to 4), checked against the input; what they
/// say is read by [`RawText::text`].
#[inline(always)]
pub(crate) fn read_raw_text<'a>(r: &mut Reader<'a>) -> Result<RawText<'a>, DecodeError> {
    // Errors in the text are reported at its length word (which is inside the input once
    // it has been read).
    let offset = r.offset();
    let length: u32 = r.read("String length")?;
    let padded = (length as usize)
        .checked_add(padding(length as usize))
        .filter(|_| length <= i32::MAX as u32);
    let Some(padded_bytes) = padded.and_then(|padded| r.try_take(padded)) else {
        return Err(DecodeError {
            offset,
            kind: Kind::StringPastEnd {
                length,
                remaining: r.remaining(),
            },
        });
    };
    Ok(RawText {
        padded_bytes,
        length,
        offset,
    })
}

/// [`read_raw_text`], a padded text of at most [`TEXT_WINDOW`] bytes coming as the
/// `TEXT_WINDOW` bytes from its start when the input holds them: read a word at a time,
/// with no branch on its length.
#[inline(always)]
pub(crate) fn read_windowed_text<'a>(r: &mut Reader<'a>) -> Result<RawText<'a>, DecodeError> {
    let window = r
        .rest()
        .get(4..)
        .and_then(|text| text.first_chunk::<TEXT_WINDOW>());
    let mut raw = read_raw_text(r)?;
    if let Some(window) = window {
        if raw.padded_bytes.len() <= TEXT_WINDOW {
            raw.padded_bytes = window;
        }
    }
    Ok(raw)
}

/// The next value's header word and the `N - 4` bytes after it (as a reader of their
/// own), when the input holds them and the header names `t`: the start of a value read
/// whole with one range check. Nothing is read.
#[inline(always)]
fn peek_value<'a, const N: usize>(
    r: &Reader<'a>,
    t: VariantType,
    generation: Generation,
) -> Option<(Header, Reader<'a>)> {
    let chunk = r.peek::<N>()?;
    let header = Header::from_word(<u32 as Plain>::from_le(chunk));
    header
        .names_type(t, generation)
        .then(|| (header, Reader::new(&chunk[4..], 0)))
}

/// An int or float value (`t`: header and payload, the payload read by `read`, of 64 bits
/// when the header is flagged), when the next 12 bytes hold it: read with one range check.
/// `None`, and nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_short_number<T>(
    r: &mut Reader<'_>,
    t: VariantType,
    generation: Generation,
    read: impl FnOnce(&mut Reader<'_>, bool) -> Result<T, DecodeError>,
) -> Option<T> {
    let (header, mut payload) = peek_value::<12>(r, t, generation)?;
    let number = read(&mut payload, header.is_wide()).ok()?;
    r.skip_unchecked(4 + payload.consumed());
    Some(number)
}

/// A value of type `t` whose payload is `size(header)` bytes (`None`: not known from the
/// header), when the input holds it: its header and payload, read without an error path.
/// `None`, and nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_sized_value<'a>(
    r: &mut Reader<'a>,
    t: VariantType,
    generation: Generation,
    size: impl FnOnce(Header) -> Option<usize>,
) -> Option<&'a [u8]> {
    let header = Header::from_word(r.peek_u32()?);
    if !header.names_type(t, generation) {
        return None;
    }
    let mut rest = r.clone();
    rest.skip_unchecked(4);
    let payload = rest.try_take(size(header)?)?;
    *r = rest;
    Some(payload)
}

/// An untyped Dictionary's header and count (its entries follow), when the next 8 bytes
/// hold them: read with one range check. `None`, and nothing read, otherwise (a typed
/// Dictionary's element types come next, for the full reading).
#[inline(always)]
pub(crate) fn read_short_dictionary(r: &mut Reader<'_>, generation: Generation) -> Option<u32> {
    let (header, mut payload) = peek_value::<8>(r, VariantType::Dictionary, generation)?;
    if !header.is_untyped_container(generation) {
        return None;
    }
    let count = read_container_count(&mut payload, "Dictionary count").ok()?;
    r.skip_unchecked(8);
    Some(count)
}

/// A String value (header and text) whose text is at most `CHUNK - 8` bytes (16 or 24),
/// when the next `CHUNK` bytes hold its header, length word and that many bytes from the
/// text's start: read with one range check, the text's bytes being those (what follows
/// the text is not the text's, and is masked off where the text is read). `None`, and
/// nothing read, otherwise.
#[inline(always)]
pub(crate) fn read_short_string<'a, const CHUNK: usize>(
    r: &mut Reader<'a>,
    generation: Generation,
) -> Option<RawText<'a>> {
    let (_, payload) = peek_value::<CHUNK>(r, VariantType::String, generation)?;
    let rest = payload.rest();
    let length = <u32 as Plain>::from_le(rest);
    if length as usize > CHUNK - 8 {
        return None;
    }
    let offset = r.offset() + 4;
    r.skip_unchecked(8 + length as usize + padding(length as usize));
    Some(RawText {
        padded_bytes: &rest[4..],
        length,
        offset,
    })
}

/// A text as the input holds it, before its rules are applied: its bytes with their
/// padding (short texts are read a word at a time, padding included; one of at most 16
/// (24) bytes may come as the 16 (24) bytes from its start, one in a PackedStringArray of
/// at most [`TEXT_WINDOW`] bytes as that many), their length, and the offset of its length
/// word, where an error in it is reported.
#[derive(Debug, Clone, Copy)]
pub struct RawText<'a> {
    padded_bytes: &'a [u8],
    length: u32,
    offset: usize,
}

impl<'a> RawText<'a> {
    /// The text: a leading BOM dropped, ended at the first NUL, the rest valid UTF-8 (or
    /// `InvalidUtf8` at the length word).
    #[inline(always)]
    pub fn text(&self) -> Result<&'a str, DecodeError> {
        match self.plain() {
            Some(text) => Ok(text),
            None => self.text_by_rules(),
        }
    }

    /// The text of a short string (16 or 24 bytes from its start at hand) of nothing but
    /// bytes 0x01 to 0x7F: ASCII without a NUL, which cannot start with a BOM either, so
    /// every rule of [`text`](Self::text) leaves it as it is; of a PackedStringArray's
    /// short string ([`TEXT_WINDOW`] bytes at hand), the same up to its first NUL. `None`
    /// for any other text, which [`text_by_rules`](Self::text_by_rules) then reads.
    #[inline(always)]
    pub fn plain(&self) -> Option<&'a str> {
        let length = self.length as usize;
        if let Ok(window) = <&'a [u8; TEXT_WINDOW]>::try_from(self.padded_bytes) {
            return window_text(window, length);
        }
        if let Ok(words) = <&'a [u8; 24]>::try_from(self.padded_bytes) {
            return plain_text(words, length);
        }
        plain_text(<&'a [u8; 16]>::try_from(self.padded_bytes).ok()?, length)
    }

    /// The text's length in bytes as written, before [`text`](Self::text)'s rules (a BOM
    /// dropped, a NUL ending it) and without its padding.
    pub fn encoded_len(&self) -> usize {
        self.length as usize
    }

    /// [`text`](Self::text), each rule applied: for a text that [`plain`](Self::plain) did
    /// not take, which `text` would check again.
    #[inline(always)]
    pub fn text_by_rules(&self) -> Result<&'a str, DecodeError> {
        let length = self.length as usize;
        // The padded text alone, without what may follow it (see `RawText`).
        let padded = &self.padded_bytes[..length + padding(length)];
        let start = if padded[..length].starts_with(UTF8_BOM) {
            UTF8_BOM.len()
        } else {
            0
        };
        padded_text(padded, start, length).ok_or(DecodeError {
            offset: self.offset,
            kind: Kind::InvalidUtf8,
        })
    }
}

/// A packed array's count and elements, the count checked against the remaining input.
/// Inlined: returned through memory, the `Packed` written a word at a time was read back
/// 16 bytes at a time, which waits for the writes to reach the cache.
#[inline]
pub(crate) fn read_packed<'a>(
    r: &mut Reader<'a>,
    t: VariantType,
    wide: bool,
) -> Result<Packed<'a>, DecodeError> {
    let elem_size = Packed::element_size(t, wide);
    let at = r.consumed();
    let count: u32 = r.read("count")?;
    let fits = count <= i32::MAX as u32 && (count as usize) * elem_size <= r.remaining();
    if !fits {
        return Err(r.error_at(
            at,
            Kind::CountPastEnd {
                what: t,
                count,
                remaining: r.remaining(),
            },
        ));
    }
    let count = count as usize;
    let bytes = r.take(count * elem_size, t.name())?;
    if t == VariantType::PackedByteArray {
        // Counted like the engine, which does not check that the padding is there.
        r.skip_unchecked(padding(count));
    }
    Ok(Packed {
        array_type: t,
        wide,
        count,
        bytes,
    })
}

/// A PackedStringArray's texts are read after the walk over their length words that finds
/// them (see [`Build::packed_strings`]). A text of this many bytes or more is jumped over,
/// and the next length word's address depends on this one's value: a chain of cache
/// misses, one per text, that the processor's own prefetching (which follows reads that go
/// line after line) does not break. After such a jump the walk asks for the input up to
/// [`PREFETCH_AHEAD`] bytes further, so that the next words are on their way while it
/// goes; shorter texts are walked line after line.
const LONG_TEXT: usize = 128;
/// How far ahead of the walk over long texts the input is asked for: a few texts' worth
/// (further ahead, the requests outrun what the memory system keeps in flight).
const PREFETCH_AHEAD: usize = 2048;

/// A PackedStringArray's count; its strings follow, each as [`read_text`].
pub(crate) fn read_packed_strings_count(r: &mut Reader<'_>) -> Result<usize, DecodeError> {
    // The engine loops over the count as a signed int: a negative count is an empty array.
    Ok(r.read::<i32>("count")?.max(0) as usize)
}

/// An Array's or Dictionary's count word, without the old "shared" flag.
#[inline]
pub(crate) fn read_container_count(
    r: &mut Reader<'_>,
    what: &'static str,
) -> Result<u32, DecodeError> {
    Ok(r.read::<u32>(what)? & COUNT_MASK)
}

/// Capacity to reserve for `count` items of at least `min_size` bytes each: never more
/// than the `remaining` input could hold, whatever the count claims, nor more than is left
/// of the whole input's `reservable` budget (which it takes from).
#[inline]
pub(crate) fn reserve(
    count: u32,
    min_size: usize,
    remaining: usize,
    reservable: &mut usize,
) -> usize {
    let capacity = (count as usize).min(remaining / min_size).min(*reservable);
    *reservable -= capacity;
    capacity
}

/// A NodePath as the input holds it (see [`Build::node_path`]): its texts read and
/// checked, borrowed from the input.
#[derive(Debug, Clone, PartialEq)]
pub struct RawNodePath<'a> {
    /// See [`encoded`](Self::encoded).
    encoded: Option<&'a [u8]>,
    /// Whether the path starts at the root (a leading `/`): bit 0 of the flags word.
    pub absolute: bool,
    /// The names, then the subnames.
    texts: Vec<&'a str>,
    name_count: usize,
    /// The last subname is the property flag bit 1 announces.
    property: bool,
}

impl<'a> RawNodePath<'a> {
    /// The NodePath's bytes after its header (counts, flags and texts), which Godot 4
    /// reads as this path: two such NodePaths are the same when these are. `None` when a
    /// rule of the generation read made the path differ from what they say to Godot 4
    /// (Godot 2's empty property, Godot 3's emptied paths); the texts are then the path.
    pub fn encoded(&self) -> Option<&'a [u8]> {
        self.encoded
    }

    /// The node names.
    pub fn names(&self) -> &[&'a str] {
        &self.texts[..self.name_count]
    }

    /// The subnames; a property the flags announce is the last (in Godot 2, unless empty).
    pub fn subnames(&self) -> &[&'a str] {
        &self.texts[self.name_count..]
    }

    /// The path as a [`NodePath`] of its own texts.
    pub fn to_node_path(&self) -> NodePath {
        let owned = |texts: &[&str]| texts.iter().map(|&t| t.to_owned()).collect();
        NodePath {
            names: owned(self.names()),
            subnames: owned(self.subnames()),
            absolute: self.absolute,
        }
    }

    /// Drops an empty property: where the property is a part of its own (see
    /// [`Generation::has_node_path_property`]), an empty one is none.
    fn drop_empty_property(&mut self) {
        if self.property && self.texts.last() == Some(&"") {
            self.texts.pop();
            self.property = false;
            self.encoded = None;
        }
    }

    /// Makes this the empty path (see [`Generation::empties_node_path`]).
    fn make_empty(&mut self) {
        self.texts.clear();
        self.name_count = 0;
        self.absolute = false;
        self.property = false;
        self.encoded = None;
    }
}

/// A NodePath, in the current layout (the obsolete string form is refused).
pub(crate) fn read_raw_node_path<'a>(r: &mut Reader<'a>) -> Result<RawNodePath<'a>, DecodeError> {
    let at = r.consumed();
    let first: u32 = r.read("NodePath")?;
    if first & NODE_PATH_NEW_FORMAT == 0 {
        return Err(r.error_at(at, Kind::ObsoleteNodePath));
    }
    let [subname_count, flags]: [u32; 2] = r.read("NodePath")?;
    let name_count = first & !NODE_PATH_NEW_FORMAT;
    let subname_count =
        subname_count.wrapping_add(u32::from(flags & NODE_PATH_OBSOLETE_PROPERTY != 0));
    // The engine adds the counts in 32 bits; a wrapped total reads that many strings.
    let total = name_count.wrapping_add(subname_count);
    // Room for the texts the counts announce, but never more than the input can hold
    // (each takes at least 4 bytes), whatever the counts say.
    let mut texts = Vec::with_capacity((total as usize).min(r.remaining() / 4));
    for _ in 0..total {
        texts.push(read_text(r)?);
    }
    Ok(RawNodePath {
        encoded: Some(r.bytes_since(at)),
        absolute: flags & NODE_PATH_ABSOLUTE != 0,
        name_count: texts.len().min(name_count as usize),
        // Counts that wrapped read names only.
        property: flags & NODE_PATH_OBSOLETE_PROPERTY != 0 && texts.len() > name_count as usize,
        texts,
    })
}

/// A typed container's element (or key, value) type after its header, of the `kind` the
/// header's bits say.
pub(crate) fn read_typed_container(
    r: &mut Reader<'_>,
    kind: ContainerKind,
    allow: bool,
) -> Result<ContainerType, DecodeError> {
    let at = r.consumed();
    let written = match kind {
        ContainerKind::Untyped => ContainerType::Untyped,
        ContainerKind::Builtin => {
            let id: u32 = r.read("container type")?;
            let t = VariantType::from_id(id)
                .ok_or_else(|| r.error_at(at, Kind::UnknownContainerType(id)))?;
            ContainerType::Builtin(t)
        }
        ContainerKind::ClassName => ContainerType::ClassName(read_text(r)?.to_owned()),
        ContainerKind::Script => {
            let path = read_text(r)?.to_owned();
            if allow && !is_script_path(&path, Side::Read) {
                return Err(r.error_at(at, Kind::InvalidScriptPath(path)));
            }
            ContainerType::Script(path)
        }
    };
    Ok(written.with_objects(allow))
}

/// A full object's `script` property: nil, or a `res://` path (see [`is_script_path`]).
pub(crate) fn check_script_value(value: &Value) -> Result<(), Kind> {
    match value {
        Value::Nil => Ok(()),
        Value::String(path) if is_script_path(path, Side::Read) => Ok(()),
        Value::String(path) => Err(Kind::InvalidScriptPath(path.clone())),
        other => Err(Kind::ScriptNotAPath(other.variant_type())),
    }
}

//! Bytes → values, accepting and rejecting exactly what the engine's `decode_variant` does.
//!
//! The decoder reads the format and applies its rules (bounds, types, padding, typed
//! containers' conversions, objects); what the values become is up to a [`Build`]er:
//! [`ValueBuilder`] makes this crate's [`Value`]s, the Godot binding makes engine Variants
//! straight from the bytes.

mod build;
pub(crate) mod rules;

pub use build::{Build, Packed, ValueBuilder};
pub use rules::{RawNodePath, RawText};

use rules::{
    build_scalar, check_script_value, godot2_special, read_container_count, read_header,
    read_inline_math, read_node_path, read_object_id, read_object_start, read_packed,
    read_packed_strings_count, read_rid, read_scalar, read_text, read_typed_container,
    read_windowed_text, reserve,
};

use crate::error::{DecodeError, DecodeErrorKind as Kind};
use crate::godot2;
use crate::header::{ContainerKind, Header, ELEMENT_KIND_SHIFT, VALUE_KIND_SHIFT};
use crate::script::is_script_path_property;
use crate::stack::StackFloor;
use crate::typed::{coerce, stores_as_is};
use crate::types::{Generation, Godot2Type, VariantType};
use crate::value::{ContainerType, FullObject, Object, Reals, Signal, Value};
use crate::wire::Reader;
use crate::{within_depth, DecodeOptions};

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
    /// The texts of the NodePath read last (see [`read_node_path`]).
    node_path_texts: Vec<&'a str>,
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
            node_path_texts: Vec::new(),
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
            node_path_texts: Vec::new(),
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
                let raw = read_windowed_text(&mut self.r)?;
                return self.b.raw_string(&raw);
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
                // through its `Option`, each value would be copied once more, 16 bytes
                // read back from two 8-byte writes (a failed store-to-load forward on x86).
                let Some(shape) = t.math_components() else {
                    unreachable!("{t} is a math type");
                };
                return read_inline_math(&mut self.r, t, shape, self.b);
            }
            T::NodePath => {
                let path = read_node_path(&mut self.r, self.generation, &mut self.node_path_texts)?;
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
                    let jumped = raw.encoded_len() >= LONG_TEXT;
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
    /// its tag alone, and moving it reads that back 16 bytes at a time, which waits for the
    /// write to reach the cache (twice per Dictionary, a cost a small one feels).
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
        // the builder as its text (see `Build::text_key`). That path reads the key
        // without `value`, so it is taken only where `value` would accept the key's depth.
        let string_header = self
            .generation
            .wire_id(VariantType::String)
            .filter(|_| *key_type == UNTYPED || !B::CHECKS_ELEMENTS)
            .filter(|_| within_depth(depth + 1, self.opts.max_depth));
        for _ in 0..count {
            if string_header.is_some() && self.r.peek_u32() == string_header {
                self.r.skip_unchecked(4);
                let raw = read_windowed_text(&mut self.r)?;
                match self.b.text_key(&raw)? {
                    Some(key) => {
                        let value = self.value(depth + 1)?;
                        self.b.insert(&mut dictionary, key, value)?;
                    }
                    None => {
                        let key = raw.text()?;
                        let value = self.value(depth + 1)?;
                        self.b.insert_text_key(&mut dictionary, key, value)?;
                    }
                }
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

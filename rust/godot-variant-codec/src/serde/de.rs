//! The serde [`Deserializer`]: Godot values read with the decoder's rules and handed to
//! serde visitors, borrowing strings and bytes from the input.

use ::serde::de::value::{BorrowedStrDeserializer, MapDeserializer};
use ::serde::de::{self, DeserializeSeed, EnumAccess, VariantAccess, Visitor};

mod access;

use access::{packed_seq, plain_seq, whole, Entries, Field, Items, ObjectFields, OBJECT_FIELDS};

use super::godot::{reserved_type, Payload};
use super::ser::SHALLOW;
use super::Error;
use crate::decode::rules::{
    godot2_special, read_container_count, read_float, read_header, read_int, read_node_path_text,
    read_object_id, read_object_start, read_packed, read_packed_strings_count, read_rid,
    read_short_array, read_short_dictionary, read_short_number, read_short_string,
    read_sized_value, read_text, read_typed_container, reserve, NODE_PATH_ROOM,
};
use crate::decode::{Packed, RawText};
use crate::error::DecodeErrorKind as Kind;
use crate::godot2::{FormValue, Godot2Value};
use crate::header::{ContainerKind, Header, ELEMENT_KIND_SHIFT, VALUE_KIND_SHIFT};
use crate::types::{Component, Generation, VariantType};
use crate::wire::Reader;
use crate::{within_depth, DecodeOptions, StackRoom};

/// Reads Godot values from bytes for serde (see [`crate::serde`] for the mapping).
/// [`from_slice`](super::from_slice) is the usual way in.
pub struct Deserializer<'de> {
    /// Reads from the start of the input: its positions are the errors' offsets.
    r: Reader<'de>,
    opts: DecodeOptions,
    /// Nesting of the value read next (0: the top-level value).
    depth: usize,
    /// Elements that may still be reserved ahead of reading them, for the whole input (the
    /// decoder's budget: a quarter of the input's length).
    reservable: usize,
    /// A NodePath's text, which the input does not hold in one piece: made here and lent
    /// to the visitor, so that one allocation serves every NodePath read.
    node_path_text: String,
    /// The texts of the NodePath read last, when it is not joined as it is read (see
    /// [`read_node_path_text`]).
    node_path_texts: Vec<&'de str>,
}

/// What the visitor asked for, where that changes how a value is handed over.
#[derive(Clone, Copy)]
enum Hint {
    Any,
    Option,
    Bytes,
    Enum,
    /// The payload of a math or packed type (a reserved newtype name).
    Payload(Payload),
}

impl<'de> Deserializer<'de> {
    /// A deserializer of the value at the start of `bytes`.
    pub fn new(bytes: &'de [u8], opts: &DecodeOptions) -> Self {
        Deserializer {
            r: Reader::new(bytes, 0),
            opts: *opts,
            depth: 0,
            reservable: bytes.len() / 4,
            node_path_text: String::new(),
            node_path_texts: Vec::new(),
        }
    }

    /// Bytes consumed so far, counted like [`decode`](crate::decode).
    pub fn consumed(&self) -> usize {
        self.r.consumed()
    }

    /// One value; an error its visitor made without an offset gets the value's.
    #[inline]
    fn value<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value, Error> {
        let at = self.r.consumed();
        self.read_value(hint, visitor).map_err(|e| e.located(at))
    }

    /// A value for a visitor that wants an `expected`: when the header says it is one (the
    /// usual case), `read` hands it over straight from the bytes after the header; anything
    /// else goes as `hint` says. An error without an offset gets the value's.
    #[inline(always)]
    fn expecting<V: Visitor<'de>>(
        &mut self,
        expected: VariantType,
        hint: Hint,
        visitor: V,
        read: impl FnOnce(&mut Self, Header, V) -> Result<V::Value, Error>,
    ) -> Result<V::Value, Error> {
        self.check_depth()?;
        let at = self.r.consumed();
        let generation = self.opts.generation;
        match self.r.peek_u32().map(Header::from_word) {
            Some(header) if header.names_type(expected, generation) => {
                self.r.skip_unchecked(4);
                read(self, header, visitor).map_err(|e| e.located(at))
            }
            _ => self.value(hint, visitor),
        }
    }

    /// A value `read_short` reads whole (the usual form of the value a visitor asks for),
    /// handed to `visit`; anything else, and any value beyond `max_depth`, to `other`,
    /// which reads it in full (out of line: what is left stays small enough to be inlined
    /// into the visitor's caller). An error without an offset gets the value's.
    #[inline(always)]
    fn short_or<V: Visitor<'de>, T>(
        &mut self,
        visitor: V,
        read_short: impl FnOnce(&mut Reader<'de>, Generation) -> Option<T>,
        visit: impl FnOnce(&mut Self, V, T) -> Result<V::Value, Error>,
        other: impl FnOnce(&mut Self, V) -> Result<V::Value, Error>,
    ) -> Result<V::Value, Error> {
        let at = self.r.consumed();
        if within_depth(self.depth, self.opts.max_depth) {
            if let Some(short) = read_short(&mut self.r, self.opts.generation) {
                return visit(self, visitor, short).map_err(|e| e.located(at));
            }
        }
        other(self, visitor)
    }

    /// An int, for a visitor of numbers.
    #[inline(always)]
    fn int<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let read_short =
            |r: &mut Reader<'de>, g| read_short_number(r, VariantType::Int, g, read_int);
        self.short_or(visitor, read_short, |_, v, i| v.visit_i64(i), Self::any_int)
    }

    /// Not a short int: an int in full, or any other value.
    #[inline(never)]
    fn any_int<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.expecting(
            VariantType::Int,
            Hint::Any,
            visitor,
            |de, header, visitor| visitor.visit_i64(read_int(&mut de.r, header.is_wide())?),
        )
    }

    /// A float, for a visitor of numbers.
    #[inline(always)]
    fn float<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let read_short =
            |r: &mut Reader<'de>, g| read_short_number(r, VariantType::Float, g, read_float);
        self.short_or(
            visitor,
            read_short,
            |_, v, f| v.visit_f64(f),
            Self::any_float,
        )
    }

    /// Not a short float: a float in full, or any other value.
    #[inline(never)]
    fn any_float<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.expecting(
            VariantType::Float,
            Hint::Any,
            visitor,
            |de, header, visitor| visitor.visit_f64(read_float(&mut de.r, header.is_wide())?),
        )
    }

    /// A String or StringName, for a visitor of strings or identifiers: most texts (keys, names) are
    /// short and plain. Written out, not through [`short_or`](Self::short_or), whose error
    /// check would then wrap the call of `short_text` as well (more work per text where
    /// the text's visitor is inlined).
    #[inline(always)]
    fn string<V: Visitor<'de>, const CHUNK: usize>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let at = self.r.consumed();
        if within_depth(self.depth, self.opts.max_depth) {
            if let Some(raw) = read_short_string::<CHUNK>(&mut self.r, self.opts.generation) {
                return match raw.plain() {
                    Some(text) => visitor
                        .visit_borrowed_str(text)
                        .map_err(|e: Error| e.located(at)),
                    None => Self::short_text(raw, at, visitor),
                };
            }
        }
        self.any_string(visitor)
    }

    /// A String for a visitor of strings: one of up to 24 bytes (most names) on the short
    /// path.
    #[inline(always)]
    fn text<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.string::<V, 32>(visitor)
    }

    /// A String for a visitor of identifiers (keys, the most frequent texts): one of up to
    /// 16 bytes on the short path, which is then small enough to be inlined into the
    /// derived `visit_map`.
    #[inline(always)]
    fn identifier<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.string::<V, 24>(visitor)
    }

    /// A short String that is not plain: its text by every rule.
    #[inline(never)]
    fn short_text<V: Visitor<'de>>(
        raw: RawText<'de>,
        at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor
            .visit_borrowed_str(raw.text()?)
            .map_err(|e: Error| e.located(at))
    }

    /// Not a short String: a String in full, a NodePath (its text), or any other value.
    #[inline(never)]
    fn any_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let node_path = self
            .r
            .peek_u32()
            .map(Header::from_word)
            .is_some_and(|header| header.names_type(VariantType::NodePath, self.opts.generation));
        if node_path && within_depth(self.depth, self.opts.max_depth) {
            let at = self.r.consumed();
            self.r.skip_unchecked(4);
            return self.node_path(visitor).map_err(|e| e.located(at));
        }
        self.expecting(VariantType::String, Hint::Any, visitor, |de, _, visitor| {
            visitor.visit_borrowed_str(read_text(&mut de.r)?)
        })
    }

    /// A NodePath after its header: its text, as the engine's `String(NodePath)` writes
    /// it, lent from a room on the stack (the usual path) or from
    /// [`node_path_text`](Self::node_path_text).
    #[inline(always)]
    fn node_path<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let mut room = [0; NODE_PATH_ROOM];
        let text = read_node_path_text(
            &mut self.r,
            self.opts.generation,
            &mut self.node_path_texts,
            &mut room,
            &mut self.node_path_text,
        )?;
        visitor.visit_str(text)
    }

    /// Runs `visit` over a container's elements, one level deeper: with room on the stack
    /// ([`StackRoom::run`]) once nesting is deep. (Per container, not per element: each
    /// element's seed is then called from one place only, where it can be inlined.)
    #[inline]
    fn inside<R>(&mut self, visit: impl FnOnce(&mut Self) -> R) -> R {
        self.depth += 1;
        let result = if self.depth < SHALLOW {
            visit(self)
        } else {
            StackRoom::CODEC.run(|| visit(self))
        };
        self.depth -= 1;
        result
    }

    #[inline(always)]
    fn header(&mut self) -> Result<(VariantType, Header), Error> {
        self.check_depth()?;
        Ok(read_header(&mut self.r, self.opts.generation)?)
    }

    /// The value read next is within `max_depth`.
    #[inline(always)]
    fn check_depth(&self) -> Result<(), Error> {
        if !within_depth(self.depth, self.opts.max_depth) {
            return Err(self.r.error(Kind::TooDeep(self.opts.max_depth)).into());
        }
        Ok(())
    }

    /// A Godot 2 Image or InputEvent, handed over as its Dictionary form (see
    /// [`crate::godot2`]): a map of its fields.
    #[cold]
    fn godot2_value<V: Visitor<'de>>(
        &mut self,
        t: crate::Godot2Type,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.check_depth()?;
        self.r.skip_unchecked(4);
        let form = Godot2Value::read(&mut self.r, t)?.form();
        let fields = form.into_iter().map(|(key, value)| {
            let value = match value {
                FormValue::Text(text) => Field::Str(text),
                FormValue::Int(i) => Field::I64(i),
                FormValue::Float(f) => Field::F64(f),
                FormValue::Bytes(bytes) => Field::Bytes(bytes),
            };
            (Field::Str(key), value)
        });
        let mut map = MapDeserializer::new(fields);
        let value = visitor.visit_map(&mut map)?;
        map.end()?;
        Ok(value)
    }

    fn read_value<V: Visitor<'de>>(&mut self, hint: Hint, visitor: V) -> Result<V::Value, Error> {
        let generation = self.opts.generation;
        if let Hint::Option = hint {
            let nil = VariantType::Nil.id();
            if self
                .r
                .peek_u32()
                .is_some_and(|word| Header::from_word(word).type_id(generation) == nil)
            {
                self.header()?;
                return visitor.visit_none();
            }
            return visitor.visit_some(self);
        }
        if let Some(special) = godot2_special(&self.r, generation) {
            return self.godot2_value(special, visitor);
        }
        let header_at = self.r.consumed();
        let (t, header) = self.header()?;
        match hint {
            Hint::Bytes if t == VariantType::PackedByteArray => {
                let packed = read_packed(&mut self.r, t, header.wide_reals(generation))?;
                visitor.visit_borrowed_bytes(packed.bytes)
            }
            Hint::Payload(expected) if t == expected.t => self.payload(expected, header, visitor),
            Hint::Enum if matches!(t, VariantType::String | VariantType::StringName) => {
                let name = read_text(&mut self.r)?;
                visitor.visit_enum(BorrowedStrDeserializer::new(name))
            }
            Hint::Enum if t == VariantType::Dictionary => {
                self.container_types(header, &[ELEMENT_KIND_SHIFT, VALUE_KIND_SHIFT])?;
                let count = read_container_count(&mut self.r, "Dictionary count")?;
                if count != 1 {
                    return Err(de::Error::invalid_length(
                        count as usize,
                        &"a Dictionary of one entry, {variant: content}",
                    ));
                }
                self.inside(|de| visitor.visit_enum(de))
            }
            _ => self.any(t, header, header_at, visitor),
        }
    }

    /// A math or packed type after its header: its payload's bytes, borrowed, when they
    /// hold it as the Rust type does (in its precision); else as `deserialize_any` hands
    /// it over (the components, converted one by one).
    #[inline(always)]
    fn payload<V: Visitor<'de>>(
        &mut self,
        expected: Payload,
        header: Header,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let t = expected.t;
        let wide_reals = header.wide_reals(self.opts.generation);
        match self.payload_bytes(t, wide_reals, expected.wide)? {
            Some(bytes) => visitor.visit_borrowed_bytes(bytes),
            // `payload_bytes` read nothing: the header is the 4 bytes before the cursor.
            None => self.any(t, header, self.r.consumed() - 4, visitor),
        }
    }

    /// Not a math type's payload in the Rust type's precision: a packed array's, one in the
    /// other precision, or any other value, for the visitor of the reserved type `p`.
    #[inline(never)]
    fn any_payload<V: Visitor<'de>>(&mut self, p: Payload, visitor: V) -> Result<V::Value, Error> {
        self.expecting(p.t, Hint::Payload(p), visitor, |de, header, visitor| {
            de.payload(p, header, visitor)
        })
    }

    /// The payload of the math or packed type `t` as the Rust type holds it (its `real_t`
    /// components `f64` when `wide_target`), borrowed; `None` when the bytes hold it in the
    /// other precision (`wide_reals`: the header's, see [`Header::wide_reals`]).
    #[inline(always)]
    fn payload_bytes(
        &mut self,
        t: VariantType,
        wide_reals: bool,
        wide_target: bool,
    ) -> Result<Option<&'de [u8]>, Error> {
        if t.math_components().is_some() {
            return match math_payload_size(t, wide_reals, wide_target) {
                Some(size) => Ok(Some(self.r.take(size, t.name())?)),
                None => Ok(None),
            };
        }
        let element_size = Packed::element_size(t, wide_target);
        if element_size == 0 || Packed::element_size(t, wide_reals) != element_size {
            // A PackedStringArray (no plain elements), or vectors in the other precision.
            return Ok(None);
        }
        Ok(Some(read_packed(&mut self.r, t, wide_reals)?.bytes))
    }

    /// Reads (checks) a typed container's element types; the serde mapping drops them.
    #[inline(always)]
    fn container_types(&mut self, header: Header, shifts: &[u32]) -> Result<(), Error> {
        if header.is_untyped_container(self.opts.generation) {
            // Untyped, the usual case: nothing to read, and no call.
            return Ok(());
        }
        self.typed_container_types(header, shifts)
    }

    #[inline(never)]
    fn typed_container_types(&mut self, header: Header, shifts: &[u32]) -> Result<(), Error> {
        for &shift in shifts {
            match header.container_kind(shift, self.opts.generation) {
                ContainerKind::Untyped => {}
                kind => {
                    read_typed_container(&mut self.r, kind, self.opts.allow_objects)?;
                }
            }
        }
        Ok(())
    }

    /// Elements to reserve room for: at most what the rest of the input can hold.
    #[inline]
    fn size_hint(&mut self, count: u32, min_size: usize) -> usize {
        reserve(count, min_size, self.r.remaining(), &mut self.reservable)
    }

    /// Any value, as `deserialize_any` hands it over (see the module docs).
    #[inline(always)]
    fn any<V: Visitor<'de>>(
        &mut self,
        t: VariantType,
        header: Header,
        header_at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        use VariantType as T;
        let wide = header.is_wide();
        let r = &mut self.r;
        match t {
            T::Nil | T::Callable => visitor.visit_unit(),
            T::Bool => visitor.visit_bool(r.read::<u32>("bool")? != 0),
            T::Int => visitor.visit_i64(read_int(r, wide)?),
            T::Float => visitor.visit_f64(read_float(r, wide)?),
            T::String | T::StringName => visitor.visit_borrowed_str(read_text(r)?),
            _ => self.any_other(t, header, header_at, visitor),
        }
    }

    /// The types `any` keeps out of line: all but the plain scalars, which most values are.
    #[inline(never)]
    fn any_other<V: Visitor<'de>>(
        &mut self,
        t: VariantType,
        header: Header,
        header_at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        use VariantType as T;
        let generation = self.opts.generation;
        let wide_reals = header.wide_reals(generation);
        let r = &mut self.r;
        match t {
            T::NodePath => self.node_path(visitor),
            T::Rid => visitor.visit_u64(read_rid(r, generation)?),
            T::Object if header.is_wide() || !generation.has_object_payload() => {
                match read_object_id(r, generation)? {
                    0 => visitor.visit_unit(),
                    id => visitor.visit_u64(id),
                }
            }
            T::Object => self.full_object(header_at, visitor),
            T::Signal => {
                let name = read_text(r)?;
                let object_id = r.read::<u64>("Signal object id")?;
                let fields = [
                    ("name", Field::Str(name)),
                    ("object_id", Field::U64(object_id)),
                ];
                de::Deserializer::deserialize_any(MapDeserializer::new(fields.into_iter()), visitor)
            }
            T::Array => {
                self.container_types(header, &[ELEMENT_KIND_SHIFT])?;
                let count = read_container_count(&mut self.r, "Array count")?;
                self.items(count, visitor)
            }
            T::Dictionary => self.dictionary(header, visitor),
            T::PackedStringArray => {
                let count = read_packed_strings_count(r)?;
                let hint = self.size_hint(count as u32, 4);
                let strings = Items::<true> {
                    de: self,
                    left: count,
                    hint,
                };
                strings.visit(visitor)
            }
            _ => match t.math_components() {
                Some((n, component)) => match (component, wide_reals) {
                    (Component::Real, true) => {
                        plain_seq::<f64, V>(r.take(n * 8, t.name())?, visitor)
                    }
                    (Component::I32, _) => plain_seq::<i32, V>(r.take(n * 4, t.name())?, visitor),
                    _ => plain_seq::<f32, V>(r.take(n * 4, t.name())?, visitor),
                },
                None => packed_seq(read_packed(r, t, wide_reals)?, visitor),
            },
        }
    }

    /// An Array's `count` elements, as a visitor's sequence.
    #[inline(always)]
    fn items<V: Visitor<'de>>(&mut self, count: u32, visitor: V) -> Result<V::Value, Error> {
        let hint = self.size_hint(count, 4);
        self.inside(|de| {
            let items = Items::<false> {
                de,
                left: count as usize,
                hint,
            };
            items.visit(visitor)
        })
    }

    /// A sequence (a tuple, a `Vec`…): from an untyped Array (the usual form) straight into
    /// the visitor's sequence; from anything else as `deserialize_any` hands it over.
    #[inline]
    fn seq_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let visit = |de: &mut Self, visitor, count| de.items(count, visitor);
        self.short_or(visitor, read_short_array, visit, Self::any_seq)
    }

    /// Not an untyped Array: any value, for a sequence.
    #[inline(never)]
    fn any_seq<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.any_value(visitor)
    }

    /// Whatever value the bytes hold, as `deserialize_any` hands it over.
    #[inline]
    fn any_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.value(Hint::Any, visitor)
    }

    /// A Dictionary after its header, as a visitor's map.
    #[inline(always)]
    fn dictionary<V: Visitor<'de>>(
        &mut self,
        header: Header,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container_types(header, &[ELEMENT_KIND_SHIFT, VALUE_KIND_SHIFT])?;
        let count = read_container_count(&mut self.r, "Dictionary count")?;
        self.entries(count, visitor)
    }

    /// A Dictionary's `count` entries, as a visitor's map.
    #[inline(always)]
    fn entries<V: Visitor<'de>>(&mut self, count: u32, visitor: V) -> Result<V::Value, Error> {
        let hint = self.size_hint(count, 8);
        self.inside(|de| Entries::<false>::new(de, count as usize, hint).visit(visitor))
    }

    /// A struct: from a Dictionary (the usual form) straight into the visitor's map; from
    /// anything else as `deserialize_any` hands it over.
    #[inline]
    fn struct_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let visit = |de: &mut Self, visitor, count| de.entries(count, visitor);
        self.short_or(visitor, read_short_dictionary, visit, Self::any_struct)
    }

    /// Not an untyped Dictionary: a typed one, or any other value, for a struct.
    #[inline(never)]
    fn any_struct<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.expecting(
            VariantType::Dictionary,
            Hint::Any,
            visitor,
            |de, header, visitor| de.dictionary(header, visitor),
        )
    }

    /// A full object (only with `allow_objects`): `{"class": …, "properties": {…}}`.
    fn full_object<V: Visitor<'de>>(
        &mut self,
        header_at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let start = read_object_start(&mut self.r, header_at, &self.opts, self.opts.generation)?;
        let Some((class, count)) = start else {
            return visitor.visit_unit();
        };
        let hint = self.size_hint(count, 8);
        let count = count as usize;
        self.inside(|de| {
            let mut object = ObjectFields {
                de,
                class,
                properties: count,
                hint,
                next: 0,
            };
            let value = visitor.visit_map(&mut object)?;
            whole(OBJECT_FIELDS.len() - object.next, value)
        })
    }
}

/// The size of the math type `t`'s payload, when its bytes hold it as the Rust type does:
/// its `real_t` components `f64` when `wide_target`, as `wide` (the header's flag) says
/// they are (`None` when they are in the other precision, or `t` is no math type).
#[inline(always)]
fn math_payload_size(t: VariantType, wide: bool, wide_target: bool) -> Option<usize> {
    let (n, component) = t.math_components()?;
    match component {
        Component::Real if wide != wide_target => None,
        Component::Real if wide => Some(n * 8),
        _ => Some(n * 4),
    }
}

/// An enum variant with content: the one entry of a Dictionary, `{variant: content}`.
impl<'de> EnumAccess<'de> for &mut Deserializer<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let variant = seed.deserialize(&mut *self)?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.value(Hint::Any, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.value(Hint::Any, visitor)
    }
}

/// `deserialize_*` methods that read through `$read`: `any_value` hands over whatever the
/// bytes hold; numbers, strings and sequences (the values of most fields) take the short
/// path of `int`, `float`, `text`, `identifier` or `seq_value`, anything else being handed
/// over as it is.
macro_rules! read_with {
    ($read:ident: $($method:ident$(($($arg:ident: $ty:ty),*))?),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, Error> {
            $($(let _ = $arg;)*)?
            self.$read(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    read_with!(any_value:
        deserialize_any, deserialize_bool, deserialize_char, deserialize_unit, deserialize_map,
        deserialize_ignored_any,
        deserialize_unit_struct(name: &'static str)
    );
    read_with!(seq_value:
        deserialize_seq,
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize)
    );

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.struct_value(visitor)
    }

    read_with!(int: deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64,
        deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64,
        deserialize_u128);
    read_with!(float: deserialize_f32, deserialize_f64);
    read_with!(text: deserialize_str, deserialize_string);
    read_with!(identifier: deserialize_identifier);

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value(Hint::Bytes, visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value(Hint::Bytes, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.value(Hint::Option, visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let Some(p) = reserved_type(name) else {
            return visitor.visit_newtype_struct(self);
        };
        // A math type in the Rust type's precision: its payload, borrowed.
        let read_short = |r: &mut Reader<'de>, generation| {
            let size =
                |header: Header| math_payload_size(p.t, header.wide_reals(generation), p.wide);
            read_sized_value(r, p.t, generation, size)
        };
        let visit =
            |_: &mut Deserializer<'de>, visitor: V, payload| visitor.visit_borrowed_bytes(payload);
        self.short_or(visitor, read_short, visit, |de, visitor| {
            de.any_payload(p, visitor)
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.value(Hint::Enum, visitor)
    }
}

//! How a container's elements reach a visitor: serde's `SeqAccess` and `MapAccess` over
//! Arrays, packed arrays, Dictionaries and full objects, and the fields of values handed
//! over as maps.

use ::serde::de::value::{
    BorrowedStrDeserializer, F32Deserializer, F64Deserializer, I32Deserializer, I64Deserializer,
    SeqDeserializer, U8Deserializer,
};
use ::serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use ::serde::forward_to_deserialize_any;

use super::{Deserializer, Error};
use crate::decode::rules::{check_script_value, read_text};
use crate::decode::{Decoder, Packed};
use crate::script::is_script_path_property;
use crate::types::VariantType;
use crate::wire::Plain;
use crate::ValueBuilder;

/// `value`, when the visitor took every element of its container.
#[inline]
pub(super) fn whole<T>(left: usize, value: T) -> Result<T, Error> {
    if left == 0 {
        Ok(value)
    } else {
        Err(Error::message(format!(
            "{left} more elements than the target takes"
        )))
    }
}

/// A packed array's plain element, handed to a visitor as what it is.
pub(super) trait Element<'de>: Plain {
    type De: de::Deserializer<'de, Error = Error>;
    fn into_de(self) -> Self::De;
}

macro_rules! scalar_elements {
    ($($t:ty => $de:ident),*) => {$(
        impl<'de> Element<'de> for $t {
            type De = $de<Error>;
            fn into_de(self) -> $de<Error> {
                self.into_deserializer()
            }
        }
    )*};
}
scalar_elements!(u8 => U8Deserializer, i32 => I32Deserializer, i64 => I64Deserializer,
    f32 => F32Deserializer, f64 => F64Deserializer);

/// A vector's or Color's components: a sequence.
impl<'de, T: Plain + IntoDeserializer<'de, Error>, const N: usize> Element<'de> for [T; N] {
    type De = SeqDeserializer<std::array::IntoIter<T, N>, Error>;
    fn into_de(self) -> Self::De {
        SeqDeserializer::new(self.into_iter())
    }
}

/// Plain elements in the input's bytes, read one by one.
struct PlainSeq<'de, T> {
    bytes: &'de [u8],
    _element: std::marker::PhantomData<T>,
}

impl<'de, T: Element<'de>> SeqAccess<'de> for PlainSeq<'de, T> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if self.bytes.is_empty() {
            return Ok(None);
        }
        let (element, rest) = self.bytes.split_at(T::SIZE);
        self.bytes = rest;
        seed.deserialize(T::from_le(element).into_de()).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.bytes.len() / T::SIZE)
    }
}

/// A visitor's sequence of the plain `T`s in `bytes` (a whole number of them).
pub(super) fn plain_seq<'de, T: Element<'de>, V: Visitor<'de>>(
    bytes: &'de [u8],
    visitor: V,
) -> Result<V::Value, Error> {
    let mut seq = PlainSeq::<T> {
        bytes,
        _element: std::marker::PhantomData,
    };
    let value = visitor.visit_seq(&mut seq)?;
    whole(seq.bytes.len() / T::SIZE, value)
}

/// A packed array of plain elements, as a visitor's sequence of them.
pub(super) fn packed_seq<'de, V: Visitor<'de>>(
    p: Packed<'de>,
    visitor: V,
) -> Result<V::Value, Error> {
    use VariantType as T;
    match (p.array_type, p.wide) {
        (T::PackedByteArray, _) => plain_seq::<u8, V>(p.bytes, visitor),
        (T::PackedInt32Array, _) => plain_seq::<i32, V>(p.bytes, visitor),
        (T::PackedInt64Array, _) => plain_seq::<i64, V>(p.bytes, visitor),
        (T::PackedFloat32Array, _) => plain_seq::<f32, V>(p.bytes, visitor),
        (T::PackedFloat64Array, _) => plain_seq::<f64, V>(p.bytes, visitor),
        (T::PackedColorArray, _) => plain_seq::<[f32; 4], V>(p.bytes, visitor),
        (T::PackedVector2Array, false) => plain_seq::<[f32; 2], V>(p.bytes, visitor),
        (T::PackedVector2Array, true) => plain_seq::<[f64; 2], V>(p.bytes, visitor),
        (T::PackedVector3Array, false) => plain_seq::<[f32; 3], V>(p.bytes, visitor),
        (T::PackedVector3Array, true) => plain_seq::<[f64; 3], V>(p.bytes, visitor),
        (_, false) => plain_seq::<[f32; 4], V>(p.bytes, visitor),
        (_, true) => plain_seq::<[f64; 4], V>(p.bytes, visitor),
    }
}

/// An Array's elements, or with `STRINGS` a PackedStringArray's strings (borrowed): a const
/// parameter, as `Entries`' `PROPERTIES`, so that an Array's elements test nothing of it.
pub(super) struct Items<'a, 'de, const STRINGS: bool> {
    pub(super) de: &'a mut Deserializer<'de>,
    pub(super) left: usize,
    pub(super) hint: usize,
}

impl<'de, const STRINGS: bool> Items<'_, 'de, STRINGS> {
    #[inline]
    pub(super) fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let value = visitor.visit_seq(&mut self)?;
        whole(self.left, value)
    }
}

impl<'de, const STRINGS: bool> SeqAccess<'de> for Items<'_, 'de, STRINGS> {
    type Error = Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        if STRINGS {
            let text = read_text(&mut self.de.r)?;
            return seed
                .deserialize(BorrowedStrDeserializer::new(text))
                .map(Some);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.hint)
    }
}

/// A Dictionary's entries, or with `PROPERTIES` a full object's properties (keys are then
/// names, and the `script` property's value is checked as the decoder checks it). A const
/// parameter rather than a field, so that a Dictionary's entries (the common case) test
/// nothing of it per entry.
pub(super) struct Entries<'a, 'de, const PROPERTIES: bool> {
    de: &'a mut Deserializer<'de>,
    left: usize,
    hint: usize,
    /// A key was read and its value not yet.
    value_pending: bool,
    /// The pending value is a full object's `script`.
    script_pending: bool,
}

impl<'a, 'de, const PROPERTIES: bool> Entries<'a, 'de, PROPERTIES> {
    pub(super) fn new(de: &'a mut Deserializer<'de>, left: usize, hint: usize) -> Self {
        Entries {
            de,
            left,
            hint,
            value_pending: false,
            script_pending: false,
        }
    }

    pub(super) fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let value = visitor.visit_map(&mut self)?;
        whole(self.left + usize::from(self.value_pending), value)
    }
}

impl<'de, const PROPERTIES: bool> MapAccess<'de> for Entries<'_, 'de, PROPERTIES> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.value_pending = true;
        if PROPERTIES {
            let name = read_text(&mut self.de.r)?;
            self.script_pending = is_script_path_property(name, self.de.opts.generation);
            return seed
                .deserialize(BorrowedStrDeserializer::new(name))
                .map(Some);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        self.value_pending = false;
        if PROPERTIES && std::mem::take(&mut self.script_pending) {
            check_script(self.de)?;
        }
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.hint)
    }
}

/// A full object's `script` property, about to be read: nil or a `res://` path, checked
/// on the value model as the decoder checks it.
fn check_script(de: &mut Deserializer<'_>) -> Result<(), Error> {
    let value_at = de.r.consumed();
    let mut values = ValueBuilder;
    let value = Decoder::new(de.r.clone(), &de.opts, &mut values).value(de.depth)?;
    check_script_value(&value).map_err(|kind| de.r.error_at(value_at, kind))?;
    Ok(())
}

/// The keys of a full object's map.
pub(super) const OBJECT_FIELDS: [&str; 2] = ["class", "properties"];

/// A full object as a map: its class, then its properties.
pub(super) struct ObjectFields<'a, 'de> {
    pub(super) de: &'a mut Deserializer<'de>,
    pub(super) class: &'de str,
    pub(super) properties: usize,
    pub(super) hint: usize,
    /// Index in `OBJECT_FIELDS` of the next key.
    pub(super) next: usize,
}

impl<'de> MapAccess<'de> for ObjectFields<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match OBJECT_FIELDS.get(self.next) {
            Some(&key) => seed
                .deserialize(BorrowedStrDeserializer::new(key))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        self.next += 1;
        if self.next == 1 {
            seed.deserialize(BorrowedStrDeserializer::new(self.class))
        } else {
            seed.deserialize(Properties {
                entries: Entries::new(&mut *self.de, self.properties, self.hint),
            })
        }
    }
}

/// A full object's properties, as a map of names to values.
struct Properties<'a, 'de> {
    entries: Entries<'a, 'de, true>,
}

impl<'de> de::Deserializer<'de> for Properties<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.entries.visit(visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A field of a value handed over as a map (a Signal, a Godot 2 Image or InputEvent).
pub(super) enum Field<'de> {
    Str(&'de str),
    U64(u64),
    I64(i64),
    F64(f64),
    /// A PackedByteArray's bytes: a sequence of `u8`, or bytes for a visitor of bytes.
    Bytes(Vec<u8>),
}

impl<'de> IntoDeserializer<'de, Error> for Field<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Field<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Field::Str(s) => visitor.visit_borrowed_str(s),
            Field::U64(x) => visitor.visit_u64(x),
            Field::I64(i) => visitor.visit_i64(i),
            Field::F64(f) => visitor.visit_f64(f),
            Field::Bytes(b) => visitor.visit_seq(SeqDeserializer::new(b.into_iter())),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Field::Bytes(b) => visitor.visit_byte_buf(b),
            other => other.deserialize_any(visitor),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

//! The serde [`Serializer`]: serde's data model written through the crate's [`Encoder`].

use ::serde::ser::{self, Serialize};

use super::godot::{reserved_type, write_math, Payload};
use super::Error;
use crate::decode::Packed;
use crate::error::EncodeErrorKind;
use crate::types::VariantType;
use crate::value::ContainerType;
use crate::wire::plain_items;
use crate::{EncodeOptions, Encoder, StackRoom};

/// Containers nested less deeply than this run on the current stack; deeper ones each run
/// with room on the stack ([`StackRoom::run`]), which costs a check of the stack per
/// level. Few: a level of an unoptimized build takes many KiB of stack, and threads with
/// small stacks (256 KiB) must hold them.
pub(super) const SHALLOW: usize = 8;

/// Writes serde's data model as Godot values into a `Vec<u8>` (see [`crate::serde`] for
/// the mapping). [`to_vec`](super::to_vec) and [`encode_into`](super::encode_into) are the
/// usual way in; after an error, the bytes written so far are to be discarded.
pub struct Serializer<'o> {
    enc: Encoder<&'o mut Vec<u8>>,
    /// Nesting of the values the current container holds (0: the top-level value).
    depth: usize,
    /// The Godot type whose payload the next value is: set by a reserved newtype name
    /// (math and packed types), taken by the bytes, sequence or string that follows.
    payload_of: Option<Payload>,
}

impl<'o> Serializer<'o> {
    /// A serializer appending to `out`.
    pub fn new(out: &'o mut Vec<u8>, opts: EncodeOptions) -> Self {
        Serializer {
            enc: Encoder::new(out, opts),
            depth: 0,
            payload_of: None,
        }
    }

    fn encode_error(&self, kind: EncodeErrorKind) -> Error {
        self.enc.error(kind).into()
    }

    /// One value held by the current container, at its depth.
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.enc.check_depth(self.depth)?;
        if self.depth < SHALLOW {
            value.serialize(self)
        } else {
            StackRoom::CODEC.run(|| value.serialize(self))
        }
    }

    /// Starts a container whose elements follow, nested one level deeper.
    #[inline]
    fn begin(
        &mut self,
        what: VariantType,
        announced: Option<usize>,
    ) -> Result<Compound<'_, 'o>, Error> {
        let announced = announced.unwrap_or(0);
        match what {
            VariantType::Dictionary => self.enc.begin_dictionary(
                &ContainerType::Untyped,
                &ContainerType::Untyped,
                announced,
            )?,
            VariantType::Array => self.enc.begin_array(&ContainerType::Untyped, announced)?,
            _ => self.enc.begin_packed_strings(announced)?,
        }
        let outer_depth = self.depth;
        self.depth += 1;
        Ok(Compound {
            // The count is the last word each start writes.
            count_at: self.enc.sink().len() - 4,
            what,
            announced,
            written: 0,
            outer_depth,
            ser: self,
        })
    }

    /// An enum variant with content: a Dictionary of one entry, `{variant: content}`.
    fn begin_variant(&mut self, variant: &str) -> Result<(), Error> {
        self.enc
            .begin_dictionary(&ContainerType::Untyped, &ContainerType::Untyped, 1)?;
        self.enc.check_depth(self.depth + 1)?;
        self.enc.string(variant)?;
        Ok(())
    }

    /// An enum variant whose content is an Array (tuple variant) or Dictionary (struct
    /// variant): `{variant: content}`, then the content's elements follow.
    fn begin_variant_content(
        &mut self,
        variant: &str,
        what: VariantType,
        len: usize,
    ) -> Result<Compound<'_, 'o>, Error> {
        self.begin_variant(variant)?;
        self.depth += 1;
        let mut content = self.begin(what, Some(len))?;
        // The end returns to the enum value's depth, outside the one-entry Dictionary.
        content.outer_depth -= 1;
        Ok(content)
    }

    /// The payload of a math or packed type, as its little-endian bytes.
    fn payload_bytes(&mut self, payload: Payload, bytes: &[u8]) -> Result<(), Error> {
        self.enc.check_type(payload.t)?;
        if write_math(&mut self.enc, payload, bytes).is_some() {
            return Ok(());
        }
        let Payload { t, wide } = payload;
        let element_size = Packed::element_size(t, wide);
        if element_size == 0 || !bytes.len().is_multiple_of(element_size) {
            return Err(Error::message(format!(
                "{} bytes are not the payload of a {t}",
                bytes.len()
            )));
        }
        use VariantType as T;
        let enc = &mut self.enc;
        Ok(match t {
            T::PackedByteArray => enc.packed_bytes(bytes),
            T::PackedInt32Array => enc.packed_int32s(&plain_items(bytes)),
            T::PackedInt64Array => enc.packed_int64s(&plain_items(bytes)),
            T::PackedFloat32Array => enc.packed_float32s(&plain_items(bytes)),
            T::PackedFloat64Array => enc.packed_float64s(&plain_items(bytes)),
            T::PackedColorArray => enc.packed_colors(&plain_items(bytes)),
            T::PackedVector2Array if wide => enc.packed_vectors::<f64, 2>(t, &plain_items(bytes)),
            T::PackedVector3Array if wide => enc.packed_vectors::<f64, 3>(t, &plain_items(bytes)),
            _ if wide => enc.packed_vectors::<f64, 4>(t, &plain_items(bytes)),
            T::PackedVector2Array => enc.packed_vectors::<f32, 2>(t, &plain_items(bytes)),
            T::PackedVector3Array => enc.packed_vectors::<f32, 3>(t, &plain_items(bytes)),
            _ => enc.packed_vectors::<f32, 4>(t, &plain_items(bytes)),
        }?)
    }

    fn int<T: TryInto<i64> + std::fmt::Display + Copy>(&mut self, v: T) -> Result<(), Error> {
        let i = v
            .try_into()
            .map_err(|_| Error::message(format!("{v} does not fit in Godot's 64-bit int")))?;
        self.enc.check_int(i)?;
        self.enc.int(i);
        Ok(())
    }
}

/// `serialize_*` methods of integers that always fit in Godot's 64-bit int.
macro_rules! widening_ints {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
    )*};
}

impl<'a, 'o> ser::Serializer for &'a mut Serializer<'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Compound<'a, 'o>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Compound<'a, 'o>;
    type SerializeMap = Compound<'a, 'o>;
    type SerializeStruct = Compound<'a, 'o>;
    type SerializeStructVariant = Compound<'a, 'o>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.enc.bool(v);
        Ok(())
    }

    widening_ints!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32
    );

    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.enc.check_int(v)?;
        self.enc.int(v);
        Ok(())
    }

    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.int(v)
    }

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.int(v)
    }

    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.int(v)
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.enc.float(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        match self.payload_of.take() {
            Some(p) if p.t == VariantType::PackedStringArray => self.enc.packed_string(v)?,
            _ => self.enc.string(v)?,
        }
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        match self.payload_of.take() {
            Some(t) => self.payload_bytes(t, v),
            None => Ok(self.enc.packed_bytes(v)?),
        }
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.enc.nil();
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let Some(t) = reserved_type(name) else {
            return value.serialize(self);
        };
        self.payload_of = Some(t);
        value.serialize(&mut *self)?;
        match self.payload_of.take() {
            None => Ok(()),
            Some(p) => Err(Error::message(format!(
                "the payload of a {} is neither its bytes nor its strings",
                p.t
            ))),
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.begin_variant(variant)?;
        self.depth += 1;
        let result = self.element(value);
        self.depth -= 1;
        result
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'o>, Error> {
        match self.payload_of.take() {
            Some(p) if p.t == VariantType::PackedStringArray => {
                self.begin(VariantType::PackedStringArray, len)
            }
            Some(p) => Err(Error::message(format!(
                "a sequence is not the payload of a {}",
                p.t
            ))),
            None => self.begin(VariantType::Array, len),
        }
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'o>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        self.begin_variant_content(variant, VariantType::Array, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'o>, Error> {
        self.begin(VariantType::Dictionary, len)
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'o>, Error> {
        self.begin(VariantType::Dictionary, Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Error> {
        self.begin_variant_content(variant, VariantType::Dictionary, len)
    }
}

/// An Array, Dictionary or PackedStringArray being written: its elements follow, then
/// `end`, which corrects the count when it was not known or not kept to (`#[serde(flatten)]`
/// maps, iterators without an exact length).
pub struct Compound<'a, 'o> {
    ser: &'a mut Serializer<'o>,
    what: VariantType,
    /// Where the count word is.
    count_at: usize,
    announced: usize,
    written: usize,
    /// The serializer's depth to return to at the end.
    outer_depth: usize,
}

impl Compound<'_, '_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if self.what == VariantType::PackedStringArray {
            self.ser.payload_of = Some(Payload {
                t: VariantType::PackedStringArray,
                wide: false,
            });
            value.serialize(&mut *self.ser)?;
            if self.ser.payload_of.take().is_some() {
                return Err(Error::message(
                    "a PackedStringArray element is not a string",
                ));
            }
        } else {
            self.ser.element(value)?;
        }
        self.written += 1;
        Ok(())
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        self.ser.depth = self.outer_depth;
        if self.written != self.announced {
            let count = u32::try_from(self.written)
                .ok()
                .filter(|&c| c <= i32::MAX as u32)
                .ok_or_else(|| {
                    self.ser.encode_error(EncodeErrorKind::TooLong {
                        what: self.what,
                        len: self.written,
                    })
                })?;
            let out: &mut Vec<u8> = self.ser.enc.sink_mut();
            out[self.count_at..self.count_at + 4].copy_from_slice(&count.to_le_bytes());
        }
        Ok(())
    }
}

/// The serde traits of a sequence-like compound: each element is written as it comes.
macro_rules! sequence_compound {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}
sequence_compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.ser.element(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// The serde traits of a struct-like compound: a Dictionary keyed by the field names.
macro_rules! struct_compound {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.ser.enc.check_depth(self.ser.depth)?;
                self.ser.enc.string(key)?;
                self.element(value)
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}
struct_compound!(SerializeStruct, SerializeStructVariant);

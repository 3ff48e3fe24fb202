//! serde's own share of decoding a message, the floor of any serde format: a deserializer
//! that knows where these messages hold their fields and checks nothing. It hands the
//! derived visitor the three keys, the id, the name (borrowed from the bytes) and the
//! position's 8 bytes, as `serde::from_slice` does, without reading a header, a length or
//! a key, testing a bound, or applying a text rule.

use serde::de::value::{BorrowedStrDeserializer, Error, I64Deserializer};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;

/// One message's bytes: `{"id": int (32 bits), "name": String, "pos": Vector2}`, the
/// name's length word at byte 44 and its text from byte 48, the position the last 8 bytes.
pub struct Message<'de>(pub &'de [u8]);

struct Fields<'de> {
    bytes: &'de [u8],
    next: usize,
}

const KEYS: [&str; 3] = ["id", "name", "pos"];

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        KEYS.get(self.next)
            .map(|key| seed.deserialize(BorrowedStrDeserializer::new(key)))
            .transpose()
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let bytes = self.bytes;
        self.next += 1;
        match self.next {
            1 => seed.deserialize(I64Deserializer::new(word(bytes, 24) as i32 as i64)),
            2 => {
                let name = &bytes[48..48 + word(bytes, 44) as usize];
                // SAFETY: the bench's names are ASCII (checked by `check_serde_floor`).
                let name = unsafe { std::str::from_utf8_unchecked(name) };
                seed.deserialize(BorrowedStrDeserializer::new(name))
            }
            _ => seed.deserialize(Payload(&bytes[bytes.len() - 8..])),
        }
    }
}

/// A math type's payload, as `serde::from_slice` hands it to `Vector2`'s visitor.
struct Payload<'de>(&'de [u8]);

impl<'de> Deserializer<'de> for Payload<'de> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_bytes(self.0)
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de> Deserializer<'de> for Message<'de> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(Fields {
            bytes: self.0,
            next: 0,
        })
    }
    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

//! serde's view of a value, and the check that the serde front end reads what the
//! decoder reads, in every generation of the format.

use std::fmt;

use godot_variant_codec::serde::{from_slice, ErrorKind};
use godot_variant_codec::{decode, encode, DecodeOptions, EncodeOptions, Generation, Precision};
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// Whatever `deserialize_any` hands over, kept whole (maps with keys of any type).
#[derive(Debug, Clone, PartialEq)]
pub enum Any {
    Unit,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Text(String),
    Bytes(Vec<u8>),
    Seq(Vec<Any>),
    Map(Vec<(Any, Any)>),
}

impl<'de> Deserialize<'de> for Any {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Any, D::Error> {
        struct AnyVisitor;
        impl<'de> Visitor<'de> for AnyVisitor {
            type Value = Any;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("anything")
            }
            fn visit_unit<E>(self) -> Result<Any, E> {
                Ok(Any::Unit)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Any, E> {
                Ok(Any::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Any, E> {
                Ok(Any::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Any, E> {
                Ok(Any::Uint(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Any, E> {
                Ok(Any::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Any, E> {
                Ok(Any::Text(v.into()))
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Any, E> {
                Ok(Any::Bytes(v.into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Any, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Any::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Any::Map(entries))
            }
        }
        d.deserialize_any(AnyVisitor)
    }
}

/// serde (`deserialize_any`) accepts `bytes` exactly when the decoder does, with the same
/// error or the same consumed size; and where `bytes` are the canonical encoding of the
/// value (what the encoder writes for it in the same generation: no duplicate keys, no
/// second BOM…), what serde hands over is what it hands over for that value written in
/// Godot 4. `Err` says how they differ.
pub fn serde_reads_as_decoder(bytes: &[u8], opts: &DecodeOptions) -> Result<(), String> {
    match (from_slice::<Any>(bytes, opts), decode(bytes, opts)) {
        (Ok((ours, ours_used)), Ok((value, used))) => {
            if ours_used != used {
                return Err(format!("serde used {ours_used} bytes, the decoder {used}"));
            }
            let generation = EncodeOptions::new().with_generation(opts.generation);
            let canonical =
                encode(&value, &generation).is_ok_and(|b| bytes.get(..used) == Some(&b[..]));
            // In double precision, so that 64-bit reals stay as they are (32-bit ones are
            // widened exactly: serde hands over the same numbers).
            let write = EncodeOptions::new().with_precision(Precision::Double);
            let (true, Ok(godot4)) = (canonical, encode(&value, &write)) else {
                return Ok(());
            };
            let godot4_opts = opts.with_generation(Generation::GODOT_4);
            let (expected, _) = from_slice::<Any>(&godot4, &godot4_opts)
                .map_err(|e| format!("the Godot 4 form does not read: {e}"))?;
            // Debug forms: NaN equals itself there.
            let (ours, expected) = (format!("{ours:?}"), format!("{expected:?}"));
            if ours != expected {
                return Err(format!("serde read {ours}, the Godot 4 form {expected}"));
            }
            Ok(())
        }
        (Err(e), Err(expected)) if *e.kind() == ErrorKind::Decode(expected.clone()) => Ok(()),
        (ours, expected) => Err(format!(
            "serde {:?}, decoder {:?}",
            ours.map(|(_, n)| n),
            expected.map(|(_, n)| n)
        )),
    }
}

//! The `dict_keys` group: Dictionaries of many distinct keys of one type, decoded into the
//! `Value` model and through serde (into the pairs as read, into a `HashMap`, and into a
//! `Value`).

#[path = "../../examples/dict_keys/keys.rs"]
mod keys;

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{BenchmarkId, SamplingMode, Throughput};
use godot_variant_codec::serde::{Color, Vector2i, Vector3};
use godot_variant_codec::{decode, encode, DecodeOptions, EncodeOptions, Value};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::summary::Entry;
use crate::Bench;

/// The key counts of the `dict_keys` rows, 4× apart so that a row's growth shows whether it
/// is linear, each with its rows' ids (decode, then serde into each [`SerdeTarget`]).
const KEY_COUNTS: [(usize, [&str; 4]); 2] = [
    (
        50_000,
        [
            "decode_50k",
            "serde_pairs_50k",
            "serde_map_50k",
            "serde_value_50k",
        ],
    ),
    (
        200_000,
        [
            "decode_200k",
            "serde_pairs_200k",
            "serde_map_200k",
            "serde_value_200k",
        ],
    ),
];

/// What serde reads a Dictionary into.
#[derive(Clone, Copy)]
enum SerdeTarget {
    /// A `Vec` of the pairs as read, keys that need no heap block of their own: the
    /// codec's work.
    Pairs,
    /// A `HashMap` of the keys a server would keep: the codec's work, each key's
    /// allocation and the map's.
    Map,
    /// The crate's `Value`, through its `Deserialize` (as from any serde format): a
    /// Dictionary whose repeated keys are found as `decode` finds them.
    Value,
}
/// The count whose rows are compared with the int keys' rows.
const KEYS_COMPARED: usize = 200_000;

/// A map's entries in the order read: the deserializer and serde's protocol alone, no map.
struct Pairs<K, V>(Vec<(K, V)>);

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Pairs<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Entries<K, V> {
            type Value = Pairs<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(entry) = map.next_entry()? {
                    pairs.push(entry);
                }
                Ok(Pairs(pairs))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// A PackedByteArray key read in bulk (as the crate's `serde::PackedByteArray`), hashable.
#[derive(PartialEq, Eq, Hash)]
struct ByteKey(Vec<u8>);

impl<'de> Deserialize<'de> for ByteKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        godot_variant_codec::serde::PackedByteArray::deserialize(d).map(|bytes| ByteKey(bytes.0))
    }
}

/// A key's text, read without being kept: handed over as a `&str` (borrowed from the input,
/// or lent from the deserializer's buffer when the input does not hold it in one piece, as
/// a NodePath's text), which the visitor reads (`black_box`) and drops, as a lookup of the
/// key in a table the caller holds would.
struct Text;

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Read;
        impl Visitor<'_> for Read {
            type Value = Text;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a text")
            }
            fn visit_str<E>(self, text: &str) -> Result<Text, E> {
                black_box(text);
                Ok(Text)
            }
        }
        d.deserialize_str(Read)
    }
}

/// How many entries serde reads into a `Vec` of pairs, keys of type `K`.
fn pairs<'de, K: Deserialize<'de>>(bytes: &'de [u8]) -> usize {
    let o = DecodeOptions::default();
    let (pairs, _) = godot_variant_codec::serde::from_slice::<Pairs<K, i64>>(bytes, &o).unwrap();
    pairs.0.len()
}

/// How many entries serde reads into a `HashMap`, keys of type `K`.
fn map<K: for<'de> Deserialize<'de> + std::hash::Hash + Eq>(bytes: &[u8]) -> usize {
    let o = DecodeOptions::default();
    let (map, _) = godot_variant_codec::serde::from_slice::<HashMap<K, i64>>(bytes, &o).unwrap();
    map.len()
}

/// How many entries serde reads into a `Value`.
fn value_entries(bytes: &[u8]) -> usize {
    let o = DecodeOptions::default();
    let (value, _) = godot_variant_codec::serde::from_slice::<Value>(bytes, &o).unwrap();
    value.as_dictionary().map_or(0, |d| d.entries.len())
}

/// The entries of a Dictionary of keys of type `kind`, decoded through serde into `target`.
/// Pairs: texts as [`Text`], bytes borrowed from the input, the others as values (a
/// `Vector2i`, an `(i64, i64)`…). A map: texts as `String`, bytes as a `Vec<u8>`; `None`
/// for key types without `Hash` (float, Vector3, Color).
fn serde_entries(kind: &str, bytes: &[u8], target: SerdeTarget) -> Option<usize> {
    use SerdeTarget::{Map, Pairs};
    Some(match (kind, target) {
        (_, SerdeTarget::Value) => value_entries(bytes),
        ("int", Pairs) => pairs::<i64>(bytes),
        ("int", Map) => map::<i64>(bytes),
        ("float", Pairs) => pairs::<f64>(bytes),
        ("String" | "StringName" | "NodePath", Pairs) => pairs::<Text>(bytes),
        ("String" | "StringName" | "NodePath", Map) => map::<String>(bytes),
        ("Vector2i", Pairs) => pairs::<Vector2i>(bytes),
        ("Vector2i", Map) => map::<Vector2i>(bytes),
        ("Vector3", Pairs) => pairs::<Vector3>(bytes),
        ("Color", Pairs) => pairs::<Color>(bytes),
        ("PackedByteArray", Pairs) => pairs::<&[u8]>(bytes),
        ("PackedByteArray", Map) => map::<ByteKey>(bytes),
        ("Array", Pairs) => pairs::<(i64, i64)>(bytes),
        ("Array", Map) => map::<(i64, i64)>(bytes),
        ("float" | "Vector3" | "Color", Map) => return None,
        (other, _) => panic!("no serde target for {other} keys"),
    })
}

/// Dictionaries of distinct keys of each type, decoded through `decode` and through serde
/// (into pairs, into a map), at each of [`KEY_COUNTS`]; the rows of [`KEYS_COMPARED`] keys
/// are compared with the int keys' own.
pub(crate) fn dict_keys(c: &mut Bench, entries: &mut Vec<Entry>) {
    const G: &str = "dict_keys";
    let dopts = DecodeOptions::default();
    let mut g = c.benchmark_group(G);
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    for kind in keys::KINDS {
        for (n, [decode_id, pairs_id, map_id, value_id]) in KEY_COUNTS {
            let value = keys::dictionary(kind, n);
            let bytes = encode(&value, &EncodeOptions::default()).unwrap();
            assert_eq!(decode(&bytes, &dopts).unwrap().0, value);
            drop(value);
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_function(BenchmarkId::new(kind, decode_id), |b| {
                b.iter(|| decode(black_box(&bytes), &dopts).unwrap())
            });
            let mut ids = vec![decode_id];
            let targets = [
                (pairs_id, SerdeTarget::Pairs),
                (map_id, SerdeTarget::Map),
                (value_id, SerdeTarget::Value),
            ];
            for (id, target) in targets {
                let Some(read) = serde_entries(kind, &bytes, target) else {
                    continue;
                };
                assert_eq!(read, n, "{kind} keys through serde into {id}");
                g.bench_function(BenchmarkId::new(kind, id), |b| {
                    b.iter(|| serde_entries(kind, black_box(&bytes), target))
                });
                ids.push(id);
            }
            for id in ids {
                entries.push(Entry {
                    group: G,
                    function: kind.into(),
                    value: id,
                    bytes: bytes.len() as u64,
                    elements: n as u64,
                    baseline: (n == KEYS_COMPARED && kind != "int").then(|| format!("int/{id}")),
                });
            }
        }
    }
    g.finish();
}

//! Throughput of the pure-Rust codec, against the crate `godot-binary-serialization` 0.2 and
//! against a plain memcpy. See `README.md` beside this file for the command and where the
//! numbers land.
//!
//! Groups (each iteration does the whole batch):
//! - `small_dicts_100k`: 100 000 messages `{"id": int, "name": String, "pos": Vector2}`, each
//!   encoded into its own `Vec<u8>` / decoded from its own bytes; ours through the `Value`
//!   model, ours through serde (a `#[derive(Serialize, Deserialize)]` struct), serde's own
//!   floor (`serde_floor`: no format work), and the peer crate's.
//! - `packed_1m`: 1 000 000-element packed arrays, encode and decode, beside a memcpy of the
//!   same number of bytes into a fresh buffer.
//! - `packed_string_array_100k`: a PackedStringArray of 100 000 strings.
//! - `dict_10k_small_arrays`: one Dictionary of 10 000 String keys, each holding a small Array.
//! - `dict_keys`: Dictionaries of 50 000 and 200 000 distinct keys of one type (int, float,
//!   String, StringName, Vector2i, Vector3, Color, NodePath, PackedByteArray, Array), decoded
//!   into the `Value` model and through serde, into a `Vec` of pairs (the codec's work) and
//!   into a `HashMap` (plus the map's): the cost of a key type, and whether it grows linearly
//!   with the count.

#[path = "../examples/dict_keys/keys.rs"]
mod dict_keys;

use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use godot_binary_serialization::decoder::Decoder as PeerDecoder;
use godot_binary_serialization::encoder::Encoder as PeerEncoder;
use godot_binary_serialization::types::primitive::{GodotInteger, GodotString};
use godot_binary_serialization::types::structures::{GodotDictionary, GodotVector2};
use godot_binary_serialization::types::variant::{AsVariant, GodotVariant};
use godot_variant_codec::serde::{Color, Vector2, Vector2i, Vector3};
use godot_variant_codec::{
    decode, encode, encode_into, encoded_size, Array, ContainerType, DecodeOptions, Dictionary,
    EncodeOptions, PackedReals, Reals, Value,
};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value as Json};

const SMALL_DICTS: usize = 100_000;
const PACKED_LEN: usize = 1_000_000;
const STRINGS: usize = 100_000;
const DICT_ENTRIES: usize = 10_000;
/// The key counts of the `dict_keys` rows, 4× apart so that a row's growth shows whether it
/// is linear, each with its rows' ids (decode, serde into pairs, serde into a map).
const KEY_COUNTS: [(usize, [&str; 3]); 2] = [
    (50_000, ["decode_50k", "serde_pairs_50k", "serde_map_50k"]),
    (
        200_000,
        ["decode_200k", "serde_pairs_200k", "serde_map_200k"],
    ),
];
/// The count whose rows are compared with the int keys' rows.
const KEYS_COMPARED: usize = 200_000;

/// CPU time (user + system) of the benchmarking thread, in nanoseconds: on a machine whose
/// few cores other work shares, time spent preempted is not counted, as wall time would.
struct ThreadCpuTime(WallTime);

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, ns: &u64) -> f64 {
        *ns as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, like wall time: criterion's own formatting applies.
        self.0.formatter()
    }
}

type Bench = Criterion<ThreadCpuTime>;

/// A fixed pseudo-random sequence (SplitMix64): the same data on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn f32(&mut self) -> f32 {
        (self.below(2_000_000) as f32 - 1_000_000.0) / 64.0
    }
    /// ASCII letters, digits and `_`, of a length in `0..max_len`.
    fn word(&mut self, max_len: u64) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
        let len = self.below(max_len);
        (0..len)
            .map(|_| CHARS[self.below(CHARS.len() as u64) as usize] as char)
            .collect()
    }
}

struct Message {
    id: i32,
    name: String,
    pos: [f32; 2],
}

fn messages() -> Vec<Message> {
    let mut rng = Rng(1);
    (0..SMALL_DICTS)
        .map(|i| Message {
            id: i as i32 * 7 - 1000,
            name: format!("player_{}", rng.word(12)),
            pos: [rng.f32(), rng.f32()],
        })
        .collect()
}

fn ours(m: &Message) -> Value {
    Value::Dictionary(Box::new(Dictionary {
        entries: vec![
            (Value::String("id".into()), Value::Int(m.id.into())),
            (Value::String("name".into()), Value::String(m.name.clone())),
            (
                Value::String("pos".into()),
                Value::Vector2(Reals::Single(m.pos)),
            ),
        ],
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
    }))
}

/// The message as a Rust game server declares it for serde.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct SerdeMessage {
    id: i64,
    name: String,
    pos: Vector2,
}

/// The same message with its name borrowed from the input, which serde allows: what the
/// serde path costs without the String's allocation and copy.
#[derive(Deserialize, Debug, PartialEq)]
struct BorrowedSerdeMessage<'a> {
    id: i64,
    name: &'a str,
    pos: Vector2,
}

fn ours_serde(m: &Message) -> SerdeMessage {
    SerdeMessage {
        id: m.id.into(),
        name: m.name.clone(),
        pos: Vector2 {
            x: m.pos[0],
            y: m.pos[1],
        },
    }
}

/// Whether serde writes the same bytes as the `Value` path for every message and reads
/// them back to the same messages. Returns a one-line verdict, naming the first difference.
fn check_serde_bytes(msgs: &[SerdeMessage], ours_bytes: &[Vec<u8>]) -> String {
    let eopts = EncodeOptions::default();
    let dopts = DecodeOptions::default();
    for (i, (m, mine)) in msgs.iter().zip(ours_bytes).enumerate() {
        let serde_bytes = godot_variant_codec::serde::to_vec(m, &eopts).expect("serde encodes");
        if &serde_bytes != mine {
            return format!("DIFFERENT: message {i}: Value path {mine:?}, serde {serde_bytes:?}");
        }
        let back = godot_variant_codec::serde::from_slice::<SerdeMessage>(mine, &dopts);
        if back.as_ref().ok() != Some(&(m.clone(), mine.len())) {
            return format!("DIFFERENT: serde reads message {i} back as {back:?}");
        }
        let borrowed = godot_variant_codec::serde::from_slice::<BorrowedSerdeMessage>(mine, &dopts);
        let expected = BorrowedSerdeMessage {
            id: m.id,
            name: &m.name,
            pos: m.pos,
        };
        if borrowed.as_ref().ok() != Some(&(expected, mine.len())) {
            return format!("DIFFERENT: serde reads message {i} back as {borrowed:?} (borrowed)");
        }
    }
    format!(
        "identical: serde writes the same bytes as the Value path for all {} messages and reads them back to the same messages (owned and borrowed)",
        msgs.len()
    )
}

/// serde's own share of decoding a message, the floor of any serde format: a deserializer
/// that knows where these messages hold their fields and checks nothing. It hands the
/// derived visitor the three keys, the id, the name (borrowed from the bytes) and the
/// position's 8 bytes, as `serde::from_slice` does, without reading a header, a length or
/// a key, testing a bound, or applying a text rule.
mod serde_floor {
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
}

/// Whether the floor's deserializer reads every message back as serde does (the names being
/// ASCII, as its `from_utf8_unchecked` requires). Returns a one-line verdict.
fn check_serde_floor(msgs: &[SerdeMessage], ours_bytes: &[Vec<u8>]) -> String {
    for (i, (m, mine)) in msgs.iter().zip(ours_bytes).enumerate() {
        let back = SerdeMessage::deserialize(serde_floor::Message(mine));
        if !m.name.is_ascii() || back.as_ref().ok() != Some(m) {
            return format!("DIFFERENT: the floor reads message {i} back as {back:?}");
        }
    }
    format!(
        "identical: the floor's deserializer reads all {} messages back as serde does",
        msgs.len()
    )
}

fn peer(m: &Message) -> GodotDictionary {
    let mut d = GodotDictionary::new();
    d.insert(GodotString::new("id"), GodotInteger::new_from_i32(m.id));
    d.insert(GodotString::new("name"), GodotString::new(&m.name));
    d.insert(
        GodotString::new("pos"),
        GodotVector2::new(m.pos[0], m.pos[1]),
    );
    d
}

/// Whether the peer crate writes the same bytes as ours for every message, and reads ours
/// back to the same values. Returns a one-line verdict, naming the first difference.
fn check_peer_bytes(msgs: &[Message], ours_bytes: &[Vec<u8>]) -> String {
    for (i, (m, mine)) in msgs.iter().zip(ours_bytes).enumerate() {
        let theirs = PeerEncoder::encode_variant(&peer(m)).expect("peer encodes");
        if &theirs != mine {
            return format!("DIFFERENT: message {i}: ours {mine:?}, peer {theirs:?}");
        }
        let back = PeerDecoder::decode_variant(mine).expect("peer decodes ours");
        let dict = back.as_var::<GodotDictionary>().expect("a dictionary");
        let same = dict
            .get::<GodotInteger>(GodotString::new("id"))
            .map(|x| x.value)
            == Some(m.id.into())
            && dict
                .get::<GodotString>(GodotString::new("name"))
                .map(|x| &x.value)
                == Some(&m.name)
            && dict
                .get::<GodotVector2>(GodotString::new("pos"))
                .map(|v| [v.x, v.y])
                == Some(m.pos)
            && dict.byte_length() == mine.len();
        if !same {
            return format!("DIFFERENT: the peer reads message {i} back as {dict:?}");
        }
    }
    format!(
        "identical: the peer crate writes the same bytes as ours for all {} messages and reads ours back to the same values",
        msgs.len()
    )
}

/// What one benchmark processes per iteration, for the summary table.
struct Entry {
    group: &'static str,
    function: String,
    value: &'static str,
    bytes: u64,
    elements: u64,
    /// The benchmark this one is compared with (the peer crate, or memcpy), as `function/value`.
    baseline: Option<String>,
}

fn small_dicts(c: &mut Bench, entries: &mut Vec<Entry>, notes: &mut Vec<String>) {
    let msgs = messages();
    let values: Vec<Value> = msgs.iter().map(ours).collect();
    let peers: Vec<GodotDictionary> = msgs.iter().map(peer).collect();
    let eopts = EncodeOptions::default();
    let dopts = DecodeOptions::default();
    let bytes: Vec<Vec<u8>> = values.iter().map(|v| encode(v, &eopts).unwrap()).collect();
    let verdict = check_peer_bytes(&msgs, &bytes);
    println!("peer crate bytes: {verdict}");
    notes.push(format!("peer crate bytes: {verdict}"));
    let serde_msgs: Vec<SerdeMessage> = msgs.iter().map(ours_serde).collect();
    let verdict = check_serde_bytes(&serde_msgs, &bytes);
    println!("serde bytes: {verdict}");
    notes.push(format!("serde bytes: {verdict}"));
    let verdict = check_serde_floor(&serde_msgs, &bytes);
    println!("serde floor: {verdict}");
    notes.push(format!("serde floor: {verdict}"));
    let total: u64 = bytes.iter().map(|b| b.len() as u64).sum();

    const G: &str = "small_dicts_100k";
    let mut g = c.benchmark_group(G);
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .throughput(Throughput::Bytes(total));
    g.bench_function(BenchmarkId::new("encode", "ours"), |b| {
        b.iter(|| {
            for v in &values {
                black_box(encode(black_box(v), &eopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "ours_reused_buffer"), |b| {
        let mut buf = Vec::with_capacity(256);
        b.iter(|| {
            for v in &values {
                buf.clear();
                encode_into(black_box(v), &mut buf, &eopts).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "ours_serde"), |b| {
        b.iter(|| {
            for m in &serde_msgs {
                black_box(godot_variant_codec::serde::to_vec(black_box(m), &eopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "peer"), |b| {
        b.iter(|| {
            for d in &peers {
                black_box(PeerEncoder::encode_variant(black_box(d)).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "ours"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(decode(black_box(bytes), &dopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "ours_serde"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(
                    godot_variant_codec::serde::from_slice::<SerdeMessage>(
                        black_box(bytes),
                        &dopts,
                    )
                    .unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "ours_serde_borrowed"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(
                    godot_variant_codec::serde::from_slice::<BorrowedSerdeMessage>(
                        black_box(bytes),
                        &dopts,
                    )
                    .unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "serde_floor"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(
                    SerdeMessage::deserialize(serde_floor::Message(black_box(bytes))).unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "serde_floor_borrowed"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(
                    BorrowedSerdeMessage::deserialize(serde_floor::Message(black_box(bytes)))
                        .unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "peer"), |b| {
        b.iter(|| {
            for bytes in &bytes {
                black_box(PeerDecoder::decode_variant(black_box(bytes)).unwrap());
            }
        })
    });
    g.finish();
    for (function, value, baseline) in [
        ("encode", "ours", Some("encode/peer")),
        ("encode", "ours_reused_buffer", Some("encode/peer")),
        ("encode", "ours_serde", Some("encode/peer")),
        ("encode", "peer", None),
        ("decode", "ours", Some("decode/peer")),
        ("decode", "ours_serde", Some("decode/peer")),
        ("decode", "ours_serde_borrowed", Some("decode/peer")),
        ("decode", "serde_floor", Some("decode/peer")),
        ("decode", "serde_floor_borrowed", Some("decode/peer")),
        ("decode", "peer", None),
    ] {
        entries.push(Entry {
            group: G,
            function: function.into(),
            value,
            bytes: total,
            elements: SMALL_DICTS as u64,
            baseline: baseline.map(str::to_owned),
        });
    }
}

fn packed(c: &mut Bench, entries: &mut Vec<Entry>) {
    let mut rng = Rng(2);
    let arrays: Vec<(&str, Value)> = vec![
        (
            "PackedFloat32Array",
            Value::PackedFloat32Array((0..PACKED_LEN).map(|_| rng.f32()).collect()),
        ),
        (
            "PackedVector3Array",
            Value::PackedVector3Array(PackedReals::Single(
                (0..PACKED_LEN)
                    .map(|_| [rng.f32(), rng.f32(), rng.f32()])
                    .collect(),
            )),
        ),
        (
            "PackedColorArray",
            Value::PackedColorArray(
                (0..PACKED_LEN)
                    .map(|_| [rng.f32(), rng.f32(), rng.f32(), 1.0])
                    .collect(),
            ),
        ),
        (
            "PackedInt64Array",
            Value::PackedInt64Array((0..PACKED_LEN).map(|_| rng.next() as i64).collect()),
        ),
    ];
    const G: &str = "packed_1m";
    let eopts = EncodeOptions::default();
    let dopts = DecodeOptions::default();
    let mut g = c.benchmark_group(G);
    g.sampling_mode(SamplingMode::Flat).sample_size(20);
    for (name, value) in &arrays {
        let bytes = encode(value, &eopts).unwrap();
        assert_eq!(&decode(&bytes, &dopts).unwrap().0, value);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(BenchmarkId::new(*name, "encode"), |b| {
            b.iter(|| encode(black_box(value), &eopts).unwrap())
        });
        g.bench_function(BenchmarkId::new(*name, "decode"), |b| {
            b.iter(|| decode(black_box(&bytes), &dopts).unwrap())
        });
        g.bench_function(BenchmarkId::new(*name, "memcpy"), |b| {
            b.iter(|| {
                let mut out = Vec::<u8>::with_capacity(bytes.len());
                out.extend_from_slice(black_box(&bytes));
                out
            })
        });
        for (value, baseline) in [
            ("encode", Some("memcpy")),
            ("decode", Some("memcpy")),
            ("memcpy", None),
        ] {
            entries.push(Entry {
                group: G,
                function: (*name).into(),
                value,
                bytes: bytes.len() as u64,
                elements: PACKED_LEN as u64,
                baseline: baseline.map(|b| format!("{name}/{b}")),
            });
        }
    }
    g.finish();
}

/// Encode and decode of one large value, as group `group`.
fn one_value(
    c: &mut Bench,
    entries: &mut Vec<Entry>,
    group: &'static str,
    value: &Value,
    elements: usize,
) {
    let eopts = EncodeOptions::default();
    let dopts = DecodeOptions::default();
    let bytes = encode(value, &eopts).unwrap();
    assert_eq!(&decode(&bytes, &dopts).unwrap().0, value);
    assert_eq!(encoded_size(value, &eopts).unwrap(), bytes.len());
    let mut g = c.benchmark_group(group);
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("encode", |b| {
        b.iter(|| encode(black_box(value), &eopts).unwrap())
    });
    g.bench_function("decode", |b| {
        b.iter(|| decode(black_box(&bytes), &dopts).unwrap())
    });
    g.finish();
    for function in ["encode", "decode"] {
        entries.push(Entry {
            group,
            function: function.into(),
            value: "",
            bytes: bytes.len() as u64,
            elements: elements as u64,
            baseline: None,
        });
    }
}

fn string_array(c: &mut Bench, entries: &mut Vec<Entry>) {
    let mut rng = Rng(3);
    let strings = (0..STRINGS).map(|_| rng.word(24)).collect();
    one_value(
        c,
        entries,
        "packed_string_array_100k",
        &Value::PackedStringArray(strings),
        STRINGS,
    );
}

fn dict_of_arrays(c: &mut Bench, entries: &mut Vec<Entry>) {
    let mut rng = Rng(4);
    let entries_ = (0..DICT_ENTRIES)
        .map(|i| {
            let key = Value::String(format!("entity_{i}"));
            let items = vec![
                Value::Int(rng.below(1 << 20) as i64),
                Value::Float(f64::from(rng.f32())),
                Value::String(rng.word(10)),
                Value::Vector3(Reals::Single([rng.f32(), rng.f32(), rng.f32()])),
            ];
            (
                key,
                Value::Array(Box::new(Array {
                    items,
                    element_type: ContainerType::Untyped,
                })),
            )
        })
        .collect();
    let dict = Value::Dictionary(Box::new(Dictionary {
        entries: entries_,
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
    }));
    one_value(c, entries, "dict_10k_small_arrays", &dict, DICT_ENTRIES);
}

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

/// The entries of a Dictionary of keys of type `kind`, decoded through serde. Into a `Vec`
/// of the pairs as read (`into_map` false), keys that need no heap block of their own: the
/// codec's work. Texts as [`Text`], bytes borrowed from the input, the others as values
/// (a `Vector2i`, an `(i64, i64)`…). Or into a `HashMap` of the keys a server would keep
/// (texts as `String`, bytes as a `Vec<u8>`): the codec's work, each key's allocation and
/// the map's. `None` for key types without `Hash` (float, Vector3, Color) in a map.
fn serde_entries(kind: &str, bytes: &[u8], into_map: bool) -> Option<usize> {
    Some(match (kind, into_map) {
        ("int", false) => pairs::<i64>(bytes),
        ("int", true) => map::<i64>(bytes),
        ("float", false) => pairs::<f64>(bytes),
        ("String" | "StringName" | "NodePath", false) => pairs::<Text>(bytes),
        ("String" | "StringName" | "NodePath", true) => map::<String>(bytes),
        ("Vector2i", false) => pairs::<Vector2i>(bytes),
        ("Vector2i", true) => map::<Vector2i>(bytes),
        ("Vector3", false) => pairs::<Vector3>(bytes),
        ("Color", false) => pairs::<Color>(bytes),
        ("PackedByteArray", false) => pairs::<&[u8]>(bytes),
        ("PackedByteArray", true) => map::<ByteKey>(bytes),
        ("Array", false) => pairs::<(i64, i64)>(bytes),
        ("Array", true) => map::<(i64, i64)>(bytes),
        ("float" | "Vector3" | "Color", true) => return None,
        (other, _) => panic!("no serde target for {other} keys"),
    })
}

/// Dictionaries of distinct keys of each type, decoded through `decode` and through serde
/// (into pairs, into a map), at each of [`KEY_COUNTS`]; the rows of [`KEYS_COMPARED`] keys
/// are compared with the int keys' own.
fn dict_keys(c: &mut Bench, entries: &mut Vec<Entry>) {
    const G: &str = "dict_keys";
    let dopts = DecodeOptions::default();
    let mut g = c.benchmark_group(G);
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    for kind in dict_keys::KINDS {
        for (n, [decode_id, pairs_id, map_id]) in KEY_COUNTS {
            let value = dict_keys::dictionary(kind, n);
            let bytes = encode(&value, &EncodeOptions::default()).unwrap();
            assert_eq!(decode(&bytes, &dopts).unwrap().0, value);
            drop(value);
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_function(BenchmarkId::new(kind, decode_id), |b| {
                b.iter(|| decode(black_box(&bytes), &dopts).unwrap())
            });
            let mut ids = vec![decode_id];
            for (id, into_map) in [(pairs_id, false), (map_id, true)] {
                let Some(read) = serde_entries(kind, &bytes, into_map) else {
                    continue;
                };
                assert_eq!(read, n, "{kind} keys through serde into {id}");
                g.bench_function(BenchmarkId::new(kind, id), |b| {
                    b.iter(|| serde_entries(kind, black_box(&bytes), into_map))
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

/// Where criterion writes its results: `$CRITERION_HOME`, else `<cargo target dir>/criterion`,
/// found as criterion finds it.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            let cargo = std::env::var_os("CARGO")?;
            let out = std::process::Command::new(cargo)
                .args(["metadata", "--format-version", "1", "--no-deps"])
                .output()
                .ok()?;
            let meta: Json = serde_json::from_slice(&out.stdout).ok()?;
            Some(meta["target_directory"].as_str()?.into())
        })
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("criterion")
}

fn read_json(path: &Path) -> Option<Json> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Median and best (fastest sample) nanoseconds per iteration of one benchmark's last run,
/// if that run was not before `since`.
fn timings(dir: &Path, group: &str, id: &str, since: SystemTime) -> Option<(f64, f64)> {
    let new = dir.join(group).join(id).join("new");
    let modified = std::fs::metadata(new.join("estimates.json"))
        .ok()?
        .modified()
        .ok()?;
    if modified < since {
        return None;
    }
    let estimates = read_json(&new.join("estimates.json"))?;
    let median = estimates["median"]["point_estimate"].as_f64()?;
    let sample = read_json(&new.join("sample.json"))?;
    let iters = sample["iters"].as_array()?;
    let times = sample["times"].as_array()?;
    let best = iters
        .iter()
        .zip(times)
        .filter_map(|(n, t)| Some(t.as_f64()? / n.as_f64()?))
        .fold(f64::INFINITY, f64::min);
    Some((median, best))
}

/// Reads back the results of the benchmarks run since `since` and, when there are any,
/// writes `summary.json` and `summary.md` into `<criterion dir>/godot-variant-codec/` and
/// prints the table.
fn summarize(entries: &[Entry], notes: &[String], since: SystemTime) {
    let dir = criterion_dir();
    let mut rows = Vec::new();
    let mut table = String::from(
        "| benchmark | median ms | best ms | GB/s (best) | Melem/s (best) | vs baseline (median, best) |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    for e in entries {
        let id = if e.value.is_empty() {
            e.function.clone()
        } else {
            format!("{}/{}", e.function, e.value)
        };
        let Some((median, best)) = timings(&dir, e.group, &id, since) else {
            continue;
        };
        let baseline = e
            .baseline
            .as_ref()
            .and_then(|b| timings(&dir, e.group, b, since));
        // The baseline's time over ours: above 1, ours is faster.
        let ratio_median = baseline.map(|(m, _)| m / median);
        let ratio_best = baseline.map(|(_, b)| b / best);
        let gbps = e.bytes as f64 / best;
        let melems = e.elements as f64 * 1e3 / best;
        let vs = match (&e.baseline, ratio_median, ratio_best) {
            (Some(b), Some(m), Some(x)) if b.ends_with("memcpy") => {
                format!("{:.0}%, {:.0}% of memcpy's speed", 100.0 * m, 100.0 * x)
            }
            (Some(b), Some(m), Some(x)) => format!("{m:.1}×, {x:.1}× {b}"),
            _ => String::new(),
        };
        table.push_str(&format!(
            "| {}/{} | {:.3} | {:.3} | {:.2} | {:.1} | {} |\n",
            e.group,
            id,
            median / 1e6,
            best / 1e6,
            gbps,
            melems,
            vs
        ));
        rows.push(json!({
            "group": e.group,
            "id": id,
            "median_ns": median,
            "best_ns": best,
            "bytes": e.bytes,
            "elements": e.elements,
            "gb_per_s_median": e.bytes as f64 / median,
            "gb_per_s_best": gbps,
            "baseline": e.baseline,
            "speedup_median": ratio_median,
            "speedup_best": ratio_best,
        }));
    }
    if rows.is_empty() {
        return;
    }
    for n in notes {
        table.push_str(&format!("\n{n}\n"));
    }
    let out = dir.join("godot-variant-codec");
    let written = std::fs::create_dir_all(&out)
        .and_then(|()| {
            std::fs::write(
                out.join("summary.json"),
                serde_json::to_string_pretty(&json!({ "rows": rows, "notes": notes }))
                    .expect("plain JSON"),
            )
        })
        .and_then(|()| std::fs::write(out.join("summary.md"), &table));
    println!("\n{table}");
    match written {
        Ok(()) => println!("written to {}", out.display()),
        Err(e) => println!("could not write {}: {e}", out.display()),
    }
}

fn main() {
    let start = SystemTime::now();
    let mut c = Criterion::default()
        .with_measurement(ThreadCpuTime(WallTime))
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    small_dicts(&mut c, &mut entries, &mut notes);
    packed(&mut c, &mut entries);
    string_array(&mut c, &mut entries);
    dict_of_arrays(&mut c, &mut entries);
    dict_keys(&mut c, &mut entries);
    c.final_summary();
    // Nothing is summed up after `--test`, `--list` or `--profile-time` runs: they write no
    // estimates.
    summarize(&entries, &notes, start);
}

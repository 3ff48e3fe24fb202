//! The `small_dicts_100k` group: 100 000 messages `{"id": int, "name": String, "pos":
//! Vector2}`, each encoded into its own `Vec<u8>` / decoded from its own bytes; ours
//! through the `Value` model and through serde, serde's own floor, and the peer crate's.
//! Before measuring, the peer crate's and serde's bytes and readings, and the floor's
//! readings, are checked against ours.

mod serde_floor;

use std::hint::black_box;

use criterion::{BenchmarkGroup, BenchmarkId, SamplingMode, Throughput};
use godot_binary_serialization::decoder::Decoder as PeerDecoder;
use godot_binary_serialization::encoder::Encoder as PeerEncoder;
use godot_binary_serialization::types::primitive::{GodotInteger, GodotString};
use godot_binary_serialization::types::structures::{GodotDictionary, GodotVector2};
use godot_binary_serialization::types::variant::{AsVariant, GodotVariant};
use godot_variant_codec::serde::Vector2;
use godot_variant_codec::{
    decode, encode, encode_into, ContainerType, DecodeOptions, Dictionary, EncodeOptions, Reals,
    Value,
};
use serde::{Deserialize, Serialize};

use crate::measure::ThreadCpuTime;
use crate::summary::Entry;
use crate::{Bench, Rng};

const SMALL_DICTS: usize = 100_000;
const G: &str = "small_dicts_100k";

/// The group's rows: (function, value, the row compared with).
const ROWS: [(&str, &str, Option<&str>); 10] = [
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
];

/// The messages in each form a row writes or reads.
struct Batch {
    values: Vec<Value>,
    serde_msgs: Vec<SerdeMessage>,
    peers: Vec<GodotDictionary>,
    /// Each message as ours encodes it.
    bytes: Vec<Vec<u8>>,
}

/// The messages `msgs` in each form, the peer's, serde's and the floor's bytes and readings
/// checked against ours; the verdicts are printed and kept in `notes`.
fn batch(msgs: &[Message], notes: &mut Vec<String>) -> Batch {
    let values: Vec<Value> = msgs.iter().map(ours).collect();
    let peers: Vec<GodotDictionary> = msgs.iter().map(peer).collect();
    let eopts = EncodeOptions::default();
    let bytes: Vec<Vec<u8>> = values.iter().map(|v| encode(v, &eopts).unwrap()).collect();
    let mut note = |what: &str, verdict: String| {
        println!("{what}: {verdict}");
        notes.push(format!("{what}: {verdict}"));
    };
    note("peer crate bytes", check_peer_bytes(msgs, &bytes));
    let serde_msgs: Vec<SerdeMessage> = msgs.iter().map(ours_serde).collect();
    note("serde bytes", check_serde_bytes(&serde_msgs, &bytes));
    note("serde floor", check_serde_floor(&serde_msgs, &bytes));
    Batch {
        values,
        serde_msgs,
        peers,
        bytes,
    }
}

/// The group's rows, measured after `batch`'s checks; each row's sizes go into `entries`.
pub(crate) fn small_dicts(c: &mut Bench, entries: &mut Vec<Entry>, notes: &mut Vec<String>) {
    // The messages stay allocated while measuring, as the heap the rows allocate in.
    let msgs = messages();
    let batch = batch(&msgs, notes);
    let total: u64 = batch.bytes.iter().map(|b| b.len() as u64).sum();
    let mut g = c.benchmark_group(G);
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .throughput(Throughput::Bytes(total));
    encoders(&mut g, &batch);
    decoders(&mut g, &batch);
    g.finish();
    for (function, value, baseline) in ROWS {
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

/// The `encode/…` rows.
fn encoders(g: &mut BenchmarkGroup<ThreadCpuTime>, batch: &Batch) {
    let Batch {
        values,
        serde_msgs,
        peers,
        ..
    } = batch;
    let eopts = EncodeOptions::default();
    g.bench_function(BenchmarkId::new("encode", "ours"), |b| {
        b.iter(|| {
            for v in values {
                black_box(encode(black_box(v), &eopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "ours_reused_buffer"), |b| {
        let mut buf = Vec::with_capacity(256);
        b.iter(|| {
            for v in values {
                buf.clear();
                encode_into(black_box(v), &mut buf, &eopts).unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "ours_serde"), |b| {
        b.iter(|| {
            for m in serde_msgs {
                black_box(godot_variant_codec::serde::to_vec(black_box(m), &eopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("encode", "peer"), |b| {
        b.iter(|| {
            for d in peers {
                black_box(PeerEncoder::encode_variant(black_box(d)).unwrap());
            }
        })
    });
}

/// The `decode/…` rows.
fn decoders(g: &mut BenchmarkGroup<ThreadCpuTime>, batch: &Batch) {
    let bytes = &batch.bytes;
    let dopts = DecodeOptions::default();
    g.bench_function(BenchmarkId::new("decode", "ours"), |b| {
        b.iter(|| {
            for bytes in bytes {
                black_box(decode(black_box(bytes), &dopts).unwrap());
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "ours_serde"), |b| {
        b.iter(|| {
            for bytes in bytes {
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
            for bytes in bytes {
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
            for bytes in bytes {
                black_box(
                    SerdeMessage::deserialize(serde_floor::Message(black_box(bytes))).unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "serde_floor_borrowed"), |b| {
        b.iter(|| {
            for bytes in bytes {
                black_box(
                    BorrowedSerdeMessage::deserialize(serde_floor::Message(black_box(bytes)))
                        .unwrap(),
                );
            }
        })
    });
    g.bench_function(BenchmarkId::new("decode", "peer"), |b| {
        b.iter(|| {
            for bytes in bytes {
                black_box(PeerDecoder::decode_variant(black_box(bytes)).unwrap());
            }
        })
    });
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

//! The groups of one large value per iteration: `packed_1m` (beside a memcpy of as many
//! bytes), `packed_string_array_100k` and `dict_10k_small_arrays`.

use std::hint::black_box;

use criterion::{BenchmarkId, SamplingMode, Throughput};
use godot_variant_codec::{
    decode, encode, encoded_size, Array, ContainerType, DecodeOptions, Dictionary, EncodeOptions,
    PackedReals, Reals, Value,
};

use crate::summary::Entry;
use crate::{Bench, Rng};

const PACKED_LEN: usize = 1_000_000;
const STRINGS: usize = 100_000;
const DICT_ENTRIES: usize = 10_000;

pub(crate) fn packed(c: &mut Bench, entries: &mut Vec<Entry>) {
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

pub(crate) fn string_array(c: &mut Bench, entries: &mut Vec<Entry>) {
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

pub(crate) fn dict_of_arrays(c: &mut Bench, entries: &mut Vec<Entry>) {
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

//! Property tests: encode → decode → encode is the identity for values of every type, the
//! size function agrees with the bytes, and no input makes the decoder panic.

use godot_variant_codec::header::header_word;
use godot_variant_codec::wire::padding;
use godot_variant_codec::{
    decode, decode_with, encode, encoded_size, Array, Build, ContainerType, DecodeError,
    DecodeOptions, Dictionary, EncodeErrorKind, EncodeOptions, FullObject, Generation, GodotError,
    NodePath, Object, PackedReals, Precision, RawNodePath, RawText, Reals, Signal, Value,
    ValueBuilder, VariantType,
};
use proptest::collection::vec;
use proptest::prelude::*;

/// The fuzz targets' checks, shared with these properties.
#[path = "../../../fuzz/fuzz_targets/common.rs"]
mod common;

fn text() -> impl Strategy<Value = String> {
    // Any scalar values but NUL (the engine ends text at NUL) and a leading BOM (dropped).
    any::<String>().prop_map(|s| {
        s.replace('\0', "")
            .trim_start_matches('\u{FEFF}')
            .to_owned()
    })
}

fn reals<const N: usize>() -> impl Strategy<Value = Reals<N>> {
    prop_oneof![
        any::<[f32; N]>().prop_map(Reals::Single),
        any::<[f64; N]>().prop_map(Reals::Double),
    ]
}

fn packed_reals<const N: usize>() -> impl Strategy<Value = PackedReals<N>> {
    prop_oneof![
        vec(any::<[f32; N]>(), 0..8).prop_map(PackedReals::Single),
        vec(any::<[f64; N]>(), 0..8).prop_map(PackedReals::Double),
    ]
}

fn variant_type() -> impl Strategy<Value = VariantType> {
    // Nil means untyped and Object is written as a class name by the engine.
    (1usize..VariantType::ALL.len())
        .prop_map(|i| VariantType::ALL[i])
        .prop_filter("typed as a class", |t| *t != VariantType::Object)
}

fn container_type() -> impl Strategy<Value = ContainerType> {
    prop_oneof![
        3 => Just(ContainerType::Untyped),
        1 => variant_type().prop_map(ContainerType::Builtin),
        1 => "[A-Z][a-zA-Z]{0,12}".prop_map(ContainerType::ClassName),
        1 => "res://[a-z_/]{1,12}\\.gd".prop_map(ContainerType::Script),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        prop_oneof![
            any::<i32>().prop_map(i64::from),
            Just(i64::MAX),
            Just(i64::MIN)
        ]
        .prop_map(Value::Int),
        any::<f64>().prop_map(Value::Float),
        any::<f32>().prop_map(|f| Value::Float(f.into())),
        text().prop_map(Value::String),
        reals().prop_map(Value::Vector2),
        any::<[i32; 2]>().prop_map(Value::Vector2i),
        reals().prop_map(Value::Rect2),
        any::<[i32; 4]>().prop_map(Value::Rect2i),
        reals().prop_map(Value::Vector3),
        any::<[i32; 3]>().prop_map(Value::Vector3i),
        reals().prop_map(|r| Value::Transform2D(Box::new(r))),
        reals().prop_map(Value::Vector4),
        any::<[i32; 4]>().prop_map(Value::Vector4i),
        reals().prop_map(Value::Plane),
        reals().prop_map(Value::Quaternion),
        reals().prop_map(|r| Value::Aabb(Box::new(r))),
        reals().prop_map(|r| Value::Basis(Box::new(r))),
        reals().prop_map(|r| Value::Transform3D(Box::new(r))),
        reals().prop_map(|r| Value::Projection(Box::new(r))),
        any::<[f32; 4]>().prop_map(Value::Color),
        text().prop_map(Value::StringName),
        (vec(text(), 0..4), vec(text(), 0..3), any::<bool>()).prop_map(
            |(names, subnames, absolute)| Value::NodePath(NodePath::new(names, subnames, absolute))
        ),
        any::<u64>().prop_map(Value::Rid),
        prop_oneof![Just(Object::Null), (1..=u64::MAX).prop_map(Object::Id)]
            .prop_map(Value::Object),
        Just(Value::Callable),
        (text(), any::<u64>())
            .prop_map(|(name, object_id)| Value::Signal(Signal { name, object_id })),
        vec(any::<u8>(), 0..12).prop_map(Value::PackedByteArray),
        vec(any::<i32>(), 0..8).prop_map(Value::PackedInt32Array),
        vec(any::<i64>(), 0..8).prop_map(Value::PackedInt64Array),
        vec(any::<f32>(), 0..8).prop_map(Value::PackedFloat32Array),
        vec(any::<f64>(), 0..8).prop_map(Value::PackedFloat64Array),
        vec(text(), 0..5).prop_map(Value::PackedStringArray),
        packed_reals().prop_map(Value::PackedVector2Array),
        packed_reals().prop_map(Value::PackedVector3Array),
        vec(any::<[f32; 4]>(), 0..6).prop_map(Value::PackedColorArray),
        packed_reals().prop_map(Value::PackedVector4Array),
    ]
}

/// Values of every type, nested. Typed containers hold only values of their type (the
/// engine converts or drops others, which is no longer a round trip) and dictionary keys are
/// distinct strings (repeated keys merge).
fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            (container_type(), vec(inner.clone(), 0..6)).prop_map(|(element_type, items)| {
                let items = items
                    .into_iter()
                    .filter(|v| fits(v, &element_type))
                    .collect();
                Value::Array(Box::new(Array {
                    element_type,
                    items,
                }))
            }),
            (container_type(), vec(inner.clone(), 0..6)).prop_map(|(value_type, values)| {
                let entries = values
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (Value::String(format!("k{i}")), v))
                    .collect();
                Value::Dictionary(Box::new(Dictionary {
                    key_type: ContainerType::Untyped,
                    value_type,
                    entries,
                }))
            }),
            ("[A-Z][a-zA-Z]{0,10}", vec((text(), inner), 0..4)).prop_map(|(class, properties)| {
                let properties = properties
                    .into_iter()
                    .filter(|(name, _)| name != "script")
                    .collect();
                Value::Object(Object::Full(Box::new(FullObject { class, properties })))
            }),
        ]
    })
}

fn fits(v: &Value, t: &ContainerType) -> bool {
    match t {
        ContainerType::Untyped => true,
        ContainerType::Builtin(b) => v.variant_type() == *b,
        ContainerType::ClassName(_) | ContainerType::Script(_) => {
            matches!(v, Value::Object(_) | Value::Nil)
        }
    }
}

fn options() -> impl Strategy<Value = EncodeOptions> {
    prop_oneof![Just(Precision::Single), Just(Precision::Double)]
        .prop_map(|precision| EncodeOptions::default().with_precision(precision))
}

const WITH_OBJECTS: DecodeOptions = DecodeOptions::new().with_allow_objects(true);

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn encode_decode_encode_is_identity(v in value(), opts in options()) {
        let bytes = encode(&v, &opts).unwrap();
        prop_assert_eq!(bytes.len() % 4, 0);
        prop_assert_eq!(encoded_size(&v, &opts).unwrap(), bytes.len());
        let (decoded, used) = decode(&bytes, &WITH_OBJECTS).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(encode(&decoded, &opts).unwrap(), bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..256), allow_objects in any::<bool>()) {
        let opts = DecodeOptions::default().with_allow_objects(allow_objects);
        if let Ok((_, used)) = decode(&bytes, &opts) {
            prop_assert!(used <= bytes.len() + Generation::GODOT_4.max_counted_past_end());
        }
    }

    #[test]
    fn mutated_encodings_never_panic(v in value(), flips in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4), cut in any::<prop::sample::Index>()) {
        let mut bytes = encode(&v, &EncodeOptions::default()).unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        for allow_objects in [false, true] {
            let opts = DecodeOptions::default().with_allow_objects(allow_objects);
            if let Ok((decoded, used)) = decode(&bytes, &opts) {
                prop_assert!(used <= bytes.len() + Generation::GODOT_4.max_counted_past_end());
                // Whatever decodes re-encodes without error.
                encode(&decoded, &EncodeOptions::default()).unwrap();
            }
        }
    }
}

/// A builder that keeps what `Build::node_path` and `Build::packed_strings` hand over, and
/// builds the rest as the value model does.
#[derive(Default)]
struct Recorder {
    seen: Vec<SeenNodePath>,
    /// The `encoded_len` of each text of a PackedStringArray.
    text_lengths: Vec<usize>,
    /// The Dictionary keys made by `Build::text_key` (those of odd length as written;
    /// the others are taken as their text).
    keys_made: usize,
}

#[derive(Debug, PartialEq)]
struct SeenNodePath {
    path: NodePath,
    encoded: Option<Vec<u8>>,
}

impl Build for Recorder {
    type Value = Value;
    type Array = <ValueBuilder as Build>::Array;
    type Dictionary = <ValueBuilder as Build>::Dictionary;
    type Error = DecodeError;
    const CHECKS_ELEMENTS: bool = true;

    fn value(&mut self, v: Value) -> Result<Value, DecodeError> {
        Ok(v)
    }

    fn node_path(&mut self, path: RawNodePath<'_>) -> Result<Value, DecodeError> {
        let parts = NodePath::new(path.names(), path.subnames(), path.absolute);
        self.seen.push(SeenNodePath {
            path: parts,
            encoded: path.encoded().map(<[u8]>::to_vec),
        });
        self.value(Value::NodePath(path.to_node_path()))
    }

    fn packed_strings(&mut self, strings: &[RawText<'_>]) -> Result<Value, DecodeError> {
        self.text_lengths
            .extend(strings.iter().map(RawText::encoded_len));
        ValueBuilder.packed_strings(strings)
    }

    fn text_key(&mut self, key: &RawText<'_>) -> Result<Option<Value>, DecodeError> {
        if key.encoded_len().is_multiple_of(2) {
            return Ok(None);
        }
        // The window holds the text as written (after a BOM), and may hold more.
        let (window, len) = key.window_by_rules();
        assert!(window.len() >= len);
        let text = key.text()?;
        self.keys_made += 1;
        Ok(Some(Value::String(text.to_owned())))
    }

    fn begin_array(
        &mut self,
        t: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Array, DecodeError> {
        ValueBuilder.begin_array(t, capacity)
    }

    fn push(&mut self, array: &mut Self::Array, item: Value) -> Result<(), DecodeError> {
        ValueBuilder.push(array, item)
    }

    fn end_array(&mut self, array: Self::Array, t: ContainerType) -> Result<Value, DecodeError> {
        ValueBuilder.end_array(array, t)
    }

    fn begin_dictionary(
        &mut self,
        key_type: &ContainerType,
        value_type: &ContainerType,
        capacity: usize,
    ) -> Result<Self::Dictionary, DecodeError> {
        ValueBuilder.begin_dictionary(key_type, value_type, capacity)
    }

    fn insert(
        &mut self,
        d: &mut Self::Dictionary,
        key: Value,
        value: Value,
    ) -> Result<(), DecodeError> {
        ValueBuilder.insert(d, key, value)
    }

    fn end_dictionary(
        &mut self,
        d: Self::Dictionary,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Value, DecodeError> {
        ValueBuilder.end_dictionary(d, key_type, value_type)
    }
}

proptest! {
    /// `Build::node_path` hands over a NodePath's parts as the value model has them, and
    /// as `encoded` exactly the bytes after its header (what a builder may key it by).
    #[test]
    fn node_paths_are_handed_over_with_their_bytes(
        names in vec(text(), 0..4),
        subnames in vec(text(), 0..3),
        absolute in any::<bool>(),
    ) {
        let path = NodePath::new(&names, &subnames, absolute);
        prop_assert!(path.names().eq(names.iter().map(String::as_str)));
        prop_assert!(path.subnames().eq(subnames.iter().map(String::as_str)));
        prop_assert!(path.names().rev().eq(names.iter().rev().map(String::as_str)));
        prop_assert!(path.subnames().rev().eq(subnames.iter().rev().map(String::as_str)));
        prop_assert_eq!((path.name_count(), path.subname_count()), (names.len(), subnames.len()));
        prop_assert!((0..=names.len()).map(|i| path.name(i)).eq(names.iter().map(|n| Some(n.as_str())).chain([None])));
        prop_assert!((0..=subnames.len()).map(|i| path.subname(i)).eq(subnames.iter().map(|n| Some(n.as_str())).chain([None])));
        prop_assert_eq!(path.is_absolute(), absolute);
        let bytes = encode(&Value::NodePath(path.clone()), &EncodeOptions::default()).unwrap();
        let mut recorder = Recorder::default();
        let (decoded, used) = decode_with(&bytes, 0, &DecodeOptions::default(), &mut recorder).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(decoded, Value::NodePath(path.clone()));
        prop_assert_eq!(
            recorder.seen,
            vec![SeenNodePath { path, encoded: Some(bytes[4..].to_vec()) }]
        );
    }
}

proptest! {
    /// `Build::packed_strings` hands over each text with its length as written: the
    /// engine writes a PackedStringArray's texts with their NUL.
    #[test]
    fn packed_strings_are_handed_over_with_their_lengths(texts in vec(text(), 0..6)) {
        let value = Value::PackedStringArray(texts.clone());
        let bytes = encode(&value, &EncodeOptions::default()).unwrap();
        let mut recorder = Recorder::default();
        let (decoded, _) = decode_with(&bytes, 0, &DecodeOptions::default(), &mut recorder).unwrap();
        prop_assert_eq!(decoded, value);
        prop_assert_eq!(recorder.text_lengths, texts.iter().map(|t| t.len() + 1).collect::<Vec<_>>());
    }
}

proptest! {
    /// A Dictionary's String keys give the same Dictionary whether `Build::text_key` makes
    /// them from their raw text or the builder takes them as their text: keys of every
    /// length, with a BOM or a NUL in them, nested.
    #[test]
    fn text_keys_made_or_taken_give_the_same_dictionary(
        keys in vec(text(), 0..8),
        bom in any::<bool>(),
    ) {
        let entries: Vec<(Value, Value)> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let key = if bom { format!("\u{FEFF}{k}") } else { k.clone() };
                (Value::String(key), Value::Int(i as i64))
            })
            .collect();
        let inner = Value::Dictionary(Box::new(entries.clone().into_iter().collect()));
        let mut outer: Vec<(Value, Value)> = entries;
        outer.push((Value::String("inner".into()), inner));
        let value = Value::Dictionary(Box::new(outer.into_iter().collect()));
        let bytes = encode(&value, &EncodeOptions::default()).unwrap();
        let opts = DecodeOptions::default();
        let mut recorder = Recorder::default();
        let (made, _) = decode_with(&bytes, 0, &opts, &mut recorder).unwrap();
        let (taken, _) = decode(&bytes, &opts).unwrap();
        prop_assert_eq!(made, taken);
        // "inner" (5 bytes) is made, at least.
        prop_assert!(recorder.keys_made >= 1);
    }
}

/// A Dictionary's String key that is not valid UTF-8 is reported at its length word
/// before the entry's value is read (here: a String cut short), as the engine reads the
/// key first: whether `Build::text_key` makes the key (odd length) or not.
#[test]
fn a_bad_text_key_is_reported_before_its_value() {
    for key in [&b"ab\xC3"[..], b"abc\xC3"] {
        let dictionary = header_word(VariantType::Dictionary.id(), 0);
        let string = header_word(VariantType::String.id(), 0);
        let mut bytes = [dictionary, 1, string, key.len() as u32]
            .map(u32::to_le_bytes)
            .concat();
        bytes.extend(key);
        bytes.resize(bytes.len() + padding(key.len()), 0);
        bytes.extend([string, 1000].map(u32::to_le_bytes).concat());
        let mut recorder = Recorder::default();
        let err = decode_with(&bytes, 0, &DecodeOptions::default(), &mut recorder).unwrap_err();
        assert_eq!(err.offset, 12, "{key:?}: {err}");
        assert_eq!(recorder.keys_made, 0);
        let err = decode(&bytes, &DecodeOptions::default()).unwrap_err();
        assert_eq!(err.offset, 12, "{key:?}: {err}");
    }
}

/// A text's `encoded_len` is its length as written, before the rules that drop a leading
/// BOM and end a text at a NUL.
#[test]
fn encoded_len_is_the_length_before_the_text_rules() {
    let texts: [&[u8]; 3] = [b"\xEF\xBB\xBFbom", b"ab\0cd", &[b'x'; 40]];
    let header = header_word(VariantType::PackedStringArray.id(), 0);
    let mut bytes = [header, 3].map(u32::to_le_bytes).concat();
    for text in texts {
        bytes.extend((text.len() as u32).to_le_bytes());
        bytes.extend(text);
        bytes.resize(bytes.len() + padding(text.len()), 0);
    }
    let mut recorder = Recorder::default();
    let (decoded, _) = decode_with(&bytes, 0, &DecodeOptions::default(), &mut recorder).unwrap();
    let expected = ["bom", "ab", &"x".repeat(40)].map(String::from);
    assert_eq!(decoded, Value::PackedStringArray(expected.to_vec()));
    assert_eq!(recorder.text_lengths, texts.map(<[u8]>::len));
}

#[test]
fn error_offsets_stay_within_the_input() {
    // A Dictionary whose key, a 1-byte PackedByteArray, ends the input before its padding
    // (which the engine does not check) and before the entry's value (found by fuzzing).
    let bytes = [27, 0, 0, 0, 1, 0, 0, 0, 29, 0, 0, 0, 1, 0, 0, 0, 0];
    let err = decode(&bytes, &DecodeOptions::default()).unwrap_err();
    assert_eq!(err.offset, bytes.len(), "{err}");
}

#[test]
fn values_stay_small() {
    assert!(
        std::mem::size_of::<Value>() <= 48,
        "{}",
        std::mem::size_of::<Value>()
    );
}

#[test]
fn encoding_is_the_engines() {
    let opts = EncodeOptions::default();
    let cases: [(Value, &[u8]); 6] = [
        (Value::Int(1 << 31), &[2, 0, 1, 0, 0, 0, 0, 128, 0, 0, 0, 0]),
        (Value::Float(0.5), &[3, 0, 0, 0, 0, 0, 0, 63]),
        (
            Value::Float(0.1),
            &[3, 0, 1, 0, 154, 153, 153, 153, 153, 153, 185, 63],
        ),
        (
            Value::String("ab".into()),
            &[4, 0, 0, 0, 2, 0, 0, 0, b'a', b'b', 0, 0],
        ),
        (
            Value::PackedStringArray(vec!["abc".into()]),
            &[34, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, b'a', b'b', b'c', 0],
        ),
        (Value::Object(Object::Null), &[0, 0, 0, 0]),
    ];
    for (value, bytes) in cases {
        assert_eq!(encode(&value, &opts).unwrap(), bytes, "{value:?}");
    }
}

#[test]
fn declared_lengths_never_allocate_beyond_the_input() {
    // 16 bytes claiming 2^31 - 1 elements of every container, packed type and String.
    for t in VariantType::ALL {
        let mut bytes = t.id().to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0]);
        let start = std::time::Instant::now();
        let _ = decode(&bytes, &WITH_OBJECTS);
        assert!(start.elapsed().as_millis() < 50, "{t}");
    }
}

#[test]
fn depth_is_limited_like_the_engine() {
    let nested = |levels: usize| {
        let mut v = Value::Array(Box::default());
        for _ in 1..levels {
            v = Value::Array(Box::new(Array {
                element_type: ContainerType::Untyped,
                items: vec![v],
            }));
        }
        v
    };
    let opts = EncodeOptions::default();
    // The outermost value is at depth 0; the engine refuses depth 1025.
    let ok = encode(&nested(1025), &opts).unwrap();
    assert!(decode(&ok, &DecodeOptions::default()).is_ok());
    assert_eq!(
        encode(&nested(1026), &opts)
            .unwrap_err()
            .godot_error()
            .code(),
        6
    );

    let mut deep = Vec::new();
    for _ in 0..100_000 {
        deep.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
    }
    let err = decode(&deep, &DecodeOptions::default()).unwrap_err();
    assert_eq!(err.offset, 1025 * 8);
    assert_eq!(err.godot_error().code(), 6);
}

#[test]
fn any_depth_is_safe_on_a_small_stack() {
    // A user may raise max_depth far above the engine's: decoding, encoding and dropping
    // 100,000 levels must still not overflow a 256 KiB thread stack.
    let levels = 100_000;
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut deep = Vec::new();
            for _ in 0..levels {
                deep.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
            }
            deep.extend_from_slice(&[0, 0, 0, 0]);
            let decode_opts = DecodeOptions::default()
                .with_allow_objects(false)
                .with_max_depth(levels);
            let (value, used) = decode(&deep, &decode_opts).unwrap();
            assert_eq!(used, deep.len());
            let encode_opts = EncodeOptions::default().with_max_depth(levels);
            assert_eq!(encode(&value, &encode_opts).unwrap(), deep);
            drop(value);
        });
    worker.unwrap().join().expect("no stack overflow");
}

/// Values a generation before Godot 4 holds: its types (a StringName reads back as a
/// String, so none is made), untyped containers, full objects of classes with and without
/// another Godot 3 name.
fn value_in(generation: Generation) -> impl Strategy<Value = Value> {
    // Nor an absolute NodePath without names or subnames, which Godot 3 and 2 read as
    // the empty path.
    let leaf = leaf().prop_filter("a value of the generation", move |v| {
        v.variant_type() != VariantType::StringName
            && generation.wire_id(v.variant_type()).is_some()
            && !matches!(v, Value::NodePath(p) if p.name_count() == 0 && p.subname_count() == 0 && p.is_absolute())
    });
    let class = prop::sample::select(vec![
        "Node",
        "Node3D",
        "Spatial",
        "RefCounted",
        "Reference",
        "Gradient",
        "Curve",
    ]);
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(|items| {
                Value::Array(Box::new(Array {
                    element_type: ContainerType::Untyped,
                    items,
                }))
            }),
            vec((inner.clone(), inner.clone()), 0..6).prop_map(|pairs| {
                let entries = pairs
                    .into_iter()
                    .enumerate()
                    .map(|(i, (k, v))| {
                        let key = match k {
                            Value::Int(_) | Value::String(_) => Value::String(format!("k{i}")),
                            other => Value::Array(Box::new(Array {
                                element_type: ContainerType::Untyped,
                                items: vec![Value::Int(i as i64), other],
                            })),
                        };
                        (key, v)
                    })
                    .collect();
                Value::Dictionary(Box::new(Dictionary {
                    key_type: ContainerType::Untyped,
                    value_type: ContainerType::Untyped,
                    entries,
                }))
            }),
            (class.clone(), vec((text(), inner), 0..4)).prop_map(|(class, properties)| {
                Value::Object(Object::Full(Box::new(FullObject {
                    class: class.to_owned(),
                    properties,
                })))
            }),
        ]
    })
}

/// Encoding `v` in `generation`, reading it back and encoding it again gives the same
/// bytes, and the size function agrees.
fn round_trips_in(v: &Value, generation: Generation) -> Result<(), TestCaseError> {
    let opts = EncodeOptions::new().with_generation(generation);
    let read = WITH_OBJECTS.with_generation(generation);
    let bytes = encode(v, &opts).unwrap();
    prop_assert_eq!(encoded_size(v, &opts).unwrap(), bytes.len());
    let (decoded, used) = decode(&bytes, &read).unwrap();
    prop_assert_eq!(used, bytes.len());
    prop_assert_eq!(encode(&decoded, &opts).unwrap(), bytes);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn godot3_encode_decode_encode_is_identity(v in value_in(Generation::GODOT_3)) {
        round_trips_in(&v, Generation::GODOT_3)?;
    }

    #[test]
    fn older_generations_never_panic_on_mutated_bytes(
        v in value_in(Generation::GODOT_3),
        generation in prop::sample::select(vec![Generation::GODOT_3, Generation::GODOT_2]),
        flips in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let opts = EncodeOptions::new().with_generation(generation);
        let Ok(mut bytes) = encode(&v, &opts) else { return Ok(()) };
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        for allow_objects in [false, true] {
            let read = DecodeOptions::new().with_allow_objects(allow_objects).with_generation(generation);
            if let Ok((decoded, used)) = decode(&bytes, &read) {
                prop_assert!(used <= bytes.len() + generation.max_counted_past_end());
                encode(&decoded, &opts).unwrap();
            }
        }
    }
}

#[test]
fn godot4_values_godot3_lacks_are_refused_with_their_path() {
    let g3 = EncodeOptions::new().with_generation(Generation::GODOT_3);
    let inner = Value::Dictionary(Box::new(Dictionary {
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
        entries: vec![(Value::String("pos".into()), Value::Vector2i([1, 2]))],
    }));
    let outer = Value::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![Value::Nil, inner],
    }));
    let e = encode(&outer, &g3).unwrap_err();
    assert_eq!(
        e.kind,
        EncodeErrorKind::NotInGeneration {
            what: "Vector2i".into(),
            generation: "Godot 3",
            path: "[1][\"pos\"]".into(),
        }
    );
    assert_eq!(e.godot_error(), GodotError::InvalidParameter);
    let typed = Value::Array(Box::new(Array {
        element_type: ContainerType::Builtin(VariantType::Int),
        items: vec![Value::Int(1)],
    }));
    assert!(matches!(
        encode(&typed, &g3).unwrap_err().kind,
        EncodeErrorKind::NotInGeneration { what, .. } if what == "typed Array"
    ));
    for lacking in [
        Value::Vector4([1.0f32; 4].into()),
        Value::Projection(Box::new([1.0f32; 16].into())),
        Value::Callable,
        Value::PackedInt64Array(vec![1]),
        Value::PackedFloat64Array(vec![1.0]),
        Value::PackedVector4Array(PackedReals::Single(vec![[1.0; 4]])),
    ] {
        assert!(encode(&lacking, &g3).is_err(), "{lacking:?}");
    }
}

#[test]
fn godot3_writes_string_names_as_strings_and_rids_as_headers() {
    let g3 = EncodeOptions::new().with_generation(Generation::GODOT_3);
    let read = DecodeOptions::new().with_generation(Generation::GODOT_3);
    let bytes = encode(&Value::StringName("ab".into()), &g3).unwrap();
    assert_eq!(bytes, [4, 0, 0, 0, 2, 0, 0, 0, b'a', b'b', 0, 0]);
    assert_eq!(decode(&bytes, &read).unwrap().0, Value::String("ab".into()));
    assert_eq!(encode(&Value::Rid(77), &g3).unwrap(), [16, 0, 0, 0]);
    assert_eq!(decode(&[16, 0, 0, 0], &read).unwrap(), (Value::Rid(0), 4));
    // Godot 3 reals are 32-bit whatever the precision asked, and its flag is ignored.
    let wide = g3.with_precision(Precision::Double);
    let v = Value::Vector2([1.0f64, 2.0].into());
    assert_eq!(encode(&v, &wide).unwrap(), encode(&v, &g3).unwrap());
    let flagged = [5, 0, 1, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
    assert_eq!(
        decode(&flagged, &read).unwrap().0,
        Value::Vector2([1.0f32, 2.0].into())
    );
    // A typed container's header bits mean nothing before Godot 4.
    let typed_header = [19, 0, 1, 0, 0, 0, 0, 0];
    assert_eq!(
        decode(&typed_header, &read).unwrap().0,
        Value::Array(Box::default())
    );
}

/// A whole object's `script` (Godot 4) is written only as what the decoder reads back:
/// nil or a `res://` path; any other value is refused, naming its type. Before Godot 4 the
/// script is an ordinary value.
#[test]
fn whole_object_scripts_are_nil_or_paths() {
    let object = |script: Value| {
        Value::Object(Object::Full(Box::new(FullObject {
            class: "Node".to_owned(),
            properties: vec![("script".to_owned(), script)],
        })))
    };
    let godot4 = EncodeOptions::new();
    for script in [Value::Nil, Value::String("res://a.gd".to_owned())] {
        let bytes = encode(&object(script.clone()), &godot4).unwrap();
        assert_eq!(decode(&bytes, &WITH_OBJECTS).unwrap().0, object(script));
    }
    let err = encode(&object(Value::Int(1)), &godot4).unwrap_err();
    assert_eq!(err.kind, EncodeErrorKind::ScriptNotAPath(VariantType::Int));
    assert_eq!(err.godot_error().code(), 31);
    let godot3 = EncodeOptions::new().with_generation(Generation::GODOT_3);
    let bytes = encode(&object(Value::Int(1)), &godot3).unwrap();
    let read = WITH_OBJECTS.with_generation(Generation::GODOT_3);
    assert_eq!(decode(&bytes, &read).unwrap().0, object(Value::Int(1)));
}

proptest! {
    /// `decode_inline` reads a value a Variant holds in its own bytes (a scalar, a small
    /// single-precision math value, a Color, an integer vector) as `decode` does (the same
    /// value and byte count) and nothing else: on encoded scalars and other values (math
    /// values in both precisions), cut short or not, and on any bytes.
    #[test]
    fn decode_inline_is_decode_for_inline_values(
        value in prop_oneof![
            Just(Value::Nil),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::Int),
            any::<i32>().prop_map(|i| Value::Int(i.into())),
            any::<f64>().prop_map(Value::Float),
            any::<f32>().prop_map(|f| Value::Float(f.into())),
            leaf(),
        ],
        noise in vec(any::<u8>(), 0..12),
        cut in 0usize..12,
        generation in prop::sample::select(Generation::ALL.to_vec()),
    ) {
        let dopts = DecodeOptions::default().with_generation(generation);
        let eopts = EncodeOptions::default().with_generation(generation);
        let mut inputs = vec![noise.clone()];
        if let Ok(bytes) = encode(&value, &eopts) {
            inputs.push(bytes[..bytes.len().saturating_sub(cut)].to_vec());
            inputs.push([bytes, noise].concat());
        }
        for bytes in inputs {
            common::check_inline_shortcut(&bytes, &dopts, &decode(&bytes, &dopts));
        }
    }
}

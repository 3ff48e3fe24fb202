//! Serde support: the bytes are the crate's own encoding of the equivalent `Value` (hence
//! the engine's), they read back, Godot's alternative forms are accepted, every golden vector
//! reads through `deserialize_any` exactly when the decoder accepts it, and hostile input
//! fails with an offset, without panicking or allocating beyond the input.
#![cfg(feature = "serde")]

use std::collections::BTreeMap;
use std::fmt;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/golden_file.rs"]
mod golden_file;
#[path = "support/serde_any.rs"]
mod serde_any;

use counting_alloc::peak_of;
use godot_variant_codec::serde::{
    from_slice, to_vec, Aabb, Basis, Color, ErrorKind, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Rect2, Rect2i, Transform2D, Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use godot_variant_codec::{
    decode, encode, Array, ContainerType, DecodeErrorKind, DecodeOptions, Dictionary,
    EncodeErrorKind, EncodeOptions, Generation, PackedReals, Precision, Reals, Value, VariantType,
};
use proptest::prelude::*;
use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Serialize};
use serde_any::{serde_reads_as_decoder, Any};

// ---------------------------------------------------------------------------------------
// Helpers

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn arr(items: Vec<Value>) -> Value {
    Value::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items,
    }))
}

fn dict(entries: Vec<(Value, Value)>) -> Value {
    Value::Dictionary(Box::new(Dictionary {
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
        entries,
    }))
}

fn single() -> EncodeOptions {
    EncodeOptions::default()
}

fn double() -> EncodeOptions {
    EncodeOptions::default().with_precision(Precision::Double)
}

const DEFAULT: DecodeOptions = DecodeOptions::new();

/// `value` serializes to the crate's encoding of `expected` (for `opts`) and reads back
/// as itself, consuming every byte.
fn same_bytes_and_back<T>(value: &T, expected: &Value, opts: &EncodeOptions)
where
    T: Serialize + DeserializeOwned + PartialEq + fmt::Debug,
{
    let ours = to_vec(value, opts).unwrap();
    assert_eq!(ours, encode(expected, opts).unwrap(), "{value:?}");
    let (back, used) = from_slice::<T>(&ours, &DEFAULT).unwrap();
    assert_eq!(used, ours.len(), "{value:?}");
    assert_eq!(&back, value);
}

/// Reads `T` from the crate's encoding of `value`.
fn read<T: DeserializeOwned>(value: &Value) -> Result<T, godot_variant_codec::serde::Error> {
    let bytes = encode(value, &double()).unwrap();
    from_slice::<T>(&bytes, &DEFAULT).map(|(t, _)| t)
}

// ---------------------------------------------------------------------------------------
// The data model: same bytes as the Value path, and back

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Message {
    id: i64,
    name: String,
    pos: Vector2,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Command {
    Stop,
    Move(Vector3),
    Say(String, u8),
    Hit { target: u32, damage: f32 },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meters(f64);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Everything {
    flag: bool,
    small: i8,
    big: u64,
    wide: i64,
    half: f32,
    precise: f64,
    letter: char,
    none: Option<i32>,
    some: Option<String>,
    nothing: (),
    unit: Unit,
    meters: Meters,
    list: Vec<i32>,
    pair: (u16, String),
    by_id: BTreeMap<i32, String>,
    commands: Vec<Command>,
    nested: Message,
}

#[test]
fn struct_is_a_dictionary_of_its_fields_in_order() {
    let msg = Message {
        id: 7,
        name: "ann".into(),
        pos: Vector2 { x: 1.0, y: 2.5 },
    };
    let expected = dict(vec![
        (s("id"), Value::Int(7)),
        (s("name"), s("ann")),
        (s("pos"), Value::Vector2(Reals::Single([1.0, 2.5]))),
    ]);
    same_bytes_and_back(&msg, &expected, &single());
    same_bytes_and_back(&msg, &expected, &double());
}

#[test]
fn every_kind_of_the_data_model_matches_the_value_path() {
    let value = Everything {
        flag: true,
        small: -3,
        big: u64::from(u32::MAX) + 1,
        wide: i64::MIN,
        half: 0.1,
        precise: 0.1,
        letter: 'é',
        none: None,
        some: Some("x".into()),
        nothing: (),
        unit: Unit,
        meters: Meters(2.5),
        list: vec![1, -2, 3],
        pair: (9, "nine".into()),
        by_id: BTreeMap::from([(1, "one".into()), (2, "two".into())]),
        commands: vec![
            Command::Stop,
            Command::Move(Vector3 {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            }),
            Command::Say("hi".into(), 2),
            Command::Hit {
                target: 4,
                damage: 1.5,
            },
        ],
        nested: Message {
            id: -1,
            name: String::new(),
            pos: Vector2::default(),
        },
    };
    let expected = dict(vec![
        (s("flag"), Value::Bool(true)),
        (s("small"), Value::Int(-3)),
        (s("big"), Value::Int(i64::from(u32::MAX) + 1)),
        (s("wide"), Value::Int(i64::MIN)),
        (s("half"), Value::Float(f64::from(0.1f32))),
        (s("precise"), Value::Float(0.1)),
        (s("letter"), s("é")),
        (s("none"), Value::Nil),
        (s("some"), s("x")),
        (s("nothing"), Value::Nil),
        (s("unit"), Value::Nil),
        (s("meters"), Value::Float(2.5)),
        (
            s("list"),
            arr(vec![Value::Int(1), Value::Int(-2), Value::Int(3)]),
        ),
        (s("pair"), arr(vec![Value::Int(9), s("nine")])),
        (
            s("by_id"),
            dict(vec![(Value::Int(1), s("one")), (Value::Int(2), s("two"))]),
        ),
        (
            s("commands"),
            arr(vec![
                s("Stop"),
                dict(vec![(
                    s("Move"),
                    Value::Vector3(Reals::Single([1.0, 2.0, 3.0])),
                )]),
                dict(vec![(s("Say"), arr(vec![s("hi"), Value::Int(2)]))]),
                dict(vec![(
                    s("Hit"),
                    dict(vec![
                        (s("target"), Value::Int(4)),
                        (s("damage"), Value::Float(1.5)),
                    ]),
                )]),
            ]),
        ),
        (
            s("nested"),
            dict(vec![
                (s("id"), Value::Int(-1)),
                (s("name"), s("")),
                (s("pos"), Value::Vector2(Reals::Single([0.0, 0.0]))),
            ]),
        ),
    ]);
    same_bytes_and_back(&value, &expected, &single());
}

#[test]
fn maps_without_a_known_length_get_their_count_corrected() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Inner {
        b: i32,
        c: i32,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Flattened {
        a: i32,
        #[serde(flatten)]
        inner: Inner,
    }
    let value = Flattened {
        a: 1,
        inner: Inner { b: 2, c: 3 },
    };
    let expected = dict(vec![
        (s("a"), Value::Int(1)),
        (s("b"), Value::Int(2)),
        (s("c"), Value::Int(3)),
    ]);
    same_bytes_and_back(&value, &expected, &single());

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Skips {
        kept: i32,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        maybe: Option<i32>,
    }
    same_bytes_and_back(
        &Skips {
            kept: 1,
            maybe: None,
        },
        &dict(vec![(s("kept"), Value::Int(1))]),
        &single(),
    );
}

#[test]
fn unrepresentable_integers_are_errors() {
    let too_big = to_vec(&u64::MAX, &single()).unwrap_err();
    assert!(
        matches!(too_big.kind(), ErrorKind::Message { .. }),
        "{too_big}"
    );
    assert!(to_vec(&i128::MIN, &single()).is_err());
    assert_eq!(
        to_vec(&(i64::MAX as u128), &single()).unwrap(),
        encode(&Value::Int(i64::MAX), &single()).unwrap()
    );
    // Reading: the target type's range applies.
    let err = read::<u8>(&Value::Int(300)).unwrap_err();
    assert_eq!(err.offset(), Some(0));
}

// ---------------------------------------------------------------------------------------
// Godot's math and packed types

/// Each math type: its Rust value (from the components 1, 2, 3…), and the Value the crate
/// writes for it.
/// Calls the macro `$check` with the math types of `real_t` components: the serde type,
/// the `Value` variant, whether it is boxed, its number of components.
macro_rules! with_real_math_types {
    ($check:ident) => {
        $check!(
            Vector2: Vector2 [2], Rect2: Rect2 [4], Vector3: Vector3 [3],
            Transform2D: Transform2D (Box) [6], Vector4: Vector4 [4], Plane: Plane [4],
            Quaternion: Quaternion [4], Aabb: Aabb (Box) [6], Basis: Basis (Box) [9],
            Transform3D: Transform3D (Box) [12], Projection: Projection (Box) [16]
        )
    };
}

macro_rules! check_math_types {
    ($($t:ident: $variant:ident $(($boxed:ident))? [$n:literal]),*) => {{
        $(
            let components: [f32; $n] = std::array::from_fn(|i| i as f32 + 0.5);
            let value = $t::from(components);
            let expected = Value::$variant(check_math_types!(@wrap $($boxed)? Reals::Single(components)));
            for opts in [single(), double()] {
                same_bytes_and_back(&value, &expected, &opts);
            }
            // Human-readable formats get the components.
            assert_eq!(
                serde_json::to_value(value).unwrap(),
                serde_json::to_value(components).unwrap()
            );
            assert_eq!(serde_json::from_value::<$t>(serde_json::to_value(value).unwrap()).unwrap(), value);
        )*
    }};
    (@wrap Box $e:expr) => { Box::new($e) };
    (@wrap $e:expr) => { $e };
}

#[test]
fn math_types_are_the_godot_types() {
    with_real_math_types!(check_math_types);
    let ints = [
        (
            to_vec(&Vector2i { x: 1, y: -2 }, &single()).unwrap(),
            Value::Vector2i([1, -2]),
        ),
        (
            to_vec(&Vector3i { x: 1, y: 2, z: 3 }, &single()).unwrap(),
            Value::Vector3i([1, 2, 3]),
        ),
        (
            to_vec(
                &Vector4i {
                    x: 1,
                    y: 2,
                    z: 3,
                    w: 4,
                },
                &single(),
            )
            .unwrap(),
            Value::Vector4i([1, 2, 3, 4]),
        ),
        (
            to_vec(&Rect2i::from([1, 2, 3, 4]), &single()).unwrap(),
            Value::Rect2i([1, 2, 3, 4]),
        ),
        (
            to_vec(
                &Color {
                    r: 0.5,
                    g: 1.0,
                    b: 0.0,
                    a: 1.0,
                },
                &double(),
            )
            .unwrap(),
            Value::Color([0.5, 1.0, 0.0, 1.0]),
        ),
    ];
    for (ours, expected) in ints {
        assert_eq!(ours, encode(&expected, &double()).unwrap(), "{expected:?}");
        assert_eq!(
            read::<Any>(&expected).unwrap(),
            from_slice::<Any>(&ours, &DEFAULT).unwrap().0
        );
    }
    assert_eq!(
        read::<Vector2i>(&Value::Vector2i([1, -2])).unwrap(),
        Vector2i { x: 1, y: -2 }
    );
    assert_eq!(
        read::<Color>(&Value::Color([0.5, 1.0, 0.0, 1.0])).unwrap(),
        Color {
            r: 0.5,
            g: 1.0,
            b: 0.0,
            a: 1.0
        }
    );
}

#[test]
fn math_types_read_their_other_forms() {
    let v = Vector2 { x: 1.5, y: -2.0 };
    // Double precision, an Array of numbers, a packed array, a Vector2i.
    assert_eq!(
        read::<Vector2>(&Value::Vector2(Reals::Double([1.5, -2.0]))).unwrap(),
        v
    );
    assert_eq!(
        read::<Vector2>(&arr(vec![Value::Float(1.5), Value::Int(-2)])).unwrap(),
        v
    );
    assert_eq!(
        read::<Vector2>(&Value::PackedFloat32Array(vec![1.5, -2.0])).unwrap(),
        v
    );
    assert_eq!(
        read::<Vector2>(&Value::Vector2i([3, 4])).unwrap(),
        Vector2 { x: 3.0, y: 4.0 }
    );
    // The wrong number of components, or not numbers.
    assert!(read::<Vector2>(&Value::Vector3(Reals::Single([1.0, 2.0, 3.0]))).is_err());
    assert!(read::<Vector2>(&s("1, 2")).is_err());
}

#[test]
fn packed_wrappers_are_the_packed_types() {
    let v2 = vec![Vector2 { x: 1.0, y: 2.0 }, Vector2 { x: -3.0, y: 4.5 }];
    let v3 = vec![Vector3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    }];
    let v4 = vec![Vector4::from([1.0, 2.0, 3.0, 4.0])];
    let colors = vec![Color::from([0.0, 0.5, 1.0, 1.0]), Color::default()];
    for opts in [single(), double()] {
        same_bytes_and_back(
            &PackedByteArray(vec![1, 2, 3, 4, 5]),
            &Value::PackedByteArray(vec![1, 2, 3, 4, 5]),
            &opts,
        );
        same_bytes_and_back(
            &PackedInt32Array(vec![1, -2, i32::MAX]),
            &Value::PackedInt32Array(vec![1, -2, i32::MAX]),
            &opts,
        );
        same_bytes_and_back(
            &PackedInt64Array(vec![1, i64::MIN]),
            &Value::PackedInt64Array(vec![1, i64::MIN]),
            &opts,
        );
        same_bytes_and_back(
            &PackedFloat32Array(vec![0.1, -0.0, 1e30]),
            &Value::PackedFloat32Array(vec![0.1, -0.0, 1e30]),
            &opts,
        );
        same_bytes_and_back(
            &PackedFloat64Array(vec![0.1, 2.0]),
            &Value::PackedFloat64Array(vec![0.1, 2.0]),
            &opts,
        );
        same_bytes_and_back(
            &PackedStringArray(vec!["a".into(), String::new(), "ünï".into()]),
            &Value::PackedStringArray(vec!["a".into(), String::new(), "ünï".into()]),
            &opts,
        );
        same_bytes_and_back(
            &PackedVector2Array(v2.clone()),
            &Value::PackedVector2Array(PackedReals::Single(vec![[1.0, 2.0], [-3.0, 4.5]])),
            &opts,
        );
        same_bytes_and_back(
            &PackedVector3Array(v3.clone()),
            &Value::PackedVector3Array(PackedReals::Single(vec![[1.0, 2.0, 3.0]])),
            &opts,
        );
        same_bytes_and_back(
            &PackedVector4Array(v4.clone()),
            &Value::PackedVector4Array(PackedReals::Single(vec![[1.0, 2.0, 3.0, 4.0]])),
            &opts,
        );
        same_bytes_and_back(
            &PackedColorArray(colors.clone()),
            &Value::PackedColorArray(vec![[0.0, 0.5, 1.0, 1.0], [0.0; 4]]),
            &opts,
        );
        same_bytes_and_back(
            &PackedFloat32Array(vec![]),
            &Value::PackedFloat32Array(vec![]),
            &opts,
        );
    }
    // Human-readable formats get the elements.
    assert_eq!(
        serde_json::to_string(&PackedVector2Array(v2.clone())).unwrap(),
        "[[1.0,2.0],[-3.0,4.5]]"
    );
    let json = serde_json::to_string(&PackedColorArray(colors.clone())).unwrap();
    assert_eq!(
        serde_json::from_str::<PackedColorArray>(&json).unwrap().0,
        colors
    );
}

#[test]
fn sequences_read_from_arrays_and_packed_arrays_alike() {
    let floats = vec![1.5f32, -2.0, 0.25];
    let as_values: Vec<Value> = floats.iter().map(|&f| Value::Float(f.into())).collect();
    assert_eq!(
        read::<Vec<f32>>(&Value::PackedFloat32Array(floats.clone())).unwrap(),
        floats
    );
    assert_eq!(read::<Vec<f32>>(&arr(as_values.clone())).unwrap(), floats);
    assert_eq!(
        read::<PackedFloat32Array>(&arr(as_values)).unwrap().0,
        floats
    );
    assert_eq!(
        read::<PackedFloat32Array>(&Value::PackedFloat64Array(vec![1.5, -2.0, 0.25]))
            .unwrap()
            .0,
        floats
    );
    assert_eq!(
        read::<Vec<u8>>(&Value::PackedByteArray(vec![1, 2])).unwrap(),
        [1, 2]
    );
    assert_eq!(
        read::<Vec<i64>>(&Value::PackedInt32Array(vec![1, -2])).unwrap(),
        [1, -2]
    );
    assert_eq!(
        read::<Vec<String>>(&Value::PackedStringArray(vec!["a".into()])).unwrap(),
        ["a"]
    );
    assert_eq!(
        read::<PackedStringArray>(&arr(vec![s("a"), Value::StringName("b".into())]))
            .unwrap()
            .0,
        ["a", "b"]
    );
    assert_eq!(
        read::<PackedVector2Array>(&Value::PackedVector2Array(PackedReals::Double(vec![[
            1.0, 2.0
        ]])))
        .unwrap()
        .0,
        [Vector2 { x: 1.0, y: 2.0 }]
    );
    assert_eq!(
        read::<Vec<Vector3>>(&Value::PackedVector3Array(PackedReals::Single(vec![[
            1.0, 2.0, 3.0
        ]])))
        .unwrap(),
        [Vector3 {
            x: 1.0,
            y: 2.0,
            z: 3.0
        }]
    );
    // A target that takes fewer elements than there are is an error, not a skip.
    let err =
        read::<(i32, i32)>(&arr(vec![Value::Int(1), Value::Int(2), Value::Int(3)])).unwrap_err();
    assert_eq!(err.offset(), Some(0), "{err}");
}

#[test]
fn what_a_godot_client_sends_reads_into_rust_types() {
    // A StringName key and value, a 64-bit int, a 64-bit float, a typed array.
    let client = Value::Dictionary(Box::new(Dictionary {
        key_type: ContainerType::Builtin(godot_variant_codec::VariantType::StringName),
        value_type: ContainerType::Untyped,
        entries: vec![
            (Value::StringName("id".into()), Value::Int(1 << 40)),
            (
                Value::StringName("name".into()),
                Value::StringName("bob".into()),
            ),
            (
                Value::StringName("pos".into()),
                Value::Vector2(Reals::Single([1.0, 2.0])),
            ),
            (Value::StringName("extra".into()), arr(vec![Value::Nil])),
        ],
    }));
    let msg: Message = read(&client).unwrap();
    assert_eq!(
        msg,
        Message {
            id: 1 << 40,
            name: "bob".into(),
            pos: Vector2 { x: 1.0, y: 2.0 }
        }
    );
    assert_eq!(read::<f32>(&Value::Float(0.1)).unwrap(), 0.1f32);
    assert_eq!(read::<i32>(&Value::Int(-5)).unwrap(), -5);
    assert_eq!(
        read::<Vec<i32>>(&Value::Array(Box::new(Array {
            element_type: ContainerType::Builtin(godot_variant_codec::VariantType::Int),
            items: vec![Value::Int(1), Value::Int(2)],
        })))
        .unwrap(),
        [1, 2]
    );
    assert_eq!(
        read::<Command>(&Value::StringName("Stop".into())).unwrap(),
        Command::Stop
    );
    assert_eq!(read::<Option<i32>>(&Value::Nil).unwrap(), None);
    assert_eq!(read::<Option<i32>>(&Value::Int(3)).unwrap(), Some(3));
    // A struct from an Array of its fields, as serde allows.
    assert_eq!(
        read::<Message>(&arr(vec![
            Value::Int(1),
            s("a"),
            Value::Vector2(Reals::Single([0.0, 1.0]))
        ]))
        .unwrap()
        .pos,
        Vector2 { x: 0.0, y: 1.0 }
    );
    // Missing fields and wrong types are errors at the value's offset.
    let err = read::<Message>(&dict(vec![(s("id"), Value::Int(1))])).unwrap_err();
    assert_eq!(err.offset(), Some(0), "{err}");
    let err = read::<Message>(&dict(vec![(s("id"), s("one"))])).unwrap_err();
    assert_eq!(err.offset(), Some(20), "{err}");
}

#[test]
fn strings_borrow_from_the_input_after_the_engines_text_rules() {
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        #[serde(borrow)]
        name: &'a str,
        #[serde(borrow)]
        bytes: &'a [u8],
    }
    let bytes = encode(
        &dict(vec![
            (s("name"), s("\u{FEFF}left\0right")),
            (s("bytes"), Value::PackedByteArray(vec![9, 8, 7])),
        ]),
        &single(),
    )
    .unwrap();
    let (b, _) = from_slice::<Borrowed>(&bytes, &DEFAULT).unwrap();
    assert_eq!(b.name, "left");
    assert_eq!(b.bytes, [9, 8, 7]);
    let within = bytes.as_ptr_range();
    assert!(within.contains(&b.name.as_ptr()) && within.contains(&b.bytes.as_ptr()));
}

#[test]
fn deserialize_any_maps_every_godot_type() {
    use godot_variant_codec::{NodePath, Object, Signal};
    let path = Value::NodePath(NodePath::new(["root", "Player"], ["position", "x"], true));
    assert_eq!(
        read::<Any>(&path).unwrap(),
        Any::Text("/root/Player:position:x".into())
    );
    assert_eq!(read::<Any>(&Value::Rid(5)).unwrap(), Any::Uint(5));
    assert_eq!(
        read::<Any>(&Value::Object(Object::Id(9))).unwrap(),
        Any::Uint(9)
    );
    assert_eq!(
        read::<Any>(&Value::Object(Object::Null)).unwrap(),
        Any::Unit
    );
    assert_eq!(read::<Any>(&Value::Callable).unwrap(), Any::Unit);
    assert_eq!(
        read::<Any>(&Value::Signal(Signal {
            name: "hit".into(),
            object_id: 3
        }))
        .unwrap(),
        Any::Map(vec![
            (Any::Text("name".into()), Any::Text("hit".into())),
            (Any::Text("object_id".into()), Any::Uint(3)),
        ])
    );
    assert_eq!(
        read::<Any>(&Value::Vector3i([1, 2, 3])).unwrap(),
        Any::Seq(vec![Any::Int(1), Any::Int(2), Any::Int(3)])
    );
    // A full object, when objects are allowed.
    let object = Value::Object(Object::Full(Box::new(godot_variant_codec::FullObject {
        class: "Node".into(),
        properties: vec![("name".into(), s("n")), ("script".into(), Value::Nil)],
    })));
    let bytes = encode(&object, &single()).unwrap();
    let err = from_slice::<Any>(&bytes, &DEFAULT).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Decode(e) if e.kind == DecodeErrorKind::ObjectsNotAllowed)
    );
    let with_objects = DEFAULT.with_allow_objects(true);
    assert_eq!(
        from_slice::<Any>(&bytes, &with_objects).unwrap().0,
        Any::Map(vec![
            (Any::Text("class".into()), Any::Text("Node".into())),
            (
                Any::Text("properties".into()),
                Any::Map(vec![
                    (Any::Text("name".into()), Any::Text("n".into())),
                    (Any::Text("script".into()), Any::Unit),
                ])
            ),
        ])
    );
    // serde_json's own value, for maps with String keys.
    let json: serde_json::Value =
        read(&dict(vec![(s("a"), Value::PackedInt32Array(vec![1]))])).unwrap();
    assert_eq!(json, serde_json::json!({"a": [1]}));
}

#[test]
fn a_value_read_through_serde_keeps_keys_as_decode_does() {
    // Many keys of one type (past the linear scan's count), each written twice: the second
    // sets the first's value, as the engine's `bytes_to_var` and `decode` keep them.
    let keys: Vec<Value> = (0..200)
        .map(|i| Value::PackedInt32Array(vec![i, -i]))
        .chain([Value::Float(f64::NAN), Value::Float(-0.0), s("k")])
        .collect();
    let mut entries: Vec<(Value, Value)> =
        keys.iter().map(|k| (k.clone(), Value::Int(0))).collect();
    entries.extend(
        keys.iter()
            .enumerate()
            .map(|(i, k)| (k.clone(), Value::Int(i as i64))),
    );
    entries.push((Value::Float(0.0), Value::Int(-1)));
    entries.push((Value::StringName("k".into()), Value::Int(-2)));
    let bytes = encode(&dict(entries), &single()).unwrap();
    let (read, _) = from_slice::<Value>(&bytes, &DEFAULT).unwrap();
    let read = read.as_dictionary().unwrap().entries.clone();
    assert_eq!(read.len(), keys.len());
    let decoded = decode(&bytes, &DEFAULT).unwrap().0;
    let decoded = &decoded.as_dictionary().unwrap().entries;
    for (i, ((key, value), (decoded_key, decoded_value))) in read.iter().zip(decoded).enumerate() {
        let expected = match i {
            201 => -1,
            202 => -2,
            _ => i as i64,
        };
        assert_eq!(value, &Value::Int(expected), "entry {i}");
        assert_eq!(value, decoded_value, "entry {i}");
        // serde hands a packed array over as a sequence, which reads back as an Array.
        if i < 200 {
            assert_eq!(key, &Value::from_iter([i as i64, -(i as i64)]), "entry {i}");
        } else if i != 200 {
            assert_eq!(key, decoded_key, "entry {i}");
        }
    }
}

#[test]
fn a_sequence_read_into_a_value_takes_the_room_its_elements_need() {
    // serde hands math types and packed arrays over as sequences of their components, with
    // their count: each becomes an Array sized once, not grown element by element (a
    // Dictionary of many Vector2i keys holds one such Array per key).
    for value in [
        Value::Vector2i([3, -4]),
        Value::Color([0.5, 0.25, 1.0, 1.0]),
        Value::PackedByteArray((0..9).collect()),
        Value::from_iter((0..5).map(Value::Int)),
    ] {
        let bytes = encode(&value, &single()).unwrap();
        let (read, _) = from_slice::<Value>(&bytes, &DEFAULT).unwrap();
        let items = &read.as_array().unwrap().items;
        assert_eq!(items.capacity(), items.len(), "{value:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Golden vectors made by the engine

#[test]
fn golden_vectors_read_exactly_when_the_decoder_accepts_them() {
    let golden = golden_file::load();
    let (mut accepted, mut rejected, mut as_json) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &golden.cases {
        let bytes = golden_file::unhex(&case.bytes);
        let opts = DEFAULT.with_allow_objects(case.allow_objects);
        let problem = match (decode(&bytes, &opts), from_slice::<Any>(&bytes, &opts)) {
            (Ok((_, used)), Ok((_, ours))) => {
                accepted += 1;
                // serde_json's value takes everything but maps with keys other than strings.
                match from_slice::<serde_json::Value>(&bytes, &opts) {
                    Ok(_) => as_json += 1,
                    Err(e) if e.to_string().contains("expected a string") => {}
                    Err(e) => failures.push(format!("{}: serde_json::Value: {e}", case.name)),
                }
                (used != ours).then(|| format!("consumed {ours}, the decoder {used}"))
            }
            (Err(expected), Err(ours)) => {
                rejected += 1;
                (ours.kind() != &ErrorKind::Decode(expected.clone()))
                    .then(|| format!("error {ours}, the decoder's {expected}"))
            }
            (Ok(_), Err(e)) => Some(format!("rejected ({e}), the decoder accepts")),
            (Err(e), Ok(_)) => Some(format!("accepted, the decoder rejects ({e})")),
        };
        if let Some(p) = problem {
            failures.push(format!("{}: {p}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        accepted > 3000 && rejected > 3000,
        "{accepted} accepted, {rejected} rejected"
    );
    assert!(
        as_json > accepted / 2,
        "{as_json} of {accepted} as serde_json::Value"
    );
}

// ---------------------------------------------------------------------------------------
// Hostile input

#[test]
fn huge_declared_lengths_fail_without_allocating() {
    // Every type with a count or length after its header, claiming 2^31 - 1 elements, read
    // as sequences, maps, strings, bytes and the packed wrappers.
    for t in godot_variant_codec::VariantType::ALL {
        let mut bytes = t.id().to_le_bytes().to_vec();
        bytes.extend_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
        bytes.extend_from_slice(&[0; 8]);
        let (outcomes, peak) = peak_of(|| {
            [
                from_slice::<Any>(&bytes, &DEFAULT).map(drop),
                from_slice::<Vec<Any>>(&bytes, &DEFAULT).map(drop),
                from_slice::<BTreeMap<String, Any>>(&bytes, &DEFAULT).map(drop),
                from_slice::<String>(&bytes, &DEFAULT).map(drop),
                from_slice::<PackedByteArray>(&bytes, &DEFAULT).map(drop),
                from_slice::<PackedStringArray>(&bytes, &DEFAULT).map(drop),
                from_slice::<PackedVector3Array>(&bytes, &DEFAULT).map(drop),
                from_slice::<Vec<Vector2>>(&bytes, &DEFAULT).map(drop),
            ]
        });
        assert!(peak < 4096, "{t}: peak allocation {peak} bytes");
        for outcome in outcomes {
            if let Err(e) = outcome {
                assert!(e.offset().is_some_and(|at| at <= bytes.len()), "{t}: {e}");
            }
        }
    }
}

#[test]
fn nested_claims_stay_bounded_by_the_input() {
    let mut bytes = Vec::new();
    for _ in 0..1000 {
        bytes.extend_from_slice(&[28, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]);
    }
    let (outcome, peak) = peak_of(|| from_slice::<Any>(&bytes, &DEFAULT).map(drop));
    assert!(outcome.is_err());
    assert!(
        peak < 64 * bytes.len(),
        "peak {peak} for {} bytes",
        bytes.len()
    );
}

#[test]
fn every_truncation_of_a_message_fails_with_an_offset_inside_it() {
    let msg = Everything {
        flag: false,
        small: 1,
        big: 2,
        wide: 3,
        half: 4.0,
        precise: 5.5,
        letter: 'z',
        none: None,
        some: Some("some".into()),
        nothing: (),
        unit: Unit,
        meters: Meters(1.0),
        list: vec![1],
        pair: (1, "p".into()),
        by_id: BTreeMap::from([(1, "x".into())]),
        commands: vec![Command::Say("s".into(), 1), Command::Stop],
        nested: Message {
            id: 1,
            name: "n".into(),
            pos: Vector2::default(),
        },
    };
    let bytes = to_vec(&msg, &single()).unwrap();
    for len in 0..bytes.len() {
        let err = from_slice::<Everything>(&bytes[..len], &DEFAULT).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Decode(e) if e.offset <= len),
            "cut at {len}: {err}"
        );
    }
}

#[test]
fn depth_is_limited_like_the_decoder() {
    let nested = |levels: usize| {
        let mut bytes = Vec::new();
        for _ in 0..levels {
            bytes.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
        }
        bytes.extend_from_slice(&[0, 0, 0, 0]);
        bytes
    };
    // Depth 0 to 1024 reads; one more fails as the decoder fails, at the same byte.
    assert!(from_slice::<Any>(&nested(1024), &DEFAULT).is_ok());
    let too_deep = nested(1025);
    let err = from_slice::<Any>(&too_deep, &DEFAULT).unwrap_err();
    let expected = decode(&too_deep, &DEFAULT).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::Decode(expected));
    // A raised limit works without overflowing the stack (each level on `nested`'s stack).
    let deep = DEFAULT.with_max_depth(100_000);
    let value = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let value = from_slice::<Any>(&nested(20_000), &deep).map(|(v, _)| v);
            let read = value.is_ok();
            // Dropping 20,000 nested Vecs recurses too: leak it on this small stack.
            std::mem::forget(value);
            read
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(value);
    // Writing: nesting beyond max_depth is refused.
    let opts = single().with_max_depth(2);
    assert!(to_vec(&vec![vec![1]], &opts).is_ok());
    let err = to_vec(&vec![vec![vec![1]]], &opts).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Encode(e) if e.kind == EncodeErrorKind::TooDeep(2)));
}

#[test]
fn reserved_names_with_a_wrong_payload_are_errors_not_panics() {
    struct Fake;
    impl Serialize for Fake {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct("$godot_variant_codec::Vector3", &[1u8, 2, 3][..])
        }
    }
    assert!(to_vec(&Fake, &single()).is_err());
    struct FakeBytes;
    impl Serialize for FakeBytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct("$godot_variant_codec::PackedInt64Array", &Bytes(&[1, 2, 3]))
        }
    }
    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    assert!(to_vec(&FakeBytes, &single()).is_err());
}

// ---------------------------------------------------------------------------------------
// Properties

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Random {
    id: i64,
    name: String,
    score: f64,
    ratio: f32,
    tag: Option<u16>,
    data: Vec<u8>,
    pos: Vector3,
    path: Vec<Vector2>,
    weights: PackedFloat32Array,
    command: Command,
    table: BTreeMap<String, i32>,
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Stop),
        (any::<f32>(), any::<f32>(), any::<f32>()).prop_map(|(x, y, z)| Command::Move(Vector3 {
            x,
            y,
            z
        })),
        ("[^\u{0}\u{FEFF}]*", any::<u8>()).prop_map(|(s, n)| Command::Say(s, n)),
        (any::<u32>(), any::<f32>()).prop_map(|(target, damage)| Command::Hit { target, damage }),
    ]
}

fn random() -> impl Strategy<Value = Random> {
    let finite = || any::<f32>().prop_filter("not NaN", |f| !f.is_nan());
    (
        (
            any::<i64>(),
            "[^\u{0}\u{FEFF}]*",
            any::<f64>().prop_filter("not NaN", |f| !f.is_nan()),
        ),
        (
            finite(),
            any::<Option<u16>>(),
            prop::collection::vec(any::<u8>(), 0..40),
        ),
        (finite(), finite(), finite()),
        prop::collection::vec((finite(), finite()), 0..8),
        prop::collection::vec(finite(), 0..8),
        command().prop_filter("not NaN", |c| {
            !matches!(c, Command::Move(v) if v.x.is_nan() || v.y.is_nan() || v.z.is_nan())
                && !matches!(c, Command::Hit { damage, .. } if damage.is_nan())
        }),
        prop::collection::btree_map("[a-z]{0,6}", any::<i32>(), 0..5),
    )
        .prop_map(
            |((id, name, score), (ratio, tag, data), (x, y, z), path, weights, command, table)| {
                Random {
                    id,
                    name,
                    score,
                    ratio,
                    tag,
                    data,
                    pos: Vector3 { x, y, z },
                    path: path.into_iter().map(|(x, y)| Vector2 { x, y }).collect(),
                    weights: PackedFloat32Array(weights),
                    command,
                    table,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_structs_round_trip_through_the_engines_bytes(r in random(), wide in any::<bool>()) {
        let opts = if wide { double() } else { single() };
        let bytes = to_vec(&r, &opts).unwrap();
        // The bytes are a valid value that the decoder reads and re-encodes identically.
        let (value, used) = decode(&bytes, &DEFAULT).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(encode(&value, &opts).unwrap(), bytes.clone());
        let (back, used) = from_slice::<Random>(&bytes, &DEFAULT).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(back, r);
    }

    #[test]
    fn strings_read_like_the_decoder_reads_them(
        length in 0u32..20,
        text in prop::collection::vec(prop::sample::select(vec![0u8, b'a', 0x80, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF]), 0..28),
        flags in prop::sample::select(vec![0u32, 1 << 16, 0xFF00]),
        generation in prop::sample::select(Generation::ALL.to_vec()),
    ) {
        // A String value's header, length word and bytes (often fewer or more than the
        // length says, with whatever follows), read as a `&str` and as a map's key (in
        // Godot 2, a header with flags names no type).
        let opts = DEFAULT.with_generation(generation);
        let mut bytes = (4 | flags).to_le_bytes().to_vec();
        bytes.extend(length.to_le_bytes());
        bytes.extend(&text);
        let decoded = decode(&bytes, &opts);
        let ours = from_slice::<&str>(&bytes, &opts);
        match (&decoded, ours) {
            (Ok((Value::String(expected), used)), Ok((text, ours_used))) => {
                prop_assert_eq!((text, ours_used), (expected.as_str(), *used));
            }
            (Err(expected), Err(e)) => prop_assert_eq!(e.kind(), &ErrorKind::Decode(expected.clone())),
            (expected, ours) => prop_assert!(false, "serde {:?}, decoder {:?}", ours, expected),
        }
        // As the key of a one-entry Dictionary, its value whatever follows.
        let dictionary = generation.wire_id(VariantType::Dictionary).unwrap();
        let mut entry = dictionary.to_le_bytes().to_vec();
        entry.extend(1u32.to_le_bytes());
        entry.extend(&bytes);
        let as_key = from_slice::<BTreeMap<&str, de::IgnoredAny>>(&entry, &opts);
        match (decode(&entry, &opts), as_key) {
            (Ok((Value::Dictionary(d), used)), Ok((map, ours_used))) => {
                let expected: Vec<_> = d.entries.iter().map(|(k, _)| k.clone()).collect();
                let keys: Vec<_> = map.keys().map(|&k| s(k)).collect();
                prop_assert_eq!((keys, ours_used), (expected, used));
            }
            (Err(expected), Err(e)) => prop_assert_eq!(e.kind(), &ErrorKind::Decode(expected)),
            (expected, ours) => prop_assert!(false, "serde {:?}, decoder {:?}", ours.map(|(_, n)| n), expected.map(|(_, n)| n)),
        }
    }

    #[test]
    fn node_paths_read_as_their_text(
        names in prop::collection::vec(prop::sample::select(vec!["", "a", "Level", "ä名", "a_name_of_twenty_one"]), 0..4),
        subnames in prop::collection::vec(prop::sample::select(vec!["", "b", "position", "é"]), 0..4),
        absolute in any::<bool>(),
        generation in prop::sample::select(Generation::ALL.to_vec()),
    ) {
        // As a String (`deserialize_string`), as a `&str` lent by the deserializer (as a
        // map's key), and through `deserialize_any`: the engine's text of the path the
        // decoder reads, in each generation.
        let opts = DEFAULT.with_generation(generation);
        let path = Value::NodePath(godot_variant_codec::NodePath::new(&names, &subnames, absolute));
        let Ok(bytes) = encode(&path, &EncodeOptions::default().with_generation(generation)) else {
            return Ok(());
        };
        let Value::NodePath(decoded) = decode(&bytes, &opts).unwrap().0 else {
            panic!("a NodePath")
        };
        let text = decoded.to_string();
        prop_assert_eq!(from_slice::<String>(&bytes, &opts).unwrap(), (text.clone(), bytes.len()));
        let dictionary = generation.wire_id(VariantType::Dictionary).unwrap();
        let mut entry = dictionary.to_le_bytes().to_vec();
        entry.extend(1u32.to_le_bytes());
        entry.extend(&bytes);
        entry.extend(&bytes);
        let (map, _) = from_slice::<BTreeMap<Lent, String>>(&entry, &opts).unwrap();
        prop_assert_eq!(map.into_iter().collect::<Vec<_>>(), vec![(Lent(text.clone()), text.clone())]);
        prop_assert_eq!(from_slice::<Any>(&bytes, &opts).unwrap().0, Any::Text(text));
    }

    #[test]
    fn arbitrary_bytes_read_as_the_decoder_reads_them(
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        allow_objects in any::<bool>(),
        generation in prop::sample::select(Generation::ALL.to_vec()),
    ) {
        let opts = DEFAULT.with_allow_objects(allow_objects).with_generation(generation);
        if let Err(difference) = serde_reads_as_decoder(&bytes, &opts) {
            prop_assert!(false, "{}", difference);
        }
        let _ = from_slice::<Random>(&bytes, &opts);
    }

    #[test]
    fn mutated_messages_never_panic(r in random(), flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4), cut in any::<prop::sample::Index>()) {
        let mut bytes = to_vec(&r, &single()).unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        if let Err(e) = from_slice::<Random>(&bytes, &DEFAULT) {
            prop_assert!(e.offset().is_some_and(|at| at <= bytes.len()), "{}", e);
        }
    }
}

/// A text that a visitor receives as a `&str` it may only borrow (`visit_str`), and copies.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Lent(String);

impl<'de> Deserialize<'de> for Lent {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl de::Visitor<'_> for Text {
            type Value = Lent;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text")
            }
            fn visit_str<E>(self, text: &str) -> Result<Lent, E> {
                Ok(Lent(text.to_owned()))
            }
        }
        d.deserialize_str(Text)
    }
}

// ---------------------------------------------------------------------------------------
// Double precision: the math types and packed vector arrays with `f64` components

/// Components no `f32` holds exactly (nor their sums of magnitudes), in both signs.
fn wide_components<const N: usize>() -> [f64; N] {
    std::array::from_fn(|k| {
        let c = 0.1 + k as f64 * 1.000_000_1e10;
        if k % 2 == 0 {
            c
        } else {
            -c
        }
    })
}

macro_rules! check_double_math_types {
    ($($t:ident: $variant:ident $(($boxed:ident))? [$n:literal]),*) => {{
        $(
            let components: [f64; $n] = wide_components();
            let value = $t::<f64>::from(components);
            let wide = |c| Value::$variant(check_math_types!(@wrap $($boxed)? c));
            let expected = wide(Reals::Double(components));
            // Written as the value model writes the same value: flagged 64 bits for a
            // double-precision engine, rounded as the engine rounds for a single one.
            same_bytes_and_back(&value, &expected, &double());
            assert_eq!(to_vec(&value, &single()).unwrap(), encode(&expected, &single()).unwrap());
            // Decoded exactly in both widths: 64-bit bytes into f64 exactly, into f32
            // rounded; 32-bit bytes into f64 widened exactly.
            let rounded = components.map(|c| c as f32);
            let wide_bytes = encode(&expected, &double()).unwrap();
            assert_eq!(from_slice::<$t<f64>>(&wide_bytes, &DEFAULT).unwrap().0, value);
            assert_eq!(
                from_slice::<$t<f32>>(&wide_bytes, &DEFAULT).unwrap().0,
                $t::<f32>::from(rounded)
            );
            let narrow_bytes = encode(&wide(Reals::Single(rounded)), &single()).unwrap();
            assert_eq!(
                from_slice::<$t<f64>>(&narrow_bytes, &DEFAULT).unwrap(),
                ($t::<f64>::from(rounded.map(f64::from)), narrow_bytes.len())
            );
            // Human-readable formats: the components, exactly.
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<$t<f64>>(&json).unwrap(), value);
            assert_eq!(serde_json::from_str::<[f64; $n]>(&json).unwrap(), components);
        )*
    }};
}

#[test]
fn f64_math_types_are_exact_in_both_precisions() {
    with_real_math_types!(check_double_math_types);
}

#[test]
fn f64_packed_vector_arrays_are_exact_in_both_precisions() {
    macro_rules! check {
        ($packed:ident, $vector:ident, $variant:ident, $n:literal) => {{
            let items: Vec<[f64; $n]> = (0..3)
                .map(|i| wide_components::<$n>().map(|c| c * (i as f64 + 1.5)))
                .collect();
            let value = $packed::<f64>(items.iter().map(|&c| $vector::from(c)).collect());
            let expected = Value::$variant(PackedReals::Double(items.clone()));
            same_bytes_and_back(&value, &expected, &double());
            assert_eq!(
                to_vec(&value, &single()).unwrap(),
                encode(&expected, &single()).unwrap()
            );
            let rounded: Vec<[f32; $n]> = items.iter().map(|c| c.map(|x| x as f32)).collect();
            let wide_bytes = encode(&expected, &double()).unwrap();
            assert_eq!(
                from_slice::<$packed<f64>>(&wide_bytes, &DEFAULT).unwrap().0,
                value
            );
            assert_eq!(
                from_slice::<$packed<f32>>(&wide_bytes, &DEFAULT).unwrap().0,
                $packed::<f32>(rounded.iter().map(|&c| $vector::from(c)).collect())
            );
            let narrow = Value::$variant(PackedReals::Single(rounded.clone()));
            let narrow_bytes = encode(&narrow, &single()).unwrap();
            assert_eq!(
                from_slice::<$packed<f64>>(&narrow_bytes, &DEFAULT)
                    .unwrap()
                    .0,
                $packed::<f64>(
                    rounded
                        .iter()
                        .map(|c| $vector::from(c.map(f64::from)))
                        .collect()
                )
            );
        }};
    }
    check!(PackedVector2Array, Vector2, PackedVector2Array, 2);
    check!(PackedVector3Array, Vector3, PackedVector3Array, 3);
    check!(PackedVector4Array, Vector4, PackedVector4Array, 4);
}

#[test]
fn a_struct_of_f64_math_types_round_trips_through_a_double_precision_engine() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Body {
        position: Vector3<f64>,
        transform: Transform3D<f64>,
        path: PackedVector2Array<f64>,
        label: String,
    }
    let body = Body {
        position: Vector3::from([1e-300, 6.02214076e23, -0.1]),
        transform: Transform3D::from(wide_components::<12>()),
        path: PackedVector2Array(vec![
            Vector2::from([0.1, 0.2]),
            Vector2::from([1e20, -1e-20]),
        ]),
        label: "x".into(),
    };
    let bytes = to_vec(&body, &double()).unwrap();
    let (back, used) = from_slice::<Body>(&bytes, &DEFAULT).unwrap();
    assert_eq!((back, used), (body, bytes.len()));
    // The value model reads the same bytes as the same numbers, in 64 bits.
    let (value, _) = decode(&bytes, &DEFAULT).unwrap();
    let Value::Dictionary(d) = value else {
        panic!("{value:?}")
    };
    assert_eq!(
        d.entries[0].1,
        Value::Vector3(Reals::Double([1e-300, 6.02214076e23, -0.1]))
    );
}

//! `Value` made and taken apart as with `serde_json::Value`: `From` / `TryFrom`, the
//! accessors and lookups, `FromIterator`, and serde (through JSON and through the bytes).

use godot_variant_codec::serde::{
    Color, PackedColorArray, PackedVector2Array, PackedVector3Array, Transform3D, Vector2,
    Vector2i, Vector3,
};
use godot_variant_codec::{
    decode, encode, Array, DecodeOptions, Dictionary, EncodeOptions, NodePath, PackedReals,
    Precision, Reals, Value, VariantType, WrongType,
};

/// `value` after encode → decode, checked to come back equal.
fn through_bytes(value: Value) -> Value {
    let bytes = encode(&value, &EncodeOptions::default()).unwrap();
    let (back, used) = decode(&bytes, &DecodeOptions::default()).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(back, value);
    back
}

/// `x` through a `Value` and the bytes, back to `T`.
fn round_trip<T>(x: T) -> T
where
    T: Into<Value> + TryFrom<Value, Error = WrongType>,
{
    T::try_from(through_bytes(x.into())).unwrap()
}

#[test]
fn primitives_convert_both_ways() {
    assert!(round_trip(true));
    assert_eq!(round_trip(-7_i64), -7);
    assert_eq!(round_trip(i64::MAX), i64::MAX);
    assert_eq!(round_trip(0.1_f64), 0.1);
    assert_eq!(round_trip(String::from("héllo")), "héllo");
    assert_eq!(Value::from(7_u8), Value::Int(7));
    assert_eq!(Value::from(u32::MAX), Value::Int(u32::MAX.into()));
    assert_eq!(Value::from(-3_i32), Value::Int(-3));
    assert_eq!(Value::from(1.5_f32), Value::Float(1.5));
    assert_eq!(Value::from("a"), Value::String("a".into()));
    assert_eq!(Value::from(None::<i64>), Value::Nil);
    assert_eq!(Value::from(Some(3)), Value::Int(3));
}

#[test]
fn packed_arrays_convert_both_ways() {
    assert_eq!(round_trip(vec![1_u8, 2, 3]), [1, 2, 3]);
    assert_eq!(round_trip(vec![-1_i32, 5]), [-1, 5]);
    assert_eq!(round_trip(vec![i64::MIN]), [i64::MIN]);
    assert_eq!(round_trip(vec![0.5_f32]), [0.5]);
    assert_eq!(round_trip(vec![0.1_f64]), [0.1]);
    assert_eq!(round_trip(vec![String::from("a"), "b".into()]), ["a", "b"]);
    let vectors: PackedVector2Array = PackedVector2Array(vec![Vector2 { x: 1.0, y: 2.0 }]);
    assert_eq!(round_trip(vectors.clone()), vectors);
    assert_eq!(
        Value::from(vectors),
        Value::PackedVector2Array(PackedReals::Single(vec![[1.0, 2.0]]))
    );
    let wide = PackedVector3Array::<f64>(vec![Vector3 {
        x: 0.1,
        y: 0.2,
        z: 0.3,
    }]);
    assert_eq!(
        Value::from(wide.clone()),
        Value::PackedVector3Array(PackedReals::Double(vec![[0.1, 0.2, 0.3]]))
    );
    // Read as single precision, rounded as a single-precision engine rounds.
    let narrowed = PackedVector3Array::<f32>::try_from(Value::from(wide)).unwrap();
    assert_eq!(narrowed.0[0].x, 0.1_f64 as f32);
    let colors = PackedColorArray(vec![Color {
        r: 1.0,
        g: 0.5,
        b: 0.0,
        a: 1.0,
    }]);
    assert_eq!(round_trip(colors.clone()), colors);
}

#[test]
fn math_types_convert_both_ways_in_either_precision() {
    let v: Vector2 = Vector2 { x: 1.5, y: -2.0 };
    assert_eq!(round_trip(v), v);
    assert_eq!(Value::from(v), Value::Vector2(Reals::Single([1.5, -2.0])));
    let wide = Vector2::<f64> { x: 0.1, y: 0.2 };
    assert_eq!(Value::from(wide), Value::Vector2(Reals::Double([0.1, 0.2])));
    // A double-precision value read into f32 components is rounded; f64 ones hold it.
    assert_eq!(
        Vector2::<f32>::try_from(Value::from(wide)).unwrap(),
        Vector2 {
            x: 0.1_f64 as f32,
            y: 0.2_f64 as f32
        }
    );
    assert_eq!(Vector2::<f64>::try_from(Value::from(wide)).unwrap(), wide);
    let i = Vector2i { x: 3, y: -4 };
    assert_eq!(round_trip(i), i);
    let components: [f32; 12] = std::array::from_fn(|k| k as f32);
    let t = Transform3D::from(components);
    assert_eq!(round_trip(t), t);
    assert_eq!(
        Value::from(t),
        Value::Transform3D(Box::new(Reals::Single(components)))
    );
}

#[test]
fn containers_and_other_types_convert_both_ways() {
    let array: Array = [1, 2, 3].into_iter().collect();
    assert_eq!(round_trip(array.clone()), array);
    assert_eq!(
        Vec::<Value>::try_from(Value::from(array)).unwrap(),
        [Value::Int(1), Value::Int(2), Value::Int(3)]
    );
    let dictionary = Dictionary::from([("a", 1), ("b", 2)]);
    assert_eq!(round_trip(dictionary.clone()), dictionary);
    let path = NodePath::default();
    assert_eq!(round_trip(path.clone()), path);
    // A StringName is text too.
    assert_eq!(
        String::try_from(Value::StringName("n".into())).unwrap(),
        "n"
    );
}

#[test]
fn a_value_of_another_type_is_given_back() {
    let err = i64::try_from(Value::from("7")).unwrap_err();
    assert_eq!(err.expected, VariantType::Int);
    assert_eq!(err.value, Value::from("7"));
    assert_eq!(err.to_string(), "expected a int, found a String");
    let err = Vector2::<f32>::try_from(Value::from(vec![1.0_f32, 2.0])).unwrap_err();
    assert_eq!(err.expected, VariantType::Vector2);
    assert_eq!(err.value.variant_type(), VariantType::PackedFloat32Array);
}

/// `{"name": "Ada", "hp": 10, "pos": Vector2(1, 2), "tags": ["a", "b"]}`.
fn player() -> Value {
    Value::from([
        ("name", Value::from("Ada")),
        ("hp", 10.into()),
        ("pos", Vector2::<f32> { x: 1.0, y: 2.0 }.into()),
        ("tags", ["a", "b"].into_iter().collect()),
    ])
}

#[test]
fn accessors_and_lookups() {
    let player = player();
    assert_eq!(player.get("name").and_then(Value::as_str), Some("Ada"));
    assert_eq!(player["hp"].as_int(), Some(10));
    assert_eq!(player["tags"][1].as_str(), Some("b"));
    assert!(player["missing"]["deeper"].is_nil());
    assert_eq!(player.get("missing"), None);
    assert_eq!(player["hp"].as_float(), None);
    assert_eq!(player.as_dictionary().unwrap().entries.len(), 4);
    assert_eq!(player["tags"].as_array().unwrap().items.len(), 2);
    assert_eq!(Value::Float(0.5).as_float(), Some(0.5));
    assert_eq!(Value::Bool(true).as_bool(), Some(true));
    assert_eq!(Value::from(vec![9_u8]).as_bytes(), Some(&[9_u8][..]));
    // An int key, by a usize or by a Value; a StringName key by its text.
    let d = Value::from([
        (Value::Int(3), "three"),
        (Value::StringName("k".into()), "v"),
    ]);
    assert_eq!(d[3].as_str(), Some("three"));
    assert_eq!(d[&Value::Int(3)].as_str(), Some("three"));
    assert_eq!(d["k"].as_str(), Some("v"));
    assert_eq!(d[&Value::from("k")].as_str(), Some("v"));
    let mut player = player;
    let tags = player["tags"].clone();
    assert_eq!(
        player.as_dictionary_mut().unwrap().insert("hp", 11),
        Some(Value::Int(10))
    );
    assert!(player.as_array_mut().is_none());
    assert_eq!(player["hp"].as_int(), Some(11));
    assert_eq!(player["tags"], tags);
    let mut tags = tags;
    tags.as_array_mut().unwrap().items.push("c".into());
    assert_eq!(tags[2].as_str(), Some("c"));
}

#[test]
fn a_key_met_again_sets_its_first_entry() {
    let mut d: Dictionary = [("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
    assert_eq!(
        d.entries,
        [(Value::from("a"), Value::Int(3)), ("b".into(), 2.into())]
    );
    // The engine's Dictionary holds one entry for a String and a StringName of one text.
    assert_eq!(
        d.insert(Value::StringName("b".into()), 5),
        Some(Value::Int(2))
    );
    assert_eq!(d.insert(0.0, "zero"), None);
    assert_eq!(d.insert(-0.0, "still zero"), Some(Value::from("zero")));
    assert_eq!(d.entries.len(), 3);
    assert_eq!(d.get("b"), Some(&Value::Int(5)));
}

#[test]
fn collected_keys_are_one_entry_where_the_engine_holds_one() {
    use godot_variant_codec::Object;
    let nan = f64::NAN;
    let entries = [
        (Value::from("a"), 1),
        (Value::StringName("a".into()), 2),
        (Value::Float(nan), 3),
        (Value::Float(-nan), 4),
        (Value::Float(-0.0), 5),
        (Value::Float(0.0), 6),
        (Value::Vector2i([1, 2]), 7),
        (Value::Vector2i([1, 2]), 8),
        (Value::from_iter([1, 2]), 9),
        (Value::from_iter([1, 2]), 10),
        (Value::Object(Object::Id(7)), 11),
        (Value::Object(Object::Id(7)), 12),
    ];
    let d: Dictionary = entries.iter().cloned().collect();
    let values: Vec<_> = d.entries.iter().map(|(_, v)| v.as_int().unwrap()).collect();
    // Each object stands for an instance of its own: two entries, as the engine decodes two.
    assert_eq!(values, [2, 4, 6, 8, 10, 11, 12]);
    // `insert` and `get` keep the same identity.
    let mut inserted = Dictionary::default();
    for (key, value) in entries {
        inserted.insert(key, value);
    }
    // (Compared as printed: a NaN key is not `==` to itself.)
    assert_eq!(format!("{inserted:?}"), format!("{d:?}"));
    assert_eq!(d.get(Value::Float(nan)), Some(&Value::Int(4)));
    assert_eq!(d.get(Value::from_iter([1, 2])), Some(&Value::Int(10)));
    assert_eq!(d.get(Value::Object(Object::Id(7))), None);
    // Past the count a linear scan handles: the hash index, same answers.
    let many: Dictionary = (0..1000)
        .chain(0..1000)
        .map(|i| (Value::Vector2i([i % 100, i / 100]), i))
        .collect();
    assert_eq!(many.entries.len(), 1000);
    assert!(many.entries.iter().enumerate().all(|(i, (k, v))| {
        *k == Value::Vector2i([i as i32 % 100, i as i32 / 100]) && v.as_int() == Some(i as i64)
    }));
}

#[test]
fn json_round_trip() {
    let value = Value::from([
        ("nil", Value::Nil),
        ("yes", true.into()),
        ("int", (-5).into()),
        ("big", i64::MAX.into()),
        ("float", 0.25.into()),
        ("text", "hé\"llo".into()),
        (
            "list",
            Value::from_iter([Value::from(1), "two".into(), Value::Nil]),
        ),
        (
            "nested",
            Value::from([("k", Value::from(Vec::<Value>::new()))]),
        ),
    ]);
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(
        json,
        r#"{"nil":null,"yes":true,"int":-5,"big":9223372036854775807,"float":0.25,"text":"hé\"llo","list":[1,"two",null],"nested":{"k":[]}}"#
    );
    let back: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(back, value);
    through_bytes(back);
}

#[test]
fn json_of_the_godot_types() {
    assert_eq!(
        serde_json::to_string(&player()).unwrap(),
        r#"{"name":"Ada","hp":10,"pos":[1.0,2.0],"tags":["a","b"]}"#
    );
    let others = Value::from_iter([
        Value::Vector3i([1, 2, 3]),
        Value::Color([1.0, 0.5, 0.0, 1.0]),
        Value::PackedByteArray(vec![1, 2]),
        Value::PackedVector2Array(PackedReals::Double(vec![[0.5, 1.5]])),
        Value::Rid(9),
        Value::Callable,
    ]);
    assert_eq!(
        serde_json::to_string(&others).unwrap(),
        "[[1,2,3],[1.0,0.5,0.0,1.0],[1,2],[[0.5,1.5]],9,null]"
    );
    // A key met again in JSON sets the value of its first entry; u64 beyond i64 fails.
    let back: Value = serde_json::from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
    assert_eq!(back, Value::from([("a", 3), ("b", 2)]));
    assert!(serde_json::from_str::<Value>("18446744073709551615").is_err());
}

/// A full Object and a Signal serialize as the maps of the mapping in `serde`'s docs:
/// `{"class", "properties"}` (the properties in order) and `{"name", "object_id"}`.
#[test]
fn json_of_objects_and_signals() {
    use godot_variant_codec::{FullObject, Object, Signal};
    let object = Value::Object(Object::Full(Box::new(FullObject {
        class: "Node2D".into(),
        properties: vec![("name".into(), "Ship".into()), ("hp".into(), 3.into())],
    })));
    let signal = Value::Signal(Signal {
        name: "hit".into(),
        object_id: 7,
    });
    assert_eq!(
        serde_json::to_string(&Value::from_iter([object, signal])).unwrap(),
        r#"[{"class":"Node2D","properties":{"name":"Ship","hp":3}},{"name":"hit","object_id":7}]"#
    );
}

/// Through the crate's serializer, every type the mapping writes as itself gives the
/// bytes `encode` gives, in both precisions.
#[test]
fn serde_serializer_writes_what_encode_writes() {
    use godot_variant_codec::serde::to_vec;
    let mut values = vec![
        player(),
        Value::Vector2i([1, 2]),
        Value::Rect2(Reals::Double([0.1, 0.2, 0.3, 0.4])),
        Value::Transform2D(Box::new(Reals::Single([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))),
        Value::Projection(Box::new(Reals::Single([0.5; 16]))),
        Value::Color([0.1, 0.2, 0.3, 0.4]),
        Value::PackedByteArray(vec![1, 2, 3]),
        Value::PackedInt32Array(vec![-1, 2]),
        Value::PackedInt64Array(vec![i64::MIN]),
        Value::PackedFloat32Array(vec![0.5]),
        Value::PackedFloat64Array(vec![0.1]),
        Value::PackedStringArray(vec!["a".into(), "".into()]),
        Value::PackedVector2Array(PackedReals::Double(vec![[0.1, 0.2]])),
        Value::PackedVector3Array(PackedReals::Single(vec![[1.0, 2.0, 3.0]])),
        Value::PackedColorArray(vec![[1.0, 0.0, 0.0, 1.0]]),
        Value::PackedVector4Array(PackedReals::Single(vec![[1.0, 2.0, 3.0, 4.0]])),
        Value::Float(0.1),
        Value::Nil,
    ];
    values.push(values.iter().cloned().collect());
    for precision in [Precision::Single, Precision::Double] {
        let opts = EncodeOptions::default().with_precision(precision);
        for value in &values {
            assert_eq!(
                to_vec(value, &opts).unwrap(),
                encode(value, &opts).unwrap(),
                "{value:?}"
            );
        }
    }
}

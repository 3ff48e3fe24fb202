//! Dictionaries of many distinct keys of one type, for the `dict_keys` bench group and the
//! `dict_keys` example (which writes them to files for `godot-variant check`).

use godot_variant_codec::{Array, ContainerType, Dictionary, NodePath, Reals, Value};

/// The key types, by the names the bench rows and the files carry.
pub const KINDS: [&str; 10] = [
    "int",
    "float",
    "String",
    "StringName",
    "Vector2i",
    "Vector3",
    "Color",
    "NodePath",
    "PackedByteArray",
    "Array",
];

/// The `i`-th key of type `kind`: distinct for distinct `i`, laid out as a game would
/// (grid cells, node paths, …).
pub fn key(kind: &str, i: usize) -> Value {
    let (x, y) = ((i % 512) as i32, (i / 512) as i32);
    let f = |n: usize| n as f32 * 0.5;
    match kind {
        "int" => Value::Int(i as i64),
        "float" => Value::Float(i as f64 * 0.25),
        "String" => Value::String(format!("key_{i}")),
        "StringName" => Value::StringName(format!("key_{i}")),
        "Vector2i" => Value::Vector2i([x, y]),
        "Vector3" => Value::Vector3(Reals::Single([f(i % 64), f(i / 64 % 64), f(i / 4096)])),
        "Color" => Value::Color([
            (i % 256) as f32 / 255.0,
            (i / 256 % 256) as f32 / 255.0,
            (i / 65536) as f32 / 255.0,
            1.0,
        ]),
        "NodePath" => Value::NodePath(NodePath::new(
            ["root", "Level", &format!("Enemy{i}")],
            ["position"],
            true,
        )),
        "PackedByteArray" => Value::PackedByteArray((i as u64).to_le_bytes().to_vec()),
        "Array" => Value::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items: vec![Value::Int(x.into()), Value::Int(y.into())],
        })),
        other => panic!("no key type {other}"),
    }
}

/// A Dictionary of `n` distinct keys of type `kind`, each holding its number.
pub fn dictionary(kind: &str, n: usize) -> Value {
    Value::Dictionary(Box::new(Dictionary {
        key_type: ContainerType::Untyped,
        value_type: ContainerType::Untyped,
        entries: (0..n)
            .map(|i| (key(kind, i), Value::Int(i as i64)))
            .collect(),
    }))
}

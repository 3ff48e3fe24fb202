//! `inspect --json` and `encode`: one object a line, and the mapping of Godot values to
//! JSON and back (docs/RUST_KIT.md has it as a table).
//!
//! Every value maps to JSON that says its type, so that `encode` writes back the bytes:
//! `null`, `true` / `false`, a number without `.` or exponent (an int within ±2^53), a
//! number with one (a float), a string (a String), an array (an untyped Array) and an
//! object of String keys (an untyped Dictionary) are themselves; every other value is an
//! object whose first key names its type, `{"Vector2": [1.5, 2.0]}`, some with more keys
//! after it (a typed Array's `"of"`). A Dictionary whose first key names a type is written
//! in the tagged form, `{"Dictionary": [[key, value], …]}`, so that it is not read as one.
//! A line whose value holds 64-bit math components (a double-precision engine's) says
//! `"precision": "double"`, and its components are written with all their digits.

mod read;
mod syntax;
mod write;

use std::collections::HashSet;
use std::fmt::Write;

use godot_variant_codec::text::{node_path_parts, node_path_text, var_to_str};
use godot_variant_codec::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Reals, Signal,
    StackRoom, Value, VariantType,
};

pub use syntax::{parse, Json};

pub use read::value_from_json;
pub use write::{error_line, value_line};

fn string(s: &str) -> String {
    serde_json::to_string(s).expect("a str is always JSON")
}

/// The one place the CLI takes a NodePath apart: whether it is absolute, its names, its
/// subnames.
fn node_path_of(p: &NodePath) -> (bool, Vec<&str>, Vec<&str>) {
    (p.is_absolute(), p.names().collect(), p.subnames().collect())
}

/// The one place the CLI makes a NodePath.
fn node_path(absolute: bool, names: Vec<String>, subnames: Vec<String>) -> Value {
    Value::NodePath(NodePath::new(names, subnames, absolute))
}

/// The type a tag names.
fn type_named(name: &str) -> Option<VariantType> {
    VariantType::ALL.into_iter().find(|t| t.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line's value, and what it reads back as.
    fn round_trip(value: &Value) -> (String, Value) {
        let line = value_line(0, 0, value);
        let json = parse(&line).unwrap();
        let Json::Object(members) = json else {
            panic!()
        };
        let double = members
            .iter()
            .any(|(k, v)| k == "precision" && *v == Json::String("double".into()));
        let (_, v) = members.iter().find(|(k, _)| k == "value").unwrap();
        let text = line[line.find("\"value\":").unwrap() + 8..line.len() - 1].to_owned();
        (text, value_from_json(v, double).unwrap())
    }

    fn dict(entries: Vec<(Value, Value)>) -> Value {
        Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
            entries,
        }))
    }

    fn s(t: &str) -> Value {
        Value::String(t.into())
    }

    #[test]
    fn every_kind_of_value_says_its_type_and_reads_back() {
        let nan_bits = f64::from_bits(0x7ff8_0000_0000_0001);
        for (value, json) in [
            (Value::Int(1 << 53), "9007199254740992"),
            (Value::Int((1 << 53) + 1), r#"{"int":"9007199254740993"}"#),
            (Value::Int(i64::MIN), r#"{"int":"-9223372036854775808"}"#),
            (Value::Float(1.0), "1.0"),
            (Value::Float(1e300), "1e+300"),
            (Value::Float(-0.0), "-0.0"),
            (Value::Float(f64::NAN), r#"{"float":"NaN"}"#),
            (
                Value::Float(nan_bits),
                r#"{"float":"NaN(0x7ff8000000000001)"}"#,
            ),
            (Value::Float(f64::NEG_INFINITY), r#"{"float":"-Infinity"}"#),
            (Value::StringName("a".into()), r#"{"StringName":"a"}"#),
            (
                node_path(true, vec!["a".into()], vec!["b".into()]),
                r#"{"NodePath":"/a:b"}"#,
            ),
            (
                node_path(false, vec!["a/b".into(), String::new()], vec![]),
                r#"{"NodePath":{"names":["a/b",""],"subnames":[],"absolute":false}}"#,
            ),
            (
                Value::Vector2(Reals::Single([0.1, f32::NAN])),
                r#"{"Vector2":[0.1,"NaN"]}"#,
            ),
            (
                Value::Vector2(Reals::Single([f32::from_bits(0xffc0_0001), 2.0])),
                r#"{"Vector2":["NaN(0xffc00001)",2.0]}"#,
            ),
            (Value::Vector3i([1, -2, 3]), r#"{"Vector3i":[1,-2,3]}"#),
            (Value::Rid(u64::MAX), r#"{"RID":"18446744073709551615"}"#),
            (Value::Object(Object::Null), r#"{"Object":null}"#),
            (Value::Object(Object::Id(7)), r#"{"Object":7}"#),
            (
                Value::Object(Object::Id(u64::MAX)),
                r#"{"Object":"18446744073709551615"}"#,
            ),
            (
                Value::Object(Object::Full(Box::new(FullObject {
                    class: "Node".into(),
                    properties: vec![("name".into(), Value::StringName("n".into()))],
                }))),
                r#"{"Object":{"class":"Node","properties":{"name":{"StringName":"n"}}}}"#,
            ),
            (Value::Callable, r#"{"Callable":null}"#),
            (
                Value::Signal(Signal {
                    name: "hit".into(),
                    object_id: 9,
                }),
                r#"{"Signal":"hit","object_id":9}"#,
            ),
            (
                dict(vec![(s("b"), Value::Int(1)), (s("a"), Value::Nil)]),
                r#"{"b":1,"a":null}"#,
            ),
            (
                dict(vec![(s("int"), Value::Int(1))]),
                r#"{"Dictionary":[["int",1]]}"#,
            ),
            (
                dict(vec![(Value::Int(1), s("x"))]),
                r#"{"Dictionary":[[1,"x"]]}"#,
            ),
            (
                Value::Dictionary(Box::new(Dictionary {
                    key_type: ContainerType::Builtin(VariantType::String),
                    value_type: ContainerType::ClassName("Node".into()),
                    entries: vec![],
                })),
                r#"{"Dictionary":[],"keys":"String","values":{"class":"Node"}}"#,
            ),
            (
                Value::Array(Box::new(Array {
                    element_type: ContainerType::Script("res://a.gd".into()),
                    items: vec![Value::Nil],
                })),
                r#"{"Array":[null],"of":{"script":"res://a.gd"}}"#,
            ),
            (
                Value::PackedByteArray(vec![0, 255]),
                r#"{"PackedByteArray":[0,255]}"#,
            ),
            (
                Value::PackedInt64Array(vec![i64::MAX]),
                r#"{"PackedInt64Array":["9223372036854775807"]}"#,
            ),
            (
                Value::PackedVector2Array(PackedReals::Single(vec![[1.5, -0.0]])),
                r#"{"PackedVector2Array":[[1.5,-0.0]]}"#,
            ),
        ] {
            let (text, back) = round_trip(&value);
            assert_eq!(text, json);
            // Bit for bit (NaNs included): compare the encoded bytes.
            let bytes = |v: &Value| godot_variant_codec::encode(v, &Default::default()).unwrap();
            assert_eq!(bytes(&back), bytes(&value), "{json}");
        }
    }

    #[test]
    fn double_precision_components_keep_every_digit() {
        let value = Value::Vector2(Reals::Double([0.1, 1e-300]));
        let line = value_line(0, 0, &value);
        assert!(line.contains(r#""precision":"double""#), "{line}");
        assert!(line.contains(r#"{"Vector2":[0.1,1e-300]}"#), "{line}");
        assert_eq!(round_trip(&value).1, value);
        let mixed = Value::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items: vec![value, Value::Vector2(Reals::Single([1.0, 2.0]))],
        }));
        assert!(value_line(0, 0, &mixed).contains(r#""precision":"mixed""#));
    }

    #[test]
    fn bad_values_say_where_and_what() {
        for (json, error) in [
            (r#"{"Vector2":[1]}"#, "value.Vector2: expected 2 components, found 1"),
            (r#"[1, {"a": {"Vector2i":[1, 2.5]}}]"#, "value[1][\"a\"].Vector2i[1]: expected an integer, found a number"),
            (r#"{"Color":[1,2,3,1e39]}"#, "value.Color[3]: 1e39 is beyond 32-bit floats"),
            (r#"{"Vector2":[1,2],"of":"int"}"#, "value.Vector2: unknown key \"of\" after the type (a Vector2 takes none)"),
            (r#"{"Array":[],"of":"Integer"}"#, "value.Array.of: no type is named \"Integer\""),
            (r#"{"a":1,"a":2}"#, "value[\"a\"]: a key given twice"),
            (r#"{"float":"nan"}"#, "value.float: expected a number, \"NaN\", \"NaN(0x…)\" (a NaN's bits), \"Infinity\" or \"-Infinity\", found \"nan\""),
            (r#"{"Signal":"s"}"#, "value.Signal: a Signal needs its \"object_id\""),
            ("18446744073709551616", "value: 18446744073709551616 is beyond 64-bit ints"),
            (r#"{"NodePath":"a::b"}"#, "value.NodePath: the NodePath \"a::b\" has an empty subname (\"a::b\")"),
        ] {
            let e = value_from_json(&parse(json).unwrap(), false).unwrap_err();
            assert_eq!(e.to_string(), error, "{json}");
        }
    }
}

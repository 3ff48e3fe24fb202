//! Values as the tests' JSON describes them (the Godot 3 engine's corpus script, the Godot
//! 2 vector generator: `"t"` the type's name in that generation, `"v"` its contents, texts
//! and float bits as hex) → the Godot 4 value the documented tables give. The types both
//! generations share are read here; each test reads its generation's own.

#![allow(dead_code)]

use godot_variant_codec::wire::Plain;
use godot_variant_codec::{Array, ContainerType, Dictionary, PackedReals, Reals, Value};
use serde_json::Value as Json;

use super::golden_file::unhex;

/// A generation's names for the types both describe under other names.
pub struct Names {
    pub transform2d: &'static str,
    pub basis: &'static str,
    /// What the packed arrays' names start with (`Pool` in Godot 3).
    pub packed_prefix: &'static str,
}

pub fn text(j: &Json) -> String {
    String::from_utf8_lossy(&unhex(j.as_str().expect("hex text"))).into_owned()
}

pub fn f32_bits(j: &Json) -> f32 {
    f32::from_bits(u32::from_str_radix(j.as_str().unwrap(), 16).expect("f32 bits"))
}

pub fn f32s<const N: usize>(j: &Json) -> [f32; N] {
    let items = j.as_array().expect("components");
    assert_eq!(items.len(), N, "{j}");
    std::array::from_fn(|i| f32_bits(&items[i]))
}

pub fn reals<const N: usize>(j: &Json) -> Reals<N> {
    Reals::Single(f32s(j))
}

pub fn plain<T: Plain>(j: &Json) -> Vec<T> {
    let bytes = unhex(j.as_str().expect("hex"));
    godot_variant_codec::wire::plain_items(&bytes).into_owned()
}

/// The value `d` describes, when its type is one both generations have (RID: the empty
/// one, as both write an RID as its header alone); `expected` reads the elements of
/// containers.
pub fn shared(d: &Json, names: &Names, expected: fn(&Json) -> Value) -> Option<Value> {
    let t = d["t"].as_str().expect("a type");
    let v = &d["v"];
    Some(match t {
        "Nil" => Value::Nil,
        "bool" => Value::Bool(v.as_bool().unwrap()),
        "int" => Value::Int(v.as_str().unwrap().parse().unwrap()),
        "float" => Value::Float(f64::from_bits(
            u64::from_str_radix(v.as_str().unwrap(), 16).unwrap(),
        )),
        "String" => Value::String(text(v)),
        "Vector2" => Value::Vector2(reals(v)),
        "Rect2" => Value::Rect2(reals(v)),
        "Vector3" => Value::Vector3(reals(v)),
        t if t == names.transform2d => Value::Transform2D(Box::new(reals(v))),
        "Plane" => Value::Plane(reals(v)),
        "Quat" => Value::Quaternion(reals(v)),
        "AABB" => Value::Aabb(Box::new(reals(v))),
        t if t == names.basis => Value::Basis(Box::new(reals(v))),
        "Transform" => Value::Transform3D(Box::new(reals(v))),
        "Color" => Value::Color(f32s(v)),
        "RID" => Value::Rid(0),
        "Dictionary" => Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
            entries: v
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (expected(&e[0]), expected(&e[1])))
                .collect(),
        })),
        "Array" => Value::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items: v.as_array().unwrap().iter().map(expected).collect(),
        })),
        t => match t.strip_prefix(names.packed_prefix)? {
            "ByteArray" => Value::PackedByteArray(unhex(v.as_str().unwrap())),
            "IntArray" => Value::PackedInt32Array(plain(v)),
            "RealArray" => Value::PackedFloat32Array(plain(v)),
            "StringArray" => {
                Value::PackedStringArray(v.as_array().unwrap().iter().map(text).collect())
            }
            "Vector2Array" => Value::PackedVector2Array(PackedReals::Single(plain(v))),
            "Vector3Array" => Value::PackedVector3Array(PackedReals::Single(plain(v))),
            "ColorArray" => Value::PackedColorArray(plain(v)),
            _ => return None,
        },
    })
}

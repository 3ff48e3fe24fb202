//! `inspect --json`: one object a line, and the mapping of Godot values to JSON
//! (docs/RUST_KIT.md has it as a table).
//!
//! * `null`, `bool`, Strings, StringNames and NodePaths (their text) as themselves.
//! * int (and RID ids, object ids): a JSON number when within ±2^53, where every JSON
//!   reader holds it exactly; beyond, a string of its decimal digits.
//! * float: a JSON number (the shortest digits that read back; always with a `.` or an
//!   exponent); NaN, infinity and minus infinity, which JSON lacks, as the strings
//!   `"NaN"`, `"Infinity"`, `"-Infinity"`.
//! * math types and Color: an array of their components in the engine's order (the text's
//!   order); packed arrays: an array of their elements (vectors and Colors as arrays).
//! * Array: an array. Dictionary: an object when every key is a String or StringName,
//!   else an array of `[key, value]` pairs; in the Dictionary's own order either way.
//! * Object: `null` for a null object, `{"object_id": id}` for an encoded id; Callable:
//!   `null`; Signal: `{"name": …, "object_id": id}`.

use std::fmt::Write;

use godot_variant_codec::text::var_to_str;
use godot_variant_codec::{Object, PackedReals, Reals, Value};

/// The largest magnitude a JSON number holds exactly in every reader (an IEEE double).
const EXACT: i64 = 1 << 53;

/// `{"offset": N, "size": N, "type": "…", "text": "…", "value": …}`.
pub fn value_line(offset: usize, size: usize, value: &Value) -> String {
    let mut line = format!(
        "{{\"offset\":{offset},\"size\":{size},\"type\":{},\"text\":{},\"value\":",
        string(value.variant_type().name()),
        string(&var_to_str(value))
    );
    write_value(&mut line, value);
    line.push('}');
    line
}

/// `{"offset": N, "error": "…"}`.
pub fn error_line(offset: usize, error: &str) -> String {
    format!("{{\"offset\":{offset},\"error\":{}}}", string(error))
}

fn string(s: &str) -> String {
    serde_json::to_string(s).expect("a str is always JSON")
}

fn int(out: &mut String, i: i64) {
    if (-EXACT..=EXACT).contains(&i) {
        write!(out, "{i}").unwrap();
    } else {
        write!(out, "\"{i}\"").unwrap();
    }
}

fn uint(out: &mut String, u: u64) {
    match i64::try_from(u) {
        Ok(i) => int(out, i),
        Err(_) => write!(out, "\"{u}\"").unwrap(),
    }
}

fn float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("\"NaN\"");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        });
    } else {
        out.push_str(&serde_json::to_string(&f).expect("a finite float is JSON"));
    }
}

fn seq<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item(out, x);
    }
    out.push(']');
}

fn reals<const N: usize>(out: &mut String, r: &Reals<N>) {
    seq(out, r.to_f64(), float);
}

fn packed_reals<const N: usize>(out: &mut String, p: &PackedReals<N>) {
    match p {
        PackedReals::Single(v) => seq(out, v, |out, x| seq(out, x.map(f64::from), float)),
        PackedReals::Double(v) => seq(out, v, |out, x| seq(out, *x, float)),
    }
}

fn write_value(out: &mut String, value: &Value) {
    use Value as V;
    match value {
        V::Nil | V::Callable | V::Object(Object::Null) => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => int(out, *i),
        V::Float(f) => float(out, *f),
        V::String(s) | V::StringName(s) => out.push_str(&string(s)),
        V::NodePath(p) => {
            out.push_str(&string(&p.to_string()));
        }
        V::Vector2(r) => reals(out, r),
        V::Rect2(r) | V::Vector4(r) | V::Plane(r) | V::Quaternion(r) => reals(out, r),
        V::Vector3(r) => reals(out, r),
        V::Transform2D(r) | V::Aabb(r) => reals(out, r),
        V::Basis(r) => reals(out, r),
        V::Transform3D(r) => reals(out, r),
        V::Projection(r) => reals(out, r),
        V::Vector2i(v) => seq(out, v, |out, i| int(out, (*i).into())),
        V::Vector3i(v) => seq(out, v, |out, i| int(out, (*i).into())),
        V::Rect2i(v) | V::Vector4i(v) => seq(out, v, |out, i| int(out, (*i).into())),
        V::Color(c) => seq(out, c.map(f64::from), float),
        V::Rid(id) => uint(out, *id),
        V::Object(Object::Id(id)) => {
            out.push_str("{\"object_id\":");
            uint(out, *id);
            out.push('}');
        }
        V::Object(Object::Full(object)) => {
            write!(
                out,
                "{{\"class\":{},\"properties\":{{",
                string(&object.class)
            )
            .unwrap();
            for (i, (name, value)) in object.properties.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write!(out, "{}:", string(name)).unwrap();
                write_value(out, value);
            }
            out.push_str("}}");
        }
        V::Signal(s) => {
            write!(out, "{{\"name\":{},\"object_id\":", string(&s.name)).unwrap();
            uint(out, s.object_id);
            out.push('}');
        }
        V::Array(a) => seq(out, &a.items, write_value),
        V::Dictionary(d) => {
            let string_keys = d
                .entries
                .iter()
                .all(|(k, _)| matches!(k, V::String(_) | V::StringName(_)));
            if string_keys {
                out.push('{');
                for (i, (key, value)) in d.entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_value(out, key);
                    out.push(':');
                    write_value(out, value);
                }
                out.push('}');
            } else {
                seq(out, &d.entries, |out, (key, value)| {
                    out.push('[');
                    write_value(out, key);
                    out.push(',');
                    write_value(out, value);
                    out.push(']');
                });
            }
        }
        V::PackedByteArray(v) => seq(out, v, |out, b| write!(out, "{b}").unwrap()),
        V::PackedInt32Array(v) => seq(out, v, |out, i| int(out, (*i).into())),
        V::PackedInt64Array(v) => seq(out, v, |out, i| int(out, *i)),
        V::PackedFloat32Array(v) => seq(out, v, |out, f| float(out, (*f).into())),
        V::PackedFloat64Array(v) => seq(out, v, |out, f| float(out, *f)),
        V::PackedStringArray(v) => seq(out, v, |out, s| out.push_str(&string(s))),
        V::PackedVector2Array(p) => packed_reals(out, p),
        V::PackedVector3Array(p) => packed_reals(out, p),
        V::PackedColorArray(v) => seq(out, v, |out, c| seq(out, c.map(f64::from), float)),
        V::PackedVector4Array(p) => packed_reals(out, p),
    }
}

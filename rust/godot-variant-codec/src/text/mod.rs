//! Values as text, exactly as Godot's `var_to_str` writes the value `bytes_to_var` gives:
//! what `godot-variant inspect` prints, tested against the engine for every type.
//!
//! The text is a single-precision engine's (Godot's default build): math components that
//! arrived in 64 bits are rounded to 32 first, as such an engine's `bytes_to_var` rounds
//! them. Numbers are written as the engine writes them (shortest digits that read back,
//! exponent below 1e-4 and from 1e15 on, `inf`, `inf_neg`, `nan`), Dictionaries with their
//! keys sorted as the engine sorts them, containers nested more than the engine's
//! 100 levels as `[]` / `{}`.
//!
//! ```
//! use godot_variant_codec::{text::var_to_str, Reals, Value};
//!
//! assert_eq!(var_to_str(&Value::Float(1.0)), "1.0");
//! assert_eq!(var_to_str(&Value::Vector2(Reals::Single([0.1, 2.0]))), "Vector2(0.1, 2)");
//! ```

use std::fmt::Write;

mod number;
mod order;

use number::real;
use order::{sort, string_like_less};

use crate::value::{Array, ContainerType, Dictionary, NodePath, Object, PackedReals, Reals, Value};
use crate::ENCODED_OBJECT_AS_ID;

/// The engine's `MAX_RECURSION` of its text writer: deeper containers are written empty.
const MAX_RECURSION: usize = 100;

/// The text Godot's `var_to_str` gives for `value`.
pub fn var_to_str(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out
}

/// The text of a NodePath, as the engine's `String(NodePath)` writes it: `/` first when
/// absolute, the names joined by `/`, then `:` and the subnames joined by `:` unless that
/// join is empty.
pub fn node_path_text(absolute: bool, names: &[&str], subnames: &[&str]) -> String {
    let separators = usize::from(absolute) + names.len() + subnames.len();
    let texts: usize = names.iter().chain(subnames).map(|t| t.len()).sum();
    let mut text = String::with_capacity(separators + texts);
    write_node_path(
        &mut text,
        absolute,
        names.iter().copied(),
        subnames.iter().copied(),
    )
    .expect("a String takes any text");
    text
}

/// Writes [`node_path_text`] to `out`.
pub(crate) fn write_node_path<'a>(
    out: &mut impl std::fmt::Write,
    absolute: bool,
    names: impl Iterator<Item = &'a str>,
    subnames: impl ExactSizeIterator<Item = &'a str> + Clone,
) -> std::fmt::Result {
    let first_is_empty = subnames.clone().next().is_none_or(str::is_empty);
    let subpath = writes_subpath(subnames.len(), first_is_empty);
    if absolute {
        out.write_char('/')?;
    }
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.write_char('/')?;
        }
        out.write_str(name)?;
    }
    if subpath {
        for subname in subnames {
            out.write_char(':')?;
            out.write_str(subname)?;
        }
    }
    Ok(())
}

/// Whether a NodePath's text has its subpath (`:` and the subnames joined by `:`): when
/// their join is not empty, i.e. but for no subname or one empty one.
pub(crate) fn writes_subpath(subname_count: usize, first_is_empty: bool) -> bool {
    subname_count > 1 || (subname_count == 1 && !first_is_empty)
}

/// The engine's `NodePath(String)` of `text` (see `NodePath::from(&str)`). The engine's
/// strings end at a NUL, and so does the text here.
pub(crate) fn parse_node_path(text: &str) -> NodePath {
    let text = text.split('\0').next().unwrap_or_default();
    let absolute = text.starts_with('/');
    let (path, subpath) = text.split_once(':').unwrap_or((text, ""));
    let mut subnames: Vec<&str> = subpath.split(':').collect();
    // An empty last subname is skipped (`a:b:`, and `a` alone); an empty one before it
    // is refused, which leaves the engine's path empty.
    if subnames.last() == Some(&"") {
        subnames.pop();
    }
    if subnames.contains(&"") {
        return NodePath::default();
    }
    let names = path[usize::from(absolute)..]
        .split('/')
        .filter(|name| !name.is_empty());
    NodePath::new(names, subnames, absolute)
}

/// The parts of a NodePath's text as the engine's `NodePath(String)` reads them: whether it
/// is absolute (a leading `/`), its names (the parts before the first `:`, split at `/`,
/// empty ones skipped) and its subnames (the parts after it, split at `:`); `None` for an
/// empty subname before the end, which the engine refuses (one at the end is dropped).
/// The inverse of [`node_path_text`] for every path whose names and subnames are not empty
/// and hold no `/` or `:`.
pub fn node_path_parts(text: &str) -> Option<(bool, Vec<&str>, Vec<&str>)> {
    let absolute = text.starts_with('/');
    let (path, subpath) = match text.split_once(':') {
        Some((path, subpath)) => (path, Some(subpath)),
        None => (text, None),
    };
    let mut subnames: Vec<&str> = subpath.map(|s| s.split(':').collect()).unwrap_or_default();
    if subnames.last() == Some(&"") {
        subnames.pop();
    }
    if subnames.iter().any(|s| s.is_empty()) {
        return None;
    }
    let names = path.split('/').filter(|n| !n.is_empty()).collect();
    Some((absolute, names, subnames))
}

fn write_value(out: &mut String, value: &Value, depth: usize) {
    use Value as V;
    // The engine's name of the type heads the text of each math type and packed array.
    let name = value.variant_type().name();
    match value {
        V::Nil => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => write!(out, "{i}").unwrap(),
        V::Float(f) => write_float(out, *f),
        V::String(s) => {
            out.push('"');
            escape_multiline(out, s);
            out.push('"');
        }
        V::Vector2(r) => reals(out, name, r),
        V::Vector2i(v) => ints(out, name, v),
        V::Rect2(r) => reals(out, name, r),
        V::Rect2i(v) => ints(out, name, v),
        V::Vector3(r) => reals(out, name, r),
        V::Vector3i(v) => ints(out, name, v),
        V::Transform2D(r) => reals(out, name, r),
        V::Vector4(r) => reals(out, name, r),
        V::Vector4i(v) => ints(out, name, v),
        V::Plane(r) => reals(out, name, r),
        V::Quaternion(r) => reals(out, name, r),
        V::Aabb(r) => reals(out, name, r),
        V::Basis(r) => reals(out, name, r),
        V::Transform3D(r) => reals(out, name, r),
        V::Projection(r) => reals(out, name, r),
        V::Color(c) => reals(out, name, &Reals::Single(*c)),
        V::StringName(s) => {
            out.push_str("&\"");
            escape(out, s);
            out.push('"');
        }
        V::NodePath(p) => {
            out.push_str("NodePath(\"");
            escape(out, &p.to_string());
            out.push_str("\")");
        }
        V::Rid(0) => out.push_str("RID()"),
        V::Rid(id) => write!(out, "RID({})", *id as i64).unwrap(),
        V::Object(object) => write_object(out, object, depth),
        V::Callable => out.push_str("Callable()"),
        V::Signal(_) => out.push_str("Signal()"),
        V::Dictionary(d) => write_dictionary(out, d, depth),
        V::Array(a) => write_array(out, a, depth),
        V::PackedByteArray(v) => list(out, name, v, |out, b| write!(out, "{b}").unwrap()),
        V::PackedInt32Array(v) => list(out, name, v, |out, i| write!(out, "{i}").unwrap()),
        V::PackedInt64Array(v) => list(out, name, v, |out, i| write!(out, "{i}").unwrap()),
        V::PackedFloat32Array(v) => list(out, name, v, |out, f| {
            out.push_str(&real(f64::from(*f)));
        }),
        V::PackedFloat64Array(v) => list(out, name, v, |out, f| out.push_str(&real(*f))),
        V::PackedStringArray(v) => list(out, name, v, |out, s| {
            out.push('"');
            escape(out, s);
            out.push('"');
        }),
        V::PackedVector2Array(v) => packed_reals(out, name, v),
        V::PackedVector3Array(v) => packed_reals(out, name, v),
        V::PackedColorArray(v) => list(out, name, v, |out, c| {
            components(out, &c.map(f64::from));
        }),
        V::PackedVector4Array(v) => packed_reals(out, name, v),
    }
}

/// A float: the number, with `.0` added where it would read as an int.
fn write_float(out: &mut String, f: f64) {
    let s = real(f);
    out.push_str(&s);
    if s != "inf" && s != "nan" && !s.contains(['.', 'e', 'E']) {
        out.push_str(".0");
    }
}

fn write_object(out: &mut String, object: &Object, depth: usize) {
    match object {
        Object::Null => out.push_str("null"),
        Object::Id(id) => writeln!(
            out,
            "Object({ENCODED_OBJECT_AS_ID},\"object_id\":{},\"script\":null)",
            *id as i64
        )
        .unwrap(),
        Object::Full(object) => {
            // What the engine writes for an object of a class without a script: its class
            // and stored properties (the engine lists every stored property of the class,
            // which only the engine knows; these are the ones the bytes hold).
            write!(out, "Object({},", object.class).unwrap();
            for (i, (name, value)) in object.properties.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write!(out, "\"{name}\":").unwrap();
                write_value(out, value, depth + 1);
            }
            out.push_str(")\n");
        }
    }
}

/// A Dictionary, its keys in the engine's order (see [`string_like_less`]).
fn write_dictionary(out: &mut String, d: &Dictionary, depth: usize) {
    let typed = d.key_type != ContainerType::Untyped || d.value_type != ContainerType::Untyped;
    if typed {
        write!(
            out,
            "Dictionary[{}, {}](",
            type_text(&d.key_type),
            type_text(&d.value_type)
        )
        .unwrap();
    }
    if depth > MAX_RECURSION || d.entries.is_empty() {
        out.push_str("{}");
    } else {
        let mut order: Vec<usize> = (0..d.entries.len()).collect();
        sort(&mut order, |&a, &b| {
            string_like_less(&d.entries[a].0, &d.entries[b].0)
        });
        out.push_str("{\n");
        for (i, &k) in order.iter().enumerate() {
            let (key, value) = &d.entries[k];
            write_value(out, key, depth + 1);
            out.push_str(": ");
            write_value(out, value, depth + 1);
            out.push_str(if i + 1 < order.len() { ",\n" } else { "\n" });
        }
        out.push('}');
    }
    if typed {
        out.push(')');
    }
}

fn write_array(out: &mut String, a: &Array, depth: usize) {
    let typed = a.element_type != ContainerType::Untyped;
    if typed {
        write!(out, "Array[{}](", type_text(&a.element_type)).unwrap();
    }
    if depth > MAX_RECURSION {
        out.push_str("[]");
    } else {
        out.push('[');
        for (i, item) in a.items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_value(out, item, depth + 1);
        }
        out.push(']');
    }
    if typed {
        out.push(')');
    }
}

/// A typed container's element type, as the engine names it.
fn type_text(t: &ContainerType) -> &str {
    match t {
        ContainerType::Untyped => "Variant",
        ContainerType::Builtin(t) => t.name(),
        ContainerType::ClassName(name) => name,
        ContainerType::Script(path) => path,
    }
}

fn list<T>(out: &mut String, name: &str, items: &[T], mut item: impl FnMut(&mut String, &T)) {
    out.push_str(name);
    out.push('(');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(out, x);
    }
    out.push(')');
}

/// Components as the engine's `real_t` (32 bits) holds them.
fn components(out: &mut String, values: &[f64]) {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&real(*v));
    }
}

fn reals<const N: usize>(out: &mut String, name: &str, r: &Reals<N>) {
    out.push_str(name);
    out.push('(');
    components(out, &r.to_f32().map(f64::from));
    out.push(')');
}

fn packed_reals<const N: usize>(out: &mut String, name: &str, p: &PackedReals<N>) {
    let single: Vec<[f32; N]> = match p {
        PackedReals::Single(v) => v.clone(),
        PackedReals::Double(v) => v.iter().map(|x| x.map(|c| c as f32)).collect(),
    };
    list(out, name, &single, |out, x| {
        components(out, &x.map(f64::from))
    });
}

fn ints<const N: usize>(out: &mut String, name: &str, v: &[i32; N]) {
    list(out, name, v, |out, i| write!(out, "{i}").unwrap());
}

/// `String::c_escape_multiline`: backslashes and double quotes.
fn escape_multiline(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
}

/// `String::c_escape`: backslashes, quotes and the C control escapes.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0C' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0B' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's `NodePath(String)`, on the texts it reads one way or refuses.
    #[test]
    fn node_path_texts_are_read_as_the_engine_reads_them() {
        let parts = node_path_parts;
        assert_eq!(parts(""), Some((false, vec![], vec![])));
        assert_eq!(parts("/"), Some((true, vec![], vec![])));
        assert_eq!(
            parts("/root//Main/:position:x"),
            Some((true, vec!["root", "Main"], vec!["position", "x"]))
        );
        assert_eq!(parts("a:"), Some((false, vec!["a"], vec![])));
        assert_eq!(parts(":b"), Some((false, vec![], vec!["b"])));
        assert_eq!(parts("a::b"), None);
        assert_eq!(parts("a:b/c"), Some((false, vec!["a"], vec!["b/c"])));
        for (absolute, names, subnames) in [
            (true, vec!["root", "é"], vec!["名前"]),
            (false, vec![], vec!["a", "b"]),
            (false, vec!["a"], vec![]),
        ] {
            let text = node_path_text(absolute, &names, &subnames);
            assert_eq!(parts(&text), Some((absolute, names, subnames)), "{text}");
        }
    }

    /// The engine's `String(NodePath)`: `/` before absolute paths, names joined by `/`, then
    /// `:` and the subnames joined by `:` when that join is not empty.
    #[test]
    fn node_paths_are_written_as_the_engine_joins_them() {
        let engine = |absolute: bool, names: &[&str], subnames: &[&str]| {
            let subpath = subnames.join(":");
            let prefix = if absolute { "/" } else { "" };
            let names = names.join("/");
            if subpath.is_empty() {
                format!("{prefix}{names}")
            } else {
                format!("{prefix}{names}:{subpath}")
            }
        };
        let lists: [&[&str]; 6] = [
            &[],
            &[""],
            &["", ""],
            &["a"],
            &["é", "名前"],
            &["", "b", ""],
        ];
        for absolute in [false, true] {
            for names in lists {
                for subnames in lists {
                    let text = node_path_text(absolute, names, subnames);
                    assert_eq!(text, engine(absolute, names, subnames));
                    assert!(text.capacity() <= text.len() + 1 + names.len() + subnames.len());
                    assert_eq!(NodePath::new(names, subnames, absolute).to_string(), text);
                }
            }
        }
        assert_eq!(
            node_path_text(true, &["root", "Player"], &["position", "x"]),
            "/root/Player:position:x"
        );
    }

    /// The engine's `NodePath(String)`: each text with the names, subnames and absolute
    /// flag Godot 4.6.3 gives it (`NodePath(text)`, its `get_name`, `get_subname` and
    /// `is_absolute`); `::` anywhere makes the engine refuse the text, leaving the empty
    /// path. What `Display` writes of each parses back to the same path.
    #[test]
    fn node_paths_are_parsed_as_the_engine_parses_them() {
        type Parsed<'a> = (&'a [&'a str], &'a [&'a str], bool);
        let cases: [(&str, Parsed); 22] = [
            ("", (&[], &[], false)),
            ("/", (&[], &[], true)),
            ("a", (&["a"], &[], false)),
            ("/root/a:b", (&["root", "a"], &["b"], true)),
            ("a//b", (&["a", "b"], &[], false)),
            ("//a/", (&["a"], &[], true)),
            ("a:b:", (&["a"], &["b"], false)),
            ("a::b", (&[], &[], false)),
            ("a:b::", (&[], &[], false)),
            (":a", (&[], &["a"], false)),
            ("/:a", (&[], &["a"], true)),
            ("a:", (&["a"], &[], false)),
            ("a:b:c", (&["a"], &["b", "c"], false)),
            (
                "/root/Player:position:x",
                (&["root", "Player"], &["position", "x"], true),
            ),
            ("a/:b", (&["a"], &["b"], false)),
            ("../x", (&["..", "x"], &[], false)),
            ("%Unique/y:z", (&["%Unique", "y"], &["z"], false)),
            ("a:b/c", (&["a"], &["b/c"], false)),
            ("ä/ö:ü", (&["ä", "ö"], &["ü"], false)),
            ("::", (&[], &[], false)),
            (":", (&[], &[], false)),
            ("/a//b//:c", (&["a", "b"], &["c"], true)),
        ];
        for (text, (names, subnames, absolute)) in cases {
            let path = NodePath::from(text);
            assert_eq!(path, NodePath::new(names, subnames, absolute), "{text:?}");
            assert_eq!(text.parse::<NodePath>(), Ok(path.clone()));
            assert_eq!(NodePath::from(path.to_string().as_str()), path, "{text:?}");
        }
        // A text ends at a NUL, as the engine's strings made from UTF-8 do.
        assert_eq!(NodePath::from("a/b\0/c:d"), NodePath::from("a/b"));
        assert_eq!(NodePath::from("a:b\0::"), NodePath::from("a:b"));
    }
}

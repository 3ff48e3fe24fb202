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

mod syntax;

use std::collections::HashSet;
use std::fmt::Write;

use godot_variant_codec::text::{node_path_parts, node_path_text, var_to_str};
use godot_variant_codec::{
    Array, ContainerType, Dictionary, FullObject, NodePath, Object, PackedReals, Reals, Signal,
    StackRoom, Value, VariantType,
};

pub use syntax::{parse, Json};

/// The largest magnitude a JSON number holds exactly in every reader (an IEEE double).
const EXACT: u64 = 1 << 53;

/// `{"offset": N, "size": N, "type": "…", "text": "…", "value": …}`, with
/// `"precision": "double"` after the type when the value's math components are 64-bit
/// (`"mixed"` when some are and some are not, which no engine writes).
pub fn value_line(offset: usize, size: usize, value: &Value) -> String {
    let mut w = Writer::default();
    w.value(value);
    let precision = match (w.single, w.double) {
        (_, false) => "",
        (false, true) => ",\"precision\":\"double\"",
        (true, true) => ",\"precision\":\"mixed\"",
    };
    format!(
        "{{\"offset\":{offset},\"size\":{size},\"type\":{}{precision},\"text\":{},\"value\":{}}}",
        string(value.variant_type().name()),
        string(&var_to_str(value)),
        w.out
    )
}

/// `{"offset": N, "error": "…"}`.
pub fn error_line(offset: usize, error: &str) -> String {
    format!("{{\"offset\":{offset},\"error\":{}}}", string(error))
}

fn string(s: &str) -> String {
    serde_json::to_string(s).expect("a str is always JSON")
}

/// The one place the CLI takes a NodePath apart: whether it is absolute, its names, its
/// subnames.
fn node_path_of(p: &NodePath) -> (bool, Vec<&str>, Vec<&str>) {
    let names = p.names.iter().map(String::as_str).collect();
    (
        p.absolute,
        names,
        p.subnames.iter().map(String::as_str).collect(),
    )
}

/// The one place the CLI makes a NodePath.
fn node_path(absolute: bool, names: Vec<String>, subnames: Vec<String>) -> Value {
    Value::NodePath(Box::new(NodePath {
        names,
        subnames,
        absolute,
    }))
}

/// Writes values as JSON, noting the precision of their math components.
#[derive(Default)]
struct Writer {
    out: String,
    single: bool,
    double: bool,
}

impl Writer {
    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn string(&mut self, s: &str) {
        self.out.push_str(&string(s));
    }

    /// `{"NAME":` — the rest of the tagged object is the caller's, and its `}`.
    fn tag(&mut self, t: VariantType) {
        write!(self.out, "{{{}:", string(t.name())).unwrap();
    }

    /// A u64 (an id): a number when exact in JSON, else a string of its digits.
    fn id(&mut self, u: u64) {
        if u <= EXACT {
            write!(self.out, "{u}").unwrap();
        } else {
            write!(self.out, "\"{u}\"").unwrap();
        }
    }

    /// An int where an int is expected: a number when exact, else a string of its digits.
    fn int(&mut self, i: i64) {
        if i.unsigned_abs() <= EXACT {
            write!(self.out, "{i}").unwrap();
        } else {
            write!(self.out, "\"{i}\"").unwrap();
        }
    }

    /// A float where a float is expected: a number, or the string for NaN and infinities.
    fn f64(&mut self, f: f64) {
        match special_text(f.is_nan(), f.is_infinite(), f < 0.0, f.to_bits(), 16) {
            Some(text) => self.string(&text),
            None => self.push(&serde_json::to_string(&f).expect("finite")),
        }
    }

    fn f32(&mut self, f: f32) {
        let bits = f.to_bits().into();
        match special_text(f.is_nan(), f.is_infinite(), f < 0.0, bits, 8) {
            Some(text) => self.string(&text),
            None => self.push(&serde_json::to_string(&f).expect("finite")),
        }
    }

    fn seq<T>(&mut self, items: impl IntoIterator<Item = T>, mut item: impl FnMut(&mut Self, T)) {
        self.push("[");
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            item(self, x);
        }
        self.push("]");
    }

    fn reals<const N: usize>(&mut self, r: &Reals<N>) {
        match r {
            Reals::Single(v) => {
                self.single = true;
                self.seq(v, |w, x| w.f32(*x));
            }
            Reals::Double(v) => {
                self.double = true;
                self.seq(v, |w, x| w.f64(*x));
            }
        }
    }

    fn packed_reals<const N: usize>(&mut self, p: &PackedReals<N>) {
        match p {
            PackedReals::Single(v) => {
                self.single = true;
                self.seq(v, |w, x| w.seq(x, |w, c| w.f32(*c)));
            }
            PackedReals::Double(v) => {
                self.double = true;
                self.seq(v, |w, x| w.seq(x, |w, c| w.f64(*c)));
            }
        }
    }

    fn container_type(&mut self, key: &str, t: &ContainerType) {
        let (form, name) = match t {
            ContainerType::Untyped => return,
            ContainerType::Builtin(t) => ("", t.name()),
            ContainerType::ClassName(name) => ("class", name.as_str()),
            ContainerType::Script(path) => ("script", path.as_str()),
        };
        write!(self.out, ",\"{key}\":").unwrap();
        if form.is_empty() {
            self.string(name);
        } else {
            write!(self.out, "{{\"{form}\":{}}}", string(name)).unwrap();
        }
    }

    fn value(&mut self, value: &Value) {
        use Value as V;
        let t = value.variant_type();
        match value {
            V::Nil => self.push("null"),
            V::Bool(b) => self.push(if *b { "true" } else { "false" }),
            V::Int(i) if i.unsigned_abs() <= EXACT => self.int(*i),
            V::Int(i) => {
                self.tag(t);
                write!(self.out, "\"{i}\"}}").unwrap();
            }
            V::Float(f) if f.is_finite() => self.f64(*f),
            V::Float(f) => {
                self.tag(t);
                self.f64(*f);
                self.push("}");
            }
            V::String(s) => self.string(s),
            V::StringName(s) => {
                self.tag(t);
                self.string(s);
                self.push("}");
            }
            V::NodePath(p) => {
                self.tag(t);
                let (absolute, names, subnames) = node_path_of(p);
                let text = node_path_text(absolute, &names, &subnames);
                if node_path_parts(&text) == Some((absolute, names.clone(), subnames.clone())) {
                    self.string(&text);
                } else {
                    self.push("{\"names\":");
                    self.seq(names, |w, n| w.string(n));
                    self.push(",\"subnames\":");
                    self.seq(subnames, |w, n| w.string(n));
                    write!(self.out, ",\"absolute\":{absolute}}}").unwrap();
                }
                self.push("}");
            }
            V::Vector2(r) => self.tagged(t, |w| w.reals(r)),
            V::Rect2(r) | V::Vector4(r) | V::Plane(r) | V::Quaternion(r) => {
                self.tagged(t, |w| w.reals(r))
            }
            V::Vector3(r) => self.tagged(t, |w| w.reals(r)),
            V::Transform2D(r) | V::Aabb(r) => self.tagged(t, |w| w.reals(r)),
            V::Basis(r) => self.tagged(t, |w| w.reals(r)),
            V::Transform3D(r) => self.tagged(t, |w| w.reals(r)),
            V::Projection(r) => self.tagged(t, |w| w.reals(r)),
            V::Vector2i(v) => self.tagged(t, |w| w.seq(v, |w, i| w.int((*i).into()))),
            V::Vector3i(v) => self.tagged(t, |w| w.seq(v, |w, i| w.int((*i).into()))),
            V::Rect2i(v) | V::Vector4i(v) => {
                self.tagged(t, |w| w.seq(v, |w, i| w.int((*i).into())))
            }
            V::Color(c) => self.tagged(t, |w| w.seq(c, |w, x| w.f32(*x))),
            V::Rid(id) => self.tagged(t, |w| w.id(*id)),
            V::Object(Object::Null) => self.tagged(t, |w| w.push("null")),
            V::Object(Object::Id(id)) => self.tagged(t, |w| w.id(*id)),
            V::Object(Object::Full(object)) => {
                self.tag(t);
                self.push("{\"class\":");
                self.string(&object.class);
                self.push(",\"properties\":");
                self.members(object.properties.iter().map(|(name, v)| (name.as_str(), v)));
                self.push("}}");
            }
            V::Callable => self.tagged(t, |w| w.push("null")),
            V::Signal(s) => {
                self.tag(t);
                self.string(&s.name);
                self.push(",\"object_id\":");
                self.id(s.object_id);
                self.push("}");
            }
            V::Array(a) if a.element_type == ContainerType::Untyped => self.items(&a.items),
            V::Array(a) => {
                self.tag(t);
                self.items(&a.items);
                self.container_type("of", &a.element_type);
                self.push("}");
            }
            V::Dictionary(d) => self.dictionary(d),
            V::PackedByteArray(v) => self.tagged(t, |w| w.seq(v, |w, b| w.int((*b).into()))),
            V::PackedInt32Array(v) => self.tagged(t, |w| w.seq(v, |w, i| w.int((*i).into()))),
            V::PackedInt64Array(v) => self.tagged(t, |w| w.seq(v, |w, i| w.int(*i))),
            V::PackedFloat32Array(v) => self.tagged(t, |w| w.seq(v, |w, f| w.f32(*f))),
            V::PackedFloat64Array(v) => self.tagged(t, |w| w.seq(v, |w, f| w.f64(*f))),
            V::PackedStringArray(v) => self.tagged(t, |w| w.seq(v, |w, s| w.string(s))),
            V::PackedVector2Array(p) => self.tagged(t, |w| w.packed_reals(p)),
            V::PackedVector3Array(p) => self.tagged(t, |w| w.packed_reals(p)),
            V::PackedColorArray(v) => {
                self.tagged(t, |w| w.seq(v, |w, c| w.seq(c, |w, x| w.f32(*x))))
            }
            V::PackedVector4Array(p) => self.tagged(t, |w| w.packed_reals(p)),
        }
    }

    /// `{"NAME": payload}`.
    fn tagged(&mut self, t: VariantType, payload: impl FnOnce(&mut Self)) {
        self.tag(t);
        payload(self);
        self.push("}");
    }

    /// `{"name": value, …}`.
    fn members<'v>(&mut self, members: impl Iterator<Item = (&'v str, &'v Value)>) {
        self.push("{");
        for (i, (name, value)) in members.enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.string(name);
            self.push(":");
            StackRoom::CODEC.run(|| self.value(value));
        }
        self.push("}");
    }

    fn items(&mut self, items: &[Value]) {
        self.seq(items, |w, v| StackRoom::CODEC.run(|| w.value(v)));
    }

    fn dictionary(&mut self, d: &Dictionary) {
        let string_keys: Option<Vec<&str>> = d
            .entries
            .iter()
            .map(|(k, _)| match k {
                Value::String(s) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        let plain = string_keys.filter(|keys| {
            d.key_type == ContainerType::Untyped
                && d.value_type == ContainerType::Untyped
                && keys.first().is_none_or(|k| type_named(k).is_none())
        });
        if let Some(keys) = plain {
            self.members(keys.into_iter().zip(d.entries.iter().map(|(_, v)| v)));
        } else {
            self.tag(VariantType::Dictionary);
            self.seq(&d.entries, |w, (key, value)| {
                w.push("[");
                StackRoom::CODEC.run(|| {
                    w.value(key);
                    w.push(",");
                    w.value(value);
                });
                w.push("]");
            });
            self.container_type("keys", &d.key_type);
            self.container_type("values", &d.value_type);
            self.push("}");
        }
    }
}

/// The text of a float JSON numbers cannot hold, of `hex_digits` × 4 bits: `"NaN"` (the
/// default NaN, Rust's and the engine's `NAN`; any other NaN with its bits in hex,
/// `"NaN(0x7ff8000000000001)"`), `"Infinity"`, `"-Infinity"`; `None` for a finite float.
fn special_text(
    nan: bool,
    infinite: bool,
    negative: bool,
    bits: u64,
    hex_digits: usize,
) -> Option<String> {
    let default_nan = if hex_digits == 16 {
        f64::NAN.to_bits()
    } else {
        f32::NAN.to_bits().into()
    };
    if nan && bits == default_nan {
        Some("NaN".to_owned())
    } else if nan {
        Some(format!("NaN(0x{bits:0hex_digits$x})"))
    } else if infinite {
        Some(if negative { "-Infinity" } else { "Infinity" }.to_owned())
    } else {
        None
    }
}

/// The type a tag names.
fn type_named(name: &str) -> Option<VariantType> {
    VariantType::ALL.into_iter().find(|t| t.name() == name)
}

/// What is wrong with a line's value, and where in it: `[2]["pos"]: expected …`.
#[derive(Debug)]
pub struct Error {
    path: String,
    message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "value{}: {}", self.path, self.message)
    }
}

type Result<T> = std::result::Result<T, Error>;

fn fail<T>(message: impl Into<String>) -> Result<T> {
    Err(Error {
        path: String::new(),
        message: message.into(),
    })
}

/// `result`, its error placed one step (`[2]`, `["pos"]`, `.of`) further in.
fn at<T>(step: impl std::fmt::Display, result: Result<T>) -> Result<T> {
    result.map_err(|mut e| {
        e.path.insert_str(0, &step.to_string());
        e
    })
}

fn expected<T>(what: &str, json: &Json) -> Result<T> {
    fail(format!("expected {what}, found {}", json.kind()))
}

/// The value a line's JSON `value` stands for; `double`: its math components are 64-bit
/// (the line's `"precision": "double"`).
pub fn value_from_json(json: &Json, double: bool) -> Result<Value> {
    Reader { double }.value(json)
}

struct Reader {
    double: bool,
}

impl Reader {
    fn value(&self, json: &Json) -> Result<Value> {
        Ok(match json {
            Json::Null => Value::Nil,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) if is_int(n) => Value::Int(int(n)?),
            Json::Number(n) => Value::Float(float64(n)?),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(Box::new(Array {
                element_type: ContainerType::Untyped,
                items: self.items(items)?,
            })),
            Json::Object(members) => {
                let tag = members
                    .first()
                    .and_then(|(key, payload)| Some((key, type_named(key)?, payload)));
                match tag {
                    Some((key, t, payload)) => {
                        at(format!(".{key}"), self.tagged(t, payload, &members[1..]))?
                    }
                    None => self.plain_dictionary(members)?,
                }
            }
        })
    }

    /// `{"key": value, …}`: an untyped Dictionary of String keys.
    fn plain_dictionary(&self, members: &[(String, Json)]) -> Result<Value> {
        let mut seen = HashSet::new();
        let mut entries = Vec::with_capacity(members.len());
        for (key, value) in members {
            if !seen.insert(key.as_str()) {
                return at(format!("[{key:?}]"), fail("a key given twice"));
            }
            let value = StackRoom::CODEC.run(|| self.value(value));
            entries.push((Value::String(key.clone()), at(format!("[{key:?}]"), value)?));
        }
        Ok(Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
            entries,
        })))
    }

    fn items(&self, items: &[Json]) -> Result<Vec<Value>> {
        items
            .iter()
            .enumerate()
            .map(|(i, item)| at(format!("[{i}]"), StackRoom::CODEC.run(|| self.value(item))))
            .collect()
    }

    /// `{"NAME": payload, rest…}` as a value of type `t`.
    fn tagged(&self, t: VariantType, payload: &Json, rest: &[(String, Json)]) -> Result<Value> {
        use VariantType as T;
        let extras: &[&str] = match t {
            T::Array => &["of"],
            T::Dictionary => &["keys", "values"],
            T::Signal => &["object_id"],
            _ => &[],
        };
        let mut seen = HashSet::new();
        for (key, _) in rest {
            if !extras.contains(&key.as_str()) {
                let takes = match extras {
                    [] => "none".to_owned(),
                    keys => keys
                        .iter()
                        .map(|k| format!("\"{k}\""))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                return fail(format!(
                    "unknown key \"{key}\" after the type (a {t} takes {takes})"
                ));
            }
            if !seen.insert(key.as_str()) {
                return fail(format!("\"{key}\" given twice"));
            }
        }
        let extra = |name: &str| rest.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let single = !self.double;
        Ok(match t {
            T::Nil => match payload {
                Json::Null => Value::Nil,
                other => return expected("null", other),
            },
            T::Bool => match payload {
                Json::Bool(b) => Value::Bool(*b),
                other => return expected("true or false", other),
            },
            T::Int => Value::Int(int_or_digits(payload)?),
            T::Float => Value::Float(component64(payload)?),
            T::String => Value::String(text(payload)?),
            T::StringName => Value::StringName(text(payload)?),
            T::NodePath => read_node_path(payload)?,
            T::Vector2 => Value::Vector2(reals(payload, single)?),
            T::Rect2 => Value::Rect2(reals(payload, single)?),
            T::Vector3 => Value::Vector3(reals(payload, single)?),
            T::Transform2D => Value::Transform2D(Box::new(reals(payload, single)?)),
            T::Vector4 => Value::Vector4(reals(payload, single)?),
            T::Plane => Value::Plane(reals(payload, single)?),
            T::Quaternion => Value::Quaternion(reals(payload, single)?),
            T::Aabb => Value::Aabb(Box::new(reals(payload, single)?)),
            T::Basis => Value::Basis(Box::new(reals(payload, single)?)),
            T::Transform3D => Value::Transform3D(Box::new(reals(payload, single)?)),
            T::Projection => Value::Projection(Box::new(reals(payload, single)?)),
            T::Vector2i => Value::Vector2i(array(payload, int32)?),
            T::Rect2i => Value::Rect2i(array(payload, int32)?),
            T::Vector3i => Value::Vector3i(array(payload, int32)?),
            T::Vector4i => Value::Vector4i(array(payload, int32)?),
            T::Color => Value::Color(array(payload, component32)?),
            T::Rid => Value::Rid(id(payload)?),
            T::Object => match payload {
                Json::Null => Value::Object(Object::Null),
                Json::Object(members) => {
                    Value::Object(Object::Full(Box::new(self.object(members)?)))
                }
                other => Value::Object(Object::Id(id(other).or_else(|_| {
                    expected(
                        "null, an instance id or {\"class\": …, \"properties\": …}",
                        other,
                    )
                })?)),
            },
            T::Callable => match payload {
                Json::Null => Value::Callable,
                other => return expected("null (the format carries no Callable data)", other),
            },
            T::Signal => Value::Signal(Signal {
                name: text(payload)?,
                object_id: match extra("object_id") {
                    Some(json) => at(".object_id", id(json))?,
                    None => return fail("a Signal needs its \"object_id\""),
                },
            }),
            T::Dictionary => {
                let entries = match payload {
                    Json::Array(pairs) => pairs
                        .iter()
                        .enumerate()
                        .map(|(i, pair)| at(format!("[{i}]"), self.pair(pair)))
                        .collect::<Result<_>>()?,
                    other => return expected("an array of [key, value] pairs", other),
                };
                Value::Dictionary(Box::new(Dictionary {
                    key_type: at(".keys", container_type(extra("keys")))?,
                    value_type: at(".values", container_type(extra("values")))?,
                    entries,
                }))
            }
            T::Array => Value::Array(Box::new(Array {
                element_type: at(".of", container_type(extra("of")))?,
                items: match payload {
                    Json::Array(items) => self.items(items)?,
                    other => return expected("an array", other),
                },
            })),
            T::PackedByteArray => Value::PackedByteArray(list(payload, |j| {
                u8::try_from(int_number(j)?).or_else(|_| fail("expected a byte, 0 to 255"))
            })?),
            T::PackedInt32Array => Value::PackedInt32Array(list(payload, int32)?),
            T::PackedInt64Array => Value::PackedInt64Array(list(payload, int_or_digits)?),
            T::PackedFloat32Array => Value::PackedFloat32Array(list(payload, component32)?),
            T::PackedFloat64Array => Value::PackedFloat64Array(list(payload, component64)?),
            T::PackedStringArray => Value::PackedStringArray(list(payload, text)?),
            T::PackedVector2Array => Value::PackedVector2Array(packed_reals(payload, single)?),
            T::PackedVector3Array => Value::PackedVector3Array(packed_reals(payload, single)?),
            T::PackedColorArray => {
                Value::PackedColorArray(list(payload, |j| array(j, component32))?)
            }
            T::PackedVector4Array => Value::PackedVector4Array(packed_reals(payload, single)?),
        })
    }

    /// `{"class": NAME, "properties": {NAME: value, …}}`.
    fn object(&self, members: &[(String, Json)]) -> Result<FullObject> {
        let mut object = FullObject::default();
        let mut class = None;
        for (key, json) in members {
            match (key.as_str(), json) {
                ("class", Json::String(name)) => class = Some(name.clone()),
                ("class", other) => return at(".class", expected("a string", other)),
                ("properties", Json::Object(properties)) => {
                    for (name, value) in properties {
                        let value = StackRoom::CODEC.run(|| self.value(value));
                        let value = at(format!(".properties[{name:?}]"), value)?;
                        object.properties.push((name.clone(), value));
                    }
                }
                ("properties", other) => return at(".properties", expected("an object", other)),
                _ => return fail(format!("unknown key \"{key}\" of an Object")),
            }
        }
        match class {
            Some(class) => object.class = class,
            None => return fail("an Object needs its \"class\""),
        }
        Ok(object)
    }

    fn pair(&self, pair: &Json) -> Result<(Value, Value)> {
        match pair {
            Json::Array(kv) if kv.len() == 2 => StackRoom::CODEC.run(|| {
                Ok((
                    at("[0]", self.value(&kv[0]))?,
                    at("[1]", self.value(&kv[1]))?,
                ))
            }),
            other => expected("a [key, value] pair", other),
        }
    }
}

fn read_node_path(payload: &Json) -> Result<Value> {
    match payload {
        Json::String(text) => match node_path_parts(text) {
            Some((absolute, names, subnames)) => Ok(node_path(
                absolute,
                names.into_iter().map(str::to_owned).collect(),
                subnames.into_iter().map(str::to_owned).collect(),
            )),
            None => fail(format!(
                "the NodePath {text:?} has an empty subname (\"a::b\")"
            )),
        },
        Json::Object(members) => {
            let mut parts = (false, Vec::new(), Vec::new());
            for (key, json) in members {
                match key.as_str() {
                    "absolute" => match json {
                        Json::Bool(b) => parts.0 = *b,
                        other => return at(".absolute", expected("true or false", other)),
                    },
                    "names" => parts.1 = at(".names", list(json, text))?,
                    "subnames" => parts.2 = at(".subnames", list(json, text))?,
                    _ => return fail(format!("unknown key \"{key}\" of a NodePath's parts")),
                }
            }
            Ok(node_path(parts.0, parts.1, parts.2))
        }
        other => expected("a NodePath's text or parts", other),
    }
}

fn container_type(json: Option<&Json>) -> Result<ContainerType> {
    Ok(match json {
        None => ContainerType::Untyped,
        Some(Json::String(name)) => match type_named(name) {
            Some(t) => ContainerType::Builtin(t),
            None => return fail(format!("no type is named {name:?}")),
        },
        Some(Json::Object(members)) => match members.as_slice() {
            [(form, Json::String(name))] if form == "class" => {
                ContainerType::ClassName(name.clone())
            }
            [(form, Json::String(name))] if form == "script" => ContainerType::Script(name.clone()),
            _ => return fail("expected {\"class\": NAME} or {\"script\": PATH}"),
        },
        Some(other) => return expected("a type's name, {\"class\": …} or {\"script\": …}", other),
    })
}

fn is_int(number: &str) -> bool {
    !number.contains(['.', 'e', 'E'])
}

fn int(number: &str) -> Result<i64> {
    number
        .parse()
        .or_else(|_| fail(format!("{number} is beyond 64-bit ints")))
}

fn int_number(json: &Json) -> Result<i64> {
    match json {
        Json::Number(n) if is_int(n) => int(n),
        other => expected("an integer", other),
    }
}

fn int32(json: &Json) -> Result<i32> {
    let i = int_number(json)?;
    i32::try_from(i).or_else(|_| fail(format!("{i} is beyond 32-bit ints")))
}

/// An int as a number, or as a string of its digits (beyond ±2^53).
fn int_or_digits(json: &Json) -> Result<i64> {
    match json {
        Json::String(digits) => digits
            .parse()
            .or_else(|_| fail(format!("{digits:?} is not a 64-bit int"))),
        other => int_number(other),
    }
}

/// An instance or RID id: a number, or a string of its digits.
fn id(json: &Json) -> Result<u64> {
    match json {
        Json::Number(n) | Json::String(n) => n
            .parse()
            .or_else(|_| fail(format!("{n:?} is not an id (0 to 2^64 - 1)"))),
        other => expected("an id", other),
    }
}

fn text(json: &Json) -> Result<String> {
    match json {
        Json::String(s) => Ok(s.clone()),
        other => expected("a string", other),
    }
}

fn float64(number: &str) -> Result<f64> {
    match number.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(f),
        _ => fail(format!("{number} is beyond 64-bit floats")),
    }
}

/// A 64-bit float: a number, or the string of a NaN or an infinity.
fn component64(json: &Json) -> Result<f64> {
    match json {
        Json::Number(n) => float64(n),
        Json::String(s) => special(s, 16).map(f64::from_bits),
        other => expected("a number", other),
    }
}

/// A 32-bit float, read from its digits at 32 bits (no rounding twice).
fn component32(json: &Json) -> Result<f32> {
    match json {
        Json::Number(n) => match n.parse::<f32>() {
            Ok(f) if f.is_finite() => Ok(f),
            _ => fail(format!("{n} is beyond 32-bit floats")),
        },
        Json::String(s) => special(s, 8).map(|bits| f32::from_bits(bits as u32)),
        other => expected("a number", other),
    }
}

/// The bits of `"NaN"`, `"NaN(0x…)"`, `"Infinity"` or `"-Infinity"` in a float of
/// `hex_digits` × 4 bits.
fn special(s: &str, hex_digits: usize) -> Result<u64> {
    let wide = hex_digits == 16;
    let pick = |single: f32, double: f64| {
        if wide {
            double.to_bits()
        } else {
            single.to_bits().into()
        }
    };
    let bits = match s {
        "NaN" => pick(f32::NAN, f64::NAN),
        "Infinity" => pick(f32::INFINITY, f64::INFINITY),
        "-Infinity" => pick(f32::NEG_INFINITY, f64::NEG_INFINITY),
        _ => {
            let bits = s
                .strip_prefix("NaN(0x")
                .and_then(|s| s.strip_suffix(')'))
                .filter(|h| h.len() == hex_digits)
                .and_then(|h| u64::from_str_radix(h, 16).ok());
            let is_nan = |b: u64| {
                if wide {
                    f64::from_bits(b).is_nan()
                } else {
                    f32::from_bits(b as u32).is_nan()
                }
            };
            match bits {
                Some(b) if is_nan(b) => b,
                _ => {
                    return fail(format!(
                        "expected a number, \"NaN\", \"NaN(0x…)\" (a NaN's bits), \
                         \"Infinity\" or \"-Infinity\", found {s:?}"
                    ))
                }
            }
        }
    };
    Ok(bits)
}

fn list<T>(json: &Json, item: impl Fn(&Json) -> Result<T>) -> Result<Vec<T>> {
    match json {
        Json::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, j)| at(format!("[{i}]"), item(j)))
            .collect(),
        other => expected("an array", other),
    }
}

fn array<T: Copy + Default, const N: usize>(
    json: &Json,
    item: impl Fn(&Json) -> Result<T>,
) -> Result<[T; N]> {
    let items = list(json, item)?;
    let n = items.len();
    items
        .try_into()
        .or_else(|_| fail(format!("expected {N} components, found {n}")))
}

fn reals<const N: usize>(json: &Json, single: bool) -> Result<Reals<N>> {
    Ok(if single {
        Reals::Single(array(json, component32)?)
    } else {
        Reals::Double(array(json, component64)?)
    })
}

fn packed_reals<const N: usize>(json: &Json, single: bool) -> Result<PackedReals<N>> {
    Ok(if single {
        PackedReals::Single(list(json, |j| array(j, component32))?)
    } else {
        PackedReals::Double(list(json, |j| array(j, component64))?)
    })
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

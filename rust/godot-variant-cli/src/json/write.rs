//! Godot values written as the JSON lines of `inspect --json` (the mapping: the parent
//! module).

use super::*;

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
            V::Float(f) => self.tagged(t, |w| w.f64(*f)),
            V::String(s) => self.string(s),
            V::StringName(s) => self.tagged(t, |w| w.string(s)),
            V::NodePath(p) => self.tagged(t, |w| w.node_path(p)),
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
            V::Object(Object::Full(object)) => self.tagged(t, |w| w.full_object(object)),
            V::Callable => self.tagged(t, |w| w.push("null")),
            V::Signal(s) => self.tagged(t, |w| w.signal(s)),
            V::Array(a) if a.element_type == ContainerType::Untyped => self.items(&a.items),
            V::Array(a) => self.tagged(t, |w| {
                w.items(&a.items);
                w.container_type("of", &a.element_type);
            }),
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

    /// A NodePath's payload: its text, or its parts where the text would not read back as
    /// them.
    fn node_path(&mut self, p: &NodePath) {
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
    }

    /// `{"class": NAME, "properties": {NAME: value, …}}`.
    fn full_object(&mut self, object: &FullObject) {
        self.push("{\"class\":");
        self.string(&object.class);
        self.push(",\"properties\":");
        self.members(object.properties.iter().map(|(name, v)| (name.as_str(), v)));
        self.push("}");
    }

    /// A Signal's name, then its `"object_id"` key.
    fn signal(&mut self, s: &Signal) {
        self.string(&s.name);
        self.push(",\"object_id\":");
        self.id(s.object_id);
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

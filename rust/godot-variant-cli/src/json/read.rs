//! The JSON lines of `encode` read back as Godot values (the mapping: the parent module).

use super::*;

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
        check_extra_keys(t, rest)?;
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
            T::Object => Value::Object(self.read_object(payload)?),
            T::Callable => match payload {
                Json::Null => Value::Callable,
                other => return expected("null (the format carries no Callable data)", other),
            },
            T::Signal => Value::Signal(read_signal(payload, extra("object_id"))?),
            T::Dictionary => Value::Dictionary(Box::new(self.read_dictionary(
                payload,
                extra("keys"),
                extra("values"),
            )?)),
            T::Array => Value::Array(Box::new(self.read_array(payload, extra("of"))?)),
            T::PackedByteArray => Value::PackedByteArray(list(payload, byte)?),
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

    /// An Object's payload: `null`, an instance id, or its class and properties.
    fn read_object(&self, payload: &Json) -> Result<Object> {
        Ok(match payload {
            Json::Null => Object::Null,
            Json::Object(members) => Object::Full(Box::new(self.object(members)?)),
            other => Object::Id(id(other).or_else(|_| {
                expected(
                    "null, an instance id or {\"class\": …, \"properties\": …}",
                    other,
                )
            })?),
        })
    }

    /// A Dictionary's `[[key, value], …]` payload, typed by its `"keys"` and `"values"`.
    fn read_dictionary(
        &self,
        payload: &Json,
        keys: Option<&Json>,
        values: Option<&Json>,
    ) -> Result<Dictionary> {
        let entries = match payload {
            Json::Array(pairs) => pairs
                .iter()
                .enumerate()
                .map(|(i, pair)| at(format!("[{i}]"), self.pair(pair)))
                .collect::<Result<_>>()?,
            other => return expected("an array of [key, value] pairs", other),
        };
        Ok(Dictionary {
            key_type: at(".keys", container_type(keys))?,
            value_type: at(".values", container_type(values))?,
            entries,
        })
    }

    /// An Array's `[item, …]` payload, typed by its `"of"`.
    fn read_array(&self, payload: &Json, of: Option<&Json>) -> Result<Array> {
        Ok(Array {
            element_type: at(".of", container_type(of))?,
            items: match payload {
                Json::Array(items) => self.items(items)?,
                other => return expected("an array", other),
            },
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

/// The keys after a `t`'s type name are those it takes (an Array's `"of"`, a Dictionary's
/// `"keys"` and `"values"`, a Signal's `"object_id"`), each at most once.
fn check_extra_keys(t: VariantType, rest: &[(String, Json)]) -> Result<()> {
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
    Ok(())
}

/// A Signal's name payload and its `"object_id"`.
fn read_signal(payload: &Json, object_id: Option<&Json>) -> Result<Signal> {
    Ok(Signal {
        name: text(payload)?,
        object_id: match object_id {
            Some(json) => at(".object_id", id(json))?,
            None => return fail("a Signal needs its \"object_id\""),
        },
    })
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

fn byte(json: &Json) -> Result<u8> {
    u8::try_from(int_number(json)?).or_else(|_| fail("expected a byte, 0 to 255"))
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

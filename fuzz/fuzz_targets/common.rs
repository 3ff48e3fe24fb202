//! Checks shared by the fuzz targets (each uses some of them).
#![allow(dead_code)]

use godot_variant_codec::{
    decode, encode, ContainerType, DecodeOptions, EncodeErrorKind, EncodeOptions, Object, Value,
};

/// How deeply `v` nests: 0 for a value holding no other value, else 1 + the deepest inside.
/// The encoder refuses a value whose nesting exceeds its `max_depth`.
pub fn nesting(v: &Value) -> usize {
    children(v).map(|c| 1 + nesting(c)).max().unwrap_or(0)
}

/// Encodes a decoded `value`; `None` when it is legitimately too deep to encode.
///
/// A decoded value can nest deeper than its bytes did, in the engine too: a typed
/// `Array[Array]` converts a packed-array element into an Array, one level deeper (as
/// `Array::push_back` does). At the depth limit, `bytes_to_var` accepts such bytes and
/// `var_to_bytes` then fails ("Potential infinite recursion detected"; checked with Godot
/// 4.6.3: 1023 nested arrays around `Array[Array]([PackedByteArray([7])])`). Any other
/// failure, or `TooDeep` for a value within the limit, panics.
pub fn encode_decoded(value: &Value, eopts: &EncodeOptions, what: &str) -> Option<Vec<u8>> {
    match encode(value, eopts) {
        Ok(bytes) => Some(bytes),
        Err(e) if matches!(e.kind, EncodeErrorKind::TooDeep(_)) => {
            let depth = nesting(value);
            assert!(
                depth > eopts.max_depth,
                "{what}: encoding a decoded value nested {depth} deep (limit {}) failed: {e}\n\
                 value: {value:?}",
                eopts.max_depth
            );
            None
        }
        Err(e) => panic!("{what}: encoding a decoded {value:?} failed: {e}"),
    }
}

/// Whether some Dictionary in `v` has a key holding a null Object (at any depth of the key).
///
/// Such a dictionary is the one place where decode -> encode is not a fixed point, in the
/// engine too: a null Object and nil are different keys, but both are written as nil
/// (`encode_variant` writes a null object as NIL), so `{<Object#null>: 5, null: 7}`
/// re-encodes with two nil keys and decodes back as `{null: 7}`. Checked against Godot
/// 4.6.3: `var_to_bytes(bytes_to_var_with_objects(b))` changes again on a second round.
pub fn has_null_object_key(v: &Value) -> bool {
    fn holds_null_object(v: &Value) -> bool {
        match v {
            Value::Object(Object::Null) => true,
            _ => children(v).any(holds_null_object),
        }
    }
    if let Value::Dictionary(d) = v {
        if d.entries.iter().any(|(k, _)| holds_null_object(k)) {
            return true;
        }
    }
    children(v).any(has_null_object_key)
}

/// Whether some text in `v` starts with U+FEFF. The engine drops one leading UTF-8 BOM when
/// it reads text, so such text loses a character at every round trip, in the engine too
/// (checked against Godot 4.6.3: `"\u{FEFF}\u{FEFF}a"` reads back as `"\u{FEFF}a"`,
/// then `"a"`). Found by the `stream` target.
pub fn has_text_starting_with_bom(v: &Value) -> bool {
    let bom = |s: &String| s.starts_with('\u{FEFF}');
    let own = match v {
        Value::String(s) | Value::StringName(s) => bom(s),
        Value::PackedStringArray(items) => items.iter().any(bom),
        Value::NodePath(p) => p.names.iter().chain(&p.subnames).any(bom),
        Value::Signal(sig) => bom(&sig.name),
        Value::Object(Object::Full(full)) => {
            bom(&full.class) || full.properties.iter().any(|(name, _)| bom(name))
        }
        Value::Array(a) => container_text(&a.element_type).is_some_and(bom),
        Value::Dictionary(d) => [&d.key_type, &d.value_type]
            .into_iter()
            .any(|t| container_text(t).is_some_and(bom)),
        _ => false,
    };
    own || children(v).any(has_text_starting_with_bom)
}

fn container_text(t: &ContainerType) -> Option<&String> {
    match t {
        ContainerType::ClassName(s) | ContainerType::Script(s) => Some(s),
        _ => None,
    }
}

/// The values directly inside `v`.
fn children(v: &Value) -> Box<dyn Iterator<Item = &Value> + '_> {
    match v {
        Value::Array(a) => Box::new(a.items.iter()),
        Value::Dictionary(d) => Box::new(d.entries.iter().flat_map(|(k, x)| [k, x])),
        Value::Object(Object::Full(full)) => Box::new(full.properties.iter().map(|(_, x)| x)),
        _ => Box::new(std::iter::empty()),
    }
}

/// `first` is the encoding of `value` (decoded with `dopts`): it must decode whole with the
/// same options and re-encode to the same bytes. The one exception, a null-Object key (see
/// [`has_null_object_key`]), must settle after one more round.
pub fn check_reencoding_stable(
    value: &Value,
    first: &[u8],
    dopts: &DecodeOptions,
    eopts: &EncodeOptions,
) {
    let what = format!("{:?}", eopts.precision);
    if has_text_starting_with_bom(value) {
        return;
    }
    let second = reencode(first, dopts, eopts, &what);
    if second == first {
        return;
    }
    assert!(
        has_null_object_key(value),
        "{what}: decode -> encode -> decode -> encode changed the bytes\n\
         value: {value:?}\nfirst:  {first:02x?}\nsecond: {second:02x?}"
    );
    let third = reencode(&second, dopts, eopts, &what);
    assert_eq!(
        second, third,
        "{what}: a null-Object key, but the encoding does not settle after a second round"
    );
}

/// decode (whole) then encode, panicking with context on any failure.
fn reencode(bytes: &[u8], dopts: &DecodeOptions, eopts: &EncodeOptions, what: &str) -> Vec<u8> {
    let (value, used) = decode(bytes, dopts)
        .unwrap_or_else(|e| panic!("{what}: decoding the encoding {bytes:02x?} failed: {e}"));
    assert_eq!(
        used,
        bytes.len(),
        "{what}: the encoding {bytes:02x?} was not read whole"
    );
    encode(&value, eopts)
        .unwrap_or_else(|e| panic!("{what}: re-encoding {value:?} (from {bytes:02x?}) failed: {e}"))
}

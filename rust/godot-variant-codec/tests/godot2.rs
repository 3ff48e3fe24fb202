//! The Godot 2 vectors (tests/golden/godot2/vectors.json, made by make_vectors.py from the
//! rules of Godot 2.1.5/2.1.6 in docs/FORMAT_GODOT2.md; no Godot 2 engine runs here): in
//! Godot 2 mode every input is accepted or rejected as Godot 2 does, with its `Error`;
//! what it accepts consumes the size Godot 2 reports, decodes to the Godot 4 value the
//! documented Godot 2 → 4 table gives for the vector's description (Image and InputEvent
//! as their Dictionary form, `godot_variant_codec::godot2`), and re-encodes to the bytes
//! `var2bytes` writes.
//!
//! [`DIFFERENCES`] lists the vectors the codec does not match, each with its reason; the
//! test holds them to the documented difference, and every other vector to all of the above.

use godot_variant_codec::godot2::{EventFields, Godot2Value, Image, InputEvent};
use godot_variant_codec::{
    decode, encode, Array, ContainerType, DecodeOptions, EncodeErrorKind, EncodeOptions,
    Generation, NodePath, Object, Value,
};
use serde::Deserialize;
use serde_json::Value as Json;

#[path = "support/golden_file.rs"]
mod golden_file;
use golden_file::{hex, unhex};
#[path = "support/described.rs"]
mod described;
use described::{f32_bits, text, Names};
#[cfg(feature = "serde")]
#[path = "support/serde_any.rs"]
mod serde_any;

#[derive(Deserialize)]
struct Vectors {
    error_codes: std::collections::BTreeMap<String, i32>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    bytes: String,
    accepted: bool,
    #[serde(default)]
    error: i32,
    value: Option<Json>,
    decoded_size: Option<usize>,
    reencoded: Option<String>,
}

fn load() -> Vectors {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/godot2/vectors.json"
    );
    let text = std::fs::read_to_string(path).expect("the Godot 2 vectors are committed");
    serde_json::from_str(&text).expect("the vectors parse")
}

const G2: Generation = Generation::GODOT_2;

fn read_options() -> DecodeOptions {
    DecodeOptions::new().with_generation(G2)
}

fn write_options() -> EncodeOptions {
    EncodeOptions::new().with_generation(G2)
}

/// How the codec differs from Godot 2 on a vector.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Difference {
    /// Godot 2 accepts the text, which is not UTF-8 a Rust `String` can hold (5- and 6-byte
    /// sequences, surrogates, code points past U+10FFFF) or is a non-shortest form: the
    /// codec refuses it with `ERR_INVALID_DATA`, as Godot 2 does with malformed UTF-8.
    RefusedText,
    /// Decoded as Godot 2 decodes it; written differently from `var2bytes`, in bytes that
    /// read back (in Godot 2 mode, as Godot 2 reads them) as the same value.
    Rewritten,
}

/// The vectors the codec does not match, and why (docs/FORMAT_GODOT2.md, "What the codec
/// does").
const DIFFERENCES: &[(&str, Difference, &str)] = &[
    ("String/surrogate_d800_accepted", Difference::RefusedText, "a surrogate"),
    ("String/above_10ffff_accepted", Difference::RefusedText, "past U+10FFFF"),
    ("String/five_byte_sequence", Difference::RefusedText, "a 5-byte sequence"),
    ("String/six_byte_sequence", Difference::RefusedText, "a 6-byte sequence"),
    ("quirk/String/overlong_3byte_slash", Difference::RefusedText, "an overlong form"),
    ("quirk/String/overlong_3byte_u07ff", Difference::RefusedText, "an overlong form"),
    ("quirk/String/overlong_4byte_u0200", Difference::RefusedText, "an overlong form"),
    (
        "Dictionary/empty_shared",
        Difference::Rewritten,
        "the shared bit has no place in the Value model: written unshared",
    ),
    (
        "Dictionary/shared_int_key_array_value",
        Difference::Rewritten,
        "the shared bit has no place in the Value model: written unshared",
    ),
    (
        "Array/empty_shared",
        Difference::Rewritten,
        "the shared bit has no place in the Value model: written unshared",
    ),
    (
        "Array/nested_shared",
        Difference::Rewritten,
        "the shared bit has no place in the Value model: written unshared",
    ),
    (
        "NodePath/two_names_two_subnames",
        Difference::Rewritten,
        "subnames without a property: the last subname is written as the property",
    ),
    (
        "quirk/NodePath/encoder_bug_more_names_than_subnames",
        Difference::Rewritten,
        "var2bytes writes the wrong subnames; the codec writes the path (last subname as the property)",
    ),
    (
        "quirk/NodePath/encoder_bug_more_subnames_than_names",
        Difference::Rewritten,
        "var2bytes writes the wrong subnames; the codec writes the path (last subname as the property)",
    ),
];

// --- The vectors' description of a Godot 2 value → the Godot 4 value ----------------------

fn int(j: &Json) -> i64 {
    j.as_i64().expect("an int")
}

/// The fields of an InputEvent of type `event_type` in its description.
fn event_fields(d: &Json, event_type: i64) -> EventFields {
    match event_type {
        1 => EventFields::Key {
            modifiers: int(&d["modifiers"]) as u32,
            scancode: int(&d["scancode"]) as u32,
        },
        3 | 5 => EventFields::ButtonIndex(int(&d["button_index"]) as i32),
        4 => EventFields::JoystickMotion {
            axis: int(&d["axis"]) as i32,
            axis_value: f32_bits(&d["axis_value"]),
        },
        6 => EventFields::TouchIndex(int(&d["index"]) as i32),
        _ => EventFields::None,
    }
}

/// Godot 2's names for the types Godot 3 and 4 name otherwise.
const GODOT_2_NAMES: Names = Names {
    transform2d: "Matrix32",
    basis: "Matrix3",
    packed_prefix: "",
};

/// The Godot 4 value the documented Godot 2 → 4 table gives for a described value.
fn expected(d: &Json) -> Value {
    if let Some(value) = described::shared(d, &GODOT_2_NAMES, expected) {
        return value;
    }
    match d["t"].as_str().expect("a type") {
        "Image" => Godot2Value::Image(Image {
            format: int(&d["format"]) as u32,
            mipmaps: int(&d["mipmaps"]) as i32,
            width: int(&d["width"]) as u32,
            height: int(&d["height"]) as u32,
            data: unhex(d["data"].as_str().unwrap()),
        })
        .to_value(),
        "NodePath" => {
            // The property, when there is one, is the last subname.
            let property = text(&d["property"]);
            let mut subnames: Vec<String> =
                d["subnames"].as_array().unwrap().iter().map(text).collect();
            subnames.extend((!property.is_empty()).then_some(property));
            Value::NodePath(NodePath::new(
                d["names"].as_array().unwrap().iter().map(text),
                subnames,
                d["absolute"].as_bool().unwrap(),
            ))
        }
        "Object" => Value::Object(Object::Null),
        "InputEvent" => {
            let event_type = int(&d["type"]);
            Godot2Value::InputEvent(InputEvent {
                event_type: event_type as i32,
                device: int(&d["device"]) as i32,
                fields: event_fields(d, event_type),
            })
            .to_value()
        }
        other => panic!("unknown Godot 2 type {other:?} in the description"),
    }
}

/// Two values are the same when Godot 4's encoding of them is: bit for bit, NaNs included.
fn same(a: &Value, b: &Value) -> bool {
    let opts = EncodeOptions::new();
    encode(a, &opts).ok() == encode(b, &opts).ok()
}

/// What the codec does with a vector, compared with what the vector says; `None` when they
/// agree.
fn check_case(case: &Case, difference: Option<Difference>) -> Option<String> {
    let bytes = unhex(&case.bytes);
    let outcome = decode(&bytes, &read_options());
    if difference == Some(Difference::RefusedText) {
        return match &outcome {
            Err(e) if e.godot_error().code() == 30 => None,
            other => Some(format!("expected a refusal with 30, got {other:?}")),
        };
    }
    let (value, consumed) = match (outcome, case.accepted) {
        (Err(e), false) if e.godot_error().code() == case.error => return None,
        (Err(e), false) => {
            return Some(format!(
                "rejected with {} ({e}), Godot 2 with {}",
                e.godot_error().code(),
                case.error
            ))
        }
        (Ok((value, _)), false) => return Some(format!("accepted ({value:?}), Godot 2 rejects")),
        (Err(e), true) => return Some(format!("rejected ({e}), Godot 2 accepts")),
        (Ok(decoded), true) => decoded,
    };
    let want = expected(case.value.as_ref().expect("accepted cases have a value"));
    if !same(&value, &want) {
        return Some(format!("decoded {value:?}, Godot 2 {want:?}"));
    }
    if Some(consumed) != case.decoded_size {
        return Some(format!(
            "consumed {consumed}, Godot 2 {:?}",
            case.decoded_size
        ));
    }
    let ours = match encode(&value, &write_options()) {
        Ok(ours) => ours,
        Err(e) => return Some(format!("re-encoding failed: {e}")),
    };
    let engine = unhex(case.reencoded.as_deref().expect("accepted cases re-encode"));
    match difference {
        None if ours == engine => None,
        None => Some(format!(
            "re-encoded {}, Godot 2 {}",
            hex(&ours),
            hex(&engine)
        )),
        Some(_) if ours == engine => Some("matches Godot 2: not a difference".to_owned()),
        Some(_) => match decode(&ours, &read_options()) {
            Ok((back, size)) if same(&back, &value) && size == ours.len() => None,
            other => Some(format!("our bytes {} read back as {other:?}", hex(&ours))),
        },
    }
}

#[test]
fn codec_follows_godot_2_on_every_vector() {
    let vectors = load();
    assert_eq!(vectors.error_codes["ERR_INVALID_DATA"], 30);
    assert_eq!(vectors.error_codes["ERR_FILE_EOF"], 18);
    assert_eq!(vectors.cases.len(), 223);
    let mut failures = Vec::new();
    let mut matched = 0;
    for case in &vectors.cases {
        let listed = DIFFERENCES.iter().find(|(name, _, _)| *name == case.name);
        let difference = listed.map(|&(_, difference, _)| difference);
        match check_case(case, difference) {
            Some(problem) => {
                let why = listed.map_or(String::new(), |(_, d, why)| format!(" [{d:?}: {why}]"));
                failures.push(format!("{} ({}): {problem}{why}", case.name, case.bytes))
            }
            None if difference.is_none() => matched += 1,
            None => {}
        }
    }
    for (name, _, _) in DIFFERENCES {
        assert!(
            vectors.cases.iter().any(|c| c.name == *name),
            "{name} is not a vector"
        );
    }
    eprintln!(
        "Godot 2: {matched} of {} vectors matched, {} documented differences",
        vectors.cases.len(),
        DIFFERENCES.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ from Godot 2:\n{}",
        failures.len(),
        vectors.cases.len(),
        failures.join("\n")
    );
    assert_eq!(matched + DIFFERENCES.len(), vectors.cases.len());
}

// --- Writing what Godot 2 cannot hold -----------------------------------------------------

#[test]
fn ints_beyond_32_bits_are_refused() {
    for i in [i64::from(i32::MAX) + 1, i64::from(i32::MIN) - 1, i64::MAX] {
        let err = encode(&Value::Int(i), &write_options()).unwrap_err();
        assert!(
            matches!(&err.kind, EncodeErrorKind::NotInGeneration { what, .. } if *what == format!("int {i}")),
            "{err}"
        );
        assert_eq!(err.godot_error().code(), 31);
    }
    let nested = Value::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![Value::Int(1), Value::Int(1 << 40)],
    }));
    let err = encode(&nested, &write_options()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "int 1099511627776 at [1] cannot be written in the Godot 2 format at byte 16"
    );
    for i in [i64::from(i32::MIN), -1, 0, i64::from(i32::MAX)] {
        let bytes = encode(&Value::Int(i), &write_options()).unwrap();
        assert_eq!(bytes.len(), 8);
        assert_eq!(decode(&bytes, &read_options()).unwrap().0, Value::Int(i));
    }
}

#[test]
fn floats_are_written_in_32_bits() {
    let bytes = encode(&Value::Float(0.1), &write_options()).unwrap();
    assert_eq!(hex(&bytes), "03000000cdcccc3d");
    let (back, _) = decode(&bytes, &read_options()).unwrap();
    assert_eq!(back, Value::Float(f64::from(0.1f32)));
    let nan = encode(&Value::Float(f64::NAN), &write_options()).unwrap();
    assert_eq!(hex(&nan), "030000000000c07f");
    let big = encode(&Value::Float(1e300), &write_options()).unwrap();
    assert_eq!(hex(&big), "030000000000807f");
}

#[test]
fn objects_are_their_header_alone() {
    let full = Value::Object(Object::Full(Box::new(godot_variant_codec::FullObject {
        class: "Node".to_owned(),
        properties: vec![("name".to_owned(), Value::String("n".to_owned()))],
    })));
    for object in [Object::Null, Object::Id(42)] {
        let bytes = encode(&Value::Object(object), &write_options()).unwrap();
        assert_eq!(hex(&bytes), "12000000");
    }
    assert_eq!(hex(&encode(&full, &write_options()).unwrap()), "12000000");
    // Read back as the null object, whether objects are allowed or not.
    for allow in [false, true] {
        let opts = read_options().with_allow_objects(allow);
        let (value, size) = decode(&unhex("12000000"), &opts).unwrap();
        assert_eq!((value, size), (Value::Object(Object::Null), 4));
    }
}

#[test]
fn migration_to_godot_2_reports_what_changes() {
    use godot_variant_codec::migrate::convert_packet;
    let full = Value::Object(Object::Full(Box::new(godot_variant_codec::FullObject {
        class: "Node".to_owned(),
        properties: Vec::new(),
    })));
    let items = vec![
        Value::Int(1 << 40),
        Value::Float(0.1),
        Value::Float(0.5),
        full,
        Value::Object(Object::Null),
        Value::Int(7),
    ];
    let godot4 = encode(
        &Value::Array(Box::new(Array {
            element_type: ContainerType::Untyped,
            items,
        })),
        &EncodeOptions::new(),
    )
    .unwrap();
    let from = DecodeOptions::new().with_allow_objects(true);
    let (godot2, report) = convert_packet(&godot4, &from, &write_options()).unwrap();
    let problems: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            "value 0 at [0]: int 1099511627776 has no Godot 2 form (32 bits): written as null",
            "value 0 at [1]: float 0.1 written as the nearest 32-bit float",
            "value 0 at [3]: Object has no Godot 2 payload: written as the null Object",
        ]
    );
    let (back, _) = decode(&godot2, &read_options()).unwrap();
    let Value::Array(back) = back else {
        panic!("{back:?}")
    };
    assert_eq!(
        back.items,
        [
            Value::Nil,
            Value::Float(f64::from(0.1f32)),
            Value::Float(0.5),
            Value::Object(Object::Null),
            // Godot 4 writes a null object as nil.
            Value::Nil,
            Value::Int(7),
        ]
    );
}

#[test]
fn image_sizes_follow_the_formats() {
    // Every format's size rule at 8×8 with 3 mipmaps (4 levels): with exactly that many
    // bytes of data the image is kept, with one more it reads as the empty image.
    // (Sizes from make_vectors.py's `image_size`, the model of `_get_dst_image_size`.)
    let expected_sizes: [usize; 22] = [
        85, 85, 170, 255, 340, 853, 1109, 170, 255, 56, 112, 112, 56, 112, 112, 112, 128, 128, 56,
        128, 256, 256,
    ];
    for (format, &size) in expected_sizes.iter().enumerate() {
        for (len, kept) in [(size, true), (size + 1, false)] {
            let image = Image {
                format: format as u32,
                mipmaps: 3,
                width: 8,
                height: 8,
                data: vec![7; len],
            };
            let mut bytes = vec![15, 0, 0, 0];
            for word in [image.format, 3, 8, 8, len as u32] {
                bytes.extend_from_slice(&word.to_le_bytes());
            }
            bytes.extend_from_slice(&image.data);
            bytes.resize(bytes.len().next_multiple_of(4), 0);
            let (value, size) = decode(&bytes, &read_options()).unwrap();
            assert_eq!(size, bytes.len());
            assert_eq!(image.is_valid(), kept, "format {format}, {len} bytes");
            let as_read = if kept { image } else { Image::default() };
            let form = Godot2Value::Image(as_read).to_value();
            assert!(
                same(&value, &form),
                "format {format}, {len} bytes: {value:?}"
            );
            if kept {
                assert_eq!(encode(&form, &write_options()).unwrap(), bytes);
            }
        }
    }
    // CUSTOM keeps any size; a negative mipmap count is the whole chain (8×8 RGBA: 340).
    let custom = Image {
        format: 22,
        mipmaps: 7,
        width: 3,
        height: 5,
        data: vec![1; 3],
    };
    assert!(custom.is_valid());
    let chain = Image {
        format: 4,
        mipmaps: -1,
        width: 8,
        height: 8,
        data: vec![0; 340],
    };
    assert!(chain.is_valid());
    // An Image form Godot 2 would not keep is an ordinary Dictionary.
    let mut bad = chain.clone();
    bad.width = 16385;
    assert!(!bad.is_valid());
    let bytes = encode(&Godot2Value::Image(bad).to_value(), &write_options()).unwrap();
    assert_eq!(bytes[0], 20, "a Dictionary");
}

#[test]
fn node_paths_keep_their_parts() {
    // Godot 2's property is the last subname; a path ending in an empty subname keeps it
    // as a subname, since an empty property is none.
    for (subnames, wire_subnames, flags) in [
        (vec!["b", "c"], 1, 2),
        (vec!["b", ""], 2, 0),
        (vec![""], 1, 0),
        (vec![], 0, 0),
    ] {
        let path = Value::NodePath(NodePath::new(["a"], &subnames, false));
        let bytes = encode(&path, &write_options()).unwrap();
        assert_eq!(
            bytes[8..16],
            [wire_subnames, 0, 0, 0, flags, 0, 0, 0],
            "{subnames:?}"
        );
        let (back, _) = decode(&bytes, &read_options()).unwrap();
        assert_eq!(back, path);
    }
}

/// Whether `v` holds a text that starts with U+FEFF: written, that is a leading BOM, which
/// the engine drops on reading (Godot 2 as Godot 3 and 4), so it does not read back.
fn holds_bom_text(v: &Value) -> bool {
    let bom = |s: &str| s.starts_with('\u{feff}');
    match v {
        Value::String(s) | Value::StringName(s) => bom(s),
        Value::NodePath(p) => p.names().chain(p.subnames()).any(bom),
        Value::PackedStringArray(items) => items.iter().any(|s| bom(s)),
        Value::Array(a) => a.items.iter().any(holds_bom_text),
        Value::Dictionary(d) => d
            .entries
            .iter()
            .any(|(k, x)| holds_bom_text(k) || holds_bom_text(x)),
        _ => false,
    }
}

/// Mutations of every vector's bytes: whatever Godot 2 mode accepts re-encodes, the
/// re-encoding reads back whole as the same value (but for texts starting with U+FEFF,
/// see [`holds_bom_text`]), and what was consumed passes the end by at most the 4 bytes
/// Godot 2 counts unchecked (an Image's padding, an InputEvent's length word).
#[test]
fn mutated_vectors_read_back_as_themselves() {
    let vectors = load();
    // xorshift64*: a fixed sequence, no dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut accepted = 0;
    for case in &vectors.cases {
        let original = unhex(&case.bytes);
        for _ in 0..300 {
            let mut bytes = original.clone();
            for _ in 0..1 + next() % 3 {
                if bytes.is_empty() {
                    break;
                }
                let at = (next() % bytes.len() as u64) as usize;
                bytes[at] = match next() % 4 {
                    0 => 0,
                    1 => 0xFF,
                    _ => next() as u8,
                };
            }
            bytes.truncate(bytes.len() - (next() % 3) as usize % (bytes.len() + 1));
            let Ok((value, used)) = decode(&bytes, &read_options()) else {
                continue;
            };
            accepted += 1;
            assert!(
                used <= bytes.len() + 4,
                "{}: {used} of {}",
                case.name,
                bytes.len()
            );
            let first = encode(&value, &write_options())
                .unwrap_or_else(|e| panic!("{}: {value:?} does not re-encode: {e}", case.name));
            let (back, size) = decode(&first, &read_options()).unwrap();
            assert_eq!(size, first.len(), "{}: {}", case.name, hex(&first));
            if holds_bom_text(&value) {
                continue;
            }
            assert!(
                same(&back, &value),
                "{}: {value:?} read back as {back:?}",
                case.name
            );
            assert_eq!(encode(&back, &write_options()).unwrap(), first);
        }
    }
    assert!(accepted > 10_000, "{accepted} mutations accepted");
}

/// serde reads every vector as the decoder does (see
/// `serde_any::serde_reads_as_decoder`), an Image or InputEvent as its Dictionary form.
#[cfg(feature = "serde")]
#[test]
fn serde_reads_every_vector_as_the_decoder() {
    let vectors = load();
    let differences: Vec<String> = vectors
        .cases
        .iter()
        .flat_map(|case| [false, true].map(|allow| (case, allow)))
        .filter_map(|(case, allow)| {
            let opts = read_options().with_allow_objects(allow);
            serde_any::serde_reads_as_decoder(&unhex(&case.bytes), &opts)
                .err()
                .map(|e| format!("{}: {e}", case.name))
        })
        .collect();
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

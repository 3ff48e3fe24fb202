//! The Godot 3 corpora made by the real engines (tests/golden/godot3/godot-3.6.2.json and
//! godot-3.2.3.json, written by tests/golden/godot3/project/generate.gd under Godot 3.6.2
//! and 3.2.3): in Godot 3 mode every input is accepted or rejected as the engine did, with
//! its `Error`; what it accepted decodes to the Godot 4 value the documented Godot 3 → 4
//! table gives for the engine's own description of the value, and re-encodes to the
//! engine's bytes. The store_var save files read back value for value.
//!
//! Both engines leave a NodePath's string padding unwritten (their encoders skip those
//! bytes of a buffer nobody cleared): the generator records those bytes as zeros, having
//! checked that nothing else differs (tests/golden/godot3/README.md), so every byte here
//! compares exactly.

use godot_variant_codec::stream::decode_frames;
use godot_variant_codec::{
    decode, encode, godot4_class, DecodeError, DecodeErrorKind, DecodeOptions, EncodeOptions,
    FullObject, Generation, NodePath, Object, Value,
};
use serde::Deserialize;
use serde_json::Value as Json;

#[path = "support/golden_file.rs"]
mod golden_file;
use golden_file::{hex, unhex};
#[path = "support/described.rs"]
mod described;
use described::{text, Names};
#[cfg(feature = "serde")]
#[path = "support/serde_any.rs"]
mod serde_any;

#[derive(Deserialize)]
struct Corpus {
    engine: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    kind: String,
    allow_objects: bool,
    bytes: String,
    accepted: bool,
    #[serde(default)]
    error: i32,
    value: Option<Json>,
    reencoded: Option<String>,
}

#[derive(Deserialize)]
struct SaveValues {
    values: Vec<Json>,
}

fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/godot3")
}

fn load(version: &str) -> Corpus {
    let path = corpus_dir().join(format!("godot-{version}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is committed: {e}", path.display()));
    serde_json::from_str(&text).expect("the corpus parses")
}

const G3: Generation = Generation::GODOT_3;

fn read_options(allow_objects: bool) -> DecodeOptions {
    DecodeOptions::new()
        .with_allow_objects(allow_objects)
        .with_generation(G3)
}

fn write_options() -> EncodeOptions {
    EncodeOptions::new().with_generation(G3)
}

// --- The engine's description of a value → the Godot 4 value ---------------------------

/// Godot 3's names for the types Godot 2 and 4 name otherwise.
const GODOT_3_NAMES: Names = Names {
    transform2d: "Transform2D",
    basis: "Basis",
    packed_prefix: "Pool",
};

/// The Godot 4 value the documented table gives for a Godot 3 value the engine described.
fn expected(d: &Json) -> Value {
    if let Some(value) = described::shared(d, &GODOT_3_NAMES, expected) {
        return value;
    }
    match d["t"].as_str().expect("a type") {
        "NodePath" => Value::NodePath(NodePath::new(
            d["names"].as_array().unwrap().iter().map(text),
            d["subnames"].as_array().unwrap().iter().map(text),
            d["absolute"].as_bool().unwrap(),
        )),
        "EncodedObjectAsID" => match d["id"].as_str().unwrap().parse::<u64>().unwrap() {
            0 => Value::Object(Object::Null),
            id => Value::Object(Object::Id(id)),
        },
        "Object" if d["null"].as_bool() == Some(true) => Value::Object(Object::Null),
        "Object" => Value::Object(Object::Full(Box::new(FullObject {
            class: godot4_class(d["class"].as_str().unwrap()).to_owned(),
            properties: d["props"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_str().unwrap().to_owned(), expected(&p[1])))
                .collect(),
        }))),
        other => panic!("unknown Godot 3 type {other:?} in the description"),
    }
}

/// Two values are the same when Godot 4's encoding of them is: bit for bit, NaNs included.
fn same(a: &Value, b: &Value) -> bool {
    let opts = EncodeOptions::new();
    encode(a, &opts).ok() == encode(b, &opts).ok()
}

/// What Godot 3 accepts and the codec documents that it refuses (docs/FORMATS.md): text
/// holding UTF-8 forms of what no Unicode string holds (surrogates, 5- and 6-byte forms,
/// code points past U+10FFFF), which a Rust `String` cannot hold; and, in 3.2.3, which has
/// no depth limit, values nested deeper than the 1024 levels 3.6.2 and Godot 4 allow.
fn documented_difference(e: &DecodeError, input: &[u8], version: &str) -> bool {
    match e.kind {
        DecodeErrorKind::InvalidUtf8 => holds_non_unicode_forms(input),
        DecodeErrorKind::TooDeep(_) => version == "3.2.3",
        _ => false,
    }
}

/// Whether `bytes` hold a UTF-8-shaped form of a surrogate (ED A0..BF), of a code point
/// past U+10FFFF (F4 90.., F5..F7) or a 5- or 6-byte form (F8..FD).
fn holds_non_unicode_forms(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|w| {
        matches!(
            (w[0], w[1]),
            (0xED, 0xA0..=0xBF) | (0xF4, 0x90..=0xBF) | (0xF5..=0xFD, _)
        )
    })
}

/// Godot's `ERR_UNAVAILABLE`: a class the engine cannot instantiate.
const ERR_UNAVAILABLE: i32 = 2;

/// Whether `v` holds an object (whole or as an instance id).
fn holds_objects(v: &Value) -> bool {
    match v {
        Value::Object(Object::Full(_) | Object::Id(_)) => true,
        Value::Array(a) => a.items.iter().any(holds_objects),
        Value::Dictionary(d) => d
            .entries
            .iter()
            .any(|(k, x)| holds_objects(k) || holds_objects(x)),
        _ => false,
    }
}

fn check_corpus(version: &str) {
    let corpus = load(version);
    assert!(
        corpus.engine.starts_with(version),
        "made by Godot {version}: {}",
        corpus.engine
    );
    let mut failures = Vec::new();
    let mut documented = 0;
    let mut counts = std::collections::BTreeMap::<(&str, bool), usize>::new();
    for case in &corpus.cases {
        *counts
            .entry((case.kind.as_str(), case.accepted))
            .or_default() += 1;
        let bytes = unhex(&case.bytes);
        let outcome = decode(&bytes, &read_options(case.allow_objects));
        // With objects allowed, what the engine makes depends on its class database (a
        // class it cannot instantiate fails with ERR_UNAVAILABLE; a property it has not is
        // dropped; an instance id becomes an EncodedObjectAsID, written back whole): there
        // the format alone is checked.
        let needs_classes = case.allow_objects
            && (case.error == ERR_UNAVAILABLE
                || case
                    .value
                    .as_ref()
                    .is_some_and(|d| holds_objects(&expected(d)))
                || outcome.as_ref().is_ok_and(|(v, _)| holds_objects(v)));
        let problem = match (&outcome, case.accepted) {
            (_, false) if needs_classes => None,
            (Err(e), true) if documented_difference(e, &bytes, version) => {
                documented += 1;
                None
            }
            (Err(e), true) => Some(format!("rejected ({e}), the engine accepted")),
            (Ok(_), true) if needs_classes => None,
            (Err(e), false) if e.godot_error().code() != case.error => Some(format!(
                "rejected with {} ({e}), the engine with {}",
                e.godot_error().code(),
                case.error
            )),
            (Err(_), false) => None,
            (Ok(_), false) => Some(format!("accepted, the engine refused ({})", case.error)),
            (Ok((value, _)), true) => {
                let want = case.value.as_ref().map(expected);
                let reencoded = case.reencoded.as_deref().map(unhex);
                if let Some(want) = want.as_ref().filter(|w| !same(w, value)) {
                    Some(format!("decoded {value:?}, the engine {want:?}"))
                } else if let Some(engine) =
                    reencoded.filter(|e| encode(value, &write_options()).ok().as_ref() != Some(e))
                {
                    let ours = encode(value, &write_options()).map(|b| hex(&b));
                    Some(format!("re-encoded {ours:?}, the engine {}", hex(&engine)))
                } else {
                    None
                }
            }
        };
        if let Some(p) = problem {
            failures.push(format!("{} ({}): {p}", case.name, case.bytes));
        }
    }
    eprintln!("Godot {version}: {counts:?}, {documented} documented differences");
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Godot {version}:\n{}",
        failures.len(),
        corpus.cases.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    let random = corpus.cases.iter().filter(|c| c.kind == "random").count();
    assert!(random >= 2000, "{random} random values");
}

#[test]
fn godot_3_6_2_corpus() {
    check_corpus("3.6.2");
}

#[test]
fn godot_3_2_3_corpus() {
    check_corpus("3.2.3");
}

/// A store_var save file made by the engine reads back value for value, and migrates to
/// Godot 4 bytes that read back the same values.
fn check_save(version: &str) {
    let dir = corpus_dir();
    let file = std::fs::read(dir.join(format!("save-{version}.bin"))).expect("save file");
    let sidecar: SaveValues = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("save-{version}.json"))).expect("sidecar"),
    )
    .expect("sidecar parses");
    let values = decode_frames(&file, &read_options(false)).expect("the save file reads");
    assert_eq!(values.len(), sidecar.values.len());
    assert!(values.len() >= 200, "{} values", values.len());
    for (i, (got, want)) in values.iter().zip(&sidecar.values).enumerate() {
        assert!(same(got, &expected(want)), "value {i}: {got:?}");
    }
    let (godot4, report) = godot_variant_codec::migrate::convert_frames(
        &file,
        &read_options(false),
        &EncodeOptions::new(),
    )
    .expect("converts");
    assert!(report.is_clean(), "{report}");
    let migrated = decode_frames(&godot4, &DecodeOptions::new()).expect("Godot 4 bytes read");
    assert_eq!(migrated.len(), values.len());
    for (a, b) in migrated.iter().zip(&values) {
        assert!(same(a, b));
    }
}

#[test]
fn godot_3_6_2_save_file_migrates() {
    check_save("3.6.2");
}

#[test]
fn godot_3_2_3_save_file_migrates() {
    check_save("3.2.3");
}

/// serde reads every input of both corpora as the decoder does (see
/// `serde_any::serde_reads_as_decoder`): the same verdict, error and size, and the values
/// it hands over are those of their Godot 4 form.
#[cfg(feature = "serde")]
#[test]
fn serde_reads_both_corpora_as_the_decoder() {
    for version in ["3.6.2", "3.2.3"] {
        let corpus = load(version);
        let differences: Vec<String> = corpus
            .cases
            .iter()
            .filter_map(|case| {
                let opts = read_options(case.allow_objects);
                serde_any::serde_reads_as_decoder(&unhex(&case.bytes), &opts)
                    .err()
                    .map(|e| format!("{}: {e}", case.name))
            })
            .collect();
        assert!(
            differences.is_empty(),
            "{version}: {}",
            differences.join("\n")
        );
    }
}

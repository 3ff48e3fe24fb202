//! `godot-variant` against the engine: every value of a file the engine wrote with
//! `FileAccess.store_var`, and every golden vector the engine accepts, printed with exactly
//! the text the engine's `var_to_str` gives (tests/golden/text, made by
//! tests/golden/project/generate_text.gd; `GODOT_VARIANT_TEXT_CORPUS` names another copy,
//! as `cargo xtask test` does with one the live engine has just written). Then the CLI's
//! own behaviour: detection, `check`, errors with offsets and exit codes, the JSON mapping.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus() -> PathBuf {
    std::env::var_os("GODOT_VARIANT_TEXT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("tests/golden/text"))
}

fn cli(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_godot-variant"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the CLI runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// The output's JSON lines, without their `value` (nested deeper than serde_json reads
/// for the deepest values; the first `,"value":` outside a string is the key's).
fn lines(out: &Output) -> Vec<Json> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let head = match l.find(",\"value\":") {
                Some(at) => format!("{}}}", &l[..at]),
                None => l.to_owned(),
            };
            serde_json::from_str(&head).unwrap_or_else(|e| panic!("{e}: {l}"))
        })
        .collect()
}

fn json_lines(path: &Path) -> Vec<Json> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_store_var_file_prints_as_var_to_str() {
    let dir = corpus();
    let bin = dir.join("values.bin");
    let out = cli(&["inspect", "--json", bin.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = lines(&out);
    let engine = json_lines(&dir.join("values.json"));
    assert!(engine.len() > 1000, "{} values", engine.len());
    assert_eq!(ours.len(), engine.len());
    let mut types = std::collections::BTreeSet::new();
    for (ours, engine) in ours.iter().zip(&engine) {
        for key in ["offset", "size", "type", "text"] {
            assert_eq!(ours[key], engine[key], "{key} of {engine}");
        }
        types.insert(engine["type"].as_str().unwrap().to_owned());
    }
    // Every type but Object's full form and Signal's payload… all 39 are there.
    assert_eq!(types.len(), 39, "{types:?}");

    // The plain form: `OFFSET: TEXT`, texts as they are (multi-line ones too).
    let out = cli(&["inspect", bin.to_str().unwrap()], b"");
    let expected: String = engine
        .iter()
        .map(|e| format!("{}: {}\n", e["offset"], e["text"].as_str().unwrap()))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn every_golden_vector_the_engine_accepts_prints_as_var_to_str() {
    let golden: Json = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/golden/godot4.json")).unwrap(),
    )
    .unwrap();
    let texts = json_lines(&corpus().join("golden_texts.json"));
    let cases: std::collections::HashMap<&str, &str> = golden["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["bytes"].as_str().unwrap()))
        .collect();
    // All the cases as one put_var stream, each case's bytes a frame.
    let mut stream = Vec::new();
    let mut expected = Vec::new();
    for line in &texts {
        let (name, text) = line.as_object().unwrap().iter().next().unwrap();
        let hex = cases[name.as_str()];
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        stream.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        stream.extend_from_slice(&bytes);
        expected.push((name.clone(), text.as_str().unwrap().to_owned()));
    }
    assert!(expected.len() > 3000, "{} cases", expected.len());
    let out = cli(&["inspect", "--json", "--framed", "-"], &stream);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = lines(&out);
    assert_eq!(ours.len(), expected.len());
    for (ours, (name, text)) in ours.iter().zip(&expected) {
        assert_eq!(ours["text"].as_str(), Some(text.as_str()), "{name}");
    }
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

const INT_7: [u8; 8] = [2, 0, 0, 0, 7, 0, 0, 0];

#[test]
fn the_layout_is_detected_or_forced() {
    // A single var_to_bytes packet.
    let out = cli(&["inspect", "-"], &INT_7);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0: 7\n");
    // The same as a stream of one frame: the value's offset is after the prefix.
    let out = cli(&["inspect", "-"], &frame(&INT_7));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "4: 7\n");
    // Forced: the packet read as frames has a length prefix of 2 and no valid value.
    let out = cli(&["inspect", "--framed", "-"], &INT_7);
    assert_eq!(out.status.code(), Some(1));
    let out = cli(&["inspect", "--raw", "-"], &frame(&INT_7));
    assert_eq!(out.status.code(), Some(1));
    // An empty stream holds no values.
    let out = cli(&["check", "--framed", "-"], b"");
    assert!(out.status.success());
}

#[test]
fn bad_input_is_reported_with_its_offset_and_a_nonzero_exit() {
    // A good frame, a frame of an unknown type, then a cut-off frame.
    let mut bytes = frame(&INT_7);
    bytes.extend(frame(&[0x7F, 0, 0, 0]));
    bytes.extend_from_slice(&[100, 0, 0, 0, 1, 2]);
    let out = cli(&["inspect", "--json", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    let ours = lines(&out);
    assert_eq!(ours.len(), 3, "{ours:?}");
    assert_eq!(ours[0]["text"], "7");
    assert_eq!(ours[1]["offset"], 16);
    assert!(ours[1]["error"]
        .as_str()
        .unwrap()
        .contains("unknown type id 127 at byte 16"));
    assert_eq!(ours[2]["offset"], 20);
    let truncated = ours[2]["error"].as_str().unwrap();
    assert!(
        truncated.contains("truncated frame at byte 20"),
        "{truncated}"
    );
    assert!(
        truncated.contains("announces 100 bytes, 2 are left"),
        "{truncated}"
    );

    let out = cli(&["check", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("the value at byte 16: unknown type id 127 at byte 16"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let out = cli(&["check", "-"], &frame(&INT_7));
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "-: ok, 1 values, length-prefixed values (store_var / put_var)\n"
    );

    let help = cli(&["--help"], b"");
    assert!(help.status.success());
    assert!(String::from_utf8(help.stdout)
        .unwrap()
        .starts_with("usage:"));
    // Usage and unreadable files: exit 2.
    assert_eq!(cli(&["inspect"], b"").status.code(), Some(2));
    assert_eq!(cli(&["frobnicate", "-"], b"").status.code(), Some(2));
    assert_eq!(cli(&["check", "/no/such/file"], b"").status.code(), Some(2));
}

#[test]
fn the_json_mapping_keeps_what_json_numbers_cannot() {
    use godot_variant_codec::{encode, Array, ContainerType, Dictionary, EncodeOptions, Value};
    let dict = |entries| {
        Value::Dictionary(Box::new(Dictionary {
            key_type: ContainerType::Untyped,
            value_type: ContainerType::Untyped,
            entries,
        }))
    };
    let s = |t: &str| Value::String(t.into());
    let value = Value::Array(Box::new(Array {
        element_type: ContainerType::Untyped,
        items: vec![
            Value::Int(1 << 53),
            Value::Int((1 << 53) + 1),
            Value::Int(i64::MIN),
            Value::Float(f64::NAN),
            Value::Float(f64::INFINITY),
            Value::Float(f64::NEG_INFINITY),
            Value::Float(0.1),
            Value::Rid(u64::MAX),
            dict(vec![(s("b"), Value::Int(1)), (s("a"), Value::Nil)]),
            dict(vec![(Value::Int(1), s("x"))]),
            Value::PackedByteArray(vec![1, 255]),
        ],
    }));
    let bytes = encode(&value, &EncodeOptions::default()).unwrap();
    let out = cli(&["inspect", "--json", "-"], &bytes);
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let value_json = &line[line.find("\"value\":").unwrap() + 8..line.len() - 2];
    assert_eq!(
        value_json,
        r#"[9007199254740992,"9007199254740993","-9223372036854775808","NaN","Infinity","-Infinity",0.1,"18446744073709551615",{"b":1,"a":null},[[1,"x"]],[1,255]]"#
    );
    let parsed = &lines(&Output {
        stdout: line.into_bytes(),
        ..out
    })[0];
    assert_eq!(parsed["type"], "Array");
    assert_eq!(parsed["offset"], 0);
    assert_eq!(parsed["size"], bytes.len());
}

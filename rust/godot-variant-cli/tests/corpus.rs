//! `godot-variant` against the engine: every value of a file the engine wrote with
//! `FileAccess.store_var`, and every golden vector the engine accepts, printed with exactly
//! the text the engine's `var_to_str` gives (tests/golden/text, made by
//! tests/golden/project/generate_text.gd; `GODOT_VARIANT_TEXT_CORPUS` names another copy,
//! as `cargo xtask test` does with one the live engine has just written). The CLI's
//! conventions are tested in conventions.rs, `inspect --json | encode` in round_trip.rs.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value as Json;
use support::{cli, repo, unhex};

fn corpus() -> PathBuf {
    std::env::var_os("GODOT_VARIANT_TEXT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("tests/golden/text"))
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
        let bytes = unhex(hex);
        stream.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        stream.extend_from_slice(&bytes);
        expected.push((name.clone(), text.as_str().unwrap().to_owned()));
    }
    assert!(expected.len() > 3000, "{} cases", expected.len());
    let out = cli(&["inspect", "--json", "--framed", "-"], &stream);
    // Bytes after a value, which the engine ignores and no frame it writes has, are
    // reported after the value's line (exit 1): the only errors.
    let (errors, ours): (Vec<Json>, Vec<Json>) = lines(&out)
        .into_iter()
        .partition(|l| l.get("error").is_some());
    for e in &errors {
        let e = e["error"].as_str().unwrap();
        assert!(
            e.ends_with("before its frame does (get_var ignores them)"),
            "{e}"
        );
    }
    assert_eq!(
        out.status.code(),
        Some(if errors.is_empty() { 0 } else { 1 })
    );
    assert_eq!(ours.len(), expected.len());
    for (ours, (name, text)) in ours.iter().zip(&expected) {
        assert_eq!(ours["text"].as_str(), Some(text.as_str()), "{name}");
    }
}

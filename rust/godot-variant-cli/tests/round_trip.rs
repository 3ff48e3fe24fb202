//! `inspect --json f | encode` gives `f` byte for byte, over the engine-made golden
//! vectors of Godot 4 (tests/golden/godot4.json), the Godot 3.6.2 and 3.2.3 corpora, the
//! Godot 2 vectors, and the engine-written files (a Godot 4 `store_var` file of every type,
//! a Godot 3 save).
//!
//! What the JSON form cannot carry is only what no value holds: bytes the engine reads but
//! never writes (header bits it ignores, a 64-bit form where 32 bits hold the number, a
//! String cut at a NUL, bytes after a value…). For those, `encode` writes what
//! `var_to_bytes` writes for the value read — the engine's own re-encoding; every input
//! the engine re-encodes as itself comes back exactly.

mod support;

use godot_variant_codec::{decode, encode, DecodeOptions, EncodeOptions, Generation, Precision};
use serde_json::Value as Json;
use support::{cli, golden, stderr, stdout, unhex};

/// A golden case: its bytes, and what the engine wrote back for the value it read (when
/// the corpus says).
struct Case {
    name: String,
    bytes: Vec<u8>,
    engine: Option<Vec<u8>>,
    objects: bool,
}

#[derive(Debug, Default)]
struct Tally {
    /// Came back byte for byte.
    exact: usize,
    /// Came back as `var_to_bytes` writes the value read, which differs from the input.
    rewritten: Vec<String>,
    /// Came back as the codec writes the value read, where the engine writes the input
    /// (the codec's documented differences).
    codec_rewrites: Vec<String>,
    /// A value with bytes after it, which no value holds: not a frame `encode` writes.
    trailing: usize,
    /// Rejected by the codec (objects of classes it cannot check, documented).
    rejected: usize,
    failures: Vec<String>,
}

fn load(path: &str, objects_by_default: bool) -> Vec<Case> {
    let corpus: Json =
        serde_json::from_str(&std::fs::read_to_string(golden(path)).unwrap()).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["accepted"] == true)
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_owned(),
            bytes: unhex(c["bytes"].as_str().unwrap()),
            engine: c["reencoded"].as_str().map(unhex),
            objects: c["allow_objects"].as_bool().unwrap_or(objects_by_default),
        })
        .collect()
}

/// Each case as a frame of one stream, through `inspect --json` and `encode`.
fn round_trip(cases: &[Case], generation: Generation) -> Tally {
    let mut tally = Tally::default();
    let format = generation.number().to_string();
    for objects in [false, true] {
        let opts = DecodeOptions::default()
            .with_generation(generation)
            .with_allow_objects(objects);
        let mut kept = Vec::new();
        let mut stream = Vec::new();
        for case in cases.iter().filter(|c| c.objects == objects) {
            match decode(&case.bytes, &opts) {
                Err(_) => tally.rejected += 1,
                Ok((_, used)) if used < case.bytes.len() => tally.trailing += 1,
                Ok((value, _)) => {
                    stream.extend((case.bytes.len() as u32).to_le_bytes());
                    stream.extend(&case.bytes);
                    kept.push((case, value));
                }
            }
        }
        let mut args = vec!["inspect", "--json", "--framed", "--format", &format];
        if objects {
            args.push("--objects");
        }
        args.push("-");
        let inspected = cli(&args, &stream);
        assert_eq!(inspected.status.code(), Some(0), "{}", stderr(&inspected));
        let lines: Vec<&str> = std::str::from_utf8(&inspected.stdout)
            .unwrap()
            .lines()
            .collect();
        assert_eq!(lines.len(), kept.len());
        let encoded = cli(&["encode", "--format", &format], &inspected.stdout);
        assert_eq!(encoded.status.code(), Some(0), "{}", stderr(&encoded));
        let mut frames = encoded.stdout.as_slice();
        for ((case, value), line) in kept.iter().zip(&lines) {
            let len = u32::from_le_bytes(frames[..4].try_into().unwrap()) as usize;
            let ours = &frames[4..4 + len];
            frames = &frames[4 + len..];
            let precision = if line.contains(r#""precision":"double""#) {
                Precision::Double
            } else {
                Precision::Single
            };
            let write = EncodeOptions::default()
                .with_generation(generation)
                .with_precision(precision);
            let expected = encode(value, &write).unwrap();
            if ours == case.bytes {
                tally.exact += 1;
            } else if ours != expected {
                tally.failures.push(format!(
                    "{}: JSON gave {ours:02x?}, the value {expected:02x?}",
                    case.name
                ));
            } else if case.engine.as_ref() == Some(&case.bytes) {
                tally.codec_rewrites.push(case.name.clone());
            } else {
                tally.rewritten.push(case.name.clone());
            }
        }
        assert!(frames.is_empty());
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    eprintln!(
        "{}: {} exact, {} written as var_to_bytes writes their value, {} with bytes after \
         the value, {} rejected",
        generation,
        tally.exact,
        tally.rewritten.len(),
        tally.trailing,
        tally.rejected
    );
    tally
}

#[test]
fn godot_4_golden_vectors_come_back_byte_for_byte() {
    let cases = load("godot4.json", false);
    let tally = round_trip(&cases, Generation::GODOT_4);
    assert_eq!(tally.codec_rewrites, Vec::<String>::new());
    assert!(tally.exact > 600, "{tally:?}");
}

#[test]
fn godot_3_corpora_come_back_byte_for_byte() {
    for corpus in ["godot3/godot-3.6.2.json", "godot3/godot-3.2.3.json"] {
        let cases = load(corpus, false);
        let tally = round_trip(&cases, Generation::GODOT_3);
        assert_eq!(tally.codec_rewrites, Vec::<String>::new());
        assert!(tally.exact > 3000, "{tally:?}");
    }
}

#[test]
fn godot_2_vectors_come_back_byte_for_byte() {
    let tally = round_trip(&load("godot2/vectors.json", false), Generation::GODOT_2);
    // The codec's documented Godot 2 differences (DIFFERENCES in the crate's
    // tests/godot2.rs: a container's "shared" bit, a NodePath's empty property), which the
    // JSON carries as the codec's value does.
    assert_eq!(
        tally.codec_rewrites,
        [
            "NodePath/two_names_two_subnames",
            "Dictionary/empty_shared",
            "Dictionary/shared_int_key_array_value",
            "Array/empty_shared",
            "Array/nested_shared"
        ]
    );
    assert!(tally.exact > 80, "{tally:?}");
}

#[test]
fn engine_written_files_come_back_byte_for_byte() {
    for (file, format) in [("text/values.bin", "4"), ("godot3/save-3.6.2.bin", "3")] {
        let path = golden(file);
        let inspected = cli(
            &[
                "inspect",
                "--json",
                "--format",
                format,
                path.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(inspected.status.code(), Some(0), "{}", stderr(&inspected));
        let encoded = cli(&["encode", "--format", format], &inspected.stdout);
        assert_eq!(encoded.status.code(), Some(0), "{}", stderr(&encoded));
        assert!(encoded.stdout == std::fs::read(&path).unwrap(), "{file}");
    }
    // A packet too: the offset 0 of its line says so.
    let packet = std::fs::read(golden("text/values.bin")).unwrap()[12..20].to_vec();
    let inspected = cli(&["inspect", "--json", "-"], &packet);
    assert_eq!(
        stdout(&inspected),
        "{\"offset\":0,\"size\":8,\"type\":\"bool\",\"text\":\"true\",\"value\":true}\n"
    );
    assert_eq!(cli(&["encode"], &inspected.stdout).stdout, packet);
}

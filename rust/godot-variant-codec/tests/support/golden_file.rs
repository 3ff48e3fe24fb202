//! The engine-made golden vectors (`tests/golden/godot4.json`, written by
//! `tests/golden/project/generate.gd` under Godot 4.6.3), as the tests read them.
// Each test binary that includes this file reads the fields it needs.
#![allow(dead_code)]

use serde::Deserialize;

#[derive(Deserialize)]
pub struct Golden {
    /// The Godot version that made the vectors.
    pub engine: String,
    pub cases: Vec<Case>,
}

#[derive(Deserialize)]
pub struct Case {
    pub name: String,
    /// The input, in hex.
    pub bytes: String,
    pub allow_objects: bool,
    pub accepted: bool,
    pub decoded_size: i64,
    /// The engine's re-encoding of what it decoded, in hex.
    pub reencoded: Option<String>,
}

/// The committed golden vectors.
pub fn load() -> Golden {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/godot4.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/golden/godot4.json is committed");
    serde_json::from_str(&text).expect("golden vectors parse")
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

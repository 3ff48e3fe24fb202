//! The conformance suite (tests/conformance/godot4.v1.json): the engine-made golden vectors
//! (tests/golden/godot4.json) and the engine's `var_to_str` text of each accepted value
//! (tests/golden/text/golden_texts.json) in one language-neutral file, generated from
//! them. `cargo xtask conformance` writes it; `cargo xtask test` checks it is up to date.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value as Json;

/// The suite's schema version: bump it when a field changes meaning.
const VERSION: u32 = 1;
pub const SUITE: &str = "tests/conformance/godot4.v1.json";

/// The suite's text, from the golden files in `project`.
pub fn generate(project: &Path) -> Result<String, String> {
    let read = |path: &str| {
        std::fs::read_to_string(project.join(path)).map_err(|e| format!("cannot read {path}: {e}"))
    };
    let golden: Json = serde_json::from_str(&read("tests/golden/godot4.json")?)
        .map_err(|e| format!("tests/golden/godot4.json: {e}"))?;
    let mut texts = HashMap::new();
    for line in read("tests/golden/text/golden_texts.json")?.lines() {
        let entry: HashMap<String, String> =
            serde_json::from_str(line).map_err(|e| format!("golden_texts.json: {e}"))?;
        texts.extend(entry);
    }
    let engine = golden["engine"]
        .as_str()
        .ok_or("no engine in godot4.json")?;
    let cases = golden["cases"]
        .as_array()
        .ok_or("no cases in godot4.json")?;
    let string = |s: &str| serde_json::to_string(s).expect("a str is JSON");
    let mut out = format!(
        "{{\n  \"suite\": \"godot-variant-conformance\",\n  \"version\": {VERSION},\n  \
         \"format\": \"Godot 4 binary Variant (var_to_bytes / bytes_to_var)\",\n  \
         \"engine\": {},\n  \"cases\": [\n",
        string(engine)
    );
    for (i, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().ok_or("a case without a name")?;
        let accepted = case["accepted"]
            .as_bool()
            .ok_or("a case without a verdict")?;
        let size = case["decoded_size"].as_i64().filter(|_| accepted);
        let reencoded = case["reencoded"].as_str();
        let text = texts.get(name).filter(|_| case["allow_objects"] == false);
        out.push_str(&format!(
            "    {{\"name\":{},\"bytes\":{},\"allow_objects\":{},\"verdict\":\"{}\",\
             \"decoded_size\":{},\"reencoded\":{},\"text\":{}}}{}\n",
            string(name),
            case["bytes"],
            case["allow_objects"],
            if accepted { "accept" } else { "reject" },
            size.map_or("null".into(), |s| s.to_string()),
            reencoded.map_or("null".into(), string),
            text.map_or("null".into(), |t| string(t)),
            if i + 1 < cases.len() { "," } else { "" }
        ));
    }
    out.push_str("  ]\n}\n");
    Ok(out)
}

/// `cargo xtask conformance`: writes the suite.
pub fn write(project: &Path) -> Result<(), String> {
    let text = generate(project)?;
    std::fs::write(project.join(SUITE), text).map_err(|e| format!("cannot write {SUITE}: {e}"))
}

/// Whether the committed suite is what the golden files make.
pub fn up_to_date(project: &Path) -> Result<bool, String> {
    let fresh = generate(project)?;
    let same = std::fs::read_to_string(project.join(SUITE)).ok().as_deref() == Some(&fresh);
    if !same {
        eprintln!("{SUITE} is not what the golden files make: run cargo xtask conformance");
    }
    Ok(same)
}

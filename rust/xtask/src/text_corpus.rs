//! The `var_to_str` step of `cargo xtask test`: the live engine writes the text corpus
//! again (tests/golden/project/generate_text.gd: a `FileAccess.store_var` file, the
//! `var_to_str` text of each of its values and of every golden vector it accepts), which
//! must be the committed tests/golden/text byte for byte, and `godot-variant inspect` must
//! print exactly those texts for the file the engine has just written.

use std::path::Path;
use std::process::{Command, Stdio};

const FILES: [&str; 3] = ["values.bin", "values.json", "golden_texts.json"];

/// Whether the engine's corpus matches the committed one and the CLI prints it exactly.
pub fn run(project: &Path, godot: &Path, mut cargo: Command) -> Result<bool, String> {
    let fresh = project.join("target/text-corpus");
    let _ = std::fs::remove_dir_all(&fresh);
    let generated = Command::new(godot)
        .args(["--headless", "--path"])
        .arg(project.join("tests/golden/project"))
        .args(["--script", "res://generate_text.gd", "--"])
        .arg(format!(
            "--golden={}",
            project.join("tests/golden/godot4.json").display()
        ))
        .arg(format!("--out-dir={}", fresh.display()))
        // The engine logs an error for each container deeper than its text writer goes.
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run Godot: {e}"))?
        .success();
    if !generated {
        return Err("generate_text.gd failed".into());
    }
    let committed = project.join("tests/golden/text");
    let mut same = true;
    for file in FILES {
        if std::fs::read(fresh.join(file)).ok() != std::fs::read(committed.join(file)).ok() {
            eprintln!(
                "text corpus drifted: {} differs from the committed {}",
                fresh.join(file).display(),
                committed.join(file).display()
            );
            same = false;
        }
    }
    let cli_ok = cargo
        .args([
            "test",
            "--release",
            "--quiet",
            "-p",
            "godot-variant-cli",
            "--test",
            "corpus",
        ])
        .env("GODOT_VARIANT_TEXT_CORPUS", &fresh)
        .status()
        .map_err(|e| e.to_string())?
        .success();
    Ok(same && cli_ok)
}

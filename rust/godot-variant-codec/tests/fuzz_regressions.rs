//! The fuzz targets' checks on every committed input, in the ordinary test command: the
//! seed corpora (`fuzz/corpus/<target>/`) and the inputs that once made a target fail
//! (`fuzz/regressions/<target>/`). The checks are the targets' own
//! (`fuzz/fuzz_targets/common.rs`), so a fixed finding that comes back fails here too,
//! without cargo-fuzz or a nightly toolchain.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "../../../fuzz/fuzz_targets/common.rs"]
mod common;
#[cfg(feature = "serde")]
#[path = "../../../fuzz/fuzz_targets/serde_checks.rs"]
mod serde_checks;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted (none if the folder is missing).
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(fuzz_dir().join(kind).join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("reading a fuzz input folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `check` on each input of `target`, naming the file of any failure.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let files: Vec<PathBuf> = ["corpus", "regressions"]
        .iter()
        .flat_map(|kind| inputs(kind, target))
        .collect();
    for file in &files {
        let data = fs::read(file).expect("reading a fuzz input");
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            panic!("{target}: {} fails: {message}", file.display());
        }
    }
    files.len()
}

#[test]
fn decode_target_passes_its_seeds_and_regressions() {
    let n = replay("decode", common::check_decode);
    assert!(n >= 100, "only {n} decode inputs found: is fuzz/ there?");
}

#[test]
fn roundtrip_target_passes_its_seeds_and_regressions() {
    let n = replay("roundtrip", common::check_roundtrip);
    assert!(n >= 100, "only {n} roundtrip inputs found: is fuzz/ there?");
}

#[test]
fn stream_target_passes_its_seeds_and_regressions() {
    let n = replay("stream", common::check_stream);
    assert!(n >= 50, "only {n} stream inputs found: is fuzz/ there?");
}

#[cfg(feature = "serde")]
#[test]
fn serde_decode_target_passes_its_seeds_and_regressions() {
    let n = replay("serde_decode", serde_checks::check_serde_decode);
    assert!(
        n >= 100,
        "only {n} serde_decode inputs found: is fuzz/ there?"
    );
}

/// Every committed regression input is replayed: a target folder under `regressions/` that
/// no test above covers would be silently skipped.
#[test]
fn every_regression_folder_has_a_replaying_test() {
    let replayed = ["decode", "roundtrip", "stream", "serde_decode"];
    for entry in fs::read_dir(fuzz_dir().join("regressions")).expect("fuzz/regressions") {
        let path = entry.expect("reading fuzz/regressions").path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                replayed.contains(&name.as_str()),
                "fuzz/regressions/{name} is not replayed by tests/fuzz_regressions.rs"
            );
        }
    }
}

//! `cargo xtask test`: every test, in steps, each adding its counts to one tally; ends
//! with the parity suite's line for each setting, `history: …`, `fallback: …`, `asan: …`
//! and the total `N passed, N failed`.

use std::path::Path;

use crate::godot::{build_addon, godot, regenerate_golden};
use crate::process::{cargo, project_dir, run_echoing};
use crate::tally::{counts, Tally};
use crate::{conformance, e2e, godot3, publish, suites, text_corpus};

pub fn run() -> Result<(), String> {
    let dir = project_dir();
    let mut tally = Tally::default();

    let godot = godot()?;

    cargo_tests(&mut tally)?;
    cargo_lints(&mut tally)?;
    publish::checks(&mut tally)?;
    committed_data(&dir, &mut tally);
    against_live_engine(&dir, &godot, &mut tally);
    godot_suites(&godot, &mut tally)?;
    report(&tally)
}

/// The Rust crates' tests, and the tokio codec's and echo server's behind its feature.
fn cargo_tests(tally: &mut Tally) -> Result<(), String> {
    let (ok, lines) = run_echoing(cargo().args(["test", "--workspace", "--release"]))?;
    let (passed, failed) = counts(&lines, "test result:");
    tally.add(passed, failed);
    if !ok && failed == 0 {
        tally.step("cargo test (build)", false);
    }
    // The codec module's tests and docs (the rest ran above), and the tokio echo server
    // example's test.
    for target in [
        &["--lib", "codec"][..],
        &["--doc", "codec"],
        &["--example", "echo_server"],
    ] {
        let (ok, lines) = run_echoing(cargo().arg("test").args(TOKIO).args(target))?;
        let (passed, failed) = counts(&lines, "test result:");
        tally.add(passed, failed);
        if !ok && failed == 0 {
            tally.step("cargo test --features tokio (build)", false);
        }
    }
    Ok(())
}

/// The crate with its tokio codec, behind its feature (for its tests and its lints).
const TOKIO: [&str; 5] = [
    "-p",
    "godot-variant-codec",
    "--release",
    "--features",
    "tokio",
];

/// Clippy (with and without the tokio feature) and rustfmt, each one step.
fn cargo_lints(tally: &mut Tally) -> Result<(), String> {
    let (clippy_ok, _) = run_echoing(
        cargo()
            .args(["clippy", "--all-targets", "--quiet"])
            .args(TOKIO)
            .args(["--", "-D", "warnings"]),
    )?;
    tally.step("cargo clippy --features tokio -D warnings", clippy_ok);

    let (fmt_ok, _) = run_echoing(cargo().args(["fmt", "--all", "--", "--check"]))?;
    tally.step("cargo fmt --check", fmt_ok);
    let (clippy_ok, _) = run_echoing(cargo().args([
        "clippy",
        "--workspace",
        "--release",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    tally.step("cargo clippy -D warnings", clippy_ok);
    Ok(())
}

/// The committed data the engines make: the golden vectors (regenerated and compared),
/// the Godot 3 corpora and the conformance suite.
fn committed_data(dir: &Path, tally: &mut Tally) {
    let regenerated = dir.join("target/golden-regenerated.json");
    let committed = dir.join("tests/golden/godot4.json");
    let drift_ok = regenerate_golden(&regenerated).is_ok() && {
        let same = std::fs::read(&regenerated).ok() == std::fs::read(&committed).ok();
        if !same {
            eprintln!(
                "golden vectors drifted: {} differs from the committed {}",
                regenerated.display(),
                committed.display()
            );
        }
        same
    };
    tally.step("golden vectors match the live engine", drift_ok);
    let godot3_ok = godot3::up_to_date(dir).unwrap_or_else(|e| {
        eprintln!("Godot 3 corpora: {e}");
        false
    });
    tally.step(
        "Godot 3 corpora match the live Godot 3.6.2 and 3.2.3 engines (and the fixtures)",
        godot3_ok,
    );
    let suite_ok = conformance::up_to_date(dir).unwrap_or_else(|e| {
        eprintln!("conformance: {e}");
        false
    });
    tally.step(
        "the conformance suite is the golden vectors' (up to date)",
        suite_ok,
    );
}

/// The Rust side against the live engine: the end-to-end server and client, and the CLI's
/// text against var_to_str's.
fn against_live_engine(dir: &Path, godot: &Path, tally: &mut Tally) {
    let e2e_ok = e2e::run(dir, godot, cargo()).unwrap_or_else(|e| {
        eprintln!("e2e: {e}");
        false
    });
    tally.step(
        "end-to-end: Rust server and Godot client, 1000 messages each way over TCP and UDP",
        e2e_ok,
    );
    let text_ok = text_corpus::run(dir, godot, cargo()).unwrap_or_else(|e| {
        eprintln!("text corpus: {e}");
        false
    });
    tally.step(
        "godot-variant inspect prints var_to_str's text for the engine's store_var file",
        text_ok,
    );
}

/// The addon's build, then the parity suite in every setting (one failure if the build
/// fails).
fn godot_suites(godot: &Path, tally: &mut Tally) -> Result<(), String> {
    match build_addon() {
        Ok(()) => suites::every_setting(godot, tally)?,
        Err(e) => {
            eprintln!("{e}");
            tally.step("build the addon", false);
        }
    }
    Ok(())
}

/// The lines CI reads: each setting's, `history: …`, `fallback: …`, `asan: …`, `double
/// precision: …`, then the total.
fn report(tally: &Tally) -> Result<(), String> {
    if !tally.settings.is_empty() {
        println!("\nGodot parity suite, by setting:");
        for line in &tally.settings {
            println!("{line}");
        }
        let (agreed, disagreed) = tally.history;
        println!("history: {agreed} passed, {disagreed} failed");
        let (passed, failed) = tally.fallback;
        println!("fallback: {passed} passed, {failed} failed");
        match &tally.asan {
            Ok((passed, failed)) => println!("asan: {passed} passed, {failed} failed"),
            Err(why) => println!("asan: skipped ({why})"),
        }
        match &tally.double {
            Ok((passed, failed)) => println!("double precision: {passed} passed, {failed} failed"),
            Err(why) => println!("double precision: skipped ({why})"),
        }
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed == 0 {
        Ok(())
    } else {
        Err(format!("{} failed", tally.failed))
    }
}
